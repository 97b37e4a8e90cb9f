"""The canonical encoding, rule by rule, over bytes — the reference's own vectors included."""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyper.store.canonical import (
    Always,
    Secret,
    Value,
    encode,
    encode_exactly,
    identity_digest,
    instant_text,
    parse,
    parse_instant,
)

from .support import near_shape


def test_the_published_identity_digest_is_order_free() -> None:
    digest = identity_digest(["ci-x86", "über-vm", "ci-macos", "ci-riscv"])
    assert digest == "sha256:a118a517431e241eac83559919ae969346bf5a3bf6e06c6db3e636f378fcdf12"


def test_the_empty_set_has_its_published_digest() -> None:
    assert identity_digest([]) == "sha256:37517e5f3dc66819f61f5a7bb8ace1921282415f10551d2defa5c3eb0985b570"


def test_a_repeated_name_is_one_name() -> None:
    assert identity_digest(["a", "b", "a"]) == identity_digest(["b", "a"])


def test_the_array_the_digest_is_taken_over() -> None:
    assert encode(["ci-macos", "ci-riscv", "ci-x86", "über-vm"]) == (
        '[\n  "ci-macos",\n  "ci-riscv",\n  "ci-x86",\n  "über-vm"\n]\n'.encode()
    )


def test_the_fixture_digest_reproduces() -> None:
    assert identity_digest(["cert.hyper.dev", "status.hyper.dev"]) == (
        "sha256:505b5170ab615a66b628c8324091f6ffbdf38a4ad2d0e42ea2531c5ceb6cf012"
    )


def test_keys_sort_by_code_point_and_nest_two_spaces() -> None:
    got = encode({"zebra": "last", "Zebra": "first", "apple": {"inner": ["one", "two"]}})
    assert got == (
        b'{\n  "Zebra": "first",\n  "apple": {\n    "inner": [\n      "one",\n      "two"\n    ]\n  },\n'
        b'  "zebra": "last"\n}\n'
    )


@pytest.mark.parametrize(
    ("value", "want"),
    [({}, b"{}\n"), ([], b"[]\n"), ([{}, []], b"[\n  {},\n  []\n]\n")],
)
def test_empty_containers_are_inline(value: Value, want: bytes) -> None:
    assert encode(value) == want


def test_a_key_whose_value_would_be_empty_is_absent() -> None:
    got = encode(
        {
            "fields": {},
            "members": [],
            "name": "preview-42.example.com",
            "nested": {"gone": []},
            "populated": ["here"],
        }
    )
    assert got == b'{\n  "name": "preview-42.example.com",\n  "populated": [\n    "here"\n  ]\n}\n'


def test_an_always_key_is_written_empty() -> None:
    got = encode(
        {
            "dry_run": Always(False),
            "expanded_to": Always([]),
            "members": Always([]),
            "skipped": {},
        }
    )
    assert got == b'{\n  "dry_run": false,\n  "expanded_to": [],\n  "members": []\n}\n'


def test_an_always_key_keeps_its_mapping_present() -> None:
    assert encode({"step": {"expanded_to": Always([])}}) == b'{\n  "step": {\n    "expanded_to": []\n  }\n}\n'


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ('he said "\\"', '"he said \\"\\\\\\""'),
        ("\b\f\n\r\t", '"\\b\\f\\n\\r\\t"'),
        ("\x00\x1f", '"\\u0000\\u001f"'),
        ("a/b", '"a/b"'),
        ("a\u2028b", '"a\u2028b"'),
        ("über-vm", '"über-vm"'),
        ("ci-🚀", '"ci-🚀"'),
        ("\x1a\x1b\x1c\x1d\x1e\x1f", '"\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"'),
        ("\x7f", '"\x7f"'),
    ],
)
def test_escaping_is_the_minimum_json_needs(text: str, want: str) -> None:
    assert encode(text) == (want + "\n").encode()
    assert encode_exactly(text) == (want + "\n").encode()


def test_a_key_is_escaped_like_a_value() -> None:
    assert encode({'a"b': "v"}) == b'{\n  "a\\"b": "v"\n}\n'


@pytest.mark.parametrize(
    ("literal", "want"),
    [
        ("0", "0"),
        ("-0", "0"),
        ("-0.0", "0"),
        ("0.0", "0"),
        ("-42", "-42"),
        ("1000000", "1000000"),
        ("1.0", "1"),
        ("1.0e3", "1000"),
        ("1e20", "100000000000000000000"),
        ("1E5", "100000"),
        ("9007199254740993", "9007199254740993"),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("1.5", "1.5"),
        ("0.1", "0.1"),
        ("123.456", "123.456"),
        ("-2.25", "-2.25"),
        ("0.000001", "0.000001"),
        ("1e-7", "1e-7"),
        ("1e21", "1e+21"),
        ("1.5e300", "1.5e+300"),
    ],
)
def test_numbers_are_exact_integers_or_ecmascript_text(literal: str, want: str) -> None:
    value = parse(literal.encode())
    assert encode(value) == (want + "\n").encode()
    again = parse(encode(value))
    assert encode(again) == encode(value)


@pytest.mark.parametrize(
    "literal",
    [
        "",
        " ",
        "01",
        "1.",
        ".5",
        "+1",
        "1e",
        "0x10",
        "Infinity",
        "-Infinity",
        "NaN",
        "1e400",
        "--1",
        "1 2",
        "null",
        '{"a": null}',
        '"\\ud800"',
        '["\\udfff"]',
        '{"\\ud800": 1}',
        "\ufeff{}",
    ],
)
def test_what_is_not_a_store_value_is_refused(literal: str) -> None:
    with pytest.raises(ValueError):
        parse(literal.encode())


def test_a_file_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(ValueError):
        parse(b'"\xff"')


def test_an_escaped_surrogate_pair_is_one_character() -> None:
    assert parse(b'"\\ud83d\\ude00"') == "\U0001f600"


def test_integers_are_written_from_their_digits() -> None:
    assert encode({"schema_version": 1, "step": -3}) == b'{\n  "schema_version": 1,\n  "step": -3\n}\n'


@pytest.mark.parametrize(
    ("instant", "want"),
    [
        (_dt.datetime(2026, 8, 6, 9, 41, 14, tzinfo=_dt.UTC), "2026-08-06T09:41:14.000Z"),
        (_dt.datetime(2026, 8, 6, 9, 41, 14, 221000, tzinfo=_dt.UTC), "2026-08-06T09:41:14.221Z"),
        (_dt.datetime(2026, 8, 6, 9, 41, 14, 221987, tzinfo=_dt.UTC), "2026-08-06T09:41:14.221Z"),
        (
            _dt.datetime(2026, 8, 6, 11, 41, 14, 221000, tzinfo=_dt.timezone(_dt.timedelta(hours=2))),
            "2026-08-06T09:41:14.221Z",
        ),
    ],
)
def test_timestamps_are_utc_with_three_millisecond_digits(instant: _dt.datetime, want: str) -> None:
    assert instant_text(instant) == want
    assert encode(instant) == f'"{want}"\n'.encode()
    assert parse_instant(want) == instant.replace(microsecond=instant.microsecond // 1000 * 1000)


def test_text_order_over_timestamps_is_chronological() -> None:
    earlier = instant_text(_dt.datetime(2026, 8, 6, 9, 41, 14, 9000, tzinfo=_dt.UTC))
    later = instant_text(_dt.datetime(2026, 8, 6, 9, 41, 14, 90000, tzinfo=_dt.UTC))
    assert earlier < later


def test_a_secret_is_the_constant_marker_whatever_it_held() -> None:
    got = encode({"fields": {"api_token": Secret(), "name": "preview-42.example.com"}})
    assert got == b'{\n  "fields": {\n    "api_token": "<secret>",\n    "name": "preview-42.example.com"\n  }\n}\n'


def test_a_value_alone_is_the_value_as_a_whole_file() -> None:
    value: Value = {
        "dry_run": Always(False),
        "members": ["ci-x86", {"nested": [2]}],
        "selector": {"predicates": [{"field": "state", "is": "live"}]},
        "written_at": _dt.datetime(2026, 4, 2, 8, 0, tzinfo=_dt.UTC),
    }
    alone = encode(value)
    held = encode({"held": value}).decode()
    body = held.removeprefix('{\n  "held": ').removesuffix("\n}\n")
    assert "\n".join(line.removeprefix("  ") for line in body.split("\n")) + "\n" == alone.decode()


_SCALARS = st.one_of(
    st.text(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(_VALUES)
def test_the_fast_writer_and_the_exact_writer_agree(value: Value) -> None:
    assert encode(value) == encode_exactly(value)


@given(_VALUES)
def test_every_encoding_parses_back_to_itself(value: Value) -> None:
    written = encode(value)
    assert encode(parse(written)) == written
    json.loads(written)


def test_the_digest_is_sha256_of_the_canonical_array() -> None:
    names = ["b", "a"]
    assert identity_digest(names) == "sha256:" + hashlib.sha256(b'[\n  "a",\n  "b"\n]\n').hexdigest()


def test_a_writer_expecting_many_values_fetches_orjson_before_the_first() -> None:
    """A Run of hundreds of Steps says so before Step 1, and every one of its files is written
    at orjson's speed; a short one leaves orjson unimported (the bytes are the same)."""
    child = (
        "import sys\n"
        "from hyper.store import canonical\n"
        "canonical.expect(10)\n"
        "short = 'orjson' in sys.modules\n"
        "canonical.expect(256)\n"
        "print(short, 'orjson' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


_INSTANT_PATTERN = re.compile(r"\A(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z\Z")


def _by_pattern(text: str) -> _dt.datetime | str:
    found = _INSTANT_PATTERN.match(text)
    if found is None:
        return "refused"
    year, month, day, hour, minute, second, millis = (int(part) for part in found.groups())
    try:
        return _dt.datetime(year, month, day, hour, minute, second, millis * 1000, tzinfo=_dt.UTC)
    except ValueError:
        return "refused"


@settings(max_examples=2000)
@given(near_shape("2026-08-06T09:41:14.221Z", "0123456789-T:.Z\u0663\uff11z\n"))
def test_an_instant_is_read_by_position_as_its_pattern_reads_it(text: str) -> None:
    try:
        read: _dt.datetime | str = parse_instant(text)
    except ValueError:
        read = "refused"
    assert read == _by_pattern(text)

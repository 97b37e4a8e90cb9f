"""The six path forms, the segment encoding and Run ids — every expected value a byte the
reference's grammar writes down."""

from __future__ import annotations

import datetime as _dt
import re
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyper.core.faults import PathError
from hyper.core.ids import is_run_id, mint_v7, parse_run_id
from hyper.store.paths import (
    INTRODUCTION_PATH,
    Identity,
    JournalEntry,
    StorePath,
    _is_day,
    decode_segment,
    encode_segment,
    is_partition,
    parse_path,
    record_path,
)
from tests.depth import examples

from .support import RUN_ID, near_shape

INSTANT = _dt.datetime(2026, 4, 2, 8, 0, tzinfo=_dt.UTC)
CLOSER = "01984f2b-1d7a-7c31-8d41-6b2f7ae05c19"


def test_a_lowercase_hyphenated_uuidv7_is_a_run_id() -> None:
    assert parse_run_id(RUN_ID) == RUN_ID


@pytest.mark.parametrize(
    "text",
    [
        "f47ac10b-58cc-4372-a567-0e02b2c3d479",
        RUN_ID.upper(),
        RUN_ID.replace("-", ""),
        "01984f1a-3c9f-7b04-1c2e-4f0b8d61a3e7",
        RUN_ID[:-1],
        "the-last-run",
        "",
    ],
)
def test_what_is_not_a_run_id_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_run_id(text)


def test_minted_ids_are_accepted_ordered_and_distinct() -> None:
    first = mint_v7(INSTANT)
    assert parse_run_id(first) == first
    assert first < mint_v7(INSTANT + _dt.timedelta(milliseconds=1))
    assert first != mint_v7(INSTANT)


def test_the_id_carries_the_millisecond_it_was_minted_at() -> None:
    at = _dt.datetime(2026, 8, 6, 9, 41, 12, 508000, tzinfo=_dt.UTC)
    millis = int(mint_v7(at).replace("-", "")[:12], 16)
    assert millis == 1786009272508


def test_a_record_path_is_the_grammars_form() -> None:
    got = record_path(Identity("local", "uptime", "status.hyper.dev"), RUN_ID, 1)
    assert got == f"records/local/uptime/status.hyper.dev/{RUN_ID}-0001.json"


def test_all_three_identity_segments_are_encoded() -> None:
    got = record_path(Identity("prod/eu", "vm inventory", "Über-vm"), RUN_ID, 1)
    assert got == f"records/prod%2Feu/vm%20inventory/%C3%9Cber-vm/{RUN_ID}-0001.json"


@pytest.mark.parametrize(
    ("name", "want"),
    [
        ("AZaz09-_.", "AZaz09-_."),
        ("vms/web-01", "vms%2Fweb-01"),
        ("web 01:443", "web%2001%3A443"),
        ("web~01", "web%7E01"),
        ("100%", "100%25"),
        (".hidden", "%2Ehidden"),
        (".", "%2E"),
        ("..", "%2E."),
        ("status.hyper.dev", "status.hyper.dev"),
        ("Foo", "Foo"),
        ("Über-vm", "%C3%9Cber-vm"),
        ("a" * 200, "a" * 200),
        ("a" * 201, "a" * 200 + "~a92efd82109373e5"),
        ("a" * 197 + "üü", "a" * 197 + "%C3~4dc838f990f63735"),
        ("a" * 198 + "ü", "a" * 198 + "~4e3f7d9a34823376"),
        ("a" * 199 + "ü", "a" * 199 + "~4c96fd813464e6ac"),
        ("a" * 200 + "b", "a" * 200 + "~830c8d218c20d177"),
        ("a" * 200 + "c", "a" * 200 + "~bd99f8b68b44f2b7"),
    ],
)
def test_segment_encoding(name: str, want: str) -> None:
    assert encode_segment(name) == want
    parse_path(record_path(Identity("local", "uptime", name), RUN_ID, 1))


@pytest.mark.parametrize(
    ("step", "want"), [(1, "0001"), (42, "0042"), (9999, "9999"), (10000, "10000"), (123456, "123456")]
)
def test_step_numbers_widen_rather_than_wrap(step: int, want: str) -> None:
    assert record_path(Identity("local", "uptime", "a"), RUN_ID, step).endswith(f"-{want}.json")


@pytest.mark.parametrize(
    "build",
    [
        lambda: record_path(Identity("local", "uptime", "a"), RUN_ID, 0),
        lambda: JournalEntry(RUN_ID, INSTANT).step_path(0),
        lambda: record_path(Identity("local", "uptime", ""), RUN_ID, 1),
        lambda: record_path(Identity("", "uptime", "a"), RUN_ID, 1),
        lambda: JournalEntry(RUN_ID, INSTANT).closed_by_path(RUN_ID),
    ],
)
def test_what_no_path_can_be_built_from_is_refused(build: object) -> None:
    with pytest.raises(ValueError):
        build()  # type: ignore[operator]


def test_the_four_journal_forms() -> None:
    entry = JournalEntry(RUN_ID, INSTANT)
    base = f"journal/2026/04/02/{RUN_ID}"
    assert entry.run_path == base + "/run.json"
    assert entry.step_path(7) == base + "/steps/0007.json"
    assert entry.outcome_path == base + "/outcome.json"
    assert entry.closed_by_path(CLOSER) == f"{base}/closed-by/{CLOSER}.json"


def test_the_partition_is_the_utc_date_of_the_start() -> None:
    local = _dt.datetime(2026, 4, 2, 2, 0, tzinfo=_dt.timezone(_dt.timedelta(hours=5)))
    assert JournalEntry(RUN_ID, local).run_path == f"journal/2026/04/01/{RUN_ID}/run.json"


def test_every_form_parses_back_to_its_shape() -> None:
    entry = JournalEntry(RUN_ID, INSTANT)
    partition, dir_ = "journal/2026/04/02", f"journal/2026/04/02/{RUN_ID}"
    record = record_path(Identity("prod", "vm-inventory", "ü" * 300), RUN_ID, 12)
    assert parse_path(INTRODUCTION_PATH) == StorePath("introduction")
    assert parse_path(record) == StorePath("record", RUN_ID, step=12)
    assert parse_path(entry.run_path) == StorePath("run", RUN_ID, RUN_ID, 0, partition, dir_)
    assert parse_path(entry.step_path(9999)) == StorePath("step", RUN_ID, RUN_ID, 9999, partition, dir_)
    assert parse_path(entry.outcome_path) == StorePath("outcome", RUN_ID, RUN_ID, 0, partition, dir_)
    assert parse_path(entry.closed_by_path(CLOSER)) == StorePath("closed-by", CLOSER, RUN_ID, 0, partition, dir_)


@pytest.mark.parametrize(
    "path",
    [
        "",
        f"notes/2026/04/02/{RUN_ID}/run.json",
        "STORE.md/more",
        f"records/local/uptime/{RUN_ID}-0001.json",
        f"records/local/uptime/a/{RUN_ID}.json",
        f"records/local/uptime/a/{RUN_ID}-0001",
        "records/local/uptime/a/f47ac10b-58cc-4372-a567-0e02b2c3d479-0001.json",
        f"journal/2026/04/02/{RUN_ID}/steps/0000.json",
        f"journal/2026/04/02/{RUN_ID}/steps/001.json",
        f"journal/2026/04/02/{RUN_ID}/steps/01000.json",
        f"journal/2026/02/31/{RUN_ID}/run.json",
        f"journal/2026/4/2/{RUN_ID}/run.json",
        f"journal/2026/04/02/{RUN_ID}/started.json",
        f"journal/2026/04/02/{RUN_ID}/closed-by/the-other-run.json",
        f"journal/2026/04/02/{RUN_ID}/closed-by/{RUN_ID}.json",
        f"records/local/uptime/web 01/{RUN_ID}-0001.json",
        f"records/local/uptime/%c3%9cber/{RUN_ID}-0001.json",
        f"records/local/uptime/%C3%9/{RUN_ID}-0001.json",
        f"records/local/uptime/../{RUN_ID}-0001.json",
        f"records/local//a/{RUN_ID}-0001.json",
        f"records/local/uptime/{'a' * 201}/{RUN_ID}-0001.json",
        f"records/local/uptime/{'a' * 100}~a92efd82109373e5/{RUN_ID}-0001.json",
        f"records/local/uptime/{'a' * 200}~A92EFD82109373E5/{RUN_ID}-0001.json",
        "/STORE.md",
        f"journal/2026/04/02/{RUN_ID}/",
        f"journal/2026/04/02/{RUN_ID}",
    ],
)
def test_a_path_outside_the_six_forms_is_refused(path: str) -> None:
    with pytest.raises(PathError):
        parse_path(path)


def test_the_encoding_orders_nothing() -> None:
    uber = record_path(Identity("local", "vms", "Über-vm"), RUN_ID, 1)
    zone = record_path(Identity("local", "vms", "zone-a"), RUN_ID, 1)
    assert "Über-vm" > "zone-a" and uber < zone


@settings(max_examples=examples(500))
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_a_segment_reads_back_to_its_component(component: str) -> None:
    encoded = encode_segment(component)
    if "~" not in encoded:  # a cut segment's identity is read inside the file
        assert decode_segment(encoded) == component


@settings(max_examples=examples(1000))
@given(st.text(alphabet=st.sampled_from([*"%%%0123456789abcdefABCDEFgz.~ ", "é", "😀", "\x7f"]), max_size=24))
def test_any_segment_reads_as_urllib_reads_it(segment: str) -> None:
    """A branch may hold a path no hyper wrote: a stray ``%``, lowercase hex, escapes that are
    no UTF-8. The Run's ledger read segments with ``urllib.parse.unquote`` before, and reads
    them the same now."""
    assert decode_segment(segment) == urllib.parse.unquote(segment)


_RUN_ID_PATTERN = re.compile(r"\A[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\Z")
_DAY_PATTERN = re.compile(r"\A\d{4}/\d{2}/\d{2}\Z")


@settings(max_examples=2000)
@given(near_shape("01984f1a-3c9f-7b04-9c2e-4f0b8d61a3e7", "0123456789abcdefABCDEF-7g\n"))
def test_a_run_id_is_read_by_position_as_its_pattern_reads_it(text: str) -> None:
    assert is_run_id(text) == (_RUN_ID_PATTERN.match(text) is not None)


@settings(max_examples=2000)
@given(near_shape("2026/08/06", "0123456789/-\u0663\uff11\n"))
def test_a_partition_is_read_by_position_as_its_pattern_reads_it(text: str) -> None:
    assert is_partition(text) == (_DAY_PATTERN.match(text) is not None and _is_day(text))

"""JSON read and written to Go's depth without Python recursion, and refused past it with a sentence
(ADR 0012, ADR 0030)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyper.core.deepjson import GO_DEPTH, _loop, compact, dumps, loads, quote, rebuild
from hyper.core.faults import TooDeep
from hyper.store import canonical
from hyper.store.canonical import Always, Secret, encode, encode_exactly, parse
from tests.depth import examples

SAMPLES = (
    '{"a": [1, 2.5, -3e2, "x\\u00e9\\n", true, false, null, {}, []], "b": {"c": "d"}, "b": 2}',
    "[]",
    '"s"',
    "12",
    "-0.0",
    ' [ 1 , { "k" : [ ] } ] ',
)


def _refuse(name: str) -> Any:
    raise ValueError(name)


@pytest.mark.parametrize("text", SAMPLES)
def test_the_loop_reads_what_the_standard_library_reads(text: str) -> None:
    assert _loop(text, _refuse, 100) == json.loads(text)


@pytest.mark.parametrize("text", ["[1,]", '{"a" 1}', "[1 2]", "[", '{"a":1', "nul", "[1]x", "", "NaN", "[01]"])
def test_the_loop_refuses_what_the_standard_library_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        _loop(text, _refuse, 100)


def test_ten_thousand_levels_read_and_one_more_is_refused() -> None:
    deepest = "[" * GO_DEPTH + "]" * GO_DEPTH
    value = loads(deepest, _refuse)
    for _ in range(GO_DEPTH - 1):
        value = value[0]
    assert value == []
    with pytest.raises(TooDeep, match="more than 10000 levels deep"):
        loads("[" * (GO_DEPTH + 1) + "]" * (GO_DEPTH + 1), _refuse)
    with pytest.raises(ValueError, match="more than 10000 levels deep"):
        parse(('{"a":' * (GO_DEPTH + 1) + "1" + "}" * (GO_DEPTH + 1)).encode())


def test_the_writers_write_ten_thousand_levels_without_a_frame_a_level() -> None:
    """Compared as text: Python's own ``==`` recurses a level a frame."""
    text = "[" * GO_DEPTH + "]" * GO_DEPTH
    assert dumps(loads(text), repr) == text
    assert compact(loads(text)) == text.encode()
    assert compact(rebuild(loads(text), sort_keys=True)) == text.encode()
    with pytest.raises(TooDeep, match="more than 10000 levels deep"):
        encode(loads("[" + text + "]"))


def test_a_canonical_file_two_thousand_deep_reads_back_as_it_was_written() -> None:
    """Two thousand, not ten: the canonical file's indentation grows as the square of its depth."""
    value: Any = "leaf"
    for level in range(2_000):
        value = {"a": value, "n": level} if level % 2 else [value, 1.5]
    written = encode(value)
    assert written == encode_exactly(value)
    assert compact(parse(written)) == compact(value)
    assert encode(parse(written)) == written


LOWERED = (
    {"a": [], "b": {}, "c": Always({}), "d": Always([]), "e": {"f": {"g": []}}, "h": [[], {}, Secret()]},
    [{"x": {"y": {}}}, 2**70, 1.5, "s", True],
    Always({"k": {"j": []}}),
)


@pytest.mark.parametrize("value", LOWERED)
def test_the_two_lowerings_agree(value: Any) -> None:
    """The absence rule, the markers and the number check are one rule however deep the value."""
    assert canonical._lower_deep(value) == canonical._lower_nested(value)


@settings(max_examples=examples(2000))
@given(st.text(alphabet=st.sampled_from([*'ab "\\/\x00\x01\x1f\x7f\b\f\n\r\t', "é", "\u2028", "😀", "\ud800"])))
def test_a_string_is_quoted_as_the_standard_library_quotes_it(text: str) -> None:
    """Printable ASCII without a quote or a backslash is written as it stands, and every other
    string through the pattern: both as ``json.dumps`` writes it, non-ASCII left as itself."""
    assert quote(text) == json.dumps(text, ensure_ascii=False)

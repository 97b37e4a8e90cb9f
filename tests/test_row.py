"""A row's bytes are orjson's, whichever writer spells them (ADR 0006).

A short answer is spelled by :mod:`hyper.core.row` itself, so that it need not import
orjson; these hold that writer to orjson's own bytes over every kind of value it takes,
and hold it to leaving every other value to :func:`hyper.core.deepjson.compact`.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyper.core import row
from hyper.core.deepjson import compact
from tests.depth import examples

_TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["", '"', "\\", "\x00\x1f\x7f", "\b\f\n\r\t", "\u2028\ufeff", "é/<>&", "sha256:" + "0" * 64]
)
_SCALARS = _TEXT | st.booleans() | st.none() | st.integers(-(2**63), 2**64 - 1) | st.sampled_from([-(2**63), 2**64 - 1])
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple) | st.dictionaries(_TEXT, inner, max_size=4)
    ),
    max_leaves=24,
)


@settings(max_examples=examples(800), deadline=None)
@given(_VALUES)
def test_a_spelled_value_is_orjsons_bytes(value: Any) -> None:
    spelled = row._written(value, row._DEEPEST)
    assert spelled is not None
    assert spelled.encode() == orjson.dumps(value) == compact(value)


@pytest.mark.parametrize(
    "value",
    [1.5, {"a": 0.1}, [float("nan")], {1: "a"}, ("x", b"y"), {"c": frozenset()}, [2**64], (-(2**63) - 1,)],
)
def test_a_value_of_another_kind_is_left_to_compact(value: Any) -> None:
    assert row._written(value, row._DEEPEST) is None


def test_a_value_deeper_than_a_row_nests_is_left_to_compact() -> None:
    deep: Any = "x"
    for _ in range(row._DEEPEST + 1):
        deep = [deep]
    assert row._written(deep, row._DEEPEST) is None
    assert row.encode_value(deep) == orjson.dumps(deep)


def test_past_the_threshold_every_value_is_compacts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row, "_spelled", row._WRITTEN_BEFORE_ORJSON)
    monkeypatch.setattr(row, "_written", lambda value, room: pytest.fail("spelled past the threshold"))
    assert row.encode_value({"type": "provider", "name": "shell"}) == b'{"type":"provider","name":"shell"}'

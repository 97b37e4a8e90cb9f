"""Rows: the values every answer is made of, and their one encoding.

A row is built once and encoded once. The ``--json`` stream, the MCP envelope and
the page are three readings of the same row list, so the encoding lives here and
nowhere else: ``type`` first, the members in the order the row type declares them,
absent members omitted, no HTML escaping, non-ASCII written raw (orjson's defaults).
orjson is imported only once an answer is long, because a page never needs it and a few
rows are spelled for less than importing it costs.
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, TypeAlias

Value: TypeAlias = "Any"
"""A JSON value: str, int, bool, lists and ordered dicts of those."""


def members(**declared: Value) -> dict[str, Value]:
    """An ordered object with its absent (``None``) members left out.

    Keyword order is declaration order, which is the wire order; a member that is
    ``None`` is absent rather than ``null`` because the absence rule says a reader
    never meets a placeholder.
    """
    return {key: value for key, value in declared.items() if value is not None}


class Row(NamedTuple):
    """One row: its discriminator and its members in wire order."""

    type: str
    fields: Mapping[str, Value]

    def get(self, key: str, default: Value = None) -> Value:
        return self.fields.get(key, default)

    def encode(self) -> bytes:
        return encode_value({"type": self.type, **self.fields})


def row(type_: str, **declared: Value) -> Row:
    """A row whose ``None`` members are absent."""
    return Row(type_, members(**declared))


_WRITTEN_BEFORE_ORJSON = 1024
"""How many values :func:`_written` spells before orjson serves them all. The compact writer's
imports (``json``, every fault, orjson) cost about 99M instructions and a six-member row
spelled here about 43k, so an answer of up to a thousand rows is cheaper spelled, and a
longer one, or a long-lived process, pays the import once and then writes at orjson's
speed (ADR 0006)."""

_spelled = 0

_ESCAPED: dict[int, str] = {}
"""The characters JSON text must escape, as orjson writes them; filled on the first string."""


def encode_value(value: Value) -> bytes:
    """The one compact encoding (:func:`hyper.core.deepjson.compact`), however deep the value.

    The first values are spelled here, byte for byte as orjson writes them (a property test
    holds the two together); a value holding anything but strings, 64-bit integers, booleans,
    ``None``, lists, tuples and mappings keyed by strings, or nested deeper than a row nests,
    goes to :func:`~hyper.core.deepjson.compact` as every value after them does."""
    global _spelled
    if _spelled < _WRITTEN_BEFORE_ORJSON:
        written = _written(value, _DEEPEST)
        if written is not None:
            _spelled += 1
            return written.encode()
    from hyper.core.deepjson import compact  # deferred: start-up cost (json, then orjson)

    return compact(value)


_DEEPEST = 32
"""How deep :func:`_written` follows lists and mappings; a deeper value is compact's."""


def _written(value: Value, room: int) -> str | None:
    """``value`` as compact JSON text, or ``None`` where it is not plainly one of the kinds above."""
    kind = type(value)
    if kind is str:
        return _string(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return repr(value) if -(2**63) <= value < 2**64 else None  # orjson's range
    if value is None:
        return "null"
    if not room:
        return None
    parts: list[str] = []
    if kind is dict:
        for key, item in value.items():
            spelled = _written(item, room - 1)
            if type(key) is not str or spelled is None:
                return None
            parts.append(_string(key) + ":" + spelled)
        return "{" + ",".join(parts) + "}"
    if kind is list or kind is tuple:
        for item in value:
            spelled = _written(item, room - 1)
            if spelled is None:
                return None
            parts.append(spelled)
        return "[" + ",".join(parts) + "]"
    return None


def _string(text: str) -> str:
    if text.isprintable() and '"' not in text and "\\" not in text:
        return '"' + text + '"'  # nothing to escape: a printable character is never a control
    if not _ESCAPED:
        _ESCAPED.update({code: f"\\u{code:04x}" for code in range(32)})
        _ESCAPED.update({8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\"})
    return '"' + text.translate(_ESCAPED) + '"'

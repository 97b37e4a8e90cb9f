"""Rows: the values every answer is made of, and their one encoding.

A row is built once and encoded once. The ``--json`` stream, the MCP envelope and
the page are three readings of the same row list, so the encoding lives here and
nowhere else: ``type`` first, the members in the order the row type declares them,
absent members omitted, no HTML escaping, non-ASCII written raw (orjson's defaults).
orjson is imported on first encode, because a page never needs it.
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, TypeAlias

Value: TypeAlias = 'Any'
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


def encode_value(value: Value) -> bytes:
    """The one compact encoding (:func:`hyper.core.deepjson.compact`), however deep the value."""
    from hyper.core.deepjson import compact  # deferred: start-up cost (json, then orjson)

    return compact(value)

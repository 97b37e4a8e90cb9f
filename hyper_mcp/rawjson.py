"""JSON read without forgetting how it was spelled, and written the way the wire spells it.

Three needs meet here and none of them is met by a plain ``json.loads``:

* a Probe input that arrives as ``1.0`` must reach the command as ``1.0``, not ``1``
  and not ``1.0000000000000002`` — the command, not this surface, decides what the
  digits mean at an ``integer`` position. So numbers are kept as the text written.
* a client reading an answer must get each row as the bytes the server wrote, with
  the keys in the server's order, so rows are located in a frame by their span rather
  than decoded and re-encoded.
* the wire is byte-compatible with the reference server, whose encoder escapes
  ``<``, ``>``, ``&``, U+2028 and U+2029 inside every string it writes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Final, TypeAlias

import attrs
import orjson


@attrs.frozen
class Number:
    """A JSON number as the text the sender wrote."""

    text: str


@attrs.frozen
class Members:
    """A JSON object as its members arrived: in order, duplicates included.

    Duplicates are kept because the reading that resolves them (the last one wins) is
    the decoder's decision, made where the object is read member by member.
    """

    pairs: tuple[tuple[str, Value], ...]

    def last(self) -> dict[str, Value]:
        """The object as a mapping, a repeated key taking its last value."""
        return dict(self.pairs)


Value: TypeAlias = bool | str | Number | list["Value"] | Members | None
"""A JSON value with its numbers' spelling kept."""


class SyntaxFault(ValueError):
    """Text that is not one JSON value."""


_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _reject_constant(name: str) -> Value:
    raise SyntaxFault(f"{name} is not a JSON value")


def _string(text: str) -> str:
    # An escaped lone surrogate decodes to a code point no UTF-8 encoder will write;
    # the replacement character is what a strict decoder substitutes for it.
    return _LONE_SURROGATE.sub("\ufffd", text)


def _normalise(value: Value) -> Value:
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return [_normalise(item) for item in value]
    if isinstance(value, Members):
        return Members(tuple((_string(key), _normalise(item)) for key, item in value.pairs))
    return value


def parse(text: bytes | str) -> Value:
    """One JSON value, numbers kept as written; :class:`SyntaxFault` for anything else."""
    try:
        parsed: Value = json.loads(
            text,
            object_pairs_hook=lambda pairs: Members(tuple(pairs)),
            parse_int=Number,
            parse_float=Number,
            parse_constant=_reject_constant,
        )
    except SyntaxFault:
        raise
    except (ValueError, RecursionError) as fault:
        raise SyntaxFault(str(fault)) from None
    return _normalise(parsed)


def of_python(value: object) -> Value:
    """A value some other decoder already read, in this module's shape.

    The spelling of a number is gone by then, so it is written the way Python's
    encoder writes it; this is the fallback for arguments that never passed through
    :func:`parse`.
    """
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        return Number(json.dumps(value))
    if isinstance(value, list | tuple):
        return [of_python(item) for item in value]
    if isinstance(value, dict):
        return Members(tuple((str(key), of_python(item)) for key, item in value.items()))
    raise SyntaxFault(f"{type(value).__name__} is not a JSON value")


def spelled(value: Value) -> str:
    """A value written back as compact JSON, numbers in the spelling they arrived in."""
    if isinstance(value, Number):
        return value.text
    if isinstance(value, Members):
        inner = ",".join(f"{json.dumps(key, ensure_ascii=False)}:{spelled(item)}" for key, item in value.pairs)
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ",".join(spelled(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


# --- spans: where a value sits in a text, so it can be taken out byte for byte ---

_DECODER: Final = json.JSONDecoder()
_SPACE: Final = " \t\n\r"


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def _expect(text: str, at: int, char: str) -> int:
    at = _skip(text, at)
    if at >= len(text) or text[at] != char:
        raise SyntaxFault(f"expected {char!r} at offset {at}")
    return at + 1


def _value_end(text: str, at: int) -> int:
    try:
        _, end = _DECODER.raw_decode(text, at)
    except (ValueError, RecursionError) as fault:
        raise SyntaxFault(str(fault)) from None
    return int(end)


def _members(text: str, at: int, opening: str, closing: str, member: Callable[[int], int]) -> None:
    """Walks the container opening at ``at``: ``member`` reads each member from its first
    character and answers where it ends; the commas and the closing bracket are walked here."""
    at = _skip(text, _expect(text, at, opening))
    if at < len(text) and text[at] == closing:
        return
    while True:
        at = _skip(text, member(_skip(text, at)))
        if at < len(text) and text[at] == ",":
            at += 1
            continue
        _expect(text, at, closing)
        return


def object_spans(text: str, at: int = 0) -> list[tuple[str, tuple[int, int]]]:
    """Each member of the object starting at ``at``: its key and its value's span."""
    found: list[tuple[str, tuple[int, int]]] = []

    def member(at: int) -> int:
        key_end = _value_end(text, at)
        key = json.loads(text[at:key_end])
        if not isinstance(key, str):
            raise SyntaxFault(f"an object key at offset {at} is not a string")
        start = _skip(text, _expect(text, key_end, ":"))
        end = _value_end(text, start)
        found.append((key, (start, end)))
        return end

    _members(text, at, "{", "}", member)
    return found


def array_spans(text: str, at: int = 0) -> list[tuple[int, int]]:
    """The span of each element of the array starting at ``at``."""
    found: list[tuple[int, int]] = []

    def element(start: int) -> int:
        end = _value_end(text, start)
        found.append((start, end))
        return end

    _members(text, at, "[", "]", element)
    return found


# --- the golden files' spelling ---

_SEPARATORS: Final = (
    ("\u2028".encode(), b"\\u2028"),
    ("\u2029".encode(), b"\\u2029"),
)


def golden_string(text: str) -> str:
    """A string as the golden files write it: compact JSON, HTML characters left raw.

    The reference's golden writer turns HTML escaping off but, like every encoder of
    its kind, still escapes the two line separators.
    """
    encoded = orjson.dumps(text)
    for raw, escaped in _SEPARATORS:
        encoded = encoded.replace(raw, escaped)
    return encoded.decode()

"""The Store's canonical JSON: one encoding for every file on the branch, and the digest over it.

A version is minted only where the bytes moved, an identity set is hashed over these bytes, and
a file name breaks a Head tie under them, so the encoding is a contract rather than a style: two
writers of one value must agree on every byte without agreeing on anything else.

A value is plain Python — ``dict`` (string keys), ``list``, ``str``, ``int``, ``float``,
``bool`` — plus three wrappers: :class:`Always` (kept where the absence rule would drop it),
:class:`Secret` (written as the constant marker) and an aware ``datetime`` (written as the
Store's one timestamp form). There is no ``None``: the Store holds no null.

The encoding of a value alone is the encoding it has as a whole file, which is what makes the
identity digest computable from a list of names.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import sys

from hyper.core.deepjson import GO_DEPTH, dumps, loads, quote
from hyper.core.namedtuple import NamedTuple
from hyper.core.readfaults import TooDeep

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, TypeAlias

SECRET_MARKER = "<secret>"
"""What stands where a Manifest-declared secret would have gone: a constant, so a rotated secret
writes identical bytes and mints nothing."""


class Always(NamedTuple):
    """A value written even where the absence rule would drop the key holding it.

    The exception belongs to the shape being written (``dry_run``, ``members``,
    ``expanded_to``), so the encoder carries the marker and never a list of key names.
    """

    value: Value


class Secret(NamedTuple):
    """A value that has already forgotten what it held: it can only be written as the marker."""


Value: TypeAlias = "dict[str, Value] | list[Value] | str | int | float | bool | Always | Secret | _dt.datetime"

_INT_LOW = -(2**63)
_INT_HIGH = 2**64 - 1


_FAST_AFTER = 256
"""How many values the exact writer encodes before orjson is fetched: importing orjson costs
about what the exact writer spends on a few hundred small files, so a review or a short read
never pays for it, and a long listing pays once and then writes at orjson's speed."""

_encoded = 0


def encode(value: Value) -> bytes:
    """The canonical bytes of a value, trailing LF included.

    Values made only of strings, booleans, mappings, lists and 64-bit integers may go through
    orjson, whose two-space sorted form is byte-identical to the canonical one there (the test
    suite holds the two writers against each other); anything holding a float or a wider
    integer takes the exact writer, which owns the number rules orjson does not share. Which
    writer serves a plain value is a matter of cost alone (:data:`_FAST_AFTER`).
    """
    global _encoded
    plain, exotic = _lower(value)
    if not exotic:
        orjson = sys.modules.get("orjson")
        if orjson is None and _encoded >= _FAST_AFTER:
            import orjson  # deferred: start-up cost
        if orjson is not None:
            try:
                return orjson.dumps(plain, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"  # type: ignore[no-any-return]
            except orjson.JSONEncodeError:
                pass  # deeper than orjson's 255 levels: the exact writer has no such bound
        _encoded += 1
    return _write(plain)


def expect(values: int) -> None:
    """A writer that knows it will encode at least ``values`` more values says so before the
    first: where that many reach :data:`_FAST_AFTER`, orjson is fetched now and serves them all,
    rather than after the exact writer has spent on the first 256 (about 0.5M instructions
    each for a Step file, against about 51M for the import). The bytes are the same either way."""
    if "orjson" not in sys.modules and _encoded + values >= _FAST_AFTER:
        import orjson  # noqa: F401  # deferred: start-up cost; encode finds it in sys.modules


def encode_exactly(value: Value) -> bytes:
    """The canonical bytes by the reference-shaped writer alone (the check on :func:`encode`)."""
    plain, _ = _lower(value)
    return _write(plain)


def identity_digest(names: list[str] | tuple[str, ...] | set[str] | frozenset[str]) -> str:
    """``sha256:`` over the canonical encoding of the sorted set, at no indent.

    A repeated name is one name: a set with two digests would mint a spurious version.
    """
    from hyper.core.digest import sha256  # deferred: a reader digests nothing

    ordered: list[Value] = list(sorted(set(names)))
    return sha256(encode(ordered))


def instant_text(instant: _dt.datetime) -> str:
    """RFC 3339, UTC, ``Z``, milliseconds cut (never rounded) to three digits.

    The fixed width is what makes text order chronological order, which the Head rests on.
    """
    if instant.tzinfo is None:
        raise ValueError("an instant written to the Store carries its zone")
    at = instant.astimezone(_dt.UTC)
    return (
        f"{at.year:04d}-{at.month:02d}-{at.day:02d}T{at.hour:02d}:{at.minute:02d}:{at.second:02d}"
        f".{at.microsecond // 1000:03d}Z"
    )


def instant_seconds_text(instant: _dt.datetime) -> str:
    """RFC 3339, UTC, ``Z``, to the second (the fraction cut, never rounded).

    The instant a relative operand resolved to is written so on the wire and the page, as the
    reference writes it: it is a derived bound, not a stored fact, so it carries no milliseconds.
    """
    return instant_text(instant)[:19] + "Z"


def parse_instant(text: str) -> _dt.datetime:
    """Reads the Store's timestamp form back (``yyyy-mm-ddThh:mm:ss.fffZ``, every digit a
    decimal one, as ``\\d`` reads it); anything else is a ``ValueError``. Read by position, the
    separators standing every third character from the fifth: a pattern's compile cost a
    review more than every instant it reads (ADR 0006)."""
    parts = text[0:4], text[5:7], text[8:10], text[11:13], text[14:16], text[17:19], text[20:23]
    if len(text) != 24 or text[4:20:3] != "--T::." or text[23] != "Z" or not "".join(parts).isdecimal():
        raise ValueError(f"{text!r} is not an RFC 3339 UTC instant with three millisecond digits")
    year, month, day, hour, minute, second, millis = (int(part) for part in parts)
    return _dt.datetime(year, month, day, hour, minute, second, millis * 1000, tzinfo=_dt.UTC)


def number_text(number: int | float) -> str:
    """A number as the Store writes it: an integer exactly, anything else as ECMAScript would.

    "Shortest round-trip" alone is ambiguous at the exponent threshold; the ECMAScript
    ``Number::toString`` placement settles it, and it is what a reviewer's browser shows.
    """
    if isinstance(number, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(number, int):
        return str(number)
    if math.isnan(number) or math.isinf(number):
        raise ValueError(f"{number!r} has no JSON spelling")
    if number == 0:
        return "0"
    if number < 0:
        return "-" + number_text(-number)
    digits, n = _shortest(number)
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    power = n - 1
    tail = f"e{'+' if power >= 0 else '-'}{abs(power)}"
    return digits + tail if k == 1 else digits[0] + "." + digits[1:] + tail


def _shortest(number: float) -> tuple[str, int]:
    """ECMAScript's (s, n) for a positive float: the shortest round-tripping significant
    digits, and where the decimal point falls among them. Python's repr already is the shortest
    round-tripping spelling; this only reads it."""
    mantissa, _, exponent = repr(number).partition("e")
    whole, _, fraction = mantissa.partition(".")
    every = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    significant = every.lstrip("0")
    point -= len(every) - len(significant)
    return significant.rstrip("0"), point


def parse(data: bytes) -> Value:
    """Reads canonical JSON back to a value; a null anywhere, or a number no float can hold, is a
    ``ValueError``.

    The standard library reads it: every integer keeps every digit, and a reader of the Store
    pays nothing for the writer's faster encoder (ADR 0006). What the canonical form cannot
    hold and ``json`` would accept — ``NaN`` and its kin, a lone surrogate escape — is refused.
    """
    try:
        value = loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as fault:
        raise ValueError(f"the file is not JSON: {fault}") from None
    _check_parsed(value, b"\\u" in data)
    return value  # type: ignore[no-any-return]


def _check_parsed(whole: Any, escaped: bool) -> None:
    """Refuses a null and a number no float holds; where the file held an escape (``escaped``),
    also a string only an escape could spell — a lone surrogate, which has no UTF-8.

    A walk over a list of values still to see, not a recursion: a file may nest as deep as
    the reader admits (:data:`hyper.core.deepjson.GO_DEPTH`)."""
    waiting = [whole]
    while waiting:
        value = waiting.pop()
        if value is None:
            raise ValueError("the Store holds no null")
        if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
            raise ValueError("a number no float64 can hold")
        if isinstance(value, dict):
            if escaped:
                for key in value:
                    _check_spelled(key)
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
        elif escaped and isinstance(value, str):
            _check_spelled(value)


def _check_spelled(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string holding a lone surrogate") from None


def _lower(value: Value) -> tuple[Any, bool]:
    """The plain value the writer sees, and whether it holds a number orjson cannot write alike.

    A frame a level, which is the fast way and holds every real value; one nested deeper than
    the stack holds is lowered again by :func:`_lower_deep`, whose levels wait on a list. Where
    the switch lands does not change the answer, only how it was reached."""
    try:
        return _lower_nested(value)
    except RecursionError:
        return _lower_deep(value)


def _lower_nested(value: Value) -> tuple[Any, bool]:
    if isinstance(value, Always):
        return _lower_nested(value.value)
    if isinstance(value, dict):
        kept: dict[str, Any] = {}
        exotic = False
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a mapping key is a string, not {key!r}")
            if isinstance(item, list) and not item:
                continue  # the absence rule: an empty list is not written
            lowered, odd = _lower_nested(item)
            if isinstance(lowered, dict) and not lowered and not isinstance(item, Always):
                continue  # nor a mapping with nothing to write
            kept[key] = lowered
            exotic = exotic or odd
        return kept, exotic
    if isinstance(value, list):
        items = []
        exotic = False
        for item in value:
            lowered, odd = _lower_nested(item)
            items.append(lowered)
            exotic = exotic or odd
        return items, exotic
    return _lower_scalar(value)


class _Level(NamedTuple):
    """One mapping or list :func:`_lower` has opened and not yet closed."""

    plain: Any
    children: Iterator[tuple[Any, Value]]
    kept: bool
    """Written even when nothing inside it is (the value was :class:`Always`)."""
    key: str | None
    """Where it goes in the level holding it (``None`` in a list, or at the top)."""


def _lower_deep(value: Value) -> tuple[Any, bool]:
    """:func:`_lower` with no frame a level. The absence rule is applied on the way back up —
    a mapping is dropped only once all it held was — and the open levels are kept on a list,
    so a value nested as deep as the reader admits is lowered; one nested deeper is
    :class:`TooDeep`, since nothing could read its file back."""
    exotic = False
    levels: list[_Level] = []
    pending: tuple[str | None, Value] | None = (None, value)
    while True:
        if pending is not None:
            key, item = pending
            kept = False
            while isinstance(item, Always):
                item, kept = item.value, True
            if isinstance(item, dict | list) and len(levels) >= GO_DEPTH:
                raise TooDeep(GO_DEPTH)  # no reader, here or the reference's, would read it back
            if isinstance(item, dict):
                levels.append(_Level({}, iter(item.items()), kept, key))
                pending = None
                continue
            if isinstance(item, list):
                levels.append(_Level([], ((None, member) for member in item), kept, key))
                pending = None
                continue
            plain, odd = _lower_scalar(item)
            exotic = exotic or odd
        else:
            top = levels[-1]
            child = next(top.children, None)
            if child is not None:
                if isinstance(top.plain, dict) and not isinstance(child[0], str):
                    raise TypeError(f"a mapping key is a string, not {child[0]!r}")
                pending = child
                continue
            levels.pop()
            plain, kept, key = top.plain, top.kept, top.key
        pending = None
        if not levels:
            return plain, exotic
        holder = levels[-1].plain
        if isinstance(holder, list):
            holder.append(plain)
        elif kept or not (isinstance(plain, dict | list) and not plain):
            holder[key] = plain  # the absence rule: an empty list or mapping is not written


def _lower_scalar(value: Value) -> tuple[Any, bool]:
    if isinstance(value, Secret):
        return SECRET_MARKER, False
    if isinstance(value, bool | str):
        return value, False
    if isinstance(value, int):
        return value, not (_INT_LOW <= value <= _INT_HIGH)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"{value!r} has no JSON spelling")
        return value, True
    if isinstance(value, _dt.datetime):
        return instant_text(value), False
    raise TypeError(f"{type(value).__name__} is not a Store value")


def _write(plain: Any) -> bytes:
    """The reference-shaped writer: two spaces a level, keys sorted, numbers as ECMAScript spells
    them. A frame a level where the stack holds it, and the same text by a list of open levels
    (:func:`hyper.core.deepjson.dumps`) where it does not."""
    try:
        text = _write_nested(plain, 0)
    except RecursionError:
        text = dumps(plain, number_text, indent="  ", sort_keys=True)
    return text.encode("utf-8") + b"\n"


def _write_nested(value: Any, indent: int) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, int | float):
        return number_text(value)
    if isinstance(value, dict):
        keys = sorted(value)
        if not keys:
            return "{}"
        inner = "  " * (indent + 1)
        body = ",\n".join(f"{inner}{quote(key)}: {_write_nested(value[key], indent + 1)}" for key in keys)
        return "{\n" + body + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = "  " * (indent + 1)
        body = ",\n".join(f"{inner}{_write_nested(item, indent + 1)}" for item in value)
        return "[\n" + body + "\n" + "  " * indent + "]"
    raise TypeError(f"{type(value).__name__} is not a Store value")

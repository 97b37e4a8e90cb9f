"""The five-field UTC cron grammar a Cadence is written in, read once for every consumer.

``check`` (``cadence-malformed``), ``review``'s gloss, ``changes``' cadence row and
``project``'s workflow rows all ask this one reader, so a check can never refuse an
expression a review glosses, or the other way round.

The grammar is closed by what it admits rather than by a list of what it rejects:
five whitespace-separated fields, each a comma list of items, each item ``*``, a
number, a range ``a-b``, or ``*/n`` / ``a-b/n``. Names, nicknames, ``?``, ``L``,
``W``, ``#``, signs, timezones and a sixth field all fall outside it by construction.

Reading never raises: an expression outside the grammar answers a
:class:`CadenceFault` carrying a one-line reason and the offset of the text at fault.
"""

from __future__ import annotations

import functools

from hyper.core.namedtuple import NamedTuple
from hyper.core.pattern import compiled
from hyper.core.quote import quote

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final, Literal, TypeAlias

CADENCE_MALFORMED = "cadence-malformed"
"""The error code ``check`` files a :class:`CadenceFault` under."""


Position: TypeAlias = 'Literal["minute", "hour", "day of month", "month", "day of week"]'
"""A field, by the name a reason calls it. Strings the checker holds to these five, not an
``enum.IntEnum``: defining the grammar's two enumerations cost every ``check`` over a Cadence
about 1.4M instructions (ADR 0006), and mypy's strict equality holds a literal the same way."""

POSITIONS: Final[tuple[Position, ...]] = ("minute", "hour", "day of month", "month", "day of week")
"""The five fields, in the order they are written."""

SPANS: Final[dict[Position, tuple[int, int]]] = {
    "minute": (0, 59),
    "hour": (0, 23),
    "day of month": (1, 31),
    "month": (1, 12),
    "day of week": (0, 6),  # no second spelling of Sunday: 7 is outside the span
}
"""Each field's lowest and highest value."""

_FIELD_LIST = ", ".join(POSITIONS)

Form: TypeAlias = 'Literal["*", "n", "a-b"]'
"""How an item was spelled: ``*``, a number (``n``) or a range (``a-b``). A step is not a
form: it divides ``*`` or a range."""


class Item(NamedTuple):
    """One comma-separated member of a field. ``step`` is 1 when none was written."""

    form: Form
    low: int
    high: int
    step: int

    def values(self) -> range:
        return range(self.low, self.high + 1, self.step)


class Field(NamedTuple):
    """One field as written: its items in authored order, and whether it is the bare ``*``.

    ``star`` records the spelling, not the value set: ``0-6`` selects every weekday yet
    still restricts the day, which is what makes POSIX's day-of-month/day-of-week
    disjunction turn on how the fields were written.
    """

    position: Position
    items: tuple[Item, ...]
    star: bool

    def values(self) -> tuple[int, ...]:
        """The selected values, ascending, each once."""
        return tuple(sorted({v for it in self.items for v in it.values()}))


class Cadence(NamedTuple):
    """An expression the grammar admits, with the expression kept exactly as authored."""

    expression: str
    minute: Field
    hour: Field
    day_of_month: Field
    month: Field
    day_of_week: Field

    @property
    def fields(self) -> tuple[Field, Field, Field, Field, Field]:
        return (self.minute, self.hour, self.day_of_month, self.month, self.day_of_week)


class CadenceFault(NamedTuple):
    """Why an expression is outside the grammar.

    ``reason`` is one line naming the field and the text at fault; it carries no error
    code, because the code, file and line are the citing check's. ``offset`` is the
    0-based index into ``expression`` of the text at fault (0 when the fault is the
    field count), so a caller can point inside the value if it wants to.
    """

    expression: str
    reason: str
    offset: int
    field: Position | None = None


# Go's strings.Fields splits on unicode.IsSpace; Python's str.split() splits on exactly that
# set and on U+001C..U+001F besides. An expression holding one of those four is split by the
# set spelled out instead (:func:`_fields`), so the two readers stay identical.
_TOKEN = "[^\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+"
_SPLIT_BY_PYTHON_ONLY = ("\x1c", "\x1d", "\x1e", "\x1f")

# Where digit accumulation stops. It is an overflow guard, not a rule: a saturated
# number is still outside every span, and a step this large still selects only the
# first value, so saturating changes no answer while keeping ``*/999…9`` cheap.
_CEILING = 10_000


class _Outside(Exception):
    """Internal: carries a fault's reason and the offset inside the field."""

    def __init__(self, reason: str, offset: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


@functools.lru_cache(maxsize=256)
def parse(expression: str) -> Cadence | CadenceFault:
    """Read ``expression``; answer a Cadence, or the fault that keeps it out of the grammar.

    Remembered by expression: the answer is an immutable value of the text alone, and a
    repository's Procedures mostly share a handful of Cadences, read again by every rule.
    """
    tokens = _fields(expression)
    if len(tokens) != len(POSITIONS):
        return CadenceFault(expression, _count_reason(len(tokens)), 0)
    fields: list[Field] = []
    for position, (start, written) in zip(POSITIONS, tokens, strict=True):
        try:
            fields.append(_read_field(position, written))
        except _Outside as outside:
            return CadenceFault(expression, outside.reason, start + outside.offset, position)
    return Cadence(expression, *fields)


def _fields(expression: str) -> list[tuple[int, str]]:
    """Each whitespace-separated field of ``expression`` with its offset, as Go's strings.Fields
    splits it. :data:`_TOKEN` is compiled only for an expression ``str.split`` would split
    otherwise: compiling its class of Unicode spaces cost every ``check`` over a Cadence
    1.6M instructions, more than reading all of its Cadences."""
    if any(char in expression for char in _SPLIT_BY_PYTHON_ONLY):
        return [(m.start(), m.group()) for m in compiled(_TOKEN).finditer(expression)]
    fields: list[tuple[int, str]] = []
    offset = 0
    for written in expression.split():
        offset = expression.index(written, offset)  # only spaces lie between the last field and this one
        fields.append((offset, written))
        offset += len(written)
    return fields


def _count_reason(count: int) -> str:
    counted = {0: "no fields", 1: "1 field"}.get(count, f"{count} fields")
    reason = f"it has {counted}, and the grammar reads exactly five: {_FIELD_LIST}"
    if count > len(POSITIONS):
        reason += " — seconds, a timezone or an offset would each be a sixth"
    return reason


def _read_field(position: Position, written: str) -> Field:
    items: list[Item] = []
    offset = 0
    for part in written.split(","):
        try:
            items.append(_read_item(position, part))
        except _Outside as outside:
            raise _Outside(outside.reason, offset) from None
        offset += len(part) + 1
    return Field(position, tuple(items), written == "*")


def _read_item(position: Position, written: str) -> Item:
    if not written:
        raise _Outside(f"{position} has an empty item — a comma with nothing on one side")
    base, slash, stepped = written.partition("/")
    step = 1
    if slash:
        number = _number(stepped)
        if number is None:
            raise _Outside(_unreadable(position, written))
        if number == 0:
            raise _Outside(f"{position} {quote(written)} steps by zero; a step /n needs n of 1 or more")
        step = number
    if base == "*":
        low, high = SPANS[position]
        return Item("*", low, high, step)
    if "-" in base:
        low_text, _, high_text = base.partition("-")
        low = _value(position, written, low_text)
        high = _value(position, written, high_text)
        if low > high:
            raise _Outside(f"{position} range {base} runs backwards; a-b wants a no greater than b")
        return Item("a-b", low, high, step)
    value = _value(position, written, base)
    if slash:
        raise _Outside(
            f"{position} {quote(written)} puts a step on a single number; a step belongs on * or on a range a-b"
        )
    return Item("n", value, value, step)


def _value(position: Position, whole: str, part: str) -> int:
    """One number inside its field's span. A non-number names the whole item (``MON-FRI``
    is one intruder); a number out of span names just itself, the thing to edit."""
    number = _number(part)
    if number is None:
        raise _Outside(_unreadable(position, whole))
    low, high = SPANS[position]
    if not low <= number <= high:
        raise _Outside(f"{position} {part} is outside the field's span {low}–{high}")
    return number


def _unreadable(position: Position, written: str) -> str:
    return (
        f"{position} {quote(written)} is none of the four item forms the grammar reads:"
        " *, a number, a range a-b, or a step over * or a range"
    )


def _number(written: str) -> int | None:
    """ASCII digits only: no sign, no space, no empty string, no other script's digits."""
    if not written:
        return None
    number = 0
    for char in written:
        if not "0" <= char <= "9":
            return None
        if number < _CEILING:
            number = number * 10 + ord(char) - ord("0")
    return min(number, _CEILING)

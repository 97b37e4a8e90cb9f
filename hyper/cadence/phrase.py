"""The phrase: a Cadence read back as English, for a human approving a recurrence.

It is total over the grammar — every admitted expression gets a phrase, however
awkward, and nothing is truncated or replaced by a shorter fallback, because the
hardest expressions are the ones a reader most needs glossed.

Three clauses in a fixed order (time, day, month) so the eye finds each in the same
place. Only order and repetition inside a field are normalised; the form is kept
(``0-59`` still reads as a range), since a range written where ``*`` was meant is
itself something the reviewer should see. Interval wording ("every 5 minutes") is
used only where it is exactly true: on the minute and hour fields, when the step
divides the span. ``*/7`` minutes waits four minutes at the top of each hour, so it
lists its members instead.
"""

from __future__ import annotations

from hyper.cadence.grammar import Cadence, Field, Item

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from hyper.cadence.grammar import Position

_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_UNITS: dict[Position, str] = {
    "minute": "minute",
    "hour": "hour",
    "day of month": "day",
    "month": "month",
    "day of week": "day",
}
_EVERY = "every "


def phrase(cadence: Cadence) -> str:
    """The time, day and month clauses, with ``UTC`` on the first that a timezone would move."""
    time, merged, names_clock = _time_clause(cadence)
    day, names_calendar = _day_clause(cadence, names_clock)
    month = _month_clause(cadence)

    # Minutes past the hour and intervals are the same instant in every zone, so only a
    # clock time or a calendar value earns the zone — and only once.
    texts = [time, day, month]
    for index, carries_zone in enumerate((names_clock, names_calendar, bool(month))):
        if texts[index] and carries_zone:
            texts[index] += " UTC"
            break
    time, day, month = texts

    # Clock times run straight on into their day; a "past …" construction is closed
    # with a comma before the day begins.
    text = time
    if day:
        text += (" " if merged else ", ") + day
    if month:
        text += " " + month
    return text


def _time_clause(cadence: Cadence) -> tuple[str, bool, bool]:
    """(text, merged into clock times, names a clock time).

    Minute and hour merge into clock times only when that cannot lengthen the phrase:
    one minute value and an hour spelled as numbers. Merging anything wider would take
    a cross product (``*/5 9-17`` is 108 clock times).
    """
    minutes, hours = cadence.minute, cadence.hour
    minute_values = minutes.values()
    if len(minute_values) == 1 and _spelled_as_numbers(hours):
        times = [f"{hour:02d}:{minute_values[0]:02d}" for hour in hours.values()]
        return _listed(times), True, True

    minute_text, _ = _field_text(minutes)
    if not minute_text.startswith(_EVERY):
        minute_text = "at " + minute_text
    hour_text, hour_names_value = _field_text(hours)
    # "every 5 minutes" is already a whole recurrence; "past every hour" would repeat it.
    if hours.star and _complete_on_its_own(minutes):
        return minute_text, False, False
    return f"{minute_text} past {hour_text}", False, hour_names_value


def _day_clause(cadence: Cadence, names_clock: bool) -> tuple[str, bool]:
    """(text, names a calendar value). Both day fields restricted is POSIX's OR, said as "or"."""
    dom_restricted = not cadence.day_of_month.star
    dow_restricted = not cadence.day_of_week.star
    if dom_restricted and dow_restricted:
        return f"{_days_of_month(cadence)} or any {_weekdays(cadence.day_of_week)}", True
    if dom_restricted:
        return _days_of_month(cadence), True
    if dow_restricted:
        return _EVERY + _weekdays(cadence.day_of_week), True
    # Without "every day", "03:00 UTC" would read as a single occurrence; an interval
    # or a minute list already recurs and needs no day.
    return ("every day" if names_clock else ""), False


def _days_of_month(cadence: Cadence) -> str:
    text, _ = _field_text(cadence.day_of_month)
    if not text.startswith(_EVERY):
        text = "on " + text
    if cadence.month.star:
        return text + " of the month"
    if _month_attaches_to_day(cadence):
        return f"{text} of {_field_text(cadence.month)[0]}"
    return text


def _month_clause(cadence: Cadence) -> str:
    if cadence.month.star or _month_attaches_to_day(cadence):
        return ""
    return "in " + _field_text(cadence.month)[0]


def _month_attaches_to_day(cadence: Cadence) -> bool:
    """A single month with only the day of month restricted reads "the 29th of February"."""
    return (
        not cadence.month.star
        and len(cadence.month.values()) == 1
        and not cadence.day_of_month.star
        and cadence.day_of_week.star
    )


def _weekdays(field: Field) -> str:
    """The weekday field without its quantifier, so the clause can say "every" or "any"."""
    text, _ = _field_text(field)
    return text.removeprefix(_EVERY)


def _spelled_as_numbers(field: Field) -> bool:
    """The hour's merge test reads the spelling: ``1-1`` is a range even though it is one hour."""
    return bool(field.items) and all(item.form == "n" for item in field.items)


def _complete_on_its_own(minutes: Field) -> bool:
    """``*`` or an exact interval over the minutes: a recurrence that names no minute."""
    if len(minutes.items) != 1 or minutes.items[0].form != "*":
        return False
    _, names_value = _item_text(minutes.items[0], minutes.position)
    return not names_value


def _field_text(field: Field) -> tuple[str, bool]:
    """(the field as one list, whether any part names a value).

    Items are ordered by what they span and de-duplicated, and each contributes its
    words to the field's single list rather than nesting a list of its own.
    """
    parts: list[str] = []
    names_value = False
    for item in _ordered(field.items):
        words, named = _item_text(item, field.position)
        parts.extend(words)
        names_value = names_value or named
    return _listed(parts), names_value


def _ordered(items: tuple[Item, ...]) -> list[Item]:
    ordered: list[Item] = []
    for item in sorted(items, key=lambda it: (it.low, it.high, it.step)):
        if not ordered or ordered[-1] != item:
            ordered.append(item)
    return ordered


def _item_text(item: Item, position: Position) -> tuple[list[str], bool]:
    values = item.values()
    if len(values) == 1:
        # `1-1` and `*/60` select one value, and read as that value, nothing more.
        return [_spell(position, values[0])], True
    unit = _UNITS[position]
    if item.form == "*":
        if item.step == 1:
            return [_EVERY + unit], False
        if _interval_is_exact(position, item.step):
            return [f"every {item.step} {unit}s"], False
    elif item.form == "a-b" and item.step == 1:
        low, high = _spell(position, item.low), _spell(position, item.high)
        return [f"every {unit} from {low} to {high}"], True
    return [_spell(position, value) for value in values], True


def _interval_is_exact(position: Position, step: int) -> bool:
    if position == "minute":
        return 60 % step == 0
    if position == "hour":
        return 24 % step == 0
    return False


def _spell(position: Position, value: int) -> str:
    if position == "minute":
        return f":{value:02d}"
    if position == "hour":
        return f"{value:02d}:00"
    if position == "day of month":
        return "the " + _ordinal(value)
    if position == "month":
        return _MONTHS[value - 1]
    return _WEEKDAYS[value]


def _ordinal(value: int) -> str:
    suffix = "th" if value // 10 == 1 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"


def _listed(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]

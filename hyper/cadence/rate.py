"""The rate: how often a Cadence fires, in runs per month, at two significant figures.

The count runs over one whole Gregorian cycle — 400 years, 146,097 days, 4,800
months and exactly 20,871 weeks — so every leap pattern and weekday alignment is in
it in true proportion and there is no year to pick. ``0 3 * * 1`` is 20,871 / 4,800
forever, on any machine; nothing here reads a clock.

Rounding is exact rational arithmetic, half up, so the ``≈`` — which claims that a
rounding happened — is never an artefact of float representation. The page text and
the wire number come from one rounding, so no consumer can round a second time.
"""

from __future__ import annotations

import functools
from collections import Counter

from hyper.cadence.grammar import Cadence
from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from fractions import Fraction

_CYCLE_FIRST_YEAR = 2000
_CYCLE_YEARS = 400
_CYCLE_MONTHS = _CYCLE_YEARS * 12
_FIRST_WEEKDAY = 6
"""1 January 2000 was a Saturday (Sunday is 0)."""


class Rate(NamedTuple):
    """One rounding in its two forms.

    ``text`` is the page's (``≈4.3 runs/month``, ``1 run/month``); ``value`` is the wire
    number read back off the rendered digits — an ``int`` when whole, so JSON carries
    ``8800`` rather than ``8800.0``.
    """

    text: str
    value: int | float


def rate(cadence: Cadence) -> Rate:
    """The rate of an admitted Cadence."""
    from fractions import Fraction  # a rate is rendered by review, never by check, which shares this package

    return _render(Fraction(_matches(cadence), _CYCLE_MONTHS))


def _matches(cadence: Cadence) -> int:
    """Occurrences over the cycle: matching days times the minute-and-hour pairs per day.

    Where both day fields are restricted a day matches if either does (POSIX), decided by
    spelling exactly as the phrase decides its "or".
    """
    months = set(cadence.month.values())
    days = set(cadence.day_of_month.values())
    weekdays = set(cadence.day_of_week.values())
    dom_restricted = not cadence.day_of_month.star
    dow_restricted = not cadence.day_of_week.star

    def day_matches(day: int, weekday: int) -> bool:
        if dom_restricted and dow_restricted:
            return day in days or weekday in weekdays
        if dom_restricted:
            return day in days
        if dow_restricted:
            return weekday in weekdays
        return True

    matched_days = 0
    for (month, first_weekday, length), occurrences in _month_shapes().items():
        if month in months:
            hits = sum(day_matches(day, (first_weekday + day - 1) % 7) for day in range(1, length + 1))
            matched_days += occurrences * hits
    return matched_days * len(cadence.minute.values()) * len(cadence.hour.values())


@functools.cache
def _month_shapes() -> Counter[tuple[int, int, int]]:
    """How many of the cycle's months have each (month, weekday of the 1st, length).

    A month is fully described by those three for matching purposes, and there are at
    most 168 shapes, so counting shapes once replaces walking 146,097 days per call.
    """
    shapes: Counter[tuple[int, int, int]] = Counter()
    weekday = _FIRST_WEEKDAY
    for year in range(_CYCLE_FIRST_YEAR, _CYCLE_FIRST_YEAR + _CYCLE_YEARS):
        for month in range(1, 13):
            length = _days_in_month(year, month)
            shapes[(month, weekday, length)] += 1
            weekday = (weekday + length) % 7
    return shapes


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _render(exact: Fraction) -> Rate:
    # An expression the calendar never meets (the 30th of February) is admitted, so it
    # is rated — exactly zero, with no leading figure to round.
    if exact == 0:
        return Rate("0 runs/month", 0)
    digits, rounded = _two_figures(exact)
    approximate = rounded != exact
    if not approximate and "." in digits:
        # An exact rate shows the figures it has: "1.0" would claim a precision nobody computed.
        digits = digits.rstrip("0").removesuffix(".")
    unit = "run/month" if exact == 1 else "runs/month"
    number = float(digits)
    value: int | float = int(number) if number.is_integer() else number
    return Rate(f"{'≈' if approximate else ''}{digits} {unit}", value)


def _two_figures(exact: Fraction) -> tuple[str, Fraction]:
    """(the digits written at their decimal place, the value those digits denote)."""
    from fractions import Fraction  # deferred: start-up cost

    exponent = 0
    scaled = exact
    while scaled >= 10:
        scaled /= 10
        exponent += 1
    while scaled < 1:
        scaled *= 10
        exponent -= 1
    # Two figures, half up; 9.96 rounds to 100, which is 10 one place further left.
    figures = int(scaled * 10 + Fraction(1, 2))
    if figures == 100:
        figures, exponent = 10, exponent + 1
    places = 1 - exponent
    rounded = Fraction(figures) / Fraction(10) ** places
    return _decimal(figures, places), rounded


def _decimal(figures: int, places: int) -> str:
    """43 at 1 place is ``4.3``; 20 at 3 is ``0.020``; 88 at -2 is ``8800``."""
    written = str(figures)
    if places <= 0:
        return written + "0" * -places
    if places >= len(written):
        return "0." + "0" * (places - len(written)) + written
    return written[:-places] + "." + written[-places:]

"""The reading rule for the scalar forms facts are derived from: integers and durations.

A scalar's meaning comes from its position, never from YAML's typing, so ``30`` and
``"30"`` are one integer wherever an integer is read. These readers answer ``None``
for text that is not the form rather than guessing: what is wrong with it is the
schema's to report, and a fact derived from a guess would state something the
artefact never said.
"""

from __future__ import annotations

from hyper.core.pattern import compiled

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

_DIGITS: Final = frozenset("0123456789")
_DURATION: Final = r"([0-9]+)([smhd])"
"""Compiled on first use (:func:`hyper.core.pattern.compiled`): most commands read no duration."""
_UNIT_SECONDS: Final = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_INT64: Final = 2**63


def is_integer(text: str) -> bool:
    """Whether ``text`` is written as an integer: an optional sign, then ASCII digits only
    (``[+-]?[0-9]+``). Read by character: compiling that pattern cost every command that reads
    a Manifest more than all the integers it reads (ADR 0006)."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    return bool(digits) and _DIGITS.issuperset(digits)


def integer(text: str | None) -> int | None:
    """``text`` read as a signed 64-bit integer, or ``None``.

    A leading sign is accepted and anything beyond 64 bits is not, so a derived
    number agrees with the reference's reading of the same characters.
    """
    if text is None or not is_integer(text):
        return None
    value = int(text)
    return value if -_INT64 <= value < _INT64 else None


def duration_seconds(text: str | None) -> int | None:
    """A duration (``30s``, ``5m``, ``1h``, ``14d``: one unit, no compounding) in seconds."""
    if text is None:
        return None
    match = compiled(_DURATION).fullmatch(text)
    if match is None:
        return None
    return int(match.group(1)) * _UNIT_SECONDS[match.group(2)]

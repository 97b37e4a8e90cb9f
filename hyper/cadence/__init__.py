"""A Cadence: the UTC cron grammar, and the gloss every surface renders a Cadence through.

One reader serves ``check`` (``cadence-malformed``), ``review``, ``changes`` and
``project``, so no two of them can disagree about what an expression means. Nothing
here reads a clock or the environment: the phrase, the rate and the facts are a
function of the five fields alone.

    parse(expression) -> Cadence | CadenceFault
    phrase(cadence)   -> "03:00 UTC every Monday"
    rate(cadence)     -> Rate(text="≈4.3 runs/month", value=4.3)
    facts(cadence)    -> the executor facts shown beside the gloss
    gloss(expression) -> Gloss | None   (all of the above at once; None when malformed)
"""

from __future__ import annotations

from hyper.cadence.facts import facts
from hyper.cadence.grammar import CADENCE_MALFORMED, Cadence, CadenceFault, Position, parse
from hyper.cadence.phrase import phrase
from hyper.cadence.rate import Rate, rate
from hyper.core.namedtuple import NamedTuple

__all__ = [
    "CADENCE_MALFORMED",
    "Cadence",
    "CadenceFault",
    "Gloss",
    "Position",
    "Rate",
    "facts",
    "gloss",
    "parse",
    "phrase",
    "rate",
]


class Gloss(NamedTuple):
    """An admitted Cadence read for a surface: expression as written, phrase, rate, facts."""

    expression: str
    phrase: str
    rate: Rate
    facts: tuple[str, ...]


def gloss(expression: str) -> Gloss | None:
    """The gloss of ``expression``, or None when it is outside the grammar.

    A surface with no gloss renders none and goes on; refusing is ``check``'s job.
    """
    parsed = parse(expression)
    if isinstance(parsed, CadenceFault):
        return None
    return Gloss(expression, phrase(parsed), rate(parsed), facts(parsed))

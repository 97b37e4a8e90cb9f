"""A Cadence: the UTC cron grammar, and the gloss every surface renders a Cadence through.

One reader serves ``check`` (``cadence-malformed``), ``review``, ``changes`` and
``project``, so no two of them can disagree about what an expression means. Nothing
here reads a clock or the environment: the phrase, the rate and the facts are a
function of the five fields alone.

    grammar.parse(expression) -> Cadence | CadenceFault
    phrase.phrase(cadence)    -> "03:00 UTC every Monday"
    rate.rate(cadence)        -> Rate(text="≈4.3 runs/month", value=4.3)
    facts.facts(cadence)      -> the executor facts shown beside the gloss
    gloss(expression)         -> Gloss | None   (all of the above at once; None when malformed)

Each is imported from its own module, and this package imports none of them: ``check``
reads the grammar alone on every run over a Procedure, and importing a submodule runs this
file first, so the phrase, the rate and the facts it never renders would cost it their
start-up (ADR 0006).
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from hyper.cadence.rate import Rate

__all__ = ["Gloss", "gloss"]


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
    from hyper.cadence.facts import facts
    from hyper.cadence.grammar import CadenceFault, parse
    from hyper.cadence.phrase import phrase
    from hyper.cadence.rate import rate

    parsed = parse(expression)
    if isinstance(parsed, CadenceFault):
        return None
    return Gloss(expression, phrase(parsed), rate(parsed), facts(parsed))

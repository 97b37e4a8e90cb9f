"""What the executor will do with a Cadence, stated beside the gloss wherever it renders.

These are not problems with the artefact — none has an error code or fails ``check``
— and they carry no wire member: each is derived from the expression alone, so a
consumer of the JSON derives them exactly as the page does. The order is decreasing
blast radius: may not fire at all, most occurrences will not fire, one may be late.
"""

from __future__ import annotations

from hyper.cadence.grammar import Cadence

DEFAULT_BRANCH = "scheduled runs fire from the default branch only"
WITHIN_THE_HOUR = "more than one run an hour exceeds what the executor delivers — most occurrences never fire"
ON_THE_HOUR = ":00 is the executor's busiest minute — a run there is the likeliest to be late or dropped"


def facts(cadence: Cadence) -> tuple[str, ...]:
    """The executor facts for an admitted Cadence, in render order (the first is unconditional).

    Both conditional facts read the minute field's values, not its spelling: a list, a
    range and a step are three spellings of one set.
    """
    minutes = cadence.minute.values()
    found = [DEFAULT_BRANCH]
    if len(minutes) > 1:
        found.append(WITHIN_THE_HOUR)
    if 0 in minutes:
        found.append(ON_THE_HOUR)
    return tuple(found)

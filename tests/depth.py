"""How many examples a property test draws: the count it asks for, scaled by the loaded profile.

A test that searches deeper than Hypothesis's default of 100 examples asks through
``examples``, so the ``shallow`` profile that ``./scripts/test-versions`` loads (a tenth of
the default, tests/conftest.py) cuts it by the same share as the tests that ask for no count.
The deep search runs once, where ``./scripts/test`` runs; the other versions draw a sample of
it (ADR 0041). Under ``CI`` both are derandomised, so that sample is of the same inputs.
"""

from __future__ import annotations

from typing import Final

from hypothesis import settings

DEFAULT: Final = 100
"""``max_examples`` in Hypothesis's own ``default`` and ``ci`` profiles: the scale's unit."""


def examples(full: int) -> int:
    """``full`` under the default profile; the same share of it under whichever profile is loaded."""
    return max(1, full * settings().max_examples // DEFAULT)

"""The closed set of exit codes every surface maps from.

Seven and no more: a caller scripts against them, so a new failure is given one of
these meanings rather than a number of its own.
"""

from __future__ import annotations

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

CLEAN: Final = 0
PROBLEMS: Final = 1
USAGE: Final = 2
STORE_LOST: Final = 75
REFUSED: Final = 77
INTERRUPTED: Final = 130
TERMINATED: Final = 143

ALL: Final = frozenset({CLEAN, PROBLEMS, USAGE, STORE_LOST, REFUSED, INTERRUPTED, TERMINATED})

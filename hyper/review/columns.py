"""The review's own alignment: fields padded to the widest value at their position.

The gutter's composed markers and the ``FLAGS`` rows are aligned this way rather
than by the page table, because a position no row in this rendering fills takes no
width at all — a blank column is the one thing the screen may not draw — and a
row ends where its last field does. Widths are counted in code points.
"""

from __future__ import annotations

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

GAP = "  "
"""The least space between two things on one line of the screen."""


def widths(rows: Iterable[Sequence[str]]) -> list[int]:
    found: list[int] = []
    for fields in rows:
        while len(found) < len(fields):
            found.append(0)
        for i, field in enumerate(fields):
            found[i] = max(found[i], len(field))
    return found


def aligned(fields: Sequence[str], sized: Sequence[int]) -> str:
    drawn = [field.ljust(sized[i]) for i, field in enumerate(fields) if i < len(sized) and sized[i]]
    return GAP.join(drawn).rstrip(" ")

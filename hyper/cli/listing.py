"""Cutting a listing at its limit, and saying what the cut dropped.

The cut is made before either rendering, so the page, the stream and the envelope
hold the same rows. What was dropped is said once, on stderr, and carried in the
terminal row's ``truncated`` for a machine.
"""

from __future__ import annotations

from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.render.terminal import Truncated

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TypeVar

if TYPE_CHECKING:
    T = TypeVar("T")


def cut_namespace(items: Sequence[T], inv: Invocation, noun: str, to: Destination) -> tuple[Sequence[T], Truncated]:
    """A namespace listing (``providers``, ``targets``): nothing to narrow by, so the bare boolean.

    A caller who named the cap is told what their own number cut; a caller who named
    none is told there is a default and how to widen it.
    """
    kept = items[: inv.limit]
    if len(kept) == len(items):
        return kept, False
    dropped = len(items) - len(kept)
    if inv.limit_named:
        body = f"returned {len(kept)} of {len(items)} {noun}; {dropped} dropped by --limit {inv.limit}"
    else:
        body = (
            f"returned {len(kept)} of {len(items)} {noun}; {dropped} dropped by the default limit of "
            f"{inv.limit} — name a larger --limit for the rest"
        )
    to.narrate(f"hyper {inv.command.name}: {body}\n")
    return kept, True

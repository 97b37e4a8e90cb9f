"""The values that cross between the command layer and the MCP surface.

They live here, in ``hyper_mcp``, because the import runs one way only: ``hyper.cli``
builds an :class:`Answer` and hands ``hyper_mcp`` a :data:`Dispatch`; this package
never reaches back into ``hyper``. None of them names an SDK type either, so the
command layer can construct them without paying for the SDK import.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

Progress = Callable[[int, int, str], None]
"""One Step boundary: position (1-based), the Run's Step count, the Step's name.

A call whose client sent no progress token is handed ``None`` instead of a function
that drops what it is given, so the decision "is anybody watching" is made once, by
the surface, and never re-made by the Run.
"""


@attrs.frozen
class Answer:
    """One command's answer as a value.

    ``rows`` and ``terminal`` are the encoded bytes of each row exactly as the
    ``--json`` stream writes them (no newline), so the envelope carries the same
    bytes the CLI would have printed and never re-encodes them. ``rendering`` is the
    page the command drew; ``refusal`` is the Refusal rendering the CLI would have
    written on stderr; ``usage`` is the usage sentence(s) of a command that exited 2;
    ``narration`` is everything else the command said on stderr.
    """

    rows: tuple[bytes, ...]
    terminal: bytes | None
    rendering: str
    refusal: str
    usage: str
    narration: str
    exit: int


@attrs.frozen
class Call:
    """One tool call as the dispatch receives it.

    ``argv`` is the command line the tool built, without the program name.
    ``cancelled`` is polled by a Run where its next Step would start: a cancelled
    call drains (the Step in flight finishes, no further Step starts) rather than
    being interrupted mid-effect, so cancellation is a question the Run asks, not an
    exception thrown into it. ``drawn`` says whether the tool's reading shows the page
    the command draws; where it does not, a command may leave the page undrawn.
    """

    argv: tuple[str, ...]
    progress: Progress | None = None
    cancelled: Callable[[], bool] = attrs.field(default=lambda: False)
    drawn: bool = True


Dispatch = Callable[[Call], Answer]
"""Runs one hyper command line and answers what it produced."""

"""hyper's MCP server: its table, its exit codes, its orientation, its dispatch.

The exit-code mapping lives here rather than in ``hyper_mcp`` because the codes are
hyper's (:mod:`hyper.core.exit`) and ``hyper_mcp`` never imports ``hyper``; the adapter is
told what each code means, as any other CLI would tell it.

Importing this module loads no SDK: a :class:`~hyper_mcp.Server` is a value, and only
serving it imports :mod:`hyper_mcp.server`.
"""

from __future__ import annotations

from functools import partial
from typing import Final

from hyper.core import exit as codes
from hyper_mcp import Dispatch, Exit, Exits, Server, Shape
from hyper_mcp.instructions import instructions
from hyper_mcp.tools import hyper_table

NAME: Final = "hyper"

EXITS: Final = Exits(
    {
        codes.CLEAN: Exit(Shape.ANSWER, "completed"),
        codes.PROBLEMS: Exit(Shape.ERROR_ANSWER, "failed"),
        codes.USAGE: Exit(Shape.USAGE),
        codes.STORE_LOST: Exit(Shape.ERROR_ANSWER, "failed"),
        codes.REFUSED: Exit(Shape.REFUSAL, "refused"),
        # A signal ends the server's own process, never one call: no envelope answers it.
        codes.INTERRUPTED: Exit(Shape.FAULT, "failed"),
        codes.TERMINATED: Exit(Shape.FAULT, "failed"),
    }
)
"""Every one of hyper's seven exit codes, and what each makes of a tool call."""


def server(version: str, dispatch: Dispatch) -> Server:
    """``hyper mcp`` at ``version``, serving the thirteen tools over ``dispatch``."""
    return Server(
        name=NAME,
        version=version,
        instructions=partial(instructions, version),
        table=hyper_table(EXITS),
        dispatch=dispatch,
    )

"""The Server: one tool table over one dispatch, reachable over stdio and in memory.

It is a value, constructed once, and both ways in reach the same server with the
same table, so what the tests and the corpus drive and what a client starts cannot
differ. Constructing it loads no SDK: :meth:`Server.serve` and the in-memory driver
import :mod:`hyper_mcp.server` when they start a session.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from hyper_mcp.answer import Dispatch
from hyper_mcp.table import Table

if TYPE_CHECKING:
    from hyper_mcp.driver import CallOutcome, Declared


@attrs.frozen
class Server:
    """An MCP server for an argv CLI.

    ``name`` and ``version`` are what ``initialize`` announces; ``instructions`` is
    the orientation it carries (a function of nothing, read at each ``initialize``);
    ``table`` is every tool, checked for duplicate names when it was built;
    ``dispatch`` runs one command line and answers what it produced.

    Calls are served concurrently, each on a worker thread of its own: the dispatch
    must be safe to call from several threads at once (ADR 0015). A tool annotated as a
    read of the local world (read-only, closed world), called while nothing else is in
    flight, runs on the session's own thread instead.
    """

    name: str
    version: str
    instructions: Callable[[], str]
    table: Table
    dispatch: Dispatch

    def serve(self) -> int:
        """Serve on the process's stdin and stdout until the client closes stdin.

        Answers 0 for a session that ended cleanly, and 1 — with ``<name> mcp: <fault>``
        on stderr — for a server that failed.
        """
        from hyper_mcp.server import serve

        return serve(self)

    # --- the in-memory driver: a real session, a client in this process ---

    def call(self, tool: str, arguments: bytes | None = b"{}") -> CallOutcome:
        """One call after a real handshake, over in-memory line streams.

        ``arguments`` goes on the wire as written; None leaves the member out.
        """
        from hyper_mcp.driver import call_blocking

        return call_blocking(self, tool, arguments)

    def watched(self, tool: str, arguments: bytes | None, token: object) -> CallOutcome:
        """:meth:`call` with a progress token: the outcome's ``watching`` holds what arrived beside it."""
        from hyper_mcp.driver import call_blocking

        return call_blocking(self, tool, arguments, token)

    def tools(self, protocol_version: str | None = None) -> list[Declared]:
        """``tools/list`` as a client that negotiated ``protocol_version`` receives it."""
        from hyper_mcp.driver import list_tools_blocking

        return list_tools_blocking(self, protocol_version)

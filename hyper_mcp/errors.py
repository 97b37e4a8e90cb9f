"""The one failure this surface reports outside an envelope.

A malformed call, a usage error the command reported, and a fault in the server all
reach the client the same way: as a JSON-RPC error carrying one message. They are one
type here because the protocol draws no line between them either — what tells them
apart is the sentence, which is written for the person or agent that made the call.
"""

from __future__ import annotations

from typing import Final

ERROR_CODE: Final = 0
"""The JSON-RPC ``code`` every one of these errors carries.

The reference server answers handler errors with code 0 (its SDK copies a code only
from an error that carries one, and hyper's never do), and no golden or client reads
the code — only the message. Keeping 0 keeps the wire identical; see ADR-0003.
"""


class ProtocolError(Exception):
    """A call answered with a JSON-RPC error rather than an envelope."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @classmethod
    def of_tool(cls, tool: str, sentence: str) -> ProtocolError:
        """A malformed call: the tool names itself, since no command ever ran."""
        return cls(f"{tool}: {sentence}")

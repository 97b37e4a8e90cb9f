"""hyper's MCP surface: tool calls mapped to command lines, answers mapped to envelopes.

Importing this package is cheap: the SDK is imported only by :mod:`hyper_mcp.server`,
which ``hyper mcp`` loads when it starts.
"""

from hyper_mcp.answer import Answer, Call, Dispatch, Progress

__all__ = ["Answer", "Call", "Dispatch", "Progress"]

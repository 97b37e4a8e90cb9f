"""An MCP server for any argv CLI, and hyper's thirteen tools as one table of it.

The public API: a :class:`Table` of :class:`Tool` entries (what each publishes, how
its arguments become argv, which :class:`Reading` of the :class:`Answer` it takes,
which :class:`Exits` map its codes), and a :class:`Server` built from a name, a
version, instructions, the table and a :data:`Dispatch`. See ``docs/mcp-adapter.md``.

Importing this package is cheap: the SDK is imported only by :mod:`hyper_mcp.server`,
which a server loads when it starts a session.
"""

from hyper_mcp.adapter import Server
from hyper_mcp.answer import Answer, Call, Dispatch, Progress
from hyper_mcp.table import (
    Annotations,
    DuplicateTool,
    Exit,
    Exits,
    Read,
    Reading,
    Refused,
    Shape,
    Table,
    Tool,
)

__all__ = [
    "Annotations",
    "Answer",
    "Call",
    "Dispatch",
    "DuplicateTool",
    "Exit",
    "Exits",
    "Progress",
    "Read",
    "Reading",
    "Refused",
    "Server",
    "Shape",
    "Table",
    "Tool",
]

"""What a repository command is handed besides its arguments and its destination."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from hyper.process import Process
from hyper.version import BuildFacts

if TYPE_CHECKING:
    from hyper_mcp import Progress


def never() -> bool:
    return False


class Context(NamedTuple):
    process: Process
    root: str
    """The repository root, absolute, resolved before the command body runs."""
    facts: BuildFacts
    progress: Progress | None = None
    """Step boundaries for a watching MCP client; ``None`` where nobody is watching."""
    cancelled: Callable[[], bool] = never
    """Asked where a Run's next Step would start; a cancelled call drains."""

    @property
    def version(self) -> str:
        return self.facts.version

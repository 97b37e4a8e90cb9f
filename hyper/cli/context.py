"""What a repository command is handed besides its arguments and its destination."""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple
from hyper.core.process import Process
from hyper.core.version import BuildFacts

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable


def never() -> bool:
    return False


class Context(NamedTuple):
    process: Process
    root: str
    """The repository root, absolute, resolved before the command body runs."""
    facts: BuildFacts
    progress: Callable[[int, int, str], None] | None = None
    """Step boundaries for a watching MCP client (``hyper_mcp.Progress``, spelled out: an alias
    imported only for the type checker would be a string here, which ``NamedTuple`` compiles at
    start-up); ``None`` where nobody is watching."""
    cancelled: Callable[[], bool] = never
    """Asked where a Run's next Step would start; a cancelled call drains."""
    declared: bytes | None = None
    """``hyper.yaml``'s bytes as the version-pin gate read them for this command, for the
    repository's load to read the file no second time; ``None`` where the command is not
    gated (or was handed no file)."""

    @property
    def version(self) -> str:
        return self.facts.version

"""Every fault that crosses a module boundary in hyper, each with the exit code it means.

A fault is what stops a command without a traceback. Gathering them here lets a command's
``except`` clauses and the exit code it answers read from one place: each class names its
code from :mod:`hyper.core.exit` as ``exit``, the code a command answers where that fault
alone stops it. Where a command tells a larger story than the fault — a failed push is the
Store lost inside a Run (75) and the world resisting in ``compact`` (1) — the command
names its code, and says why beside it.

Two families are caught whole: :class:`StoreFault` (with ``OSError``, :data:`STORE_FAULTS`)
is everything reading or writing the Store can raise, and :class:`RunFault` adds what a Run
itself can meet (:data:`RUN_FAULTS`). A fault that is a ``ValueError`` or an ``OSError``
today stays one, so a caller that catches the builtin still catches it.

Exceptions that never leave their module — a parser's own unwinding — stay beside the code
they unwind (ADR 0028 names them).

The root, and the invocation's and the repository files' faults that a discovery command
or a review can meet, are defined in :mod:`hyper.core.basefaults`, and what reading the Store can raise in
:mod:`hyper.core.readfaults`; both are re-exported here. A command that never reaches the
Store does not define the Store's and the Run's classes at start-up, and a review, which only
reads it, does not define the writer's, the Run's and the release host's (ADR 0006).
"""

from __future__ import annotations

from hyper.core import exit as codes
from hyper.core.basefaults import (
    Fault,
    MarkerFault,
    Misuse,
    PathFault,
    PinUnreadable,
    RootFault,
    StreamFault,
    Unheld,
    UsageFault,
)
from hyper.core.readfaults import (
    GitError,
    JournalFileUnreadable,
    Misfiled,
    NoRepository,
    PathError,
    RefMoved,
    SchemaUnsupported,
    StoreAbsent,
    StoreFault,
    StoreFileError,
    TooDeep,
)

__all__ = [  # the names defined in basefaults and readfaults, re-exported: every other fault is defined here
    "Fault",
    "GitError",
    "JournalFileUnreadable",
    "MarkerFault",
    "Misfiled",
    "Misuse",
    "NoRepository",
    "PathError",
    "PathFault",
    "PinUnreadable",
    "RefMoved",
    "RootFault",
    "SchemaUnsupported",
    "StoreAbsent",
    "StoreFault",
    "StoreFileError",
    "StreamFault",
    "TooDeep",
    "Unheld",
    "UsageFault",
]

# --- the invocation and the repository's files, met only past a discovery command or a review -----


class WindowFault(Misuse):
    """A window the caller named that cannot be made: every line of the text."""


class NotARef(Misuse):
    """The typed string is outside the grammar; the text is the clause it broke."""


class TemplateFault(Misuse):
    """A template that cannot become bytes; the message names the position at fault."""


class SuppliedFault(Misuse):
    """A supplied response object no call could have produced; the text follows ``--response <path>: ``."""


class WriteFault(Fault):
    """A file could not be written or removed: the repository-relative path, and why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")


# --- the release host and the registry -------------------------------------------------------


class ReleaseAbsent(Fault):
    """The release host answered, and there is no artefact to pin; the text names what answered.
    The remedy is a release somebody publishes, so it Refuses."""

    exit = codes.REFUSED


class NotArrived(Fault):
    """The release page could not be read, or was not the index's; the text says why."""


class InstallFailed(Fault):
    """The fetch or the write of ``hyper install`` did not complete; the text says what."""


# --- the Store ---------------------------------------------------------------------------------


class PushExhausted(StoreFault):
    """Three pushes rejected in a row. What was written stands locally and goes out with the
    next push: a Run has lost the Store (75); ``compact`` and ``store init`` answer 1."""

    exit = codes.STORE_LOST

    def __init__(self, last: GitError) -> None:
        super().__init__(
            "the remote rejected the push three times in a row; everything written stays committed"
            f" here and leaves with the next push: {last}"
        )
        self.last = last


class InitPushFailed(StoreFault):
    """The branch was created here and the push that followed failed; the root stands locally
    and the next ``store init`` sends it."""

    def __init__(self, cause: GitError) -> None:
        super().__init__(str(cause))
        self.cause = cause


class Contended(StoreFault):
    """Another Run holds the lock in a mode that excludes this one: clears with time (75)."""

    exit = codes.STORE_LOST

    def __init__(self, branch: str) -> None:
        super().__init__(
            f"another Run holds this repository's {branch} lock; a Run keeps it for its whole"
            " length, and this one does not wait for it"
        )


class PathTaken(StoreFault):
    """An append aimed at a path the branch already holds. Every Store path carries the id of
    the Run that wrote it, so this is hyper's own arithmetic being wrong, never the world."""


class IdentitySetError(Fault, ValueError):
    """A backward walk that could not resolve the set a digest names."""


# --- the Run -----------------------------------------------------------------------------------


class RunFault(Fault):
    """What a Run can meet besides the Store; each ends it ``failed``, with the fault as narration."""


class RevisionUnread(RunFault):
    """The code branch could not be read: no commit at HEAD, or git failed."""


class Unbound(RunFault):
    """A Step whose binding does not resolve — which ``check`` reports before any Run."""


class SinkUnwritten(RunFault):
    """A secret in hand that could not be put in the sink: a fault of the Run, never a silence."""


STORE_FAULTS: tuple[type[Exception], ...] = (StoreFault, OSError)
"""Everything reading or writing the Store can raise, the operating system's faults included."""

RUN_FAULTS: tuple[type[Exception], ...] = (*STORE_FAULTS, RunFault)
"""What the world (or a repository check would have refused) can throw into a Run; each ends
it ``failed`` with the fault as narration, never a traceback."""

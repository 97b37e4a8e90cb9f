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

The root, the invocation's faults and the repository files' are defined in
:mod:`hyper.core.basefaults` and re-exported here: a command that never reaches the Store
does not define the Store's and the Run's classes at start-up (ADR 0006).
"""

from __future__ import annotations

from hyper.core import exit as codes
from hyper.core.basefaults import (
    Fault,
    MarkerFault,
    Misuse,
    NotARef,
    PathFault,
    PinUnreadable,
    RootFault,
    StreamFault,
    SuppliedFault,
    TemplateFault,
    Unheld,
    UsageFault,
    WindowFault,
    WriteFault,
)

__all__ = [  # the names defined in basefaults, re-exported: every other fault is defined here
    "Fault",
    "MarkerFault",
    "Misuse",
    "NotARef",
    "PathFault",
    "PinUnreadable",
    "RootFault",
    "StreamFault",
    "SuppliedFault",
    "TemplateFault",
    "Unheld",
    "UsageFault",
    "WindowFault",
    "WriteFault",
]

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence


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


class StoreFault(Fault):
    """Everything reading or writing the Store can raise: the world resisting (1) unless the
    subclass says otherwise."""


class StoreAbsent(StoreFault):
    """No Store branch here (nor on the remote, where there is one): the condition a caller
    renders as ``store-absent``. A Run never creates the branch, and the remedy is somebody's
    act, so it Refuses."""

    exit = codes.REFUSED

    def __init__(self, branch: str) -> None:
        super().__init__(
            f"this repository has no {branch} branch; the Store is made by `hyper store init`, never by a Run"
        )


class NoRepository(StoreFault):
    """The repository root holds no ``.git``: the Store is a branch of the repository the
    artefacts sit in, so there is nothing to act on — the invocation's to fix."""

    exit = codes.USAGE

    def __init__(self) -> None:
        super().__init__(
            "the repository root is not a git repository; the Store is a branch of the repository the artefacts live in"
        )


class GitError(StoreFault):
    """A git call that failed: what was run, how it ended, and what git said about it."""

    def __init__(self, args: Sequence[str], status: int, stderr: str) -> None:
        said = stderr.strip()
        text = f"git {' '.join(args)}: exit status {status}"
        super().__init__(f"{text}: {said}" if said else text)
        self.args_run = tuple(args)
        self.status = status
        self.stderr = said


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


class RefMoved(StoreFault):
    """The branch was not where this writer last saw it: another writer got there first."""


class PathTaken(StoreFault):
    """An append aimed at a path the branch already holds. Every Store path carries the id of
    the Run that wrote it, so this is hyper's own arithmetic being wrong, never the world."""


class PathError(StoreFault, ValueError):
    """A path outside the six forms, or one no constructor here could have built."""


class StoreFileError(StoreFault, ValueError):
    """A Store file that does not decode to its shape."""


class SchemaUnsupported(StoreFileError):
    """The file says it was written in a shape above this binary's ceiling.

    A Run renders it as the Refusal ``store-schema-unsupported`` naming the path it read; the
    decoder knows no path, so the caller adds it. The remedy is a newer binary: it Refuses.
    """

    exit = codes.REFUSED

    def __init__(self, written: int, known: int) -> None:
        super().__init__(f"this file was written at schema version {written}, and this hyper reads up to {known}")
        self.written = written
        self.known = known


class JournalFileUnreadable(StoreFileError):
    """A file under a Journal entry that would not decode: above this binary's schema ceiling,
    or bytes no decoder here accepts. Told apart from a misfiled entry, which no gate tolerates."""

    def __init__(self, path: str, cause: StoreFileError) -> None:
        super().__init__(f"{path}: {cause}")
        self.path = path
        self.cause = cause


class Misfiled(StoreFileError):
    """A file that does not sit at the path its own contents build."""


class TooDeep(StoreFault, ValueError):
    """A value nests arrays and objects deeper than the reader holds: a document read, or a
    Store file about to be written that nothing could read back (ADR 0030)."""

    def __init__(self, depth: int, subject: str = "arrays and objects") -> None:
        super().__init__(f"{subject} nest more than {depth} levels deep, deeper than hyper reads")


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

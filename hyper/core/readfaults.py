"""The faults reading the Store can raise: its root, :class:`StoreFault`, and the reader's own.

Defined apart from :mod:`hyper.core.faults`, which re-exports every one and stays the module
the rest of hyper imports its faults from (ADR 0028): a review reads one Journal entry and one
blob, and defines these eleven classes rather than every fault a writer, a Run or the release
host can meet (ADR 0006). A module a review imports takes its faults from here, as a module on
a discovery command's path takes them from :mod:`hyper.core.basefaults`.
"""

from __future__ import annotations

from hyper.core import exit as codes
from hyper.core.basefaults import Fault

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence


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


class RefMoved(StoreFault):
    """The branch was not where this writer last saw it: another writer got there first."""


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

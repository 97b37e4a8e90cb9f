"""The Store lock: ``.git/hyper/lock``, shared for a read-only Run, exclusive for an effectful one.

It is an advisory lock the kernel holds on an open file, not a file whose existence is the
lock, so a hyper killed outright releases it on the spot and nothing is left to clean up. It
never waits: contention is an outcome (a Run maps :class:`Contended` to exit 75), not a queue.
It is one filesystem's lock; across machines nothing stands in for it.
"""

from __future__ import annotations

import enum
import fcntl
import os

from hyper.core.faults import Contended
from hyper.core.process import Process
from hyper.store.git import Git
from hyper.store.names import BRANCH

LOCAL_STATE_DIR = "hyper"
LOCK_FILE = "lock"


class LockMode(enum.Enum):
    SHARED = "shared"
    EXCLUSIVE = "exclusive"


class Lock:
    """The lock, held until :meth:`release` or the process ends, whichever is first."""

    def __init__(self, descriptor: int, layout: tuple[str, str, str]) -> None:
        self._descriptor: int | None = descriptor
        self.layout = layout
        """What :meth:`Git.layout` answered in finding the lock: the Store a Run then opens
        is handed it, so one Run asks git for its repository's layout once."""

    def __enter__(self) -> Lock:
        return self

    def __exit__(self, *_: object) -> None:
        self.release()

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def release(self) -> None:
        """Gives the lock up; a second release is nothing rather than a fault."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        try:
            fcntl.flock(descriptor, fcntl.LOCK_UN)
        finally:
            os.close(descriptor)


def acquire(root: str, process: Process, mode: LockMode) -> Lock:
    """Takes the lock under the repository's common git directory (shared by every worktree of
    the clone), or raises :class:`Contended`."""
    layout = Git.open(root, process, process.now()).layout()
    common = layout[2]
    directory = os.path.join(common, LOCAL_STATE_DIR)
    os.makedirs(directory, exist_ok=True)
    descriptor = os.open(os.path.join(directory, LOCK_FILE), os.O_RDONLY | os.O_CREAT, 0o644)
    operation = fcntl.LOCK_EX if mode is LockMode.EXCLUSIVE else fcntl.LOCK_SH
    try:
        fcntl.flock(descriptor, operation | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise Contended(BRANCH) from None
    except OSError:
        os.close(descriptor)
        raise
    return Lock(descriptor, layout)

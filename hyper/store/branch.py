"""The branch itself: its fixed names, a handle on it, appending to it and creating it.

The branch is ``hyper-store`` on remote ``origin``, and neither is configurable: one
repository has one Store, and finding it is knowing the name. It is never checked out.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.namedtuple import NamedTuple
from hyper.core.process import Process
from hyper.core.readfaults import GitError, RefMoved, StoreAbsent
from hyper.store.git import Git, PathOperation, TreeFile, unix_seconds
from hyper.store.names import BRANCH, REF, REMOTE
from hyper.store.objects import ObjectStore

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

INTRODUCTION = (
    "# The `hyper` Store\n"
    "\n"
    "This is `hyper-store`, the orphan branch where `hyper` keeps its record of this\n"
    "repository: a Journal entry for every Run under `journal/`, and every Record\n"
    "version a Run wrote under `records/`. Every file but this one was written by\n"
    "`hyper`, and none is meant to be written by anyone else.\n"
    "\n"
    "`hyper` never checks this branch out. It reads and writes git objects directly,\n"
    "so your working tree, your index and the branch you have checked out are left\n"
    "alone. Files here only accumulate; the one exception is `hyper compact`, which\n"
    "removes what the `retention:` in `hyper.yaml` lets go.\n"
    "\n"
    "To read it, ask `hyper`: `hyper runs`, `hyper show <run-id>`, `hyper records`.\n"
    "Plain git reads it too: `git log hyper-store`, `git ls-tree -r hyper-store`,\n"
    "`git show hyper-store:<path>`.\n"
    "\n"
    "Nothing here is configuration, nothing here is reviewed, and nothing here steers\n"
    "what the next Run does. Editing a file by hand is tampering with evidence.\n"
)
"""``STORE.md``: written once when the Store is created, identical in every repository."""

CREATE_MESSAGE = "Create the hyper Store"

_LOCAL_RETRIES = 8


class Write(NamedTuple):
    """One file to put on the branch: the path the grammar built and the canonical bytes."""

    path: str
    content: bytes


class Store:
    """A handle on the branch as it stands, pinned to one commit and one clock reading.

    Every answer is read out of that commit's tree, so two answers about one Store are answers
    about one Store; an append moves the handle to what it wrote.
    """

    def __init__(self, git: Git, objects: ObjectStore, commit: str, now: _dt.datetime) -> None:
        self.git = git
        self.objects = objects
        self.commit = commit
        self.now = now
        self._staged: str | None = None
        self._replay: list[tuple[list[PathOperation], str]] = []

    @classmethod
    def open(cls, root: str, process: Process, now: _dt.datetime, layout: tuple[str, str, str] | None = None) -> Store:
        """The Store the clone holds; :class:`StoreAbsent` where it holds none. No network.
        ``layout`` is :meth:`Git.layout`'s answer where the caller has it already."""
        return cls.on(Git.open(root, process, now), now, layout)

    @classmethod
    def on(cls, git: Git, now: _dt.datetime, layout: tuple[str, str, str] | None = None) -> Store:
        """The Store of ``git``'s repository, found by the object reader the handle keeps for
        every later read, so that opening a Store to read it starts one child, not three."""
        return Opening(git, now, layout).store()

    def files(
        self, prefix: str, skip: Callable[[str, str], bool] | None = None, seen: list[tuple[str, str]] | None = None
    ) -> list[TreeFile]:
        """Every file under the directory ``prefix`` of the commit this handle is pinned to
        (see :meth:`ObjectStore.files` for ``skip`` and ``seen``)."""
        return self.objects.files(self.commit, prefix, skip, seen)

    def contents(self, names: Sequence[str]) -> list[bytes]:
        """The bytes of every blob named, in order; a name that answers nothing is a fault."""
        contents = []
        for name, answer in zip(names, self.objects.lookup(names), strict=True):
            if answer is None or answer[1] != b"blob":
                raise GitError(("cat-file", "--batch"), 0, f"{name} is not a blob in the object database")
            contents.append(answer[2])
        return contents

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.objects.close()

    def publish(self) -> None:
        """Sends the branch to ``origin`` (nothing at all where no remote is configured), and
        moves the handle to whatever the push left the branch at."""
        if self.git.has_remote(REMOTE):
            from hyper.store.exchange import push  # deferred: a Store opened to be read never pushes

            try:
                push(self.git, self.now)
            finally:
                self.commit = self.git.resolve(REF)

    def append(self, writes: Sequence[Write], message: str) -> None:
        """Puts the files on the branch as one commit, and pushes nothing.

        Every path must be new to the branch. No writes, no commit. Where another writer moved
        the branch meanwhile, the same writes are laid onto the tip it left: every path names
        the Run that wrote it, so two writers never contend for one.
        """
        if not writes:
            return
        operations = [PathOperation(write.path, self.objects.blob(write.content)) for write in writes]
        self.apply(operations, message, append_only=True)

    @property
    def tip(self) -> str:
        """The commit the next write builds on: the staged tip, else the branch's."""
        return self._staged or self.commit

    def stage(self, writes: Sequence[Write], message: str) -> None:
        """One commit of new files, built on :attr:`tip` in memory without moving the branch.

        A Run makes one commit per confirmed write but need not pay a ref transaction (and a
        file per object) for each: staged commits reach the branch at :meth:`settle`, with
        the history exactly what the same appends one at a time would have left. Until
        then only :attr:`tip` and the object reader (which sees pending objects) see them;
        a process killed meanwhile leaves the branch where it was last settled.
        """
        if not writes:
            return

        operations = [PathOperation(write.path, self.objects.blob(write.content)) for write in writes]
        self._replay.append((operations, message))
        tree = _edited(self.objects, self.objects.commit_tree(self.tip), operations, append_only=True)
        self._staged = self.objects.commit(tree, [self.tip], message, unix_seconds(self.now))

    def settle(self) -> None:
        """Moves the branch to the staged tip — the staged commits rebuilt, in order, onto
        whatever another writer moved it to meanwhile (every path names its own Run, so
        the replay never meets a path it did not write)."""
        for _ in range(_LOCAL_RETRIES):
            if self._staged is None:
                return
            try:
                self.objects.move(REF, self._staged, self.commit)
            except RefMoved:
                self.commit = self.git.resolve(REF)
                tip = self.commit
                for operations, message in self._replay:
                    tree = _edited(self.objects, self.objects.commit_tree(tip), operations, append_only=True)
                    tip = self.objects.commit(tree, [tip], message, unix_seconds(self.now))
                self._staged = tip
                continue
            self.commit, self._staged = self._staged, None
            self._replay.clear()
            return
        raise RefMoved(f"{REF} kept moving under {_LOCAL_RETRIES} attempts to settle")

    def apply(self, operations: Sequence[PathOperation], message: str, *, append_only: bool = False) -> None:
        """One commit of path operations (writes and removals) on the branch."""
        for _ in range(_LOCAL_RETRIES):
            base = self.commit
            tree = _edited(self.objects, self.objects.commit_tree(base), operations, append_only=append_only)
            commit = self.objects.commit(tree, [base], message, unix_seconds(self.now))
            try:
                self.objects.move(REF, commit, base)
            except RefMoved:
                self.commit = self.git.resolve(REF)
                continue
            self.commit = commit
            return
        raise RefMoved(f"{REF} kept moving under {_LOCAL_RETRIES} attempts to append")


def _edited(objects: ObjectStore, tree: str | None, operations: Sequence[PathOperation], *, append_only: bool) -> str:
    """:func:`hyper.store.tree.apply`, imported on the first edit: a handle that only reads
    edits no tree (ADR 0006)."""
    from hyper.store.tree import apply  # deferred: start-up cost

    return apply(objects, tree, operations, append_only=append_only)


class Opening:
    """A Store being opened: its object reader started and the branch's tip asked for, the
    answer not yet read.

    git takes a few milliseconds to start and answer, more on a loaded machine; a command that
    opens the Store as early as it knows it will read it, and does its other work before
    :meth:`store`, overlaps them instead of waiting for git in full. ``layout`` is
    :meth:`Git.layout`'s answer where the opener has it already, as for :meth:`Store.on`.
    """

    __slots__ = ("_tip", "git", "now", "objects")

    def __init__(self, git: Git, now: _dt.datetime, layout: tuple[str, str, str] | None = None) -> None:
        self.git = git
        self.now = now
        self.objects = ObjectStore(git, layout)
        try:
            self._tip = self.objects.ask([REF + "^{commit}"])
        except BaseException:
            self.objects.close()
            raise

    def store(self) -> Store:
        """The Store, once git has answered; :class:`StoreAbsent` where the clone holds none."""
        try:
            (answer,) = self._tip()
        except BaseException:
            self.objects.close()
            raise
        if answer is None:
            self.objects.close()
            raise StoreAbsent(BRANCH)
        return Store(self.git, self.objects, answer[0], self.now)

    def close(self) -> None:
        """Ends the reader where :meth:`store` was never reached (closing it twice is harmless)."""
        self.objects.close()


def create(git: Git, now: _dt.datetime) -> None:
    """The Store's root: ``STORE.md`` alone, a parentless commit, and a ref that must not exist."""
    from hyper.store.paths import INTRODUCTION_PATH  # deferred: a Store opened to be read creates nothing

    objects = ObjectStore(git)
    try:
        blob = objects.blob(INTRODUCTION.encode("utf-8"))
        tree = _edited(objects, None, [PathOperation(INTRODUCTION_PATH, blob)], append_only=True)
        commit = objects.commit(tree, [], CREATE_MESSAGE, unix_seconds(now))
        objects.move(REF, commit, None)
    finally:
        objects.close()

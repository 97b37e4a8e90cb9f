"""git as a subprocess: the calls the Store is synced, published and listed with.

Every child is started in the repository root with the process's own environment less the
variables that would point git at some other repository — so credential helpers, SSH agents
and configuration are reached exactly as the user's own ``git push``/``git fetch`` reach them —
plus hyper's commit identity, dates from the injected clock, no terminal prompt (a runner that
stopped to ask for a password would hang rather than fail) and no lazy fetch (a read must never
silently become a network call). It is started through
:attr:`hyper.core.process.Process.launch`, or, for one the Store talks to over pipes, through
the real process's :attr:`~hyper.core.process.Process.spawn`, told the root by ``git -C``.
Each child starts in a session of its own, so a terminal's Ctrl-C — sent to the whole
foreground group — reaches hyper, which drains, and not the git the drain records with.

git's stderr is captured and never passed through: hyper's stderr is the command's narration.
"""

from __future__ import annotations

import datetime as _dt
import os

from hyper.core.namedtuple import NamedTuple
from hyper.core.process import Process
from hyper.core.readfaults import GitError, NoRepository

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Mapping, Sequence

    from hyper.core.process import Piped

COMMIT_NAME = "hyper"
COMMIT_EMAIL = "hyper@hyper.invalid"

REDIRECTING = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
)
"""The variables that decide *which* repository git acts on. git sets GIT_DIR and
GIT_INDEX_FILE for every hook it runs, so hyper run from a hook would otherwise write through
whatever they point at."""

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)


def unix_seconds(instant: _dt.datetime) -> int:
    """Whole seconds since the epoch: a git date has no finer grain."""
    return (instant.astimezone(_dt.UTC) - _EPOCH) // _dt.timedelta(seconds=1)


def environment(environ: Mapping[str, str], now: _dt.datetime) -> dict[str, str]:
    """What every git child runs with: inherited, less :data:`REDIRECTING`, plus ours last."""
    stamp = f"{unix_seconds(now)} +0000"
    env = {name: value for name, value in environ.items() if name not in REDIRECTING}
    env.update(
        GIT_AUTHOR_NAME=COMMIT_NAME,
        GIT_AUTHOR_EMAIL=COMMIT_EMAIL,
        GIT_AUTHOR_DATE=stamp,
        GIT_COMMITTER_NAME=COMMIT_NAME,
        GIT_COMMITTER_EMAIL=COMMIT_EMAIL,
        GIT_COMMITTER_DATE=stamp,
        GIT_TERMINAL_PROMPT="0",
        GIT_NO_LAZY_FETCH="1",
    )
    return env


TREE_MODE = "40000"
FILE_MODE = "100644"


class TreeEntry(NamedTuple):
    """One entry of one tree: a file (``100644``) or a subtree (``40000``). It is here, with
    :class:`TreeFile`, rather than with the editable :class:`~hyper.store.level.Level`, because
    a reader lists trees and never edits one: a review loads no ``Level`` (nor ``bisect``)."""

    mode: str
    name: str
    sha: str

    @property
    def is_tree(self) -> bool:
        return self.mode == TREE_MODE


class TreeFile(NamedTuple):
    """One file on the branch as a listing finds it: where it sits and the blob standing there."""

    path: str
    blob: str


class PathOperation(NamedTuple):
    """One thing a commit did to one path: wrote ``blob`` there, or (``blob == ""``) removed it.

    It is the grain a rejected push is re-applied at, and what a Compaction is made of.
    """

    path: str
    blob: str = ""

    @property
    def removes(self) -> bool:
        return not self.blob


class Git:
    """One repository as the Store reaches it: its root, the environment, and the launcher."""

    __slots__ = ("_remotes", "env", "process", "root")

    def __init__(self, root: str, process: Process, env: dict[str, str]) -> None:
        self.root = root
        self.process = process
        self.env = env
        self._remotes: tuple[str, ...] | None = None

    @classmethod
    def open(cls, root: str, process: Process, now: _dt.datetime) -> Git:
        """The repository at ``root`` itself — a ``.git`` entry there, file or directory, and
        never a walk upward, which could climb into whatever repository lay above."""
        if not os.path.lexists(os.path.join(root, ".git")):
            raise NoRepository()
        return cls(root, process, environment(process.environ, now))

    def launch(self, args: Sequence[str], *, stdin: bool = False) -> subprocess.Popen[bytes]:
        import subprocess  # deferred: a Store that is only read starts its one child through start

        return self.process.launch(
            ["git", *args],
            cwd=self.root,
            env=self.env,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )

    def start(self, args: Sequence[str]) -> Piped:
        """A child the Store talks to over its pipes for as long as the handle lives
        (``cat-file --batch``, ``update-ref --stdin``). The real process spawns it without
        ``subprocess``, and so without its working directory: git is told the root by ``-C``,
        which it applies before anything else it reads, as a child started there would."""
        spawn = self.process.spawn
        if spawn is None:
            return self.launch(args, stdin=True)
        return spawn(["git", "-C", self.root, *args], self.env)

    def call(self, *args: str, stdin: bytes | None = None) -> tuple[int, bytes, str]:
        child = self.launch(args, stdin=stdin is not None)
        out, err = child.communicate(stdin)
        return child.returncode, out, err.decode("utf-8", "replace")

    def run(self, *args: str, stdin: bytes | None = None) -> bytes:
        status, out, err = self.call(*args, stdin=stdin)
        if status != 0:
            raise GitError(args, status, err)
        return out

    def text(self, *args: str) -> str:
        return self.run(*args).decode("utf-8").strip()

    def holds_ref(self, ref: str) -> bool:
        """Exit 1 from ``show-ref --verify --quiet`` is *not there*; any other failure is a fault."""
        args = ("show-ref", "--verify", "--quiet", ref)
        status, _, err = self.call(*args)
        if status == 0:
            return True
        if status == 1:
            return False
        raise GitError(args, status, err)

    def has_remote(self, name: str) -> bool:
        """Whether the repository names remote ``name``, asked of git once per handle: a handle
        serves one command, whose sync and every push (an effectful Run's, after each Step)
        ask the same question, and a child per asking costs more than the answer can change."""
        if self._remotes is None:
            self._remotes = tuple(self.run("remote").decode("utf-8").split())
        return name in self._remotes

    def remote_holds_ref(self, remote: str, ref: str) -> bool:
        """An empty listing is *the remote lacks it*; an error is the world resisting, and the
        two are never folded together — that is how a second orphan root would get minted."""
        return bool(self.run("ls-remote", "--", remote, ref).strip())

    def fetch(self, remote: str, src: str, dst: str, *, shallow: bool) -> None:
        """One ref, named on both sides; depth 1 only on arrival, never a filter."""
        depth = ("--depth=1",) if shallow else ()
        self.run("fetch", "--quiet", "--no-tags", *depth, "--", remote, f"{src}:{dst}")

    def push(self, remote: str, ref: str) -> None:
        self.run("push", "--quiet", "--", remote, f"{ref}:{ref}")

    def resolve(self, ref: str) -> str:
        return self.text("rev-parse", "--verify", "--quiet", ref + "^{commit}")

    def is_ancestor(self, ref: str, of: str) -> bool:
        """Whether ``ref`` holds no commit ``of`` lacks — moving to ``of`` would lose nothing."""
        return not self.run("rev-list", ref, "^" + of).strip()

    def commits_since(self, ref: str, excluding: str) -> list[str]:
        """The commits ``ref`` holds that ``excluding`` does not, oldest first."""
        return self.run("rev-list", "--reverse", ref, "^" + excluding).decode("ascii").split()

    def message_of(self, commit: str) -> str:
        return self.run("log", "-1", "--format=%B", commit).decode("utf-8").rstrip("\n")

    def operations_in(self, commit: str) -> list[PathOperation]:
        """What one commit did, path by path, against its parent (or nothing, for a root)."""
        listing = self.run("diff-tree", "-r", "-z", "--no-commit-id", "--no-renames", "--root", commit)
        fields = listing.decode("utf-8").rstrip("\0").split("\0") if listing.strip(b"\0") else []
        if len(fields) % 2:
            raise GitError(("diff-tree", commit), 0, "the listing stopped in the middle of a record")
        operations = []
        for header, path in zip(fields[::2], fields[1::2], strict=True):
            parts = header.split()
            if len(parts) != 5 or not parts[0].startswith(":"):
                raise GitError(("diff-tree", commit), 0, f"{header!r} is not a raw diff record")
            operations.append(PathOperation(path, "" if parts[4] == "D" else parts[3]))
        return operations

    def create_ref(self, ref: str, commit: str) -> None:
        """Point ``ref`` at ``commit`` only where it does not exist yet."""
        self.run("update-ref", ref, commit, "")

    def move_ref(self, ref: str, commit: str, expected: str) -> None:
        """Compare-and-swap: move ``ref`` only where it still stands at ``expected``."""
        self.run("update-ref", ref, commit, expected)

    def layout(self) -> tuple[str, str, str]:
        """The objects directory, the object format and the common git directory, absolute."""
        lines = self.text("rev-parse", "--git-path", "objects", "--show-object-format", "--git-common-dir")
        objects, object_format, common = lines.splitlines()
        return (
            os.path.join(self.root, objects),
            object_format,
            os.path.join(self.root, common),
        )

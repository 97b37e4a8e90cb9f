"""The Run-start schema gate's memo: the trees and files this very code has already found
readable, by path and object id — see adr/0013-the-run-start-check-remembers-what-it-read.md.

An object id names its content forever, so "the file at this path with this id decodes" and
"every file under this tree at this path decodes" stay true for as long as the code deciding
them is the same code. The memo is keyed by a digest of that code's source, so an edited or
upgraded decoder starts from nothing; a tampered, rewritten or non-canonical file has another
id and is read afresh. The memo only ever skips reading: a memo that is missing, unreadable,
or written by other code is an empty one, and a memo that cannot be saved is not saved.

Each save keeps only the frontier the next check will meet (:meth:`Checked.walked`), so the
file stays the size of what one Run changes, not of the branch's history — the first check
after an upgrade reads everything, and still writes no more than a later one does.
Safe across threads and processes in the only sense it needs: a save replaces the file
whole (a temporary file, then a rename), and any memo a reader sees is one a check wrote.
"""

from __future__ import annotations

import functools
import os

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

_NAME = "checked"
_DECIDERS = (
    "hyper.core.namedtuple",
    "hyper.core.ids",
    "hyper.core.row",
    "hyper.store.canonical",
    "hyper.store.journal",
    "hyper.store.paths",
    "hyper.store.provenance",
    "hyper.store.record",
    "hyper.store.schema",
    "hyper.store.step",
    "hyper.store.identities",
    "hyper.store.reading",
    "hyper.store.checked",
    "hyper.store.summaries",
)
"""The modules whose code decides whether a Store file is readable, and what it says; their
source keys this memo and the Journal's summaries (adr/0031)."""


def source_key(tag: str) -> str | None:
    """A digest of ``tag`` and the deciding modules' source; ``None`` where one cannot be read.

    Each memo names its own ``tag``; the source beneath it is digested once per process
    (:func:`_source_digest`), however many memos the process opens."""
    source = _source_digest()
    if source is None:
        return None
    from hyper.core.digest import key_hex  # deferred: as in _source_digest

    return key_hex(f"{tag}\n{source}".encode())


@functools.cache
def _source_digest() -> str | None:
    """A digest of the deciding modules' source, as bytes on disk; ``None`` where one cannot be read.

    Each source is found beside this module, in the package's own directory, not through
    ``sys.modules``: a command that has not imported a decider (a review never loads the Record
    reader) must still reach the same key as one that has, or its memos would go unused. Read
    once per process: every Journal handle and Run-start check of the process keys its memo by
    the code that process runs. The bytes are digested with BLAKE2b rather than SHA-256, a
    quarter of the cost at this size for the same guarantee (adr/0046)."""
    from hyper.core.digest import key_hex  # deferred: a reader that checks nothing never keys a memo

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    keyed = []
    for name in _DECIDERS:
        path = os.path.join(package, *name.split(".")[1:]) + ".py"
        try:
            with open(path, "rb") as source:
                keyed.append(source.read())
        except OSError:
            return None
    return key_hex(b"".join(keyed))


class Checked:
    """What earlier checks found readable, and what this one has met so far."""

    def __init__(self, path: str | None, key: str | None, held: frozenset[str]) -> None:
        self._path = path
        self._key = key
        self._held = held
        self._met: set[str] = set()
        self._paths: frozenset[str] | None = None

    @classmethod
    def load(cls, git_dir: str) -> Checked:
        key = source_key("hyper-checked 1")
        path = os.path.join(git_dir, "hyper", _NAME)
        if key is None:
            return cls(None, None, frozenset())
        try:
            with open(path, encoding="utf-8") as memo:
                lines = memo.read().split("\n")
        except (OSError, UnicodeDecodeError):
            lines = []
        held = frozenset(lines[1:]) if lines and lines[0] == key else frozenset()
        return cls(path, key, held)

    def holds(self, path: str, sha: str) -> bool:
        return f"{sha} {path}" in self._held

    def walked(self, trees: Sequence[tuple[str, str]], files: Iterable[tuple[str, str]]) -> None:
        """Keeps, of one prefix's walk found readable, what the next check is likely to meet.

        ``trees`` is every tree the walk met as ``(path, id)``, its root first and each tree
        before those beneath it, skipped ones included; ``files`` every file it listed. Every
        one of them is readable, but keeping them all would make the memo — and its reading at
        every Run — the size of the branch's history. A tree's entries are kept only where that
        tree is the root or an entry of a tree kept so, and is either its parent's last subtree
        (the newest: date partitions and Run ids sort by time, so a Run's writes land on that
        path) or on the previous memo's frontier (a tree seen to change). An older subtree is
        then kept as one line, and read afresh only in the rare check that finds it changed.
        """
        if not trees:
            return
        root = trees[0][0]
        last: dict[str, str] = {}
        for path, _ in trees[1:]:
            last[_parent(path)] = path
        before = self._frontier()
        opened = {root}
        self._met.add(f"{trees[0][1]} {root}")
        for path, sha in trees[1:]:
            if _parent(path) in opened:
                self._met.add(f"{sha} {path}")
                if last[_parent(path)] == path or path in before:
                    opened.add(path)
        self._met.update(f"{sha} {path}" for path, sha in files if _parent(path) in opened)

    def _frontier(self) -> frozenset[str]:
        """The paths the previous memo holds, at whatever id."""
        if self._paths is None:
            self._paths = frozenset(line.partition(" ")[2] for line in self._held)
        return self._paths

    def save(self) -> None:
        if self._path is None or self._key is None or self._met == self._held:
            return
        directory = os.path.dirname(self._path)
        import threading  # deferred: a handle that only reads never saves a memo

        temporary = f"{self._path}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            os.makedirs(directory, exist_ok=True)
            with open(temporary, "w", encoding="utf-8") as memo:
                memo.write("\n".join([self._key, *sorted(self._met)]))
            os.replace(temporary, self._path)
        except OSError:
            import contextlib  # deferred: as threading is

            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _parent(path: str) -> str:
    """The directory holding a file (``a/b``) or a tree (``a/b/``): ``a/``."""
    return path[: path.rstrip("/").rindex("/") + 1]

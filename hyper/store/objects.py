"""git objects written in-process, read through one long-lived ``cat-file``, and a branch moved
by compare-and-swap through one long-lived ``update-ref`` — see adr/0004-store-git-mechanism.md.

Objects are git's own formats byte for byte: a blob, a tree or a commit hashes to the id
``git hash-object``, ``git mktree`` or ``git commit-tree`` would give it. A batch of fewer than
100 new objects is written loose (git's ``transfer.unpackLimit`` line), a larger one as one
pack with its index, so a Run leaves the object database as git's own commands would.

Nothing is written anywhere but the object database and the ref: no index, no worktree, no
temporary checkout. Objects become reachable only when the ref moves, which is the last act, so
a process killed before it leaves the branch where it was.
"""

from __future__ import annotations

import os

from hyper.core.readfaults import GitError, RefMoved
from hyper.store.git import COMMIT_EMAIL, COMMIT_NAME, FILE_MODE, Git, TreeEntry, TreeFile

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    import hashlib
    from collections.abc import Callable, Iterable, Sequence
    from typing import IO

    from hyper.core.process import Piped
    from hyper.store.level import Level

UNPACK_LIMIT = 100
"""Below this many objects a batch is written loose; at or above it, as one pack."""

_ASKED_AT_ONCE = 16 * 1024
"""Bytes of names written to ``cat-file`` before its answers are read: well under a pipe's
capacity, so the write never waits on a child that is itself waiting for its answers to be
read."""


class ObjectStore:
    """Writes and reads one repository's objects for one Store handle.

    New objects are held until :meth:`flush`. Trees are cached by id (an id names its content
    forever) in two forms: as entry mappings for reading, and as one editable :class:`Level`
    per tree the next write may build on. A Level is handed out for editing only after its id
    is forgotten, so the cache keeps one Level per directory, not one per version, and a tree
    asked for again after an edit is read again (from the pending objects or from git).
    """

    def __init__(self, git: Git, layout: tuple[str, str, str] | None = None) -> None:
        self.git = git
        self._known = layout
        """The repository's layout where the opener already asked git for it (the Run's lock)."""
        self.pending: dict[str, tuple[bytes, bytes]] = {}
        self.trees: dict[str, dict[str, TreeEntry]] = {}
        self._levels: dict[str, Level] = {}
        self._deltas: dict[str, tuple[str, bytes]] = {}
        """Pending trees a pack writes as a delta: each one's base (pending too) and delta."""
        self._depths: dict[str, int] = {}
        self._reader: Piped | None = None
        self._refs: Piped | None = None
        self._layout: tuple[str, str, str] | None = None
        self._flushed: frozenset[str] | None = None
        self._hex_width = 0
        """The width of an object id as ``cat-file`` last printed one; 0 before any read."""

    def _directory_and_format(self) -> tuple[str, str]:
        """Asked of git on the first write only: a handle that only reads learns the object
        format from the ids ``cat-file`` prints, and so spends no child on it."""
        if self._layout is None:
            objects_dir, object_format, common = self._known if self._known is not None else self.git.layout()
            if object_format not in ("sha1", "sha256"):
                raise GitError(("rev-parse", "--show-object-format"), 0, f"unknown object format {object_format}")
            self._layout = objects_dir, object_format, common
        return self._layout[:2]

    @property
    def git_dir(self) -> str:
        """The repository's common git directory, absolute.

        Where git has not been asked yet and the root's ``.git`` is a directory naming no other
        (no ``commondir`` file: every repository but a linked worktree), it is that directory,
        and no child is started for it: a reader that only finds its memos there (a review,
        adr/0031) then never imports ``subprocess``, which costs more than all else it does."""
        if self._layout is None and self._known is None:
            here = os.path.join(self.git.root, ".git")
            if os.path.isdir(here) and not os.path.lexists(os.path.join(here, "commondir")):
                return here
        self._directory_and_format()
        assert self._layout is not None
        return self._layout[2]

    @property
    def objects_dir(self) -> str:
        return self._directory_and_format()[0]

    @property
    def object_format(self) -> str:
        if self._layout is None and self._hex_width:
            return "sha1" if self._hex_width == 40 else "sha256"
        return self._directory_and_format()[1]

    @property
    def hash_size(self) -> int:
        return 20 if self.object_format == "sha1" else 32

    def _hash(self) -> hashlib._Hash:
        import hashlib  # on the first write: a handle that only reads never hashes

        return hashlib.new(self.object_format)

    def _id(self, kind: bytes, data: bytes) -> str:
        digest = self._hash()
        digest.update(b"%s %d\0" % (kind, len(data)))
        digest.update(data)
        return digest.hexdigest()

    def _put(self, kind: bytes, data: bytes) -> str:
        sha = self._id(kind, data)
        self.pending.setdefault(sha, (kind, data))
        return sha

    def blob(self, data: bytes) -> str:
        return self._put(b"blob", data)

    def tree(self, entries: Iterable[TreeEntry]) -> str:
        from hyper.store.level import Level  # deferred: a handle that only reads edits no level

        return self.store(Level.of(entries))

    def store(self, level: Level) -> str:
        """Writes a level as a tree object and keeps it editable under its id. Where the
        version it was edited from is itself pending, the new one is held as a delta against
        it, for a pack to write in a few bytes."""
        base = level.origin
        data, head, tail = level.serialise()
        sha = self._id(b"tree", data)
        if sha not in self.pending:
            from hyper.store.delta import MAX_DEPTH, window  # deferred: a handle that only reads stores no tree

            self.pending[sha] = (b"tree", data)
            held = self.pending.get(base) if base is not None else None
            depth = self._depths.get(base, 0) + 1 if base is not None else 0
            if base is not None and held is not None and depth <= MAX_DEPTH:
                self._deltas[sha] = (base, window(len(held[1]), data, head, tail))
                self._depths[sha] = depth
        level.origin = sha
        self._levels[sha] = level
        return sha

    def _level(self, sha: str) -> Level:
        held = self._levels.get(sha)
        if held is None:
            kind, data = self.read(sha)
            if kind != b"tree":
                raise GitError(("cat-file",), 0, f"{sha} is a {kind.decode()}, not a tree")
            from hyper.store.level import Level  # deferred: as in tree

            held = self._levels[sha] = Level.parse(data, self.hash_size, sha)
        return held

    def take(self, sha: str) -> Level:
        """The tree ``sha``'s level, to edit into another tree: forgotten under ``sha`` first."""
        level = self._level(sha)
        del self._levels[sha]
        return level

    def entry(self, sha: str, name: str) -> TreeEntry | None:
        """The entry ``name`` of the tree ``sha``, found by bisection rather than a mapping of
        the whole directory."""
        return self._level(sha).find(name)

    def commit(self, tree: str, parents: Iterable[str], message: str, seconds: int) -> str:
        """A commit as ``git commit-tree -m`` writes it: hyper's identity, both dates in
        ``+0000``, and the message ending in exactly one LF."""
        stamp = f"{seconds} +0000"
        lines = [f"tree {tree}"] + [f"parent {parent}" for parent in parents]
        lines += [f"author {COMMIT_NAME} <{COMMIT_EMAIL}> {stamp}", f"committer {COMMIT_NAME} <{COMMIT_EMAIL}> {stamp}"]
        body = message if message.endswith("\n") else message + "\n"
        return self._put(b"commit", ("\n".join(lines) + "\n\n" + body).encode("utf-8"))

    def flush(self) -> None:
        """Makes every pending object durable in the object database."""
        if not self.pending:
            return
        # deferred: a handle that only reads writes no object file, and defines nothing for it (ADR 0006)
        from hyper.store.objectfiles import write_loose, write_pack

        if len(self.pending) < UNPACK_LIMIT:
            for sha, (kind, data) in self.pending.items():
                write_loose(self.objects_dir, sha, kind, data, self._flushing)
        else:
            write_pack(self.objects_dir, self.pending, self._deltas, self._hash, self._flushing())
        self.pending.clear()
        self._deltas.clear()
        self._depths.clear()

    def _flushing(self) -> frozenset[str]:
        """``core.fsync`` as git reads it, asked once per session and only when a write needs it."""
        if self._flushed is None:
            from hyper.store.durability import flushed  # deferred: a handle that only reads flushes nothing

            self._flushed = flushed(self.git)
        return self._flushed

    def _batch(self) -> tuple[IO[bytes], IO[bytes]]:
        reader = self._reader
        if reader is None or reader.poll() is not None:
            if reader is not None:
                _end(reader)
            reader = self._reader = self.git.start(["cat-file", "--batch"])
        assert reader.stdin is not None and reader.stdout is not None
        return reader.stdin, reader.stdout

    def lookup(self, names: Sequence[str]) -> list[tuple[str, bytes, bytes] | None]:
        """Each name's ``(id, type, content)``, or ``None`` where the repository holds nothing
        by that name; any name ``cat-file`` resolves (an id, ``<rev>:<path>``, ``<ref>^{commit}``).

        The names are asked in runs small enough that writing them cannot block, each run's
        answers read before the next is asked, so a thousand objects cost one child and a few
        round trips rather than a child or a round trip each.
        """
        found: list[tuple[str, bytes, bytes] | None] = []
        asked: list[str] = []
        size = 0
        for name in names:
            asked.append(name)
            size += len(name) + 1
            if size >= _ASKED_AT_ONCE:
                found += self.ask(asked)()
                asked, size = [], 0
        if asked:
            found += self.ask(asked)()
        return found

    def ask(self, names: list[str]) -> Callable[[], list[tuple[str, bytes, bytes] | None]]:
        """Asks ``cat-file`` for a few names now and returns the reading of their answers, as
        :meth:`lookup` gives them, for later: a caller that has other work can do it while git
        starts and answers, rather than wait. Nothing else is asked until those answers are
        read, or they would be read as the other's; the names must fit one of
        :meth:`lookup`'s runs, or the write could wait on a child waiting to be read."""
        answers: list[tuple[str, bytes, bytes] | None] = []
        wanted = []
        for name in names:
            if "\n" in name:
                raise GitError(("cat-file", "--batch"), 0, f"{name!r} cannot be asked of cat-file")
            held = self.pending.get(name)
            answers.append(None if held is None else (name, *held))
            if held is None:
                wanted.append(name)
        if not wanted:
            return lambda: answers
        into, out = self._batch()
        into.write(("\n".join(wanted) + "\n").encode("utf-8"))
        into.flush()

        def read() -> list[tuple[str, bytes, bytes] | None]:
            fetched = iter(wanted)
            for at, answer in enumerate(answers):
                if answer is not None:
                    continue
                name = next(fetched)
                line = out.readline()
                if line.endswith(b" missing\n"):
                    continue
                header = line.split()
                if len(header) != 3:
                    raise GitError(("cat-file", "--batch"), 0, f"{name} was answered with {b' '.join(header)!r}")
                self._hex_width = len(header[0])
                answers[at] = header[0].decode("ascii"), header[1], out.read(int(header[2]) + 1)[:-1]
            return answers

        return read

    def read(self, name: str) -> tuple[bytes, bytes]:
        """An object's type and content, by id or by any name ``cat-file`` resolves."""
        (answer,) = self.lookup([name])
        if answer is None:
            raise GitError(("cat-file", "--batch"), 0, f"{name} is missing from the object database")
        return answer[1], answer[2]

    def resolve(self, name: str) -> str | None:
        """The id of what ``name`` names, or ``None`` where nothing answers to it."""
        (answer,) = self.lookup([name])
        return None if answer is None else answer[0]

    def listings(self, names: Sequence[str]) -> list[dict[str, TreeEntry] | None]:
        """Each named tree's entries (any name ``cat-file`` resolves, ``<rev>:<dir>/`` say),
        all asked in one run; ``None`` where a name answers nothing."""
        return [
            None if answer is None else self.trees.get(answer[0]) or self._entries(*answer)
            for answer in self.lookup(names)
        ]

    def tree_entries(self, sha: str) -> dict[str, TreeEntry]:
        held = self.trees.get(sha)
        if held is not None:
            return held
        kind, data = self.read(sha)
        return self._entries(sha, kind, data)

    def _entries(self, sha: str, kind: bytes, data: bytes) -> dict[str, TreeEntry]:
        if kind != b"tree":
            raise GitError(("cat-file",), 0, f"{sha} is a {kind.decode()}, not a tree")
        entries: dict[str, TreeEntry] = {}
        at = 0
        size = self.hash_size
        while at < len(data):
            space = data.index(b" ", at)
            nul = data.index(b"\0", space)
            mode = data[at:space].decode("ascii")
            name = data[space + 1 : nul].decode("utf-8")
            entries[name] = TreeEntry(mode, name, data[nul + 1 : nul + 1 + size].hex())
            at = nul + 1 + size
        self.trees[sha] = entries
        return entries

    def files(
        self,
        commit: str,
        prefix: str = "",
        skip: Callable[[str, str], bool] | None = None,
        seen: list[tuple[str, str]] | None = None,
    ) -> list[TreeFile]:
        """Every file under the directory ``prefix`` (``""`` or ending in ``/``) of a commit's
        tree, in ``git ls-tree -r`` order, each held to being a regular file — less every
        subtree ``skip(path, id)`` passes over, unread. ``seen`` collects every tree met,
        skipped ones included, as ``(path, id)``.

        The walk goes a level at a time, every tree of one level asked in one run, so a Journal
        of many entries costs as many round trips as it has levels.
        """
        top = self.lookup([f"{commit}:{prefix}" if prefix else f"{commit}^{{tree}}"])[0]
        if top is None:
            return []
        root = top[0]
        if seen is not None:
            seen.append((prefix, root))
        if skip is not None and skip(prefix, root):
            return []
        self._entries(root, top[1], top[2])
        return self.below([(prefix, root)], skip, seen)

    def below(
        self,
        roots: Sequence[tuple[str, str]],
        skip: Callable[[str, str], bool] | None = None,
        seen: list[tuple[str, str]] | None = None,
    ) -> list[TreeFile]:
        """Every file under each ``(directory, tree id)`` of ``roots``, in order, as
        :meth:`files` lists them: a level at a time, every tree of one level, across all the
        roots, asked in one run."""
        level = list(roots)
        while level:
            unread = list(dict.fromkeys(sha for _, sha in level if sha not in self.trees))
            for sha, answer in zip(unread, self.lookup(unread), strict=True):
                if answer is None:
                    raise GitError(("cat-file", "--batch"), 0, f"the tree {sha} is missing from the object database")
                self._entries(sha, answer[1], answer[2])
            below = []
            for at, sha in level:
                for entry in self.trees[sha].values():
                    if not entry.is_tree:
                        continue
                    path = f"{at}{entry.name}/"
                    if seen is not None:
                        seen.append((path, entry.sha))
                    if skip is None or not skip(path, entry.sha):
                        below.append((path, entry.sha))
            level = below
        listed: list[TreeFile] = []
        for at, sha in roots:
            self._list(sha, at, listed, skip)
        return listed

    def _list(self, tree: str, at: str, into: list[TreeFile], skip: Callable[[str, str], bool] | None) -> None:
        for entry in self.trees[tree].values():
            path = at + entry.name
            if entry.is_tree:
                if skip is None or not skip(path + "/", entry.sha):
                    self._list(entry.sha, path + "/", into, skip)
            elif entry.mode == FILE_MODE:
                into.append(TreeFile(path, entry.sha))
            else:
                raise GitError(("ls-tree",), 0, f"{path!r} has mode {entry.mode}: the Store holds regular files only")

    def commit_tree(self, commit: str) -> str:
        kind, data = self.read(commit)
        if kind != b"commit" or not data.startswith(b"tree "):
            raise GitError(("cat-file",), 0, f"{commit} is not a commit")
        return data[5 : data.index(b"\n")].decode("ascii")

    def move(self, ref: str, new: str, old: str | None) -> None:
        """Moves ``ref`` from ``old`` to ``new`` in one transaction (``old=None``: create only).

        A move that finds the ref elsewhere is :class:`RefMoved`; the session ends with it and
        the next move opens a fresh one.
        """
        self.flush()
        refs = self._refs
        if refs is None or refs.poll() is not None:
            if refs is not None:
                _end(refs)
            refs = self._refs = self.git.start(["update-ref", "--stdin"])
        assert refs.stdin is not None and refs.stdout is not None
        verb = f"create {ref} {new}" if old is None else f"update {ref} {new} {old}"
        try:
            refs.stdin.write(f"start\n{verb}\nprepare\ncommit\n".encode("ascii"))
            refs.stdin.flush()
            answers = [refs.stdout.readline() for _ in range(3)]
        except BrokenPipeError:
            answers = []
        if answers == [b"start: ok\n", b"prepare: ok\n", b"commit: ok\n"]:
            return
        self._refs = None
        _shut(refs.stdin)
        stderr = refs.stderr.read().decode("utf-8", "replace") if refs.stderr else ""
        status = _end(refs)
        standing = self._standing(ref)
        if standing != old:
            raise RefMoved(f"{ref} stands at {standing or 'nothing'}, not at {old or 'nothing'}")
        raise GitError(("update-ref", "--stdin"), status, stderr)

    def _standing(self, ref: str) -> str | None:
        status, out, _ = self.git.call("rev-parse", "--verify", "--quiet", ref + "^{commit}")
        return out.decode("ascii").strip() if status == 0 else None

    def close(self) -> None:
        for child in (self._reader, self._refs):
            if child is not None:
                _end(child)
        self._reader = self._refs = None

    def shut(self) -> None:
        """Closes the children's input, which ends ``cat-file`` and ``update-ref``, and leaves
        waiting for them to :meth:`close`: a reader that has all it will ask lets them exit
        while it does its other work, rather than wait for them then. Nothing may be asked
        after it."""
        for child in (self._reader, self._refs):
            if child is not None:
                _shut(child.stdin)


def _end(child: Piped) -> int:
    """Ends a child this store started, running or not: its input closed, which ends
    ``cat-file`` and ``update-ref``, then waited for, and its pipes closed either way — one
    that had already exited holds them open as surely as one that runs. Its exit status."""
    _shut(child.stdin)
    status = child.wait()
    for stream in (child.stdout, child.stderr):
        if stream is not None:
            stream.close()
    return status


def _shut(stream: IO[bytes] | None) -> None:
    """Closes a child's input; one that has already exited leaves nothing to flush to."""
    if stream is None:
        return
    try:
        stream.close()
    except BrokenPipeError:
        return  # closed all the same: a failed flush does not keep the descriptor

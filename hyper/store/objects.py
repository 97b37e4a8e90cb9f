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


import os
import subprocess
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from hyper.store.git import COMMIT_EMAIL, COMMIT_NAME, Git, GitError

if TYPE_CHECKING:
    import hashlib

UNPACK_LIMIT = 100
"""Below this many objects a batch is written loose; at or above it, as one pack."""

_TYPE_CODES = {b"commit": 1, b"tree": 2, b"blob": 3}
TREE_MODE = "40000"
FILE_MODE = "100644"


class RefMoved(Exception):
    """The branch was not where this writer last saw it: another writer got there first."""


class TreeEntry(NamedTuple):
    """One entry of one tree level: a file (``100644``) or a subtree (``40000``)."""

    mode: str
    name: str
    sha: str

    @property
    def is_tree(self) -> bool:
        return self.mode == TREE_MODE


def _tree_key(entry: TreeEntry) -> bytes:
    """git orders a directory as though its name ended in a slash."""
    name = entry.name.encode("utf-8")
    return name + b"/" if entry.is_tree else name


class ObjectStore:
    """Writes and reads one repository's objects for one Store handle.

    New objects are held until :meth:`flush`; the trees this handle has read or written are
    cached by id (an id names its content forever), so a second append reads nothing.
    """

    def __init__(self, git: Git) -> None:
        self.git = git
        self.objects_dir, self.object_format, self.common_dir = git.layout()
        if self.object_format not in ("sha1", "sha256"):
            raise GitError(("rev-parse", "--show-object-format"), 0, f"unknown object format {self.object_format}")
        self.pending: dict[str, tuple[bytes, bytes]] = {}
        self.trees: dict[str, dict[str, TreeEntry]] = {}
        self._reader: subprocess.Popen[bytes] | None = None
        self._refs: subprocess.Popen[bytes] | None = None

    @property
    def hash_size(self) -> int:
        return 20 if self.object_format == "sha1" else 32

    def _hash(self) -> "hashlib._Hash":
        import hashlib  # on the first write: a handle that only reads never hashes

        return hashlib.new(self.object_format)

    def _put(self, kind: bytes, data: bytes) -> str:
        raw = b"%s %d\0" % (kind, len(data)) + data
        digest = self._hash()
        digest.update(raw)
        sha = digest.hexdigest()
        self.pending.setdefault(sha, (kind, data))
        return sha

    def blob(self, data: bytes) -> str:
        return self._put(b"blob", data)

    def tree(self, entries: Iterable[TreeEntry]) -> str:
        ordered = sorted(entries, key=_tree_key)
        data = b"".join(
            entry.mode.encode("ascii") + b" " + entry.name.encode("utf-8") + b"\0" + bytes.fromhex(entry.sha)
            for entry in ordered
        )
        sha = self._put(b"tree", data)
        self.trees[sha] = {entry.name: entry for entry in ordered}
        return sha

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
        if len(self.pending) < UNPACK_LIMIT:
            for sha, (kind, data) in self.pending.items():
                self._write_loose(sha, kind, data)
        else:
            self._write_pack()
        self.pending.clear()

    def _write_loose(self, sha: str, kind: bytes, data: bytes) -> None:
        import zlib

        directory = os.path.join(self.objects_dir, sha[:2])
        final = os.path.join(directory, sha[2:])
        if os.path.exists(final):
            return
        os.makedirs(directory, exist_ok=True)
        temporary = os.path.join(directory, f"tmp_obj_{os.getpid()}_{sha[2:]}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o444)
        try:
            os.write(descriptor, zlib.compress(b"%s %d\0" % (kind, len(data)) + data))
        finally:
            os.close(descriptor)
        os.replace(temporary, final)

    def _write_pack(self) -> None:
        """One pack and its version-2 index; the pack is renamed into place before the index,
        so an index git can see always has its pack."""
        import struct
        import zlib

        items = sorted(self.pending.items())
        body = bytearray(b"PACK" + struct.pack(">II", 2, len(items)))
        offsets: dict[str, tuple[int, int]] = {}
        for sha, (kind, data) in items:
            start = len(body)
            size = len(data)
            byte = (_TYPE_CODES[kind] << 4) | (size & 0x0F)
            size >>= 4
            header = bytearray()
            while size:
                header.append(byte | 0x80)
                byte = size & 0x7F
                size >>= 7
            header.append(byte)
            entry = bytes(header) + zlib.compress(data)
            body += entry
            if start >= 2**31:
                raise GitError(("pack",), 0, "a pack this large is written by git, not hyper")
            offsets[sha] = (start, zlib.crc32(entry))
        checksum = self._hash()
        checksum.update(body)
        pack_sum = checksum.digest()
        body += pack_sum

        names = [bytes.fromhex(sha) for sha, _ in items]
        fanout = [0] * 256
        for name in names:
            fanout[name[0]] += 1
        running = 0
        for index in range(256):
            running += fanout[index]
            fanout[index] = running
        index_body = bytearray(b"\xfftOc" + struct.pack(">I", 2))
        index_body += struct.pack(">256I", *fanout)
        index_body += b"".join(names)
        index_body += b"".join(struct.pack(">I", offsets[sha][1]) for sha, _ in items)
        index_body += b"".join(struct.pack(">I", offsets[sha][0]) for sha, _ in items)
        index_body += pack_sum
        index_sum = self._hash()
        index_sum.update(index_body)
        index_body += index_sum.digest()

        pack_dir = os.path.join(self.objects_dir, "pack")
        os.makedirs(pack_dir, exist_ok=True)
        stem = os.path.join(pack_dir, "pack-" + pack_sum.hex())
        for suffix, content in ((".pack", body), (".idx", index_body)):
            temporary = os.path.join(pack_dir, f"tmp_{os.getpid()}_{pack_sum.hex()}{suffix}")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o444)
            try:
                os.write(descriptor, bytes(content))
            finally:
                os.close(descriptor)
            os.replace(temporary, stem + suffix)

    def read(self, name: str) -> tuple[bytes, bytes]:
        """An object's type and content, by id or by any name ``cat-file`` resolves."""
        held = self.pending.get(name)
        if held is not None:
            return held
        reader = self._reader
        if reader is None or reader.poll() is not None:
            reader = self._reader = self.git.launch(["cat-file", "--batch"], stdin=True)
        assert reader.stdin is not None and reader.stdout is not None
        reader.stdin.write(name.encode("utf-8") + b"\n")
        reader.stdin.flush()
        header = reader.stdout.readline().split()
        if len(header) != 3:
            raise GitError(("cat-file", "--batch"), 0, f"{name} is missing from the object database")
        content = reader.stdout.read(int(header[2]) + 1)[:-1]
        return header[1], content

    def tree_entries(self, sha: str) -> dict[str, TreeEntry]:
        held = self.trees.get(sha)
        if held is not None:
            return held
        kind, data = self.read(sha)
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
            refs = self._refs = self.git.launch(["update-ref", "--stdin"], stdin=True)
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
        refs.stdin.close()
        stderr = refs.stderr.read().decode("utf-8", "replace") if refs.stderr else ""
        refs.wait()
        standing = self._standing(ref)
        if standing != old:
            raise RefMoved(f"{ref} stands at {standing or 'nothing'}, not at {old or 'nothing'}")
        raise GitError(("update-ref", "--stdin"), refs.returncode, stderr)

    def _standing(self, ref: str) -> str | None:
        status, out, _ = self.git.call("rev-parse", "--verify", "--quiet", ref + "^{commit}")
        return out.decode("ascii").strip() if status == 0 else None

    def close(self) -> None:
        for child in (self._reader, self._refs):
            if child is not None and child.poll() is None:
                assert child.stdin is not None
                child.stdin.close()
                child.wait()
                for stream in (child.stdout, child.stderr):
                    if stream is not None:
                        stream.close()
        self._reader = self._refs = None

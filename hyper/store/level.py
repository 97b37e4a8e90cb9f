"""One tree level kept as git serialises it, so that changing one entry costs one entry.

A Run's commits each add a file to directories that grow by one entry per commit (``steps/``,
``records/<target>/<definition>/``). Re-sorting and re-encoding a whole directory per commit
made a Run quadratic in its Steps in Python; here the entries stay sorted in git's order, each
already encoded, and an edit is a bisect and a list insert — the remaining per-commit work
(joining and hashing the level's bytes) is done in C, as it is for ``git fast-import``.

A level is mutable and owned by one :class:`~hyper.store.objects.ObjectStore`, which hands it
out for editing only after forgetting the id it was cached under.
"""

from __future__ import annotations

from bisect import bisect_left

from hyper.core.namedtuple import NamedTuple
from hyper.store.git import TREE_MODE, TreeEntry

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable


def _key(name: bytes, is_tree: bool) -> bytes:
    """git orders a directory as though its name ended in a slash."""
    return name + b"/" if is_tree else name


def _record(entry: TreeEntry) -> bytes:
    return entry.mode.encode("ascii") + b" " + entry.name.encode("utf-8") + b"\0" + bytes.fromhex(entry.sha)


def decode(record: bytes) -> TreeEntry:
    """The entry one encoded record holds: ``<mode> SP <name> NUL <raw id>``."""
    space = record.index(b" ")
    nul = record.index(b"\0", space)
    return TreeEntry(record[:space].decode("ascii"), record[space + 1 : nul].decode("utf-8"), record[nul + 1 :].hex())


class Serialised(NamedTuple):
    """A level's bytes, and how many of them at each end an edit since the last serialisation
    left as they were: what a pack delta against the previous version copies."""

    data: bytes
    head: int
    tail: int


class Level:
    """The entries of one tree, sorted as git sorts them and each held encoded.

    ``origin`` is the id the level was last read or written as (``None``: never), and the
    level counts the entries at each end no edit has touched since then.
    """

    __slots__ = ("_head", "_keys", "_records", "_tail", "origin")

    def __init__(self, keys: list[bytes], records: list[bytes], origin: str | None = None) -> None:
        self._keys = keys
        self._records = records
        self._head = self._tail = len(keys)
        self.origin = origin

    def _touch(self, at: int, inserted: bool) -> None:
        self._head = min(self._head, at)
        self._tail = min(self._tail, len(self._keys) - at - (0 if inserted else 1))

    @classmethod
    def of(cls, entries: Iterable[TreeEntry]) -> Level:
        paired = sorted((_key(entry.name.encode("utf-8"), entry.is_tree), _record(entry)) for entry in entries)
        return cls([key for key, _ in paired], [record for _, record in paired])

    @classmethod
    def parse(cls, data: bytes, hash_size: int, origin: str) -> Level:
        """A tree object's content, split into its records (git wrote them in order)."""
        keys: list[bytes] = []
        records: list[bytes] = []
        at = 0
        while at < len(data):
            space = data.index(b" ", at)
            nul = data.index(b"\0", space)
            end = nul + 1 + hash_size
            keys.append(_key(data[space + 1 : nul], data[at:space] == TREE_MODE.encode("ascii")))
            records.append(data[at:end])
            at = end
        return cls(keys, records, origin)

    def __len__(self) -> int:
        return len(self._keys)

    def _at(self, name: str) -> int | None:
        encoded = name.encode("utf-8")
        for key in (encoded, encoded + b"/"):
            at = bisect_left(self._keys, key)
            if at < len(self._keys) and self._keys[at] == key:
                return at
        return None

    def find(self, name: str) -> TreeEntry | None:
        at = self._at(name)
        return None if at is None else decode(self._records[at])

    def put(self, entry: TreeEntry) -> None:
        """Adds ``entry``, or replaces the entry of that name (file or directory)."""
        self.remove(entry.name)
        key = _key(entry.name.encode("utf-8"), entry.is_tree)
        at = bisect_left(self._keys, key)
        self._touch(at, inserted=True)
        self._keys.insert(at, key)
        self._records.insert(at, _record(entry))

    def remove(self, name: str) -> None:
        at = self._at(name)
        if at is not None:
            self._touch(at, inserted=False)
            del self._keys[at]
            del self._records[at]

    def serialise(self) -> Serialised:
        """The tree object's content, byte for byte what ``git mktree`` would hash; from here
        on nothing counts as edited."""
        data = b"".join(self._records)
        count = len(self._records)
        head = self._leading(self._head, len(data))
        tail = len(data) - self._leading(count - self._tail, len(data))
        self._head = self._tail = count
        return Serialised(data, head, min(tail, len(data) - head))

    def _leading(self, count: int, size: int) -> int:
        """The bytes of the first ``count`` records of a level of ``size`` bytes, counted from
        whichever end is nearer: a growing directory is edited at its end, and counting the
        whole of it to find that out was a second serialisation per version."""
        if count <= len(self._records) // 2:
            return len(b"".join(self._records[:count]))
        return size - len(b"".join(self._records[count:]))

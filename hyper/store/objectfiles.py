"""The files git keeps objects in, written as git writes them: loose objects and packs.

A Store handle holds its new objects until :meth:`hyper.store.objects.ObjectStore.flush`,
which writes them here — loose below git's ``transfer.unpackLimit`` line, one pack with its
index above it — each to a temporary name first, flushed to disk where ``core.fsync`` says
git would (:mod:`hyper.store.durability`), then renamed into place. A handle that only reads
never imports this module (ADR 0006).
"""

from __future__ import annotations

import os
import struct
import zlib

from hyper.core.faults import GitError
from hyper.fs.write import write_all
from hyper.store.delta import offset
from hyper.store.durability import LOOSE, PACK, PACK_METADATA, flush_directory

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    import hashlib
    from collections.abc import Callable, Mapping

_TYPE_CODES = {b"commit": 1, b"tree": 2, b"blob": 3}
_OFS_DELTA = 6
_COMPRESSION = 1
"""zlib's fastest level, git's own default for loose objects (``core.looseCompression``). An
object's id is the hash of its uncompressed content, so the level changes no id; a Run writes
every version of directories that grow by one entry per commit, and level 6 spent more time
than everything else it does."""
_STORED_BELOW = 256
"""Bytes under which an object is stored in zlib's format uncompressed (level 0, git's own
``core.compression 0``): deflate made none of them smaller — a 300-Step Run's 3,600 such
objects, deltas and commits of a few dozen bytes, came out 16% larger — and building its code
tables made compressing one cost five times storing it."""
_SMALLEST_WINDOW, _LARGEST_WINDOW = 9, 15
"""zlib's bounds on ``wbits``, the log2 of its window."""
_SMALLEST_MEMORY, _DEFAULT_MEMORY = 1, 8
"""zlib's least ``memLevel`` and its default, which sizes its match table at 2**(memLevel + 7)
entries and its block buffer at 2**(memLevel + 6) symbols."""


def _deflate(data: bytes) -> bytes:
    """``data`` zlib-compressed with a window and a match table no larger than ``data`` needs.

    Most of what a Run writes is a delta or a file of a few dozen bytes, and at zlib's full
    settings, setting the compressor up cost several times compressing them: the 64 KiB match
    table is cleared for every stream (14% of a 300-Step Run's instructions). A window as
    wide as the input, a table of twice its length and a block buffer that holds all of it find
    the matches the full settings would; the bytes differ, if at all, by a few, and an object's
    id is the hash of its content, never of its compressed form.
    """
    width = len(data).bit_length()
    compressor = zlib.compressobj(
        _COMPRESSION if len(data) >= _STORED_BELOW else 0,
        zlib.DEFLATED,
        max(_SMALLEST_WINDOW, min(_LARGEST_WINDOW, width)),
        max(_SMALLEST_MEMORY, min(_DEFAULT_MEMORY, width - 6)),
    )
    return compressor.compress(data) + compressor.flush()


def write_loose(objects_dir: str, sha: str, kind: bytes, data: bytes, flushing: Callable[[], frozenset[str]]) -> None:
    """One loose object, unless the database holds it already. ``flushing`` answers
    ``core.fsync``'s components; it is asked only where a file is written."""
    directory = os.path.join(objects_dir, sha[:2])
    final = os.path.join(directory, sha[2:])
    if os.path.exists(final):
        return
    os.makedirs(directory, exist_ok=True)
    temporary = os.path.join(directory, f"tmp_obj_{os.getpid()}_{sha[2:]}")
    flush = LOOSE in flushing()
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o444)
    try:
        write_all(descriptor, _deflate(b"%s %d\0" % (kind, len(data)) + data))
        if flush:
            os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.replace(temporary, final)
    if flush:
        flush_directory(directory)


def write_pack(
    objects_dir: str,
    pending: Mapping[str, tuple[bytes, bytes]],
    deltas: Mapping[str, tuple[str, bytes]],
    hashing: Callable[[], hashlib._Hash],
    flushing: frozenset[str],
) -> None:
    """One pack of ``pending`` and its version-2 index, each tree in ``deltas`` written as its
    delta against its base; the pack is renamed into place before the index, so an index git
    can see always has its pack. ``hashing`` makes the repository's object hash."""
    body = bytearray(b"PACK" + struct.pack(">II", 2, len(pending)))
    offsets: dict[str, tuple[int, int]] = {}
    for sha, (kind, data) in pending.items():  # in the order written: a base before its deltas
        start = len(body)
        based = deltas.get(sha)
        code = _TYPE_CODES[kind]
        if based is not None:
            code, data = _OFS_DELTA, based[1]
        size = len(data)
        byte = (code << 4) | (size & 0x0F)
        size >>= 4
        header = bytearray()
        while size:
            header.append(byte | 0x80)
            byte = size & 0x7F
            size >>= 7
        header.append(byte)
        if based is not None:
            header += offset(start - offsets[based[0]][0])
        entry = bytes(header) + _deflate(data)
        body += entry
        if start >= 2**31:
            raise GitError(("pack",), 0, "a pack this large is written by git, not hyper")
        offsets[sha] = (start, zlib.crc32(entry))
    checksum = hashing()
    checksum.update(body)
    pack_sum = checksum.digest()
    body += pack_sum

    items = sorted(pending)
    names = [bytes.fromhex(sha) for sha in items]
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
    index_body += b"".join(struct.pack(">I", offsets[sha][1]) for sha in items)
    index_body += b"".join(struct.pack(">I", offsets[sha][0]) for sha in items)
    index_body += pack_sum
    index_sum = hashing()
    index_sum.update(index_body)
    index_body += index_sum.digest()

    pack_dir = os.path.join(objects_dir, "pack")
    os.makedirs(pack_dir, exist_ok=True)
    stem = os.path.join(pack_dir, "pack-" + pack_sum.hex())
    for suffix, content, component in ((".pack", body, PACK), (".idx", index_body, PACK_METADATA)):
        temporary = os.path.join(pack_dir, f"tmp_{os.getpid()}_{pack_sum.hex()}{suffix}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o444)
        try:
            write_all(descriptor, bytes(content))
            if component in flushing:
                os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, stem + suffix)
    if flushing & {PACK, PACK_METADATA}:
        flush_directory(pack_dir)  # both renames on disk before any ref names the pack

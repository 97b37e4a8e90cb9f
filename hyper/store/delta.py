"""git's pack delta format, for the one edit a Store write makes: a window replaced.

A Run's commits each rewrite a handful of directories that differ from their previous version
by an entry or two, and every version stays reachable. Written whole and compressed, those
versions grew quadratically with the Steps; written as a delta against the previous version in
the same pack — copy the untouched head, insert the new middle, copy the untouched tail — each
costs a few dozen bytes, as ``git fast-import`` would have written it.
"""

from __future__ import annotations

MAX_DEPTH = 50
"""The longest chain of deltas a reader walks to rebuild an object: git's own default
(``pack.depth``, ``fast-import --depth``)."""

_COPY_AT_ONCE = 0x10000
"""The longest copy one instruction makes, as git's own encoder writes them."""
_INSERT_AT_ONCE = 0x7F


def _size(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _copy(out: bytearray, offset: int, size: int) -> None:
    while size:
        length = min(size, _COPY_AT_ONCE)
        command = 0x80
        operands = bytearray()
        for index in range(4):
            byte = (offset >> (8 * index)) & 0xFF
            if byte:
                command |= 1 << index
                operands.append(byte)
        for index in range(3):
            byte = (length >> (8 * index)) & 0xFF
            if byte:
                command |= 0x10 << index
                operands.append(byte)
        out.append(command)
        out += operands
        offset += length
        size -= length


def window(source_size: int, target: bytes, head: int, tail: int) -> bytes:
    """The delta that makes ``target`` of a source of ``source_size`` bytes whose first ``head``
    and last ``tail`` bytes ``target`` shares."""
    out = bytearray(_size(source_size) + _size(len(target)))
    _copy(out, 0, head)
    middle = target[head : len(target) - tail]
    for at in range(0, len(middle), _INSERT_AT_ONCE):
        chunk = middle[at : at + _INSERT_AT_ONCE]
        out.append(len(chunk))
        out += chunk
    _copy(out, source_size - tail, tail)
    return bytes(out)


def offset(distance: int) -> bytes:
    """How far back an ``OFS_DELTA`` entry's base starts, in the pack's own varint."""
    out = bytearray([distance & 0x7F])
    distance >>= 7
    while distance:
        distance -= 1
        out.insert(0, 0x80 | (distance & 0x7F))
        distance >>= 7
    return bytes(out)

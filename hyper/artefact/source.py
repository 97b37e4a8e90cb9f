"""The Manifest lines declaring one Operation, cut out of the file's own bytes.

``hyper operation`` hands these lines back verbatim: they are the format a caller
authors against, and what ``manifest_digest`` covers. Re-encoding equivalent YAML
would break that silently, so nothing here parses a value or re-indents a line —
the tree says where the range is and the bytes are copied out unchanged.

The range runs from the Operation's key line (with any comment written directly
above it at the key's own indentation) to its last line, blank lines after it
trimmed. Where it ends is decided by indentation and the next key's own head
comment, not by the tree, so a trailing comment inside the block stays with it.
"""

from __future__ import annotations

from hyper.yaml.subset import Scalar


class _Lines:
    """A file's bytes indexed by line (1-based); a final newline opens no further line."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        starts = [0]
        at = source.find(b"\n")
        while at != -1 and at + 1 < len(source):
            starts.append(at + 1)
            at = source.find(b"\n", at + 1)
        self.starts = starts

    @property
    def count(self) -> int:
        return len(self.starts)

    def text(self, n: int) -> bytes:
        if n < 1 or n > self.count:
            return b""
        end = self.starts[n] if n < self.count else len(self.source)
        return self.source[self.starts[n - 1] : end]

    def head_start(self, n: int, indent: int) -> int:
        """Where the range for the key on line ``n`` begins: its own head comment included."""
        while n > 1:
            above = self.text(n - 1)
            if not above.strip().startswith(b"#") or _indent(above) != indent:
                break
            n -= 1
        return n

    def block_end(self, start: int, indent: int) -> int:
        """The last line of the block opened on ``start``: where the file dedents out of it."""
        for n in range(start + 1, self.count + 1):
            line = self.text(n)
            if not line.strip():
                continue
            if _indent(line) < indent:
                return n - 1
        return self.count

    def trim_blanks(self, key: int, last: int) -> int:
        if last < key:
            return key
        last = min(last, self.count)
        while last > key and not self.text(last).strip():
            last -= 1
        return last

    def through(self, first: int, last: int) -> bytes:
        end = self.starts[last] if last < self.count else len(self.source)
        return self.source[self.starts[first - 1] : end]


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip(b" "))


def operation_source(data: bytes, keys: tuple[Scalar, ...], index: int) -> str:
    """The lines declaring the ``index``-th of the ``operations:`` mapping's ``keys``."""
    lines = _Lines(data)
    key = keys[index]
    indent = key.column - 1
    if index + 1 < len(keys):
        following = keys[index + 1]
        last = lines.head_start(following.line, following.column - 1) - 1
    else:
        last = lines.block_end(key.line, indent)
    first = lines.head_start(key.line, indent)
    return lines.through(first, lines.trim_blanks(key.line, last)).decode("utf-8", "replace")

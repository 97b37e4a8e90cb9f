"""Artefact files parsed once per content, for a process that reads one repository many times.

``hyper mcp`` answers every tool call by loading the repository afresh, so an edit between two
calls is always seen; re-parsing every unchanged file on every call was most of what a call
cost. The version-pin gate and the repository's loading both parse ``hyper.yaml``, and share
one parse through this table. The bytes are still read from disk on every call; only the parse of bytes already seen
at the same path is reused. A parse is a pure function of the path and the bytes (the path
only names the file in faults), and its result is immutable values, so a reused parse is the
parse — the cache cannot answer anything reading the file afresh would not.

Thread-safe: the table is touched only under its lock (``hyper mcp`` may answer calls
concurrently); two threads missing on the same content both parse it, and either result is
the same value. Bounded: the least recently used parse goes first beyond ``LIMIT`` files.
"""

from __future__ import annotations

import _thread  # threading.Lock is this documented lock: not importing threading defers start-up cost

from hyper.yaml import subset as yamlsubset
from hyper.yaml.nodes import Parsed

LIMIT = 16_384
"""More files than any repository the benchmarks model; beyond it the oldest parse is dropped."""

_lock = _thread.allocate_lock()
_held: dict[tuple[str, bytes], Parsed] = {}


def parse(data: bytes, path: str) -> Parsed:
    """``yamlsubset.parse(data, path)``, reused where the same path held the same bytes before."""
    key = (path, data)
    with _lock:
        held = _held.pop(key, None)
        if held is not None:
            _held[key] = held  # most recently used last
            return held
    parsed = yamlsubset.parse(data, path)
    with _lock:
        _held[key] = parsed
        while len(_held) > LIMIT:
            del _held[next(iter(_held))]
    return parsed

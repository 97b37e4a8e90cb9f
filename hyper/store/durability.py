"""What hyper's own object writes flush to disk before the branch moves: git's ``core.fsync``.

hyper writes loose objects and packs itself rather than through ``git hash-object`` (ADR
0004), so it owes the repository git's own promise: where git would ``fsync`` a file of a
kind, hyper does too, and the directory after the rename, all before the ref names them.
Otherwise a power loss after the ref moved could leave it pointing into a truncated pack.

``core.fsync`` is read as git reads it: a comma-separated list of components and
aggregates, ``-`` removing one, ``none`` clearing, starting from git's default — packs and
their indexes, not loose objects. ``core.fsyncObjectFiles`` (the older switch) adds loose
objects.
"""

from __future__ import annotations

import os

from hyper.store.git import Git

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

LOOSE: Final = "loose-object"
PACK: Final = "pack"
PACK_METADATA: Final = "pack-metadata"

_AGGREGATES: Final = {
    "objects": {LOOSE, PACK},
    "derived-metadata": {PACK_METADATA, "commit-graph", "index"},
    "committed": {LOOSE, PACK, "reference"},
    "added": {LOOSE, PACK, "reference", PACK_METADATA, "commit-graph", "index"},
    "all": {LOOSE, PACK, "reference", PACK_METADATA, "commit-graph", "index"},
}
DEFAULT: Final = frozenset({PACK, PACK_METADATA, "commit-graph"})
"""git's own default: objects and derived metadata, less loose objects."""


def flushed(git: Git) -> frozenset[str]:
    """The components this repository's configuration has git ``fsync``."""
    status, out, _ = git.call("config", "--get-regexp", r"^core\.fsync(objectfiles)?$")
    components = set(DEFAULT)
    if status != 0:
        return frozenset(components)
    for line in out.decode("utf-8", "replace").splitlines():
        key, _, value = line.partition(" ")
        if key.lower() == "core.fsyncobjectfiles":
            if value.strip().lower() in ("true", "yes", "on", "1"):
                components.add(LOOSE)
            continue
        components = set(DEFAULT)
        for word in (part.strip() for part in value.split(",")):
            removing = word.startswith("-")
            name = word.lstrip("-")
            named = {"none"} if name == "none" else _AGGREGATES.get(name, {name})
            if named == {"none"}:
                components.clear()
            elif removing:
                components -= named
            else:
                components |= named
    return frozenset(components)


def flush_directory(path: str) -> None:
    """The directory's own entries to disk: what makes a rename into it survive a power loss."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)

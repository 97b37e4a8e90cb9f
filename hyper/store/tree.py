"""Deriving one Store tree from another by path operations.

Only the trees along the paths that changed are rewritten, each by editing its level in place
(:mod:`hyper.store.level`); every other subtree keeps its id.
It is the one derivation both an append and a re-applied commit go through: a write names a
blob already in the database, and a removal of a path the tree no longer holds is a no-op —
which is what makes a Compaction re-appliable onto a tip already compacted elsewhere.
"""

from __future__ import annotations

from hyper.core.faults import PathTaken
from hyper.store.git import FILE_MODE, TREE_MODE, PathOperation, TreeEntry
from hyper.store.level import Level
from hyper.store.objects import ObjectStore

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence


def apply(
    objects: ObjectStore,
    root: str | None,
    operations: Sequence[PathOperation],
    *,
    append_only: bool,
) -> str:
    """The root tree ``operations`` make of ``root`` (``None``: the empty tree)."""
    changes: dict[str, object] = {}
    for operation in operations:
        segments = operation.path.split("/")
        level = changes
        for segment in segments[:-1]:
            nested = level.setdefault(segment, {})
            if not isinstance(nested, dict):
                raise PathTaken(f"{operation.path} runs through a file another operation writes")
            level = nested
        level[segments[-1]] = operation
    built = _level(objects, root, changes, "", append_only)
    return built if built is not None else objects.tree(())


def _level(
    objects: ObjectStore, sha: str | None, changes: dict[str, object], where: str, append_only: bool
) -> str | None:
    entries = objects.take(sha) if sha is not None else Level([], [])
    for name, change in changes.items():
        standing = entries.find(name)
        if isinstance(change, PathOperation):
            if standing is not None and standing.is_tree:
                raise PathTaken(f"{change.path} is a directory on the branch, not a file")
            if change.removes:
                entries.remove(name)
                continue
            if append_only and standing is not None:
                raise PathTaken(f"store: {change.path} is already on the branch; no Store file is ever rewritten")
            entries.put(TreeEntry(FILE_MODE, name, change.blob))
            continue
        assert isinstance(change, dict)
        if standing is not None and not standing.is_tree:
            raise PathTaken(f"{where}{name} is a file on the branch, not a directory")
        subtree = _level(objects, standing.sha if standing else None, change, f"{where}{name}/", append_only)
        if subtree is None:
            entries.remove(name)
        else:
            entries.put(TreeEntry(TREE_MODE, name, subtree))
    if not entries:
        return None
    return objects.store(entries)

"""Objects written in-process are git's own, id for id; a large batch lands as one pack."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import pytest

from hyper.core.faults import PathTaken, RefMoved
from hyper.core.process import Process
from hyper.core.spawn import spawn
from hyper.store.git import Git, PathOperation, TreeEntry
from hyper.store.objects import UNPACK_LIMIT, ObjectStore
from hyper.store.tree import apply

from .support import NOW, git, process, repository

if TYPE_CHECKING:
    from hyper.core.process import Piped


@pytest.fixture
def objects(tmp_path: pathlib.Path) -> ObjectStore:
    root = repository(tmp_path / "repo")
    return ObjectStore(Git.open(str(root), process(root), NOW))


def test_a_blob_has_the_id_hash_object_gives(objects: ObjectStore, tmp_path: pathlib.Path) -> None:
    data = "über\n".encode()
    sha = objects.blob(data)
    objects.flush()
    assert sha == git(tmp_path / "repo", "hash-object", "--stdin", stdin=data)
    assert git(tmp_path / "repo", "cat-file", "-p", sha) == "über"


def test_a_tree_has_the_id_mktree_gives(objects: ObjectStore, tmp_path: pathlib.Path) -> None:
    blob = objects.blob(b"x\n")
    sub = objects.tree([TreeEntry("100644", "f", blob)])
    entries = [TreeEntry("100644", "a.b", blob), TreeEntry("40000", "a", sub), TreeEntry("100644", "a-", blob)]
    sha = objects.tree(entries)
    objects.flush()
    listing = f"100644 blob {blob}\ta.b\n040000 tree {sub}\ta\n100644 blob {blob}\ta-\n"
    assert sha == git(tmp_path / "repo", "mktree", stdin=listing.encode())


def test_a_commit_has_the_id_commit_tree_gives(objects: ObjectStore, tmp_path: pathlib.Path) -> None:
    root = tmp_path / "repo"
    tree = objects.tree([TreeEntry("100644", "STORE.md", objects.blob(b"hi\n"))])
    parent = git(root, "rev-parse", "HEAD")
    sha = objects.commit(tree, [parent], "Record a/b/c at run x step 1", 1786009272)
    objects.flush()
    env = {"GIT_AUTHOR_DATE": "1786009272 +0000", "GIT_COMMITTER_DATE": "1786009272 +0000"}
    import subprocess

    from .support import environ

    made = subprocess.run(
        ["git", "commit-tree", tree, "-p", parent, "-m", "Record a/b/c at run x step 1"],
        cwd=root,
        env={
            **environ(),
            **env,
            "GIT_AUTHOR_NAME": "hyper",
            "GIT_AUTHOR_EMAIL": "hyper@hyper.invalid",
            "GIT_COMMITTER_NAME": "hyper",
            "GIT_COMMITTER_EMAIL": "hyper@hyper.invalid",
        },
        capture_output=True,
        check=True,
    )
    assert sha == made.stdout.decode().strip()


def test_a_large_batch_is_one_pack_git_reads(objects: ObjectStore, tmp_path: pathlib.Path) -> None:
    root = tmp_path / "repo"
    shas = [objects.blob(b"version %d\n" % number) for number in range(150)]
    objects.flush()
    packs = list((root / ".git" / "objects" / "pack").glob("pack-*.pack"))
    assert len(packs) == 1 and (packs[0].with_suffix(".idx")).exists()
    assert git(root, "cat-file", "-p", shas[149]) == "version 149"
    git(root, "verify-pack", str(packs[0].with_suffix(".idx")))


def test_a_small_batch_is_loose(objects: ObjectStore, tmp_path: pathlib.Path) -> None:
    sha = objects.blob(b"one\n")
    objects.flush()
    assert (tmp_path / "repo" / ".git" / "objects" / sha[:2] / sha[2:]).exists()


@pytest.mark.parametrize("filler", [0, UNPACK_LIMIT], ids=["loose", "packed"])
def test_an_object_of_any_size_is_compressed_so_that_git_reads_it(
    objects: ObjectStore, tmp_path: pathlib.Path, filler: int
) -> None:
    """The compressor is sized to each object (window and match table), so every size from
    an empty blob to one past zlib's largest settings is read back, loose and packed."""
    root = tmp_path / "repo"
    contents = [bytes(range(256)) * (size // 256) + b"x" * (size % 256) for size in (0, 1, 45, 200, 700, 5000, 70000)]
    shas = [objects.blob(data) for data in contents]
    for number in range(filler):
        objects.blob(b"filler %d\n" % number)
    objects.flush()
    read = ObjectStore(Git.open(str(root), process(root), NOW))
    try:
        assert [answer[2] if answer else None for answer in read.lookup(shas)] == contents
    finally:
        read.close()
    git(root, "fsck", "--strict", "--no-dangling")


def test_versions_of_a_growing_directory_pack_as_deltas_git_reads(objects: ObjectStore, tmp_path: pathlib.Path) -> None:
    root = tmp_path / "repo"
    tree, versions = None, []
    for number in range(130):  # past the longest chain, so a chain restarts with a whole version
        blob = objects.blob(b"step %d\n" % number)
        middle = f"{(number * 37) % 130:03d}"  # lands anywhere in the directory, not only at its end
        writes = [PathOperation(f"steps/{middle}.json", blob), PathOperation(f"last/{number}", blob)]
        tree = apply(objects, tree, writes, append_only=True)
        versions.append(tree)
    written = {sha: objects.pending[sha][1] for sha in versions}
    listed = {sha: objects.pending[objects.tree_entries(sha)["steps"].sha][1] for sha in versions}
    objects.flush()
    (pack,) = (root / ".git" / "objects" / "pack").glob("pack-*.idx")
    verified = git(root, "verify-pack", "-v", str(pack))
    assert "chain length = 50" in verified and "chain length = 51" not in verified
    read = ObjectStore(Git.open(str(root), process(root), NOW))
    try:
        for sha in versions:
            assert read.read(sha) == (b"tree", written[sha])
            assert read.read(read.tree_entries(sha)["steps"].sha) == (b"tree", listed[sha])
    finally:
        read.close()


def test_trees_are_rewritten_only_along_changed_paths(objects: ObjectStore) -> None:
    blob = objects.blob(b"x\n")
    first = apply(objects, None, [PathOperation("a/b/c.json", blob), PathOperation("z/y.json", blob)], append_only=True)
    second = apply(objects, first, [PathOperation("a/d.json", blob)], append_only=True)
    assert objects.tree_entries(first)["z"] == objects.tree_entries(second)["z"]
    assert set(objects.tree_entries(objects.tree_entries(second)["a"].sha)) == {"b", "d.json"}
    with pytest.raises(PathTaken):
        apply(objects, second, [PathOperation("a/d.json", blob)], append_only=True)
    gone = [PathOperation("a/b/c.json"), PathOperation("never/there.json")]
    removed = apply(objects, second, gone, append_only=False)
    assert set(objects.tree_entries(removed)) == {"a", "z"}
    assert set(objects.tree_entries(objects.tree_entries(removed)["a"].sha)) == {"d.json"}


def test_a_ref_moves_only_from_where_it_stood(objects: ObjectStore, tmp_path: pathlib.Path) -> None:
    root = tmp_path / "repo"
    head = git(root, "rev-parse", "HEAD")
    objects.move("refs/heads/other", head, None)
    with pytest.raises(RefMoved):
        objects.move("refs/heads/other", head, None)
    tree = objects.tree([TreeEntry("100644", "f", objects.blob(b"f\n"))])
    commit = objects.commit(tree, [head], "next", 0)
    with pytest.raises(RefMoved):
        objects.move("refs/heads/other", commit, commit)
    objects.move("refs/heads/other", commit, head)
    assert git(root, "rev-parse", "refs/heads/other") == commit
    objects.close()
    assert not list(pathlib.Path(root / ".git").glob("**/*.lock"))
    assert os.path.exists(root / ".git" / "refs" / "heads" / "other")


def _recording(root: pathlib.Path, children: list[Piped], *, spawned: bool) -> Process:
    """The test process, every child it starts kept: through ``launch`` (a ``Popen``), or
    through the real process's ``spawn``."""
    if spawned:

        def spawning(argv: Sequence[str], env: Mapping[str, str]) -> Piped:
            children.append(spawn(argv, env))
            return children[-1]

        return process(root)._replace(spawn=spawning)

    def launching(args: list[str], *rest: object, **options: object) -> subprocess.Popen[bytes]:
        child: subprocess.Popen[bytes] = subprocess.Popen(args, *rest, **options)  # type: ignore[call-overload]
        children.append(child)
        return child

    return process(root)._replace(launch=launching)


def _reading(tmp_path: pathlib.Path, spawned: bool) -> tuple[ObjectStore, list[Piped], str]:
    """A store that has read ``HEAD`` through its reader, the children it started, and the id."""
    root = repository(tmp_path / "repo")
    children: list[Piped] = []
    objects = ObjectStore(Git.open(str(root), _recording(root, children, spawned=spawned), NOW))
    head = git(root, "rev-parse", "HEAD")
    assert objects.resolve("HEAD") == head
    return objects, children, head


@pytest.mark.parametrize("spawned", [False, True], ids=["launched", "spawned"])
def test_close_closes_the_pipes_of_a_reader_that_has_already_exited(tmp_path: pathlib.Path, spawned: bool) -> None:
    objects, (reader,), _ = _reading(tmp_path, spawned)
    os.kill(reader.pid, signal.SIGKILL)
    assert reader.wait() == -signal.SIGKILL
    objects.close()
    assert reader.stdin is not None and reader.stdout is not None and reader.stderr is not None
    assert reader.stdin.closed and reader.stdout.closed and reader.stderr.closed


@pytest.mark.parametrize("spawned", [False, True], ids=["launched", "spawned"])
def test_a_reader_that_died_is_replaced_and_its_pipes_closed(tmp_path: pathlib.Path, spawned: bool) -> None:
    objects, children, head = _reading(tmp_path, spawned)
    os.kill(children[0].pid, signal.SIGKILL)
    children[0].wait()
    assert objects.resolve("HEAD") == head
    first, second = children
    assert first.stdout is not None and first.stdout.closed
    objects.close()
    assert second.returncode == 0
    assert second.stdout is not None and second.stdout.closed


@pytest.mark.parametrize("spawned", [False, True], ids=["launched", "spawned"])
def test_a_shut_reader_exits_by_itself_and_close_reaps_it(tmp_path: pathlib.Path, spawned: bool) -> None:
    """``shut`` ends the reader's input and waits for nothing; the reader exits on its own, and
    ``close`` is what waits for it and closes its pipes."""
    objects, (reader,), _ = _reading(tmp_path, spawned)
    objects.shut()
    assert reader.stdin is not None and reader.stdin.closed
    assert reader.stdout is not None and reader.stdout.read() == b""  # it wrote nothing more and ended
    assert reader.returncode is None  # not waited for yet
    objects.close()
    assert reader.returncode == 0
    assert reader.stdout.closed and reader.stderr is not None and reader.stderr.closed

"""The branch: creating it, appending to it, syncing and publishing it — never touching the
working tree, the index or the checked-out branch."""

from __future__ import annotations

import pathlib

import pytest

from hyper.core.faults import Contended, GitError, InitPushFailed, NoRepository, PathTaken, PushExhausted, StoreAbsent
from hyper.store.branch import Store, Write
from hyper.store.git import Git
from hyper.store.lock import LockMode, acquire
from hyper.store.names import REF, TRACKING_REF
from hyper.store.paths import JournalEntry
from hyper.store.sync import Initialised, init, publish, sync

from .support import NOW, bare, git, process, repository, worktree_state

RUN = "01984f1a-3c9f-7b04-9c2e-4f0b8d61a3e7"
OTHER = "01984f2b-1d7a-7c31-8d41-6b2f7ae05c19"


def write(run: str, name: str = "run.json") -> Write:
    return Write(f"{JournalEntry(run, NOW).dir}/{name}", f"{run} {name}\n".encode())


def files(root: pathlib.Path, ref: str = "hyper-store") -> list[str]:
    return git(root, "ls-tree", "-r", "--name-only", ref).splitlines()


def clone(remote: pathlib.Path, path: pathlib.Path) -> pathlib.Path:
    git(remote.parent, "clone", "-q", str(remote), str(path))
    return path


@pytest.fixture
def remote(tmp_path: pathlib.Path) -> pathlib.Path:
    origin = bare(tmp_path / "origin.git")
    seedling = repository(tmp_path / "seedling")
    git(seedling, "remote", "add", "origin", str(origin))
    git(seedling, "push", "-q", "origin", "main")
    assert init(str(seedling), process(seedling), NOW) == Initialised(created=True, pushed=True)
    return origin


def test_init_without_a_remote_creates_once(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    before = worktree_state(root)
    assert init(str(root), process(root), NOW) == Initialised(created=True)
    assert init(str(root), process(root), NOW) == Initialised()
    assert files(root) == ["STORE.md"]
    assert git(root, "log", "--format=%an <%ae> %at %s", "hyper-store") == (
        "hyper <hyper@hyper.invalid> 1786009272 Create the hyper Store"
    )
    assert git(root, "rev-list", "--count", "hyper-store") == "1"
    assert worktree_state(root) == before


def test_init_with_a_remote_in_each_combination(tmp_path: pathlib.Path, remote: pathlib.Path) -> None:
    fresh = clone(remote, tmp_path / "fresh")
    git(fresh, "update-ref", "-d", TRACKING_REF)
    assert init(str(fresh), process(fresh), NOW) == Initialised()
    assert (fresh / ".git" / "shallow").exists()
    assert init(str(fresh), process(fresh), NOW) == Initialised()

    lonely = bare(tmp_path / "lonely.git")
    local_only = repository(tmp_path / "local-only")
    assert init(str(local_only), process(local_only), NOW).created
    git(local_only, "remote", "add", "origin", str(lonely))
    assert init(str(local_only), process(local_only), NOW) == Initialised(pushed=True)
    assert files(lonely) == ["STORE.md"]


def test_init_that_cannot_push_keeps_the_root(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    git(root, "remote", "add", "origin", str(tmp_path / "nowhere.git"))
    with pytest.raises(GitError):
        init(str(root), process(root), NOW)
    rejecting = bare(tmp_path / "rejecting.git")
    hook = rejecting / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    git(root, "remote", "set-url", "origin", str(rejecting))
    with pytest.raises(InitPushFailed):
        init(str(root), process(root), NOW)
    hook.unlink()
    assert init(str(root), process(root), NOW) == Initialised(pushed=True)


def test_a_directory_that_is_not_a_repository(tmp_path: pathlib.Path) -> None:
    with pytest.raises(NoRepository):
        init(str(tmp_path), process(tmp_path), NOW)


def test_the_store_is_absent_until_created(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    with pytest.raises(StoreAbsent):
        Store.open(str(root), process(root), NOW)
    sync(Git.open(str(root), process(root), NOW))  # no remote: nothing to bring, and the opening says absent
    with pytest.raises(StoreAbsent):
        Store.open(str(root), process(root), NOW)
    git(root, "remote", "add", "origin", str(bare(tmp_path / "empty.git")))
    with pytest.raises(StoreAbsent):
        sync(Git.open(str(root), process(root), NOW))
    git(root, "remote", "set-url", "origin", str(tmp_path / "nowhere.git"))
    with pytest.raises(GitError):
        sync(Git.open(str(root), process(root), NOW))


def test_append_commits_each_write_and_never_rewrites(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    (root / "dirty.txt").write_text("uncommitted\n")
    init(str(root), process(root), NOW)
    before = worktree_state(root)
    with Store.open(str(root), process(root), NOW) as store:
        store.append([write(RUN)], f"Begin run {RUN}")
        store.append([], "nothing")
        store.append([write(RUN, "outcome.json"), write(OTHER)], f"End run {RUN}")
        with pytest.raises(PathTaken):
            store.append([write(RUN)], "again")
        assert store.commit == git(root, "rev-parse", "hyper-store")
    assert git(root, "log", "--format=%s", "hyper-store").splitlines() == [
        f"End run {RUN}",
        f"Begin run {RUN}",
        "Create the hyper Store",
    ]
    assert worktree_state(root) == before
    git(root, "fsck", "--strict", "--no-dangling")


def test_two_handles_on_one_clone_both_land(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    init(str(root), process(root), NOW)
    with Store.open(str(root), process(root), NOW) as first, Store.open(str(root), process(root), NOW) as second:
        first.append([write(RUN)], "first")
        second.append([write(OTHER)], "second")
    assert len(files(root)) == 3


def test_publish_reapplies_onto_a_moved_remote(tmp_path: pathlib.Path, remote: pathlib.Path) -> None:
    laptop, runner = clone(remote, tmp_path / "laptop"), clone(remote, tmp_path / "runner")
    for root in (laptop, runner):
        sync(Git.open(str(root), process(root), NOW))
    with Store.open(str(laptop), process(laptop), NOW) as store:
        store.append([write(RUN)], f"Begin run {RUN}")
        store.publish()
    before = worktree_state(runner)
    with Store.open(str(runner), process(runner), NOW) as store:
        store.append([write(OTHER)], f"Begin run {OTHER}")
        store.append([write(OTHER, "outcome.json")], f"End run {OTHER}")
        store.publish()
        assert store.commit == git(runner, "rev-parse", REF)
    assert len(files(remote)) == 4
    assert git(remote, "log", "--format=%s", "hyper-store").splitlines()[:3] == [
        f"End run {OTHER}",
        f"Begin run {OTHER}",
        f"Begin run {RUN}",
    ]
    assert worktree_state(runner) == before


def test_a_remote_that_cannot_be_reached_keeps_every_write(tmp_path: pathlib.Path, remote: pathlib.Path) -> None:
    root = clone(remote, tmp_path / "repo")
    sync(Git.open(str(root), process(root), NOW))
    git(root, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    with Store.open(str(root), process(root), NOW) as store:
        store.append([write(RUN)], "kept")
        with pytest.raises(GitError):
            store.publish()
    assert f"{JournalEntry(RUN, NOW).dir}/run.json" in files(root)
    git(root, "remote", "set-url", "origin", str(remote))
    publish(str(root), process(root), NOW)
    assert f"{JournalEntry(RUN, NOW).dir}/run.json" in files(remote)


def test_a_remote_that_rejects_keeps_every_write(tmp_path: pathlib.Path, remote: pathlib.Path) -> None:
    root = clone(remote, tmp_path / "repo")
    sync(Git.open(str(root), process(root), NOW))
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho no >&2\nexit 1\n")
    hook.chmod(0o755)
    with Store.open(str(root), process(root), NOW) as store:
        store.append([write(RUN)], "kept")
        with pytest.raises(GitError) as rejected:
            store.publish()
        assert not isinstance(rejected.value, PushExhausted)
    hook.unlink()
    sync(Git.open(str(root), process(root), NOW))
    assert git(root, "rev-list", "--count", "refs/remotes/origin/hyper-store..hyper-store") == "1"
    publish(str(root), process(root), NOW)
    assert f"{JournalEntry(RUN, NOW).dir}/run.json" in files(remote)


def test_sync_adopts_without_discarding_unpushed_commits(tmp_path: pathlib.Path, remote: pathlib.Path) -> None:
    ahead = clone(remote, tmp_path / "ahead")
    sync(Git.open(str(ahead), process(ahead), NOW))
    assert not (ahead / ".git" / "shallow").exists()
    with Store.open(str(ahead), process(ahead), NOW) as store:
        store.append([write(RUN)], "unpushed")
        mine = store.commit
    other = clone(remote, tmp_path / "other")
    sync(Git.open(str(other), process(other), NOW))
    publish_one(other, OTHER)
    sync(Git.open(str(ahead), process(ahead), NOW))
    assert git(ahead, "rev-parse", REF) == mine
    behind = clone(remote, tmp_path / "behind")
    sync(Git.open(str(behind), process(behind), NOW))
    assert git(behind, "rev-parse", REF) == git(remote, "rev-parse", "hyper-store")


def publish_one(root: pathlib.Path, run: str) -> None:
    with Store.open(str(root), process(root), NOW) as store:
        store.append([write(run)], f"Begin run {run}")
        store.publish()


def test_no_remote_publishes_nothing_and_is_no_error(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    init(str(root), process(root), NOW)
    sync(Git.open(str(root), process(root), NOW))
    publish(str(root), process(root), NOW)


def test_the_lock_is_shared_or_exclusive_and_never_waits(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    first = acquire(str(root), process(root), LockMode.SHARED)
    second = acquire(str(root), process(root), LockMode.SHARED)
    with pytest.raises(Contended):
        acquire(str(root), process(root), LockMode.EXCLUSIVE)
    first.release()
    second.release()
    second.release()
    with acquire(str(root), process(root), LockMode.EXCLUSIVE), pytest.raises(Contended):
        acquire(str(root), process(root), LockMode.SHARED)
    assert (root / ".git" / "hyper" / "lock").exists()
    assert git(root, "status", "--porcelain") == ""


MOVING_HOOK = """#!/bin/sh
unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
tip=$(git rev-parse refs/heads/hyper-store)
next=$(echo moved | git commit-tree "$tip^{tree}" -p "$tip")
git update-ref refs/heads/hyper-store "$next" "$tip"
exit 1
"""


def test_a_remote_that_moves_under_every_push_exhausts_three_attempts(
    tmp_path: pathlib.Path, remote: pathlib.Path
) -> None:
    root = clone(remote, tmp_path / "repo")
    sync(Git.open(str(root), process(root), NOW))
    hook = remote / "hooks" / "pre-receive"
    hook.write_text(MOVING_HOOK)
    hook.chmod(0o755)
    with Store.open(str(root), process(root), NOW) as store:
        store.append([write(RUN)], f"Begin run {RUN}")
        with pytest.raises(PushExhausted):
            store.publish()
    assert git(remote, "rev-list", "--count", "hyper-store") == "4"
    assert git(root, "log", "-1", "--format=%s", "hyper-store") == f"Begin run {RUN}"
    hook.unlink()
    publish(str(root), process(root), NOW)
    assert f"{JournalEntry(RUN, NOW).dir}/run.json" in files(remote)


def test_a_sha256_repository(tmp_path: pathlib.Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "--object-format=sha256")
    init(str(root), process(root), NOW)
    with Store.open(str(root), process(root), NOW) as store:
        store.append([write(RUN)], "sha256")
        assert len(store.commit) == 64
    git(root, "fsck", "--strict")
    assert f"{JournalEntry(RUN, NOW).dir}/run.json" in files(root)

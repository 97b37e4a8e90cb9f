"""``hyper store init`` and ``hyper compact`` as commands: what no corpus case can arrange.

A dirty working tree left exactly as it was, a push that reaches nowhere, a remote that cannot
be asked while the branch is absent, and the retention predicate clause by clause.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import pathlib

import pytest

from hyper.cli.commands.store import STORE_ABSENT, refuse_store_absent, report_store_fault
from hyper.cli.destination import Collected
from hyper.cli.main import main
from hyper.core import exit as codes
from hyper.core.faults import GitError, StoreAbsent
from hyper.core.version import BuildFacts
from hyper.store.names import BRANCH
from hyper.store.paths import Identity, record_path
from hyper.store.provenance import Provenance, RunProvenance, StepProvenance
from hyper.store.reading import Series, Version
from hyper.store.record import Metadata, RecordType, RecordVersion
from hyper.store.retention import Retention, commit_message, interior_versions, removable

from .support import NOW, bare, git, process, repository, seed, worktree_state

FACTS = BuildFacts(version="1.4.0")
SERIES = Identity("local", "heartbeat", "api.example.net")
PROVENANCE = Provenance(
    RunProvenance("1.4.0", "a" * 40, "b" * 40),
    StepProvenance("c" * 40, "sha256:" + "d" * 64),
)
RUNS = (
    "01984f1a-3c9f-7b04-9c2e-4f0b8d61a3e7",
    "01984f2b-4da0-7c15-8d41-6b2f7ae05c19",
    "01984f3c-5eb1-7d26-9e52-7c3f8bf16d2a",
    "01984f4d-6fc2-7e37-a063-8d4f9c027e3b",
)
POLICY = Retention("90d", _dt.timedelta(days=90))


def metadata(run: str, days: float, kind: RecordType = "observation", tombstone: bool = False) -> Metadata:
    return Metadata(SERIES, kind, run, 1, "check", NOW - _dt.timedelta(days=days), PROVENANCE, tombstone=tombstone)


def series(*versions: Metadata) -> Series:
    return Series(
        SERIES,
        tuple(Version(meta, record_path(meta.identity, meta.run_id, 1), at) for at, meta in enumerate(versions, 1)),
    )


def files_of(*versions: Metadata) -> dict[str, bytes]:
    return {
        record_path(meta.identity, meta.run_id, meta.step): RecordVersion(meta, {"ok": True}).encode()
        for meta in versions
    }


def declare(root: pathlib.Path, retention: str | None) -> None:
    text = "kind: repository-declaration\nversion: 1.4.0\n"
    if retention is not None:
        text += f"retention: {retention}\n"
    (root / "hyper.yaml").write_text(text)


def hyper(root: pathlib.Path, *args: str) -> tuple[int, str, str]:
    out, err = io.BytesIO(), io.BytesIO()
    code = main([args[0], "--repo-dir", str(root), *args[1:]], out, err, process(root), FACTS)
    return code, out.getvalue().decode(), err.getvalue().decode()


def branch_files(root: pathlib.Path, ref: str = "hyper-store") -> list[str]:
    return git(root, "ls-tree", "-r", "--name-only", ref).splitlines()


def dirty(root: pathlib.Path) -> None:
    """A tracked file edited and staged, another edited and not, and one nobody tracks."""
    (root / "staged.txt").write_text("first\n")
    git(root, "add", "staged.txt", "hyper.yaml")
    git(root, "commit", "-q", "-m", "more code")
    (root / "staged.txt").write_text("second, staged\n")
    git(root, "add", "staged.txt")
    (root / "README").write_text("edited, not staged\n")
    (root / "untracked.txt").write_text("nobody committed this\n")


def snapshot(root: pathlib.Path) -> tuple[object, ...]:
    """Everything the commands must leave alone: HEAD, the index, the tree, the worktrees."""
    files = {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(root).parts
    }
    index = hashlib.sha256((root / ".git" / "index").read_bytes()).hexdigest()
    return (*worktree_state(root), index, files, git(root, "worktree", "list", "--porcelain"))


# --- the predicate ---


def test_a_series_needs_an_interior() -> None:
    assert removable(series(metadata(RUNS[0], 500), metadata(RUNS[1], 400)), POLICY.age, NOW) == []


def test_only_interior_versions_older_than_the_policy_go() -> None:
    versions = (
        metadata(RUNS[0], 500),
        metadata(RUNS[1], 91),
        metadata(RUNS[2], 90),  # exactly the policy's age: stays
        metadata(RUNS[3], 400),  # the Head, however old
    )
    taken = removable(series(*versions), POLICY.age, NOW)
    assert [version.metadata.run_id for version in taken] == [RUNS[1]]


@pytest.mark.parametrize(
    "protector",
    [metadata(RUNS[3], 1, kind="asset"), metadata(RUNS[3], 1, kind="asset", tombstone=True)],
)
def test_one_asset_version_protects_the_whole_series(protector: Metadata) -> None:
    old = (metadata(RUNS[0], 900), metadata(RUNS[1], 800), metadata(RUNS[2], 700))
    assert removable(series(*old, protector), POLICY.age, NOW) == []
    assert len(removable(series(*old, metadata(RUNS[3], 1)), POLICY.age, NOW)) == 2


def test_the_count_and_the_commit_message() -> None:
    assert interior_versions(1) == "1 interior observation version"
    assert interior_versions(3) == "3 interior observation versions"
    assert (
        commit_message(2, POLICY) == "Compact the hyper-store: 2 interior observation versions removed, retention 90d"
    )


# --- the working tree, the index and the checked-out branch ---


def test_store_init_touches_nothing_but_the_branch(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "work")
    declare(root, None)
    dirty(root)
    origin = bare(tmp_path / "origin.git")
    git(root, "remote", "add", "origin", str(origin))
    before = snapshot(root)

    code, out, err = hyper(root, "store", "init")

    assert (code, err) == (0, "")
    assert "created" in out and "pushed" in out
    assert snapshot(root) == before
    assert not (root / "STORE.md").exists()
    assert branch_files(root) == ["STORE.md"] == branch_files(origin)
    assert git(root, "log", "-1", "--format=%an <%ae> %s", "hyper-store") == (
        "hyper <hyper@hyper.invalid> Create the hyper Store"
    )


def test_compact_touches_nothing_but_the_branch(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "work")
    declare(root, "90d")
    old = (metadata(RUNS[0], 900), metadata(RUNS[1], 800), metadata(RUNS[2], 700))
    seed(root, {"STORE.md": b"intro\n", **files_of(*old)})
    dirty(root)
    before = snapshot(root)

    code, out, err = hyper(root, "compact")

    assert (code, err) == (0, "")
    assert out.endswith("1 interior observation version removed · retention 90d · 0 series left whole\n")
    assert snapshot(root) == before
    assert not any(RUNS[1] in path for path in branch_files(root))
    assert git(root, "log", "-1", "--format=%s", "hyper-store") == commit_message(1, POLICY)


def test_compact_with_nothing_to_remove_writes_no_commit(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "work")
    declare(root, "90d")
    seed(root, {"STORE.md": b"intro\n", **files_of(metadata(RUNS[0], 9), metadata(RUNS[1], 8), metadata(RUNS[2], 7))})
    tip = git(root, "rev-parse", "hyper-store")

    assert hyper(root, "compact")[0] == 0
    assert git(root, "rev-parse", "hyper-store") == tip


# --- the world resisting ---


def test_a_compaction_whose_push_fails_is_exit_1_and_stands_locally(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "work")
    declare(root, "90d")
    seed(
        root,
        {"STORE.md": b"intro\n", **files_of(metadata(RUNS[0], 900), metadata(RUNS[1], 800), metadata(RUNS[2], 700))},
    )
    origin = bare(tmp_path / "origin.git")
    git(root, "remote", "add", "origin", str(origin))
    git(root, "push", "-q", "origin", "hyper-store")
    git(root, "config", "remote.origin.pushurl", str(tmp_path / "nowhere.git"))

    code, out, err = hyper(root, "compact")

    assert code == codes.PROBLEMS
    assert out == ""
    assert err.startswith("hyper compact: ")
    assert not any(RUNS[1] in path for path in branch_files(root))
    assert any(RUNS[1] in path for path in branch_files(origin))


def test_an_unreachable_remote_is_not_store_absent(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "work")
    declare(root, "90d")
    git(root, "remote", "add", "origin", str(tmp_path / "nowhere.git"))

    code, out, err = hyper(root, "compact")

    assert (code, out) == (codes.PROBLEMS, "")
    assert "store-absent" not in err


def test_no_branch_anywhere_refuses_store_absent(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "work")
    declare(root, None)

    code, out, err = hyper(root, "compact", "--json")

    assert (code, out) == (codes.REFUSED, "")
    assert err == f"refused: store-absent\n  {STORE_ABSENT.message}\n"


def test_init_whose_push_fails_is_repaired_by_the_next_init(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "work")
    declare(root, None)
    origin = bare(tmp_path / "origin.git")
    git(root, "remote", "add", "origin", str(origin))
    git(root, "config", "remote.origin.pushurl", str(tmp_path / "nowhere.git"))

    code, out, err = hyper(root, "store", "init")
    assert (code, out) == (codes.PROBLEMS, "")
    assert err.startswith("hyper store init: created hyper-store here")
    assert all(line.startswith("  ") for line in err.splitlines()[1:])
    assert branch_files(root) == ["STORE.md"]

    git(root, "config", "--unset", "remote.origin.pushurl")
    code, out, err = hyper(root, "store", "init", "--json")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == '{"type":"branch","branch":"hyper-store","created":false,"pushed":true}'
    assert branch_files(origin) == ["STORE.md"]


# --- the helper other commands Refuse with ---


def test_the_store_fault_helper_sorts_refusals_from_resistance() -> None:
    to = Collected()
    assert refuse_store_absent(to) == codes.REFUSED
    assert report_store_fault("runs", to, StoreAbsent(BRANCH)) == codes.REFUSED
    assert to.refusals == [f"refused: store-absent\n  {STORE_ABSENT.message}\n"] * 2

    resisted = Collected()
    fault = GitError(("fetch",), 128, "fatal: no route\nsecond line\n")
    assert report_store_fault("runs", resisted, fault) == codes.PROBLEMS
    assert resisted.refusals == []
    head, *rest = "".join(resisted.narration).splitlines()
    assert head.startswith("hyper runs: git fetch: exit status 128: fatal: no route")
    assert rest == ["  second line"]

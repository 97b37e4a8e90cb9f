"""The Store's staged commits, which a Run writes through: one commit per write, the branch
moved only at :meth:`Store.settle` — and replayed onto another writer's tip where the branch
moved meanwhile."""

from __future__ import annotations

import datetime as _dt
import subprocess
from pathlib import Path

from hyper.store.branch import Store, Write
from tests.run.support import build, process

NOW = _dt.datetime(2026, 4, 2, 9, 41, 14, tzinfo=_dt.UTC)


def _log(root: Path) -> list[str]:
    return subprocess.run(
        ["git", "log", "--format=%s", "hyper-store"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.splitlines()


def test_staged_commits_reach_the_branch_at_settle_in_order(tmp_path: Path) -> None:
    root = build(tmp_path)
    with Store.open(str(root), process(root, tmp_path), NOW) as store:
        before = store.commit
        store.stage([Write("records/a/b/c/01991ea6-b118-7c93-8d41-6b2f7ae05c19-0001.json", b"{}\n")], "first")
        store.stage([Write("records/a/b/d/01991ea6-b118-7c93-8d41-6b2f7ae05c19-0001.json", b"{}\n")], "second")
        assert store.commit == before and store.tip != before
        assert _log(root)[0] != "second", "nothing moves before settle"
        store.settle()
        assert store.commit == store.tip
    assert _log(root)[:2] == ["second", "first"]


def test_a_branch_moved_meanwhile_gets_the_staged_commits_replayed_onto_it(tmp_path: Path) -> None:
    root = build(tmp_path)
    with Store.open(str(root), process(root, tmp_path), NOW) as mine:
        mine.stage([Write("records/a/b/mine/01991ea6-b118-7c93-8d41-6b2f7ae05c19-0001.json", b"{}\n")], "mine")
        with Store.open(str(root), process(root, tmp_path), NOW) as theirs:
            theirs.append(
                [Write("records/a/b/theirs/01991ea6-b118-7c93-8d41-6b2f7ae05c1a-0001.json", b"{}\n")], "theirs"
            )
        mine.settle()
    assert _log(root)[:2] == ["mine", "theirs"]
    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "hyper-store", "records/a/b/"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert [path.split("/")[3] for path in listed] == ["mine", "theirs"]

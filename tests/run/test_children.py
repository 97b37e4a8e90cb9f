"""The git children a Run starts besides its Steps' own: each question asked of git once.

A Run of a few Steps spends as long starting git as running its commands, so a child asked
twice for the same answer is a cost every small Run pays; these tests hold the count.
"""

from __future__ import annotations

import io
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hyper.cli.main import main
from tests.run.support import ECHO, FACTS, build, process, scripts
from tests.run.test_effects import CHANGES, DEPLOY


def _run_recording(root: Path, bin_dir: Path, name: str) -> tuple[int, list[list[str]]]:
    """The Run's exit code and the argv of every git child it launched."""
    fixed = process(root, bin_dir)
    launched: list[list[str]] = []

    def launch(args: Sequence[str], *rest: Any, **options: Any) -> subprocess.Popen[bytes]:
        if args and args[0] == "git":
            launched.append(list(args))
        return fixed.launch(args, *rest, **options)

    out, err = io.BytesIO(), io.BytesIO()
    code = main(["run", "--repo-dir", str(root), name], out, err, fixed._replace(launch=launch), FACTS)
    assert code == 0, err.getvalue().decode()
    return code, launched


def _remotes_asked(launched: list[list[str]]) -> int:
    return sum(1 for argv in launched if argv[1:] == ["remote"])


def test_a_read_run_asks_git_for_the_remotes_once(tmp_path: Path) -> None:
    root = build(tmp_path)
    _, launched = _run_recording(root, scripts(tmp_path, echo=ECHO), "say-hello")
    assert _remotes_asked(launched) == 1, launched


def test_a_read_run_without_a_remote_asks_git_each_question_once(tmp_path: Path) -> None:
    """The layout, the remotes, the object reader, HEAD and its tree, the fsync setting and the
    ref transaction: nothing else, nothing twice — with no remote the local ref is not looked
    up apart, as opening the Store reads it anyway."""
    root = build(tmp_path)
    _, launched = _run_recording(root, scripts(tmp_path, echo=ECHO), "say-hello")
    asked = [argv[1] for argv in launched]
    assert sorted(asked) == ["cat-file", "config", "ls-tree", "remote", "rev-parse", "rev-parse", "update-ref"]
    assert len({tuple(argv) for argv in launched}) == len(launched), launched


def test_an_effectful_run_that_pushes_at_every_step_asks_for_the_remotes_once(tmp_path: Path) -> None:
    root = build(tmp_path, CHANGES)
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True)
    subprocess.run(["git", "remote", "add", "origin", str(origin)], cwd=root, check=True)
    _, launched = _run_recording(root, scripts(tmp_path, deploy=DEPLOY, echo=ECHO), "two-changes")
    pushes = [argv for argv in launched if argv[1] == "push"]
    assert len(pushes) == 3, "the Begin push, the boundary before step 2, the last push"
    assert _remotes_asked(launched) == 1, launched
    listed = subprocess.run(["git", "ls-remote", str(origin)], check=True, capture_output=True, text=True).stdout
    assert "refs/heads/hyper-store" in listed

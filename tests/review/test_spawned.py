"""The real process starts the review's git without ``subprocess`` (ADR 0006); the answer is
the one the injected launcher gets, byte for byte, range and all, and so is a review on a
machine where git cannot be started."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.review_bench import EXAMPLE, PROCEDURE, process, repository
from hyper.cli.main import main
from hyper.core.process import _real_spawn
from hyper.core.version import BuildFacts, installed

if TYPE_CHECKING:
    from hyper.core.process import Piped, Process


def _answer(root: Path, process: Process) -> tuple[int, bytes, bytes]:
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["review", "--repo-dir", str(root), PROCEDURE], out, err, process, BuildFacts(installed().version))
    return code, out.getvalue(), err.getvalue()


def _both(root: Path, environ: Mapping[str, str]) -> tuple[tuple[int, bytes, bytes], tuple[int, bytes, bytes]]:
    """The review launched (every child a ``Popen``, as the harness's) and spawned (its reader
    as the real process starts it), each child's argv kept."""
    launched: list[list[str]] = []
    spawned: list[list[str]] = []

    def launch(args: list[str], *rest: object, **options: object) -> subprocess.Popen[bytes]:
        launched.append(list(args))
        return subprocess.Popen(args, *rest, **options)  # type: ignore[call-overload, no-any-return]

    def spawn(argv: Sequence[str], env: Mapping[str, str]) -> Piped:
        spawned.append(list(argv))
        return _real_spawn(argv, env)

    fixed = process(root)._replace(environ=environ, launch=launch)
    through_launch = _answer(root, fixed)
    attempts = len(launched)
    assert attempts and launched == [["git", "cat-file", "--batch"]] * attempts
    launched.clear()
    through_spawn = _answer(root, fixed._replace(spawn=spawn))
    assert launched == []
    assert spawned == [["git", "-C", str(root), "cat-file", "--batch"]] * attempts
    return through_launch, through_spawn


def test_a_spawned_reader_reads_the_range_a_launched_one_does(tmp_path: Path) -> None:
    root = repository(tmp_path, "reviewed", (EXAMPLE / PROCEDURE).read_text(), ("bound: 3", "bound: 5"))
    launched, spawned = _both(root, process(root).environ)
    assert spawned == launched
    code, page, _ = spawned
    assert code == 0
    assert "WIDENED" in page.decode()  # the range opened: the Bound moved since the last Run


def test_without_git_a_review_says_the_clone_holds_no_store_either_way(tmp_path: Path) -> None:
    root = repository(tmp_path, "reviewed", (EXAMPLE / PROCEDURE).read_text(), ("bound: 3", "bound: 5"))
    nowhere = tmp_path / "no-git-here"
    nowhere.mkdir()
    launched, spawned = _both(root, {**process(root).environ, "PATH": str(nowhere)})
    assert spawned == launched
    code, page, _ = spawned
    assert code == 0
    assert "no baseline — this clone holds no Store" in page.decode()

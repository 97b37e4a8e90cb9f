"""Signals against a real ``hyper run`` process, held mid-Step by a command waiting on a file.

The first SIGINT (or SIGTERM) drains: the Step in flight finishes and is recorded, no
further Step starts, the Run closes its own entry ``failed`` and exits 130 (143). A second
one ends the process outright, and the entry is left open for the next effectful Run to
reap — which is why the narration names the Run before anything else.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from hyper.core.version import installed
from tests.run.support import ECHO, WAIT_FOR, branch_files, build, entry_files, held, scripts


def _held(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    release = tmp_path / "release"
    root = build(tmp_path, {"procedures/held.yaml": held(release, "second")}, version=installed().version)
    bin_dir = scripts(tmp_path, echo=ECHO, wait_for=WAIT_FOR)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', os.defpath)}"
    env.pop("HYPER_REPO_DIR", None)
    return root, release, env


def _started(root: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``hyper run held``, returned once it has narrated the first Step's start."""
    child = subprocess.Popen(
        [sys.executable, "-m", "hyper", "run", "--repo-dir", str(root), "held"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    _await(child, b"step 1/2")
    return child


def _await(child: subprocess.Popen[bytes], start: bytes) -> None:
    """Reads stderr until a line starting ``start``: how a test knows where hyper is."""
    assert child.stderr is not None
    lines: list[bytes] = []
    while True:
        line = child.stderr.readline()
        assert line, f"hyper ended before saying {start!r}: {b''.join(lines)!r}"
        lines.append(line)
        if line.startswith(start):
            return


@pytest.mark.parametrize(("sent", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_the_first_signal_drains_and_closes_the_entry_failed(tmp_path: Path, sent: int, code: int) -> None:
    root, release, env = _held(tmp_path)
    child = _started(root, env)
    child.send_signal(sent)
    release.touch()
    out, err = child.communicate(timeout=60)
    assert child.returncode == code, err
    assert b"step 2/2" not in err
    assert out.decode().splitlines()[-1].startswith(f"failed · exit {code} · run ")
    assert entry_files(root) == ["outcome.json", "run.json", "steps/0001.json"]
    files = branch_files(root)
    outcome = next(data for name, data in files.items() if name.endswith("outcome.json"))
    assert orjson.loads(outcome)["outcome"] == "failed"
    assert not any("closed-by" in name for name in files)


def test_a_second_signal_ends_the_process_and_leaves_the_entry_open(tmp_path: Path) -> None:
    root, release, env = _held(tmp_path)
    child = _started(root, env)
    try:
        child.send_signal(signal.SIGINT)
        _await(child, b"hyper run: interrupted")
        child.send_signal(signal.SIGINT)
        child.communicate(timeout=60)
        assert child.returncode == -signal.SIGINT
    finally:
        release.touch()  # the command in flight has its own process group and outlives hyper
    assert entry_files(root) == ["run.json"]

"""Signals against a real ``hyper run`` process, held mid-Step by a command waiting on a file.

The first SIGINT (or SIGTERM) drains: the Step in flight finishes and is recorded, no
further Step starts, the Run closes its own entry ``failed`` and exits 130 (143) — also
when the SIGINT is a terminal's, sent to hyper's whole process group, git included. A
second one ends the Step's process group and then the process, and the entry is left
open for the next effectful Run to reap — which is why the narration names the Run
before anything else. Before the drain is installed, an interrupt ends hyper by the
signal, with nothing said.

Every step of every test waits on something hyper said or did — a line on stderr, a file
a script made — never on time passing, so the outcome does not depend on the machine's load.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from hyper.core.version import installed
from tests.run.support import ECHO, branch_files, build, entry_files, held, scripts

pytestmark = pytest.mark.serial  # signals to live processes: run alone (ADR 0029)

HOLD: str = (
    '#!/bin/sh\nprintf \'%s\\n\' "$$" > "$1.pid.tmp" && mv "$1.pid.tmp" "$1.pid"\n'
    "while [ ! -e \"$1\" ]; do sleep 0.02; done\nprintf 'released\\n'\n"
)
"""``wait-for`` that first leaves its pid beside the release file: a Step a test holds in
flight and can later look for."""


def _held(tmp_path: Path, **more: str) -> tuple[Path, Path, dict[str, str]]:
    release = tmp_path / "release"
    root = build(tmp_path, {"procedures/held.yaml": held(release, "second")}, version=installed().version)
    bin_dir = scripts(tmp_path, echo=ECHO, wait_for=HOLD, **more)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', os.defpath)}"
    env.pop("HYPER_REPO_DIR", None)
    return root, release, env


def _start(root: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``hyper run held`` in a process group of its own, as a terminal's foreground job is."""
    return subprocess.Popen(
        [sys.executable, "-m", "hyper", "run", "--repo-dir", str(root), "held"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _started(root: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``hyper run held``, returned once it has narrated the first Step's start."""
    child = _start(root, env)
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


def _appears(path: Path, child: subprocess.Popen[bytes]) -> None:
    """Waits, bounded, for a file a script makes — failing at once if hyper ends first."""
    limit = time.monotonic() + 60
    while not path.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < limit, f"{path.name} never appeared"
        time.sleep(0.01)


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie awaiting its reaper counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")
    except FileNotFoundError:
        return True


def _drained(root: Path, child: subprocess.Popen[bytes], release: Path, code: int) -> None:
    _await(child, b"hyper run: interrupted")
    release.touch()
    out, err = child.communicate(timeout=60)
    assert child.returncode == code, err
    assert b"step 2/2" not in err
    assert b"Traceback" not in err
    assert out.decode().splitlines()[-1].startswith(f"failed · exit {code} · run ")
    assert entry_files(root) == ["outcome.json", "run.json", "steps/0001.json"]
    files = branch_files(root)
    outcome = next(data for name, data in files.items() if name.endswith("outcome.json"))
    assert orjson.loads(outcome)["outcome"] == "failed"
    assert not any("closed-by" in name for name in files)


@pytest.mark.parametrize(("sent", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_the_first_signal_drains_and_closes_the_entry_failed(tmp_path: Path, sent: int, code: int) -> None:
    root, release, env = _held(tmp_path)
    child = _started(root, env)
    child.send_signal(sent)
    _drained(root, child, release, code)


def test_a_terminal_interrupt_to_the_whole_group_still_drains(tmp_path: Path) -> None:
    root, release, env = _held(tmp_path)
    child = _started(root, env)
    os.killpg(child.pid, signal.SIGINT)  # hyper and every git child still in its group
    _drained(root, child, release, 130)


def test_a_second_signal_ends_the_steps_group_then_the_process(tmp_path: Path) -> None:
    root, release, env = _held(tmp_path)
    child = _started(root, env)
    try:
        _appears(tmp_path / "release.pid", child)
        held_pid = int((tmp_path / "release.pid").read_text())
        child.send_signal(signal.SIGINT)
        _await(child, b"hyper run: interrupted")
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
        assert child.returncode == -signal.SIGINT
        assert b"Traceback" not in err
        limit = time.monotonic() + 30
        while not _gone(held_pid):
            assert time.monotonic() < limit, "the Step's command outlived hyper"
            time.sleep(0.01)
    finally:
        release.touch()  # releases the command should the test fail before it was ended
    assert entry_files(root) == ["run.json"]


def test_an_interrupt_before_the_drain_ends_hyper_by_the_signal(tmp_path: Path) -> None:
    real_git = shutil.which("git")
    assert real_git is not None
    gate = tmp_path / "gate"
    # The first git hyper starts marks the moment and waits: hyper is then before its drain.
    git = (
        f'#!/bin/sh\nif [ ! -e "{gate}.reached" ]; then : > "{gate}.reached"\n'
        f'  while [ ! -e "{gate}" ]; do sleep 0.02; done\nfi\nexec "{real_git}" "$@"\n'
    )
    root, _, env = _held(tmp_path, git=git)
    child = _start(root, env)
    try:
        _appears(tmp_path / "gate.reached", child)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        gate.touch()
    assert child.returncode == -signal.SIGINT, err
    assert b"Traceback" not in err
    assert out == b""
    assert not (tmp_path / "release.pid").exists()

"""A child started without ``subprocess`` is started as ``Popen`` would start it (ADR 0006)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hyper.core.spawn import _exec_path, spawn

ENV = dict(os.environ)


def _popen_error(argv: list[str], env: dict[str, str]) -> str:
    with pytest.raises(OSError) as raised:
        subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return f"{type(raised.value).__name__}: {raised.value}"


def _spawn_error(argv: list[str], env: dict[str, str]) -> str:
    with pytest.raises(OSError) as raised:
        spawn(argv, env)
    return f"{type(raised.value).__name__}: {raised.value}"


def test_the_three_streams_are_pipes_and_the_exit_status_is_kept() -> None:
    child = spawn([sys.executable, "-c", "import sys; sys.stdout.write(sys.stdin.read().upper()); sys.exit(3)"], ENV)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    assert child.poll() is None
    child.stdin.write(b"asked\n")
    child.stdin.close()
    assert child.stdout.read() == b"ASKED\n"
    assert child.wait() == 3
    assert child.poll() == 3
    assert child.stderr.read() == b""
    child.stdout.close()
    child.stderr.close()


def test_a_death_by_signal_is_minus_its_number() -> None:
    child = spawn(["sh", "-c", "kill -TERM $$"], ENV)
    assert child.wait() == -signal.SIGTERM


def test_the_child_leads_a_session_of_its_own_and_meets_sigpipe_by_default() -> None:
    child = spawn(["cat"], ENV)
    try:
        assert os.getsid(child.pid) == child.pid
        status = Path(f"/proc/{child.pid}/status")
        if status.exists():  # Linux says which signals a process ignores
            ignored = int(next(line for line in status.read_text().splitlines() if line.startswith("SigIgn:"))[7:], 16)
            assert not ignored & (1 << (signal.SIGPIPE - 1))
            assert not ignored & (1 << (signal.SIGXFSZ - 1))
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()


def test_the_program_is_found_on_the_childs_path(tmp_path: Path) -> None:
    tool = tmp_path / "bin" / "greet"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\necho hello\n")
    tool.chmod(0o755)
    child = spawn(["greet"], {**ENV, "PATH": f"{tmp_path / 'empty'}:{tool.parent}"})
    assert child.stdout is not None
    assert child.stdout.read() == b"hello\n"
    assert child.wait() == 0


@pytest.mark.parametrize(
    "env",
    [{"PATH": "/a:/b"}, {"PATH": ""}, {"PATH": "/a::/b:"}, {}, {"HOME": "/h"}],
)
def test_the_path_is_read_as_os_get_exec_path_reads_it(env: dict[str, str]) -> None:
    assert _exec_path(env) == os.get_exec_path(env)


def test_a_program_that_cannot_start_is_the_error_popen_raises(tmp_path: Path) -> None:
    empty = {**ENV, "PATH": str(tmp_path)}
    assert (
        _spawn_error(["git"], empty)
        == _popen_error(["git"], empty)
        == ("FileNotFoundError: [Errno 2] No such file or directory: 'git'")
    )
    unrunnable = tmp_path / "git"
    unrunnable.write_text("#!/bin/sh\n")
    unrunnable.chmod(stat.S_IRUSR | stat.S_IWUSR)
    if os.access(unrunnable, os.X_OK):
        pytest.skip("this user may execute any file")
    assert _spawn_error(["git"], empty) == _popen_error(["git"], empty)
    assert _spawn_error([str(tmp_path / "absent")], empty) == _popen_error([str(tmp_path / "absent")], empty)


def test_a_failed_start_leaves_no_descriptor_open(tmp_path: Path) -> None:
    before = sorted(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    with pytest.raises(FileNotFoundError):
        spawn(["git"], {**ENV, "PATH": str(tmp_path)})
    if before is not None:
        assert sorted(os.listdir("/proc/self/fd")) == before


def _open_in_child(env: dict[str, str]) -> set[int]:
    """The descriptors a spawned child finds open, as it lists them itself."""
    child = spawn(["sh", "-c", "ls /dev/fd/"], env)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    child.stdin.close()
    listed = child.stdout.read().split()
    assert child.wait() == 0, child.stderr.read()
    child.stdout.close()
    child.stderr.close()
    return {int(name) for name in listed}


@pytest.mark.skipif(not os.path.isdir("/dev/fd/"), reason="this platform lists no descriptors in /dev/fd")
@pytest.mark.parametrize("closefrom", [True, False], ids=["closefrom-if-present", "listed"])
def test_a_descriptor_inherited_as_inheritable_does_not_reach_the_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, closefrom: bool
) -> None:
    if not closefrom:  # the descriptors listed and closed one by one, on every version
        monkeypatch.delattr(os, "POSIX_SPAWN_CLOSEFROM", raising=False)
    # As hyper's parent could hand it one: inheritable, and numbered high enough that the
    # child's own listing cannot take the number.
    handed = os.open(tmp_path / "handed", os.O_WRONLY | os.O_CREAT)
    inherited = os.dup2(handed, 63, inheritable=True)
    kept = os.dup2(handed, 64, inheritable=False)
    try:
        assert os.get_inheritable(inherited)
        seen = _open_in_child(ENV)
        assert {0, 1, 2} <= seen
        assert inherited not in seen
        assert kept not in seen
    finally:
        for fd in (handed, inherited, kept):
            os.close(fd)

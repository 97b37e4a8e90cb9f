"""The entry point's own paths: what happens before, and instead of, a command body."""

from __future__ import annotations

import io
import ssl
import subprocess
import sys
from pathlib import Path

from hyper.cli.main import main
from hyper.core.process import Process
from hyper.core.version import BuildFacts
from tests.fixed import fixed_process

FACTS = BuildFacts(version="1.4.0", toolchain="cpython3.11.7", os="linux", arch="amd64")


def fake_process(wd: str, **env: str) -> Process:
    return fixed_process(wd, env)


def run(argv: list[str], wd: str = "/", **env: str) -> tuple[int, str, str]:
    out, err = io.BytesIO(), io.BytesIO()
    code = main(argv, out, err, fake_process(wd, **env), FACTS)
    return code, out.getvalue().decode(), err.getvalue().decode()


def test_bare_hyper_writes_the_tree_on_stderr_and_exits_2() -> None:
    code, out, err = run([])
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0] == "usage: hyper <command> [args...]"
    assert len(lines) == 33
    assert "sixteen" in lines[29]
    assert [line.split()[0] for line in lines[30:]] == ["--json", "--repo-dir", "--no-color"]


def test_an_unknown_command_is_two_lines() -> None:
    code, out, err = run(["--json", "runs"])
    assert (code, out) == (2, "")
    first, second = err.splitlines()
    assert first == 'hyper: unknown command "--json"'
    assert "hyper with no arguments" in second


def test_version_takes_nothing_and_reads_no_repository() -> None:
    code, out, err = run(["version"], wd="/nonexistent")
    assert (code, err) == (0, "")
    assert out == "hyper 1.4.0\ncommit  unknown\nbuilt   unknown\npython  cpython3.11.7\nos/arch linux/amd64\n"
    assert run(["version", "latest"]) == (2, "", "hyper version: takes no arguments, got latest\n")


def test_completions_arity_and_unknown_shell() -> None:
    assert run(["completions"]) == (2, "", "hyper completions: names no shell\n  known shells: bash, fish, zsh\n")
    assert run(["completions", "a", "b"])[2].startswith("hyper completions: takes one shell, got 2\n")
    assert run(["completions", "Bash"])[2] == (
        'hyper completions: unknown shell "Bash"\n  known shells: bash, fish, zsh\n'
    )


def test_mcp_takes_no_arguments() -> None:
    assert run(["mcp", "--repo-dir", "x"]) == (2, "", "hyper mcp: takes no arguments, got --repo-dir\n")


def test_usage_errors_come_before_the_repository_is_looked_for() -> None:
    # no repository anywhere near "/": the arity fault still wins
    assert run(["provider"]) == (2, "", "hyper provider: names no Provider\n")


def test_no_repository_is_a_usage_error(tmp_path: Path) -> None:
    code, out, err = run(["providers"], wd=str(tmp_path))
    assert (code, out) == (2, "")
    assert err == "hyper providers: not inside a git repository; pass --repo-dir or set HYPER_REPO_DIR\n"
    code, _, err = run(["providers", "--repo-dir", "missing"], wd=str(tmp_path))
    assert (code, err) == (2, "hyper providers: --repo-dir missing: not a directory\n")


def test_the_environment_names_the_repository_when_the_flag_does_not(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    code, _, err = run(["providers"], wd=str(tmp_path), HYPER_REPO_DIR="repo")
    assert (code, err.splitlines()[0]) == (77, "refused: version-pin-absent")
    code, _, err = run(["providers"], wd=str(tmp_path), HYPER_REPO_DIR="")
    assert code == 2 and "not inside a git repository" in err


def test_the_gate_refuses_a_missing_an_unreadable_and_a_different_pin(tmp_path: Path) -> None:
    args = ["targets", "--repo-dir", str(tmp_path)]
    code, out, err = run(args)
    assert (code, out) == (77, "")
    assert err.startswith("refused: version-pin-absent\n  ")
    (tmp_path / "hyper.yaml").write_text("kind: repository-declaration\nversion: [1]\n")
    assert run(args)[2].startswith("refused: version-pin-absent\n  ")
    (tmp_path / "hyper.yaml").write_text("version: 9.9.9\nunknown: key\n")
    code, out, err = run(args)
    assert (code, out) == (77, "")
    assert err.startswith("refused: version-pin-mismatch\n  ")
    assert "1.4.0" in err and "9.9.9" in err


def test_a_pin_file_that_cannot_be_read_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "hyper.yaml").mkdir()
    code, out, err = run(["targets", "--repo-dir", str(tmp_path)])
    assert (code, out) == (2, "")
    assert err.startswith("hyper targets: hyper.yaml: ")


def test_project_stands_outside_the_gate(tmp_path: Path) -> None:
    def offline(host: str, port: int, timeout: float | None) -> ssl.SSLSocket:
        raise OSError("offline")

    out, err = io.BytesIO(), io.BytesIO()
    process = fake_process(str(tmp_path))._replace(dial=offline)
    code = main(["project", "--repo-dir", str(tmp_path)], out, err, process, FACTS)
    # Unpinned, so the gate would refuse; project goes on to read the release's checksum instead.
    assert code == 1 and err.getvalue().decode().startswith("hyper project: ")


def test_a_stdout_that_cannot_be_written_is_a_usage_error() -> None:
    class Closed(io.BytesIO):
        def write(self, data: object) -> int:
            raise BrokenPipeError("broken pipe")

    err = io.BytesIO()
    code = main(["version"], Closed(), err, fake_process("/"), FACTS)
    assert code == 2
    assert err.getvalue().decode() == "hyper version: broken pipe\n"


def test_the_dispatch_table_is_the_tree() -> None:
    from hyper.cli import commands
    from hyper.cli.tree import COMMANDS

    assert set(commands.BUILT) == set(COMMANDS)
    assert set(commands.ANSWERS_A_GATE_REFUSAL) <= set(COMMANDS)
    assert set(commands.JUDGES_ITS_POSITIONAL) <= set(COMMANDS)
    for name in COMMANDS:
        assert callable(commands.lookup(name))


COLLECTOR = (
    "import gc, sys\n"
    "import hyper.cli.main as main\n"
    "main._answer = lambda *_: print(gc.isenabled()) or 0\n"
    "sys.argv = ['hyper', *sys.argv[1:]]\n"
    "main.entry()\n"
)


def test_review_and_check_hold_the_collector_off_from_the_start_and_other_commands_do_not() -> None:
    """``review`` and ``check`` build nothing cyclic, so the console script holds the collector
    off before the command's modules are imported; a command that may run long keeps it."""
    for word, held_off in (("review", True), ("check", True), ("run", False), ("providers", False)):
        done = subprocess.run([sys.executable, "-c", COLLECTOR, word], capture_output=True, text=True, check=False)
        assert (done.returncode, done.stdout) == (0, f"{not held_off}\n"), (word, done.stderr)

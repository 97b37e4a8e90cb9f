"""The completion scripts: each parses in its shell, and each offers what the tree says.

bash is driven the way readline drives it (COMP_WORDS/COMP_CWORD, then ``_hyper``),
fish through its own ``complete -C``, and zsh with the completion builtins stubbed
so the script's decisions can be read off (a real zsh line editor needs a terminal).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from hyper.cli import tree
from hyper.cli.completions import _FILES, script

COMMANDS = list(tree.all_names())
GLOBALS = list(tree.GLOBALS)
SHELLS = list(tree.SHELLS)


def _need(shell: str) -> str:
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"{shell} is not installed here, so its script cannot be exercised")
    return found


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A directory to complete in, with awkward directory names and a plain file, and a
    ``hyper`` on PATH that leaves a mark if anything ever runs it."""
    work = tmp_path / "work"
    for name in ("alpha", "my repo", "v*", "vault"):
        (work / name).mkdir(parents=True)
    (work / "afile").write_text("")
    trap = tmp_path / "bin" / "hyper"
    trap.parent.mkdir()
    trap.write_text(f"#!/bin/sh\ntouch {shlex.quote(str(tmp_path / 'hyper-was-run'))}\n")
    trap.chmod(0o755)
    return work


def _env(workdir: Path) -> dict[str, str]:
    return {
        "PATH": f"{workdir.parent / 'bin'}{os.pathsep}/usr/bin:/bin",
        "HOME": str(workdir.parent),
        "LC_ALL": "C.UTF-8",
    }


def _never_ran_hyper(workdir: Path) -> None:
    assert not (workdir.parent / "hyper-was-run").exists(), "a completion invoked hyper"


def _run(argv: list[str], workdir: Path, stdin: str = "") -> str:
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, cwd=workdir, env=_env(workdir), timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


# -- the scripts as text ---------------------------------------------------------------


def test_every_shell_in_the_tree_has_a_script_and_no_other() -> None:
    assert sorted(_FILES) == sorted(tree.SHELLS)


@pytest.mark.parametrize("shell", SHELLS)
def test_each_script_opens_with_a_preamble_naming_the_command_that_prints_it(shell: str) -> None:
    lines = script(shell).splitlines()
    if shell == "zsh":
        assert lines[0] == "#compdef hyper"
        lines = lines[1:]
    assert lines[0].startswith("# ") and f"hyper completions {shell}" in lines[0]
    assert "@@" not in script(shell)


def test_bash_registers_the_function() -> None:
    assert "\ncomplete -F _hyper hyper\n" in script("bash")


@pytest.mark.parametrize("shell", SHELLS)
def test_the_command_list_is_the_trees(shell: str) -> None:
    assert " ".join(COMMANDS) in script(shell)
    assert " ".join(GLOBALS) in script(shell)


@pytest.mark.parametrize(
    ("shell", "check"),
    [("bash", ["bash", "-n"]), ("zsh", ["zsh", "-n"]), ("fish", ["fish", "--no-execute"])],
)
def test_each_script_parses_in_its_shell(shell: str, check: list[str], tmp_path: Path) -> None:
    _need(check[0])
    path = tmp_path / f"hyper.{shell}"
    path.write_text(script(shell))
    done = subprocess.run([*check, str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


# -- bash, driven as readline drives it -----------------------------------------------


def _bash(words: list[str], workdir: Path, before: str = "", after: str = "") -> list[str]:
    _need("bash")
    program = "\n".join(
        [
            "source /dev/stdin <<'HYPER_COMPLETION'",
            script("bash").rstrip("\n"),
            "HYPER_COMPLETION",
            before,
            f"COMP_WORDS=({' '.join(shlex.quote(word) for word in words)})",
            f"COMP_CWORD={len(words) - 1}",
            "_hyper",
            "printf '%s\\n' \"${COMPREPLY[@]}\"",
            after,
        ]
    )
    out = _run(["bash", "--norc", "--noprofile", "-c", program], workdir)
    _never_ran_hyper(workdir)
    return [line for line in out.splitlines() if line]


def test_bash_offers_the_nineteen_commands_at_position_one(workdir: Path) -> None:
    assert _bash(["hyper", ""], workdir) == COMMANDS
    assert _bash(["hyper", "st"], workdir) == ["store"]
    assert _bash(["hyper", "pro"], workdir) == ["providers", "provider", "probe", "project"]


def test_bash_offers_init_and_the_globals_after_store(workdir: Path) -> None:
    assert _bash(["hyper", "store", ""], workdir) == ["init", *GLOBALS]
    assert _bash(["hyper", "store", "i"], workdir) == ["init"]
    assert _bash(["hyper", "store", "init", ""], workdir) == GLOBALS


def test_bash_offers_the_shells_after_completions_and_nothing_more(workdir: Path) -> None:
    assert _bash(["hyper", "completions", ""], workdir) == SHELLS
    assert _bash(["hyper", "completions", "z"], workdir) == ["zsh"]
    assert _bash(["hyper", "completions", "bash", ""], workdir) == []
    assert _bash(["hyper", "completions", "--"], workdir) == []


def test_bash_offers_the_globals_after_every_tree_command(workdir: Path) -> None:
    assert _bash(["hyper", "providers", ""], workdir) == GLOBALS
    assert _bash(["hyper", "providers", "--n"], workdir) == ["--no-color"]
    for name in tree.COMMANDS:
        offered = _bash(["hyper", name, "x", "--"], workdir)
        assert offered == GLOBALS, name


def test_bash_offers_nothing_after_commands_outside_the_tree_or_unknown_words(workdir: Path) -> None:
    for words in (["hyper", "version", ""], ["hyper", "mcp", ""], ["hyper", "bogus", ""]):
        assert _bash(words, workdir) == []


def test_bash_offers_directories_after_repo_dir(workdir: Path) -> None:
    assert sorted(_bash(["hyper", "check", "--repo-dir", ""], workdir)) == ["alpha", "my repo", "v*", "vault"]
    # "v*" is a name, not a pattern, and a name with a space is one reply.
    assert sorted(_bash(["hyper", "runs", "--repo-dir", "v"], workdir)) == ["v*", "vault"]
    assert _bash(["hyper", "store", "--repo-dir", "my"], workdir) == ["my repo"]


def test_bash_restores_the_glob_setting_it_borrows(workdir: Path) -> None:
    words = ["hyper", "check", "--repo-dir", ""]
    report = "case $- in *f*) echo GLOB-OFF ;; *) echo GLOB-ON ;; esac"
    assert _bash(words, workdir, after=report)[-1] == "GLOB-ON"
    assert _bash(words, workdir, before="set -f", after=report)[-1] == "GLOB-OFF"


# -- fish, through its own completion engine ------------------------------------------


def _fish(line: str, workdir: Path) -> list[str]:
    _need("fish")
    program = f"source; complete -C{shlex.quote(line)}"
    out = _run(["fish", "--no-config", "-c", program], workdir, stdin=script("fish"))
    _never_ran_hyper(workdir)
    return [entry.split("\t")[0] for entry in out.splitlines()]


def test_fish_offers_the_commands_at_position_one(workdir: Path) -> None:
    assert sorted(_fish("hyper ", workdir)) == sorted(COMMANDS)
    assert _fish("hyper st", workdir) == ["store"]


def test_fish_offers_init_after_store_and_shells_after_completions(workdir: Path) -> None:
    assert _fish("hyper store ", workdir) == ["init"]
    assert _fish("hyper store init ", workdir) == []
    assert _fish("hyper completions ", workdir) == SHELLS
    assert _fish("hyper completions fish ", workdir) == []
    assert _fish("hyper completions -", workdir) == []


def test_fish_offers_the_globals_after_tree_commands_only(workdir: Path) -> None:
    for name in tree.COMMANDS:
        assert sorted(_fish(f"hyper {name} --", workdir)) == sorted(GLOBALS), name
    for name in ("version", "mcp"):
        assert _fish(f"hyper {name} --", workdir) == []


def test_fish_offers_directories_after_repo_dir(workdir: Path) -> None:
    assert _fish("hyper providers --repo-dir ", workdir) == ["alpha/", "my repo/", "v*/", "vault/"]


# -- zsh, with the completion builtins stubbed ----------------------------------------

_ZSH_STUBS = """
compdef() { print -r -- "compdef $*" }
compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }
_path_files() { print -r -- "_path_files $*" }
"""


def _zsh_calls(cases: list[list[str]]) -> str:
    lines = []
    for words in cases:
        quoted = " ".join(shlex.quote(word) for word in words)
        lines.append(f"words=({quoted}); CURRENT={len(words)}; print -r -- '=='; _hyper")
    # A completion function that adds nothing returns 1; the shell's status is not the test's.
    return "\n".join([*lines, "true"])


def _zsh_replies(out: str) -> list[list[str]]:
    return [block.split() for block in out.split("==\n")[1:]]


ZSH_CASES: list[tuple[list[str], list[str]]] = [
    (["hyper", ""], COMMANDS),
    (["hyper", "store", ""], ["init", *GLOBALS]),
    (["hyper", "store", "init", ""], GLOBALS),
    (["hyper", "completions", ""], SHELLS),
    (["hyper", "completions", "bash", ""], []),
    (["hyper", "providers", ""], GLOBALS),
    (["hyper", "check", "a", "b", ""], GLOBALS),
    (["hyper", "check", "--repo-dir", ""], ["_path_files", "-/"]),
    (["hyper", "version", ""], []),
    (["hyper", "mcp", ""], []),
    (["hyper", "bogus", ""], []),
]


def test_zsh_sourced_registers_and_decides_like_the_others(workdir: Path, tmp_path: Path) -> None:
    _need("zsh")
    path = tmp_path / "hyper.zsh"
    path.write_text(script("zsh"))
    calls = _zsh_calls([words for words, _ in ZSH_CASES])
    program = f"{_ZSH_STUBS}\nsource {shlex.quote(str(path))}\n{calls}"
    out = _run(["zsh", "-f", "-c", program], workdir)
    _never_ran_hyper(workdir)
    assert out.startswith("compdef _hyper hyper\n")
    assert _zsh_replies(out) == [expected for _, expected in ZSH_CASES]


def test_zsh_autoloaded_from_fpath_runs_on_first_call(workdir: Path, tmp_path: Path) -> None:
    _need("zsh")
    functions = tmp_path / "functions"
    functions.mkdir()
    (functions / "_hyper").write_text(script("zsh"))
    program = "\n".join(
        [
            _ZSH_STUBS,
            f"fpath=({shlex.quote(str(functions))} $fpath)",
            "autoload -Uz _hyper",
            _zsh_calls([["hyper", "store", ""], ["hyper", "completions", ""]]),
        ]
    )
    out = _run(["zsh", "-f", "-c", program], workdir)
    _never_ran_hyper(workdir)
    assert "compdef" not in out
    assert _zsh_replies(out) == [["init", *GLOBALS], SHELLS]


def test_the_trap_would_notice_hyper_being_run(workdir: Path) -> None:
    _run(["sh", "-c", "hyper"], workdir)
    assert (workdir.parent / "hyper-was-run").exists()

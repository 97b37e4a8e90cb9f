"""The README's commands, run as written, from this checkout after ``scripts/setup``.

Run here: the example repository's transcript (each ``$`` line's output compared) and
"A first Run" (in bash, with a PATH that does not already hold the venv, so the block's
own ``export`` is what finds ``hyper``). Not run here: ``./scripts/test`` (the suite
itself), the benchmarks (timing, run by hand), the MCP client block (the official-client
test runs the same command when node is present) and the corpus runner lines (the corpus
test drives the same runner). Cost: a few seconds, two Runs of one read Step.

Marked ``packaging``: the README runs ``./scripts/setup``'s ``.venv`` by name, so what only
this test checks is that install and the README's text, the same on every interpreter, and
``./scripts/test-versions`` leaves it to ``./scripts/test`` (ADR 0041). The code its commands
run is the quickstart test's on every version (``tests/run/test_quickstart.py``).
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.package.build import ROOT
from tests.package.readme import blocks

README = ROOT / "README.md"
VENV_HYPER = ROOT / ".venv" / "bin" / "hyper"

pytestmark = [
    pytest.mark.skipif(not VENV_HYPER.exists(), reason="the README starts from ./scripts/setup's .venv"),
    pytest.mark.packaging,
]


def newcomer_env(home: Path) -> dict[str, str]:
    """A shell a newcomer might have: a git identity, nothing of hyper's on PATH."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "TMPDIR": str(home),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_AUTHOR_NAME": "New Comer",
        "GIT_AUTHOR_EMAIL": "newcomer@example.com",
        "GIT_COMMITTER_NAME": "New Comer",
        "GIT_COMMITTER_EMAIL": "newcomer@example.com",
        "LANG": os.environ.get("LANG", "C.UTF-8"),
    }


def test_the_example_transcript_prints_what_it_shows(tmp_path: Path) -> None:
    (console,) = [b for b in blocks(README) if b.language == "console" and b.heading == "The example repository"]
    lines = console.text.splitlines()
    commands = [i for i, line in enumerate(lines) if line.startswith("$ ")]
    for at, start in enumerate(commands):
        end = commands[at + 1] if at + 1 < len(commands) else len(lines)
        shown = "\n".join(lines[start + 1 : end])
        ran = subprocess.run(
            shlex.split(lines[start][2:]), cwd=ROOT, env=newcomer_env(tmp_path), capture_output=True, text=True
        )
        assert (ran.returncode, ran.stdout.rstrip("\n")) == (0, shown), lines[start]


def test_a_first_run_works_when_followed_literally(tmp_path: Path) -> None:
    (first,) = [b for b in blocks(README) if b.language == "bash" and b.heading == "A first Run"]
    ran = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", first.text],
        cwd=ROOT,
        env=newcomer_env(tmp_path),
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "command not found" not in ran.stderr
    assert ran.stdout.count("completed · exit 0") == 2

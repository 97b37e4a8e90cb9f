"""An interrupt landing inside a command that starts no child (ADR 0006).

Those commands leave SIGINT as Python set it, so the interrupt surfaces as a
KeyboardInterrupt wherever it lands; the console script must still end by the signal, as
every other command does, with nothing on stderr. The interrupt is sent by the command's
own body, from inside its work, so the test does not race the process's start-up.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hyper.core.version import installed

INTERRUPTED = (
    "import os, signal, sys\n"
    "import hyper.cli.commands.{module} as command\n"
    "def interrupted(inv, to, ctx):\n"
    "    os.kill(os.getpid(), signal.SIGINT)\n"
    "    raise AssertionError('the interrupt did not land')\n"
    "command.run = interrupted\n"
    "from hyper.cli.main import entry\n"
    "sys.argv = ['hyper', *sys.argv[1:]]\n"
    "entry()\n"
)


@pytest.mark.parametrize("word", ["check", "providers", "targets"])
def test_an_interrupt_inside_a_childless_command_ends_it_by_the_signal(tmp_path: Path, word: str) -> None:
    (tmp_path / "hyper.yaml").write_text(f"kind: repository-declaration\nversion: {installed().version}\n")
    script = INTERRUPTED.format(module=word)
    done = subprocess.run(
        [sys.executable, "-c", script, word, "--repo-dir", str(tmp_path)],
        capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == -signal.SIGINT, done
    assert done.stderr == b""
    assert done.stdout == b""

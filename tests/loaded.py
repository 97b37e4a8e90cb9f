"""What one hyper command line loads, read from a child process that ran nothing else.

Both import fences ask this one question — the start-up budget (which heavy modules a
command pulls in) and the SDK rule (no ``mcp`` module outside ``hyper mcp``) — so the
child that answers it is written once.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = (
    "import sys, io\n"
    "from hyper.cli.main import main\n"
    "from hyper.core.process import real\n"
    "from hyper.core.version import BuildFacts\n"
    "out, err = io.BytesIO(), io.BytesIO()\n"
    "code = main(sys.argv[1:], out, err, real(), BuildFacts(version='0.1.0'))\n"
    "print(code, *sorted(sys.modules), sep='\\n')\n"
)


_ENTRY = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('--- modules', *sorted(sys.modules), sep='\\n', file=sys.stderr))\n"
    "from hyper.cli.main import entry\n"
    "entry()\n"
)
"""The console script's own path, which :data:`_CHILD` skips: what ``entry`` adds before
``main``'s work shows only there. The list is printed at exit, after ``entry``'s ``sys.exit``."""


def modules_loaded_at_entry(argv: list[str]) -> tuple[int, set[str]]:
    """The exit code and every module loaded by the time the console script's process ends."""
    done = _child(_ENTRY, argv, check=False)
    _, _, modules = done.stderr.partition("--- modules\n")
    return done.returncode, set(modules.splitlines())


def modules_loaded_by(argv: list[str]) -> tuple[int, set[str], str]:
    """The exit code, every module in ``sys.modules`` afterwards, and the child's stderr."""
    done = _child(_CHILD, argv, check=True)
    code, *modules = done.stdout.splitlines()
    return int(code), set(modules), done.stderr


def _child(script: str, argv: list[str], *, check: bool) -> subprocess.CompletedProcess[str]:
    """``script`` run in a fresh interpreter over this checkout, with ``argv``, its output captured."""
    return subprocess.run(
        [sys.executable, "-c", script, *argv],
        cwd=ROOT, capture_output=True, text=True, check=check, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip

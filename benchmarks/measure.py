"""What both benchmarks share: how a command is started, timed, and made comparable.

A wall time means nothing on its own on a shared machine, so every benchmark times
``python -c pass`` in the same run and reports ratios to it, and the commands are
run in turn — one of each per round — so that a burst of load elsewhere lands on
all of them alike rather than on whichever was being timed. The package is
byte-compiled first, as an install leaves it: ``PYTHONDONTWRITEBYTECODE`` (common in
CI and containers) would otherwise make every run compile hyper from source and
measure the compiler rather than hyper.
"""

from __future__ import annotations

import compileall
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HYPER = [sys.executable, "-c", "from hyper.cli.main import entry; entry()"]
"""The console script's path into hyper, without depending on where the script was installed."""
PASS = [sys.executable, "-c", "pass"]


def compile_bytecode() -> None:
    """Write the ``.pyc`` files an install would have written, whatever the environment says."""
    compileall.compile_dir(str(ROOT / "hyper"), quiet=1)


def median_walls(cases: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Each case's median wall time over ``runs`` rounds, in seconds; output is discarded."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, argv in cases.items():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(taken) for name, taken in times.items()}


def exit_code(argv: list[str]) -> int:
    return subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False).returncode

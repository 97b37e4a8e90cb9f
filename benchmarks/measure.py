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
import datetime as _dt
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from hyper.core.ids import mint_v7
from hyper.core.process import Process

ROOT = Path(__file__).resolve().parent.parent
HYPER = [sys.executable, "-c", "from hyper.cli.main import entry; entry()"]
"""The console script's path into hyper, without depending on where the script was installed."""
PASS = [sys.executable, "-c", "pass"]
GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
"""The benchmarks' own git: the user's environment, none of the machine's or the user's configuration."""


def bench_process(root: Path, now: Callable[[], _dt.datetime], environ: Mapping[str, str] = GIT_ENV) -> Process:
    """The fixed Process a benchmark drives hyper's library with, in ``root``."""
    return Process(
        environ=environ,
        getwd=lambda: str(root),
        now=now,
        mint=mint_v7,
        user=lambda: "bench",
        hostname=lambda: "bench",
    )


def compile_bytecode() -> None:
    """Write the ``.pyc`` files an install would have written, whatever the environment says."""
    compileall.compile_dir(str(ROOT / "hyper"), quiet=1)


def wall(argv: list[str], cwd: Path | None = None) -> float:
    """One run of ``argv`` (in ``cwd``, where given), start to exit, in seconds; output is discarded."""
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def median_walls(cases: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Each case's median wall time over ``runs`` rounds, in seconds; output is discarded."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, argv in cases.items():
            times[name].append(wall(argv))
    return {name: statistics.median(taken) for name, taken in times.items()}


def exit_code(argv: list[str]) -> int:
    return subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False).returncode

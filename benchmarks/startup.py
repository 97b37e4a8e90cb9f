"""Start-up cost of the commonest commands, as ratios to starting Python at all.

Run: ``.venv/bin/python -m benchmarks.startup [--runs N]``. Every number is the median
wall time of N rounds measured in this one process (see :mod:`benchmarks.measure`),
and each command is reported as a ratio to ``python -c pass`` run by the same
interpreter in the same rounds, so the result does not depend on how fast this
machine is today. Targets (issue 2):
``hyper version`` within 1.5×, ``hyper providers`` on the example repository within 2×.
"""

from __future__ import annotations

import argparse
import sys

from benchmarks.measure import HYPER, PASS, ROOT, compile_bytecode, median_walls

EXAMPLE = ROOT / "examples" / "quickstart"

CASES: dict[str, tuple[list[str], float]] = {
    "hyper version": ([*HYPER, "version"], 1.5),
    "hyper providers": ([*HYPER, "providers", "--repo-dir", str(EXAMPLE)], 2.0),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=31)
    runs = parser.parse_args().runs
    compile_bytecode()
    argvs = {"python -c pass": PASS, **{name: argv for name, (argv, _) in CASES.items()}}
    median_walls(argvs, 3)  # warm the page cache
    walls = median_walls(argvs, runs)
    baseline = walls["python -c pass"]
    print(f"python -c pass: {baseline * 1000:.1f} ms (median of {runs})")
    for name, (_, target) in CASES.items():
        ratio = walls[name] / baseline
        verdict = "within" if ratio <= target else "OVER"
        print(f"{name}: {walls[name] * 1000:.1f} ms = {ratio:.2f}x  ({verdict} the {target}x target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

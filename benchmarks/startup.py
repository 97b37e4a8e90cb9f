"""Start-up cost of the commonest commands as a user meets them, as ratios to starting Python at all.

The commands run from a non-editable, byte-compiled install of this tree made for the
benchmark in a scratch virtual environment (``pip install --no-deps`` then ``compileall``;
the dependencies are the development environment's, reached by one path line), through
its ``hyper`` console script, from a directory outside the tree. The baseline is that same
environment's own ``python -c pass``: an editable install's import finder loads modules
into every start-up and would double the baseline, and a tree without bytecode would
measure the compiler.

Rounds are interleaved — one of each command per round, at least 5 — and each command is
reported as its median ratio with the minimum beside it. Targets (issue #13): ``hyper
version`` within 2×, ``hyper providers`` on the example repository within 2.5×, ``hyper
review`` of the README's worked example within 3×.

Run: ``.venv/bin/python -m benchmarks.startup [--runs N]``. It prints; it asserts nothing.
"""

from __future__ import annotations

import argparse
import compileall
import site
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

from benchmarks.measure import ROOT, wall
from benchmarks.review_bench import EXAMPLE as REVIEWED
from benchmarks.review_bench import PROCEDURE, repository

EXAMPLE = ROOT / "examples" / "quickstart"
TARGETS = {"hyper version": 2.0, "hyper providers": 2.5, "hyper review": 3.0}


def install(scratch: Path) -> Path:
    """A virtual environment holding this tree installed and byte-compiled; its ``bin``."""
    environment = scratch / "venv"
    venv.create(environment, with_pip=False)
    python = environment / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(ROOT)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    packages = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (packages / "hyper-benchmark-dependencies.pth").write_text(site.getsitepackages()[0] + "\n")
    for package in ("hyper", "hyper_mcp"):
        compileall.compile_dir(str(packages / package), quiet=1)
    return environment / "bin"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    runs = max(parser.parse_args().runs, 5)
    with tempfile.TemporaryDirectory(prefix="hyper-startup-") as name:
        scratch = Path(name)
        bin_dir = install(scratch)
        reviewed = repository(scratch, "reviewed", (REVIEWED / PROCEDURE).read_text(), ("bound: 3", "bound: 5"))
        hyper = str(bin_dir / "hyper")
        cases = {
            "python -c pass": [str(bin_dir / "python"), "-c", "pass"],
            "hyper version": [hyper, "version"],
            "hyper providers": [hyper, "providers", "--repo-dir", str(EXAMPLE)],
            "hyper review": [hyper, "review", "--repo-dir", str(reviewed), PROCEDURE],
        }
        for argv in cases.values():
            subprocess.run(argv, cwd=scratch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        walls: dict[str, list[float]] = {case: [] for case in cases}
        for _ in range(runs):
            for case, argv in cases.items():
                walls[case].append(wall(argv, scratch))
    baseline = walls["python -c pass"]
    print(
        f"python -c pass (the install's own): {statistics.median(baseline) * 1000:.1f} ms median,"
        f" {min(baseline) * 1000:.1f} ms min ({runs} rounds)"
    )
    for case, target in TARGETS.items():
        ratio = statistics.median(walls[case]) / statistics.median(baseline)
        verdict = "within" if ratio <= target else "OVER"
        print(
            f"{case}: {statistics.median(walls[case]) * 1000:.1f} ms = {ratio:.2f}x median,"
            f" {min(walls[case]) / min(baseline):.2f}x min ({verdict} the {target}x target)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

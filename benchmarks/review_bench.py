"""``hyper review`` benchmarks, as ratios to starting Python at all, measured in the same run.

1. The reference README's worked example — ``retire-preview-envs`` with its destroy Bound
   widened from 3 to 5 since the last Run — reviewed with its range open: a real git
   repository, a ``hyper-store`` branch holding that Run, the edit uncommitted. The median
   wall is reported as a ratio to ``python -c pass``. Target: <= 2.5x.
2. A Procedure of about 500, 1,000 and 2,000 lines, reviewed with a range open and one line
   changed, to show the growth. Target: linear in lines. Beside each whole-process wall, the
   review's own work in a warm process (imports paid once) is reported, which is where the
   growth shows without start-up cost and machine noise swamping it.

Run: ``.venv/bin/python benchmarks/review_bench.py [--runs N]``. It prints; it asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import io
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.measure import GIT_ENV, HYPER, PASS, bench_process, compile_bytecode, median_walls
from hyper.cli.main import main as hyper_main
from hyper.core.ids import mint_v7
from hyper.core.process import Process, real
from hyper.core.version import installed
from hyper.store.branch import Store, Write
from hyper.store.journal import OutcomeFile, RunFile, Trigger
from hyper.store.provenance import RunProvenance
from hyper.store.sync import init

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "corpus" / "review" / "fixtures" / "worked-example" / "repo"
NOW = _dt.datetime(2026, 8, 6, 9, 41, 14, tzinfo=_dt.UTC)
ENV = GIT_ENV
PROCEDURE = "procedures/retire-preview-envs.yaml"


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=ENV, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def process(root: Path) -> Process:
    return bench_process(root, lambda: NOW)


def repository(work: Path, name: str, procedure: str, edit: tuple[str, str]) -> Path:
    """The example repository pinned to this build, committed, with one Run of ``procedure``
    on its Store and ``edit`` applied to the Procedure's file afterwards (uncommitted)."""
    root = work / name
    shutil.copytree(EXAMPLE, root)
    declaration = root / "hyper.yaml"
    pinned = declaration.read_text().replace("version: 1.4.0", f"version: {installed().version}")
    declaration.write_text(pinned)
    (root / PROCEDURE).write_text(procedure)
    git(root, "init", "-q", "--initial-branch=main")
    git(root, "add", "--all")
    git(root, "-c", "user.name=bench", "-c", "user.email=bench@bench.invalid", "commit", "-q", "-m", "bench")
    init(str(root), process(root), NOW)
    revision = git(root, "rev-parse", f"HEAD:{PROCEDURE}")
    commit = git(root, "rev-parse", "HEAD")
    started = NOW - _dt.timedelta(days=41)
    run = RunFile(
        mint_v7(started),
        "retire-preview-envs",
        Trigger("cron", "local", "bench", "bench"),
        started,
        False,
        RunProvenance(installed().version, revision, commit),
    )
    outcome = OutcomeFile("completed", started + _dt.timedelta(minutes=2))
    with Store.open(str(root), process(root), NOW) as store:
        store.append([Write(run.at.run_path, run.encode()), Write(run.at.outcome_path, outcome.encode())], "bench run")
    (root / PROCEDURE).write_text(procedure.replace(*edit, 1))
    return root


def long_procedure(lines: int) -> str:
    """The example's Steps repeated, renamed, until the file is about ``lines`` long."""
    example = (EXAMPLE / PROCEDURE).read_text()
    head, _, steps = example.partition("steps:\n")
    blocks = steps.split("\n\n")
    body: list[str] = []
    count = len((head + "steps:\n").splitlines())
    n = 0
    while count < lines:
        block = blocks[n % len(blocks)].rstrip("\n").replace("- id: ", f"- id: s{n}-")
        body.append(block)
        count += len(block.splitlines()) + 1
        n += 1
    return head + "steps:\n" + "\n\n".join(body) + "\n"


def review(root: Path) -> list[str]:
    return [*HYPER, "review", "--repo-dir", str(root), PROCEDURE]


def warm_work(root: Path, runs: int) -> float:
    """The median of one review run in this process, its imports already paid."""
    argv = ["review", "--repo-dir", str(root), PROCEDURE]
    times: list[float] = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        hyper_main(argv, io.BytesIO(), io.BytesIO(), real(), installed())
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="hyper-review-bench-") as name:
        work = Path(name)
        example = repository(work, "example", (EXAMPLE / PROCEDURE).read_text(), ("bound: 3", "bound: 5"))
        check = subprocess.run(review(example), capture_output=True, text=True, check=False)
        if check.returncode != 0 or "WIDENED" not in check.stdout:
            print(check.stdout, check.stderr, sep="\n")
            return 1
        compile_bytecode()
        median_walls({"pass": PASS, "review": review(example)}, 3)  # warm the page cache
        walls = median_walls({"pass": PASS, "review": review(example)}, runs)
        baseline = walls["pass"]
        print(f"python -c pass: {baseline * 1000:.1f} ms (median of {runs})")
        ratio = walls["review"] / baseline
        verdict = "within" if ratio <= 2.5 else "OVER"
        print(
            f"review of the README's example, range open: {walls['review'] * 1000:.1f} ms = {ratio:.2f}x "
            f"({verdict} the 2.5x target); its own work {warm_work(example, runs) * 1000:.1f} ms"
        )
        for lines in (500, 1000, 2000):
            text = long_procedure(lines)
            root = repository(work, f"long-{lines}", text, ("older_than: 14d", "older_than: 30d"))
            size = len(text.splitlines())
            walls = median_walls({"pass": PASS, "review": review(root)}, max(5, runs // 3))
            own = warm_work(root, max(5, runs // 3))
            print(
                f"review of a {size}-line Procedure, range open: {walls['review'] * 1000:.1f} ms = "
                f"{walls['review'] / walls['pass']:.2f}x; its own work {own * 1000:.1f} ms, "
                f"{own / size * 1e6:.1f} µs per line"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

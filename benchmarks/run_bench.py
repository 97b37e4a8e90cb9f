"""Run benchmark: a 100-Step read Run against the cost of what it cannot avoid, in the same run.

The Run: ``hyper run hundred`` in process (imports warmed, so interpreter start-up is
``startup.py``'s subject, not this one's), each Step a ``read`` through the built-in
``shell`` Provider running ``true <n>`` — a hundred children, a hundred Observations, a
hundred Step files, a Journal entry.

The baseline: spawning ``true`` a hundred times, plus one ``git fast-import`` writing the
same files as the same commits the Run left (Begin, each Record and each Step file as its
own commit, End). Target: <= 3x.

Run: ``.venv/bin/python benchmarks/run_bench.py``. It prints; it asserts nothing.
"""

from __future__ import annotations

import datetime as _dt
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hyper.cli.main import main
from hyper.core.ids import mint_v7
from hyper.core.process import Process
from hyper.core.version import BuildFacts
from hyper.store.sync import init

STEPS = 100
REPEATS = 5
REPO_SHELL = Path(__file__).resolve().parents[1] / "corpus" / "run" / "repo-shell"
ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
FACTS = BuildFacts(version="1.4.0")


def process(root: Path) -> Process:
    return Process(
        environ={"PATH": ENV.get("PATH", os.defpath)},
        getwd=lambda: str(root),
        now=lambda: _dt.datetime.now(_dt.UTC),
        mint=mint_v7,
        user=lambda: "bench",
        hostname=lambda: "bench",
    )


def git(root: Path, *args: str, stdin: bytes | None = None) -> bytes:
    env = {**ENV, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@b"}
    return subprocess.run(["git", *args], cwd=root, env=env, input=stdin, capture_output=True, check=True).stdout


def template(work: Path) -> Path:
    """``repo-shell`` plus a Procedure of a hundred ``true`` Steps, committed, with a Store."""
    root = work / "template"
    shutil.copytree(REPO_SHELL, root)
    steps = "".join(
        f"  - id: s{n:03d}\n    definition: host-checks\n    operation: read\n    target: local\n"
        f"    args:\n      command: [true, step-{n:03d}]\n"
        for n in range(1, STEPS + 1)
    )
    (root / "procedures" / "hundred.yaml").write_text(
        f"kind: procedure\nprocedure: hundred\ntargets: [local]\nsteps:\n{steps}"
    )
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "bench")
    init(str(root), process(root), _dt.datetime.now(_dt.UTC))
    return root


def run_once(root: Path) -> None:
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["run", "--repo-dir", str(root), "hundred"], out, err, process(root), FACTS)
    if code != 0:
        raise SystemExit(f"the Run failed ({code}): {err.getvalue().decode()}")


def fast_import_stream(root: Path, since: str) -> bytes:
    """The commits a Run left above ``since``, as one fast-import stream: same messages, same files."""
    out = []
    commits = git(root, "rev-list", "--reverse", f"{since}..hyper-store").decode().split()
    for index, commit in enumerate(commits):
        message = git(root, "log", "-1", "--format=%B", commit).rstrip(b"\n") + b"\n"
        out.append(b"commit refs/heads/hyper-store\ncommitter hyper <hyper@hyper.invalid> 0 +0000\n")
        out.append(b"data %d\n%s" % (len(message), message))
        if index == 0:
            out.append(f"from {since}\n".encode())
        for path in git(root, "diff-tree", "-r", "--no-commit-id", "--name-only", commit).decode().split():
            data = git(root, "show", f"{commit}:{path}")
            out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
    return b"".join(out)


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main_bench() -> None:
    work = Path(tempfile.mkdtemp(prefix="hyper-run-bench-"))
    try:
        base = template(work)
        since = git(base, "rev-parse", "hyper-store").decode().strip()
        warm = work / "warm"
        shutil.copytree(base, warm)
        run_once(warm)  # imports and caches warmed; its commits are the baseline's to write
        stream = fast_import_stream(warm, since)
        true = shutil.which("true") or "true"
        ours, theirs = [], []
        for attempt in range(REPEATS):
            mine, other = work / f"ours-{attempt}", work / f"theirs-{attempt}"
            shutil.copytree(base, mine)
            shutil.copytree(base, other)
            ours.append(timed(lambda at=mine: run_once(at)))  # type: ignore[misc]

            def baseline(at: Path = other) -> None:
                for _ in range(STEPS):
                    subprocess.run([true], check=True)
                git(at, "fast-import", "--quiet", stdin=stream)

            theirs.append(timed(baseline))
        mine_m, other_m = statistics.median(ours), statistics.median(theirs)
        print(
            f"{STEPS}-Step read Run: hyper {mine_m * 1000:.0f} ms, {STEPS} x true + git fast-import"
            f" {other_m * 1000:.0f} ms (medians), ratio {mine_m / other_m:.2f}x,"
            f" best-of ratio {min(ours) / min(theirs):.2f}x (target <= 3x)"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main_bench()

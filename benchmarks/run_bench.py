"""Run benchmark: read Runs of 300, 1,000 and 3,000 Steps against what they cannot avoid, in the same run.

The Run: ``hyper run many``, each Step a ``read`` through the built-in ``shell`` Provider
running ``true step-<n>`` — as many children, Observations and Step files as Steps, and a
Journal entry. It is timed twice: in process (imports warmed, so interpreter start-up is
``startup.py``'s subject) and as a whole process started the way a user starts it, whose
peak RSS is reported too.

The baseline: spawning the same ``true step-<n>`` commands the way the ``shell`` Capability
does (output captured, a session of their own), plus one ``git fast-import`` of
exactly the commits the Run wrote (the same messages and the same files, every intermediate
tree included), so the layout's inherent growth — ``steps/`` and the Record directory gain an
entry per commit — is carried by both sides and only our excess shows.
Targets (issue #13): each ratio <= 1.5x; RSS at 3,000 Steps <= 150 MB.

Rounds are interleaved (ours, the baseline, the whole process, in turn); medians of at least
5 rounds, the minimum beside them. Run: ``.venv/bin/python -m benchmarks.run_bench
[--steps 300,1000,3000] [--rounds 5]``. It prints; it asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import io
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.measure import GIT_ENV, HYPER, bench_process, compile_bytecode
from hyper.cli.main import main
from hyper.core.process import Process
from hyper.core.version import BuildFacts, installed
from hyper.store.sync import init

REPO_SHELL = Path(__file__).resolve().parents[1] / "corpus" / "run" / "repo-shell"
ENV = GIT_ENV
FACTS = BuildFacts(version=installed().version)
"""Both readings of the Run are the installed hyper, so the repository pins its version."""
CHILD_ENV = {"PATH": ENV.get("PATH", os.defpath)}
TARGET = 1.5
RSS_TARGET_MB = 150


def process(root: Path) -> Process:
    return bench_process(root, lambda: _dt.datetime.now(_dt.UTC), CHILD_ENV)


def git(root: Path, *args: str, stdin: bytes | None = None) -> bytes:
    env = {
        **ENV,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@b",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@b",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, input=stdin, capture_output=True, check=True).stdout


def template(work: Path, steps: int) -> Path:
    """``repo-shell`` plus a Procedure of ``steps`` ``true`` Steps, committed, with a Store."""
    root = work / f"template-{steps}"
    shutil.copytree(REPO_SHELL, root)
    declaration = root / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", f"version: {FACTS.version}"))
    body = "".join(
        f"  - id: s{n:05d}\n    definition: host-checks\n    operation: read\n    target: local\n"
        f"    args:\n      command: [true, step-{n:05d}]\n"
        for n in range(1, steps + 1)
    )
    header = "kind: procedure\nprocedure: many\ntargets: [local]\nsteps:\n"
    (root / "procedures" / "many.yaml").write_text(header + body)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "bench")
    init(str(root), process(root), _dt.datetime.now(_dt.UTC))
    return root


def run_once(root: Path) -> None:
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["run", "--repo-dir", str(root), "many"], out, err, process(root), FACTS)
    if code != 0:
        raise SystemExit(f"the Run failed ({code}): {err.getvalue().decode()}")


def whole_process(root: Path) -> int:
    """``hyper run many`` as its own process; its peak RSS in KiB."""
    child = subprocess.Popen(
        [*HYPER, "run", "--repo-dir", str(root), "many"], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"the whole-process Run failed ({child.returncode})")
    return usage.ru_maxrss


def fast_import_stream(root: Path, since: str) -> bytes:
    """The commits a Run left above ``since``, as one fast-import stream: same messages, same
    files, each commit's tree what the Run's was (the files are only ever added)."""
    out: list[bytes] = []
    records = git(root, "log", "--reverse", "--format=commit %H", "--raw", "--no-abbrev", f"{since}..hyper-store")
    blobs: list[str] = []
    order: list[tuple[str, list[tuple[str, str]]]] = []
    for line in records.decode().splitlines():
        if line.startswith("commit "):
            order.append((line.split()[1], []))
        elif line.startswith(":"):
            meta, path = line.split("\t", 1)
            blob = meta.split()[3]
            order[-1][1].append((path, blob))
            blobs.append(blob)
    contents = dict(zip(blobs, _blobs(root, blobs), strict=True))
    messages = _blobs(root, [commit for commit, _ in order])
    for index, ((_, files), raw) in enumerate(zip(order, messages, strict=True)):
        message = raw.split(b"\n\n", 1)[1]
        out.append(b"commit refs/heads/hyper-store\ncommitter hyper <hyper@hyper.invalid> 0 +0000\n")
        out.append(b"data %d\n%s" % (len(message), message))
        if index == 0:
            out.append(f"from {since}\n".encode())
        for path, blob in files:
            data = contents[blob]
            out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
    return b"".join(out)


def _blobs(root: Path, names: list[str]) -> list[bytes]:
    """Each object's content through one ``cat-file --batch``."""
    answer = git(root, "cat-file", "--batch", stdin="".join(f"{name}\n" for name in names).encode())
    found, at = [], 0
    for _ in names:
        newline = answer.index(b"\n", at)
        size = int(answer[at:newline].split()[2])
        found.append(answer[newline + 1 : newline + 1 + size])
        at = newline + 2 + size
    return found


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def ratio_line(name: str, ours: list[float], theirs: list[float]) -> str:
    median = statistics.median(ours) / statistics.median(theirs)
    best = min(ours) / min(theirs)
    verdict = "within" if median <= TARGET else "OVER"
    return (
        f"  {name}: {statistics.median(ours) * 1000:.0f} ms median, ratio {median:.2f}x median,"
        f" {best:.2f}x min ({verdict} the {TARGET}x target)"
    )


def bench(work: Path, steps: int, rounds: int) -> None:
    base = template(work, steps)
    since = git(base, "rev-parse", "hyper-store").decode().strip()
    warm = work / f"warm-{steps}"
    shutil.copytree(base, warm)
    run_once(warm)  # imports and caches warmed; its commits are the baseline's to write
    stream = fast_import_stream(warm, since)
    shutil.rmtree(warm)
    true = shutil.which("true") or "true"
    ours, theirs, whole, rss = [], [], [], []
    for attempt in range(rounds):
        mine, other, started = (work / f"{kind}-{steps}-{attempt}" for kind in ("ours", "theirs", "whole"))
        for copy in (mine, other, started):
            shutil.copytree(base, copy)
        ours.append(timed(lambda at=mine: run_once(at)))  # type: ignore[misc]

        def baseline(at: Path = other) -> None:
            for n in range(1, steps + 1):  # as the shell Capability starts a child: output captured, own session
                subprocess.run(
                    [true, f"step-{n:05d}"],
                    cwd=at,
                    env=CHILD_ENV,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    start_new_session=True,
                    close_fds=True,
                    check=True,
                )
            git(at, "fast-import", "--quiet", stdin=stream)

        theirs.append(timed(baseline))
        start = time.perf_counter()
        rss.append(whole_process(started) / 1024)
        whole.append(time.perf_counter() - start)
        for copy in (mine, other, started):
            shutil.rmtree(copy)
    print(f"{steps}-Step read Run ({rounds} rounds), baseline {statistics.median(theirs) * 1000:.0f} ms median:")
    print(ratio_line("in process", ours, theirs))
    print(ratio_line("whole process", whole, theirs))
    verdict = "within" if max(rss) <= RSS_TARGET_MB else "OVER"
    print(
        f"  whole-process peak RSS: {statistics.median(rss):.0f} MB median, {max(rss):.0f} MB max"
        f" ({verdict} the {RSS_TARGET_MB} MB target{'' if steps >= 3000 else ', set at 3,000 Steps'})"
    )


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", default="300,1000,3000")
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    compile_bytecode()
    work = Path(tempfile.mkdtemp(prefix="hyper-run-bench-"))
    try:
        for steps in (int(size) for size in arguments.steps.split(",")):
            bench(work, steps, max(arguments.rounds, 5))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main_bench()

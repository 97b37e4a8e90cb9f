"""Store benchmarks: ratios against git's own fastest tools, measured in the same run.

1. Appending one Run — 100 Record versions plus its Journal entry (run.json, a Step file,
   outcome.json) — against one ``git fast-import`` process writing the same files as the same
   commits. Two groupings: the whole Run as one append, and one commit per confirmed write
   (Begin, 100 Records, the Step, End) staged and settled as a read Run writes them.
   Target: <= 2x.
2. Listing the Journal of 10,000 entries against ``git ls-tree -r hyper-store`` over the same
   branch, at three sizes to show the growth. Target: <= 3x, linear.

Run: ``.venv/bin/python benchmarks/store_bench.py``. It prints; it asserts nothing.
"""

from __future__ import annotations

import datetime as _dt
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.measure import GIT_ENV, bench_process
from hyper.core.ids import mint_v7
from hyper.core.process import Process
from hyper.store import reading
from hyper.store.branch import Store, Write
from hyper.store.journal import OutcomeFile, RunFile, Trigger
from hyper.store.paths import Identity, record_path
from hyper.store.provenance import Provenance, RunProvenance, StepProvenance
from hyper.store.record import Metadata, RecordVersion
from hyper.store.step import StepCode, StepFile
from hyper.store.sync import init

NOW = _dt.datetime(2026, 8, 6, 9, 41, 12, 508000, tzinfo=_dt.UTC)
ENV = GIT_ENV
REPEATS = 5


def process(root: Path) -> Process:
    return bench_process(root, lambda: NOW)


def git(root: Path, *args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["git", *args], cwd=root, env=ENV, input=stdin, capture_output=True, check=True).stdout


def fresh_store(root: Path) -> None:
    root.mkdir(parents=True)
    git(root, "init", "-q")
    init(str(root), process(root), NOW)


def one_run(run: str) -> list[tuple[str, list[Write]]]:
    """The Run's writes, in the reference's grouping: (commit message, writes) per commit."""
    run_provenance = RunProvenance("1.4.0", "a" * 40, "b" * 40)
    step_provenance = StepProvenance("c" * 40, "sha256:" + "d" * 64)
    run_file = RunFile(run, "watch", Trigger("manual", "local", "bench", host="bench"), NOW, False, run_provenance)
    entry = run_file.at
    commits = [(f"Begin run {run}", [Write(entry.run_path, run_file.encode())])]
    for number in range(100):
        identity = Identity("local", "uptime", f"host-{number:03d}.example.com")
        meta = Metadata(identity, "observation", run, 1, "check_http", NOW, Provenance(run_provenance, step_provenance))
        version = RecordVersion(meta, {"status": 200, "latency_ms": number, "name": identity.name})
        commits.append(
            (
                f"Record local/uptime/{identity.name} at run {run} step 1",
                [Write(record_path(identity, run, 1), version.encode())],
            )
        )
    step = StepFile(
        1,
        StepCode("probe", "uptime", "check_http", "uptime", "local", "read"),
        "ran",
        NOW,
        NOW + _dt.timedelta(seconds=2),
        step_provenance,
    )
    commits.append((f"Step 1 probe of run {run}: ran", [Write(entry.step_path(1), step.encode())]))
    outcome = OutcomeFile("completed", NOW + _dt.timedelta(seconds=3))
    commits.append((f"End run {run}", [Write(entry.outcome_path, outcome.encode())]))
    return commits


def fast_import_stream(commits: list[tuple[str, list[Write]]], parent: str) -> bytes:
    stamp = f"{int(NOW.timestamp())} +0000"
    out = []
    for index, (message, writes) in enumerate(commits):
        data = (message + "\n").encode()
        out.append(b"commit refs/heads/hyper-store\n")
        out.append(f"committer hyper <hyper@hyper.invalid> {stamp}\n".encode())
        out.append(b"data %d\n%s" % (len(data), data))
        if index == 0:
            out.append(f"from {parent}\n".encode())
        for write in writes:
            out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (write.path.encode(), len(write.content), write.content))
    return b"".join(out)


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def append_bench(work: Path) -> None:
    template = work / "template"
    fresh_store(template)
    parent = git(template, "rev-parse", "hyper-store").decode().strip()
    run = mint_v7(NOW)
    per_write = one_run(run)
    whole = [(f"Run {run}", [write for _, writes in per_write for write in writes])]
    for label, commits in (
        ("one append for the whole Run", whole),
        ("one commit per confirmed write (103 commits)", per_write),
    ):
        ours, theirs = [], []
        stream = fast_import_stream(commits, parent)
        for attempt in range(REPEATS):
            mine, other = work / f"ours-{len(commits)}-{attempt}", work / f"theirs-{len(commits)}-{attempt}"
            shutil.copytree(template, mine)
            shutil.copytree(template, other)

            def append(root: Path = mine, grouped: list[tuple[str, list[Write]]] = commits) -> None:
                # As a Run writes: each confirmed write staged as its own commit, the branch moved
                # once at the end (adr/0008) — not Store.append per commit, which no Run does.
                with Store.open(str(root), process(root), NOW) as store:
                    for message, writes in grouped:
                        store.stage(writes, message)
                    store.settle()

            def fast_import(root: Path = other, fed: bytes = stream) -> None:
                git(root, "fast-import", "--quiet", stdin=fed)

            ours.append(timed(append))
            theirs.append(timed(fast_import))
            same = git(mine, "ls-tree", "-r", "hyper-store") == git(other, "ls-tree", "-r", "hyper-store")
            assert same, "the two writers disagree about the branch's files"
        report(f"append, {label}", ours, theirs, "git fast-import", 2)


def journal_stream(entries: int) -> bytes:
    out = [b"commit refs/heads/hyper-store\ncommitter hyper <hyper@hyper.invalid> 0 +0000\ndata 5\nbench\n"]
    base = _dt.datetime(2025, 1, 1, tzinfo=_dt.UTC)
    for number in range(entries):
        started = base + _dt.timedelta(minutes=37 * number)
        run = mint_v7(started)
        run_file = RunFile(
            run,
            "watch",
            Trigger("cron", "github-actions", "bot"),
            started,
            False,
            RunProvenance("1.4.0", "a" * 40, "b" * 40),
        )
        for path, data in (
            (run_file.at.run_path, run_file.encode()),
            (run_file.at.outcome_path, OutcomeFile("completed", started).encode()),
        ):
            out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
    return b"".join(out)


def listing_bench(work: Path) -> None:
    for entries in (2500, 5000, 10000):
        root = work / f"journal-{entries}"
        root.mkdir()
        git(root, "init", "-q")
        git(root, "fast-import", "--quiet", stdin=journal_stream(entries))
        listed, plain = [], []

        def ls_tree(at: Path = root) -> None:
            git(at, "ls-tree", "-r", "hyper-store")

        def list_journal(at: Path = root, expected: int = entries) -> None:
            # A fresh handle each time: a handle caches the trees it has read.
            with Store.open(str(at), process(at), NOW) as store:
                assert len(reading.journal_listing(store)) == expected

        def decode_journal(at: Path = root) -> None:
            with Store.open(str(at), process(at), NOW) as store:
                reading.entries(store)

        for _ in range(REPEATS * 2):
            listed.append(timed(list_journal))
            plain.append(timed(ls_tree))
        decoded = timed(decode_journal)
        report(f"journal of {entries} entries, listed", listed, plain, "git ls-tree -r", 3)
        print(f"  every entry decoded as well (run.json and outcome.json read): {decoded * 1000:.0f} ms")


def report(label: str, ours: list[float], theirs: list[float], baseline: str, target: int) -> None:
    """Median and best of each side: the host is shared, so both are printed."""
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(
        f"{label}: hyper {mine * 1000:.1f} ms, {baseline} {other * 1000:.1f} ms (medians),"
        f" ratio {mine / other:.2f}x, best-of ratio {min(ours) / min(theirs):.2f}x (target <= {target}x)"
    )


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="hyper-store-bench-"))
    try:
        append_bench(work)
        listing_bench(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Store growth benchmark: what ``run``, ``runs``, ``show``, ``records``, ``changes`` and ``review`` cost
at 1,000 and 10,000 stored Runs, as a ratio to what each costs at 10, in the same run.

Seeding goes through the Store library, not through hyper 10,000 times: one real
``hyper run say-hello`` writes the pattern (its run.json, Step file, outcome and Record), and
each further Run is that entry re-issued under a Run id minted five minutes earlier than the
last — the cadence of a scheduled Procedure, so 10,000 Runs span about 35 date partitions —
its files encoded by the Store's own types and appended as one commit.

Each Store then meets one real Run, as a scheduled Procedure's Store has before the Run
measured (so the Run-start memo of adr/0013 is warm, as for every Run but the first after an
upgrade). Every command is a whole process started as a user starts it: the ``hyper`` console
script of a non-editable, byte-compiled install of this tree in a scratch environment
(``startup.install``), so what is timed is what a user's install runs. Each command is started
once on each Store before timing, as a user's second command finds it (the Journal's
summaries memo of adr/0031 is then warm, as the Run-start memo is). Rounds are interleaved
across the three Stores; medians of at least 5 rounds, the minimum beside them. Target
(issue #13): each command at 10,000 Runs <= 1.25x its cost at 10. ``run`` is measured on a copy
of each Store per round, so every round meets the same history; the copies are all made, and
synced to disk, before the first timing.

``show`` is timed twice: of the pattern's Run, whose Step lists its identities in full, and of
the Run each Store met, whose Step names them by digest only, so ``show`` must look back through
the Journal for the identities (the path ``changes`` takes for every entry).

``review`` is of the Procedure every seeded Run ran (``say-hello``), whose range opens at the
newest of them.

``runs`` prints a row per Run up to its default limit of 50, so at 10 Runs (11 with the Run
each Store meets) it prints 11 rows and at 1,000 and 10,000 it prints 50: its ratio carries
those rows as well as the history, and is printed as the issue states it. ``runs --limit 10``
prints 10 rows from every Store, so its ratio carries the history alone.

Run: ``.venv/bin/python -m benchmarks.store_growth [--rounds 5] [--sizes 10,1000,10000]``.
It prints; it asserts nothing.
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
from pathlib import Path

import orjson

from benchmarks.run_bench import ENV, FACTS, REPO_SHELL, process
from benchmarks.startup import install
from hyper.cli.main import main
from hyper.core.ids import mint_v7
from hyper.store.branch import Store, Write
from hyper.store.journal import OutcomeFile, RunFile
from hyper.store.paths import JOURNAL_PREFIX
from hyper.store.step import StepFile
from hyper.store.sync import init

TARGET = 1.25
CADENCE = _dt.timedelta(minutes=5)
# Stands in a command line for the id of the Run each Store met, which differs per Store.
MET = "<the Run met>"


def git(root: Path, *args: str) -> str:
    env = {
        **ENV,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@b",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@b",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, check=True, text=True).stdout


def pattern(work: Path) -> Path:
    """``repo-shell`` pinned to this hyper, committed, with a Store holding one real Run."""
    root = work / "pattern"
    shutil.copytree(REPO_SHELL, root)
    declaration = root / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", f"version: {FACTS.version}"))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "bench")
    init(str(root), process(root), _dt.datetime.now(_dt.UTC))
    out, err = io.BytesIO(), io.BytesIO()
    if main(["run", "--repo-dir", str(root), "say-hello"], out, err, process(root), FACTS) != 0:
        raise SystemExit(f"the pattern Run failed: {err.getvalue().decode()}")
    return root


def seeded(work: Path, template: Path, runs: int) -> Path:
    """A copy of the pattern whose Journal holds ``runs`` entries in all, the pattern's newest."""
    root = work / f"store-{runs}"
    shutil.copytree(template, root)
    now = _dt.datetime.now(_dt.UTC)
    with Store.open(str(root), process(root), now) as store:
        (entry_dir,) = {
            file.path.rsplit("/", 2)[0] if "/steps/" in file.path else file.path.rsplit("/", 1)[0]
            for file in store.files(JOURNAL_PREFIX)
        }
        files = {file.path[len(entry_dir) + 1 :]: file.blob for file in store.files(entry_dir + "/")}
        run_data, step_data, outcome_data = store.contents(
            [files["run.json"], files["steps/0001.json"], files["outcome.json"]]
        )
        run_file, step, outcome = RunFile.decode(run_data), StepFile.decode(step_data), OutcomeFile.decode(outcome_data)
        assert step.started_at is not None and step.ended_at is not None
        writes = []
        for back in range(1, runs):
            shift = CADENCE * back
            started = run_file.started_at - shift
            seeded_run = run_file._replace(run_id=mint_v7(started), started_at=started)
            at = seeded_run.at
            writes.append(Write(at.run_path, seeded_run.encode()))
            writes.append(
                Write(
                    at.step_path(1),
                    step._replace(started_at=step.started_at - shift, ended_at=step.ended_at - shift).encode(),
                )
            )
            writes.append(Write(at.outcome_path, outcome._replace(ended_at=outcome.ended_at - shift).encode()))
        store.append(writes, f"Seed {runs - 1} Runs")
    git(root, "gc", "-q")
    return root


def whole(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    taken = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[1:])} failed ({done.returncode}): {done.stderr.decode()[-400:]}")
    return taken


def rows(argv: list[str]) -> int:
    """How many rows a ``--json`` listing prints, its terminal ``result`` line left out."""
    done = subprocess.run(argv, env=ENV, capture_output=True, check=True)
    return len(done.stdout.splitlines()) - 1


def met_run(hyper: list[str], root: Path) -> str:
    """The id of the Run a Store met after seeding: the newest in its Journal."""
    done = subprocess.run(
        [*hyper, "runs", "--limit", "1", "--json", "--repo-dir", str(root)], env=ENV, capture_output=True, check=True
    )
    return str(orjson.loads(done.stdout.splitlines()[0])["id"])


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="10,1000,10000")
    arguments = parser.parse_args()
    rounds = max(arguments.rounds, 5)
    sizes = [int(size) for size in arguments.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="hyper-store-growth-"))
    try:
        hyper = [str(install(work) / "hyper")]
        template = pattern(work)
        stores = {}
        for runs in sizes:
            start = time.perf_counter()
            stores[runs] = seeded(work, template, runs)
            # A scheduled Procedure's Store has met a Run of this hyper before: its schema memo
            # (adr/0013) is warm, as it is for every Run but the first after an upgrade.
            whole([*hyper, "run", "--repo-dir", str(stores[runs]), "say-hello"])
            print(f"seeded {runs} Runs in {time.perf_counter() - start:.1f} s")
        newest = git(template, "ls-tree", "-r", "--name-only", "hyper-store", "journal/").split("/")[4]
        met = {runs: met_run(hyper, root) for runs, root in stores.items()}
        commands = {
            "runs": ["runs"],
            "runs --limit 10": ["runs", "--limit", "10"],
            "show": ["show", newest],
            "show (the Run met)": ["show", MET],
            "records": ["records"],
            "changes": ["changes"],
            "review": ["review", "procedures/say-hello.yaml"],
        }

        def argv(args: list[str], runs: int) -> list[str]:
            return [*hyper, *(met[runs] if arg == MET else arg for arg in args), "--repo-dir", str(stores[runs])]

        for runs in stores:
            for args in commands.values():
                whole(argv(args, runs))
        for name in ("runs", "runs --limit 10"):
            printed = [rows([*argv(commands[name], runs), "--json"]) for runs in stores]
            print(f"{name} prints {' / '.join(map(str, printed))} rows at {' / '.join(map(str, sizes))} Runs")
        # Every round's copy is made, and on disk, before any timing: a copy written just before
        # the Run it serves would leave the Run waiting on the larger Store's writeback.
        copies = {(runs, attempt): work / f"run-{runs}-{attempt}" for attempt in range(rounds) for runs in stores}
        for (runs, _), copy in copies.items():
            shutil.copytree(stores[runs], copy)
        os.sync()
        taken: dict[tuple[str, int], list[float]] = {}
        for attempt in range(rounds):
            for runs in stores:
                for name, args in commands.items():
                    taken.setdefault((name, runs), []).append(whole(argv(args, runs)))
                taken.setdefault(("run say-hello", runs), []).append(
                    whole([*hyper, "run", "--repo-dir", str(copies[(runs, attempt)]), "say-hello"])
                )
        smallest = sizes[0]
        for name in ["run say-hello", *commands]:
            base = taken[(name, smallest)]
            line = [f"{name}: {statistics.median(base) * 1000:.0f} ms at {smallest}"]
            for runs in sizes[1:]:
                ours = taken[(name, runs)]
                ratio = statistics.median(ours) / statistics.median(base)
                verdict = "within" if ratio <= TARGET else "OVER"
                line.append(
                    f"{runs}: {statistics.median(ours) * 1000:.0f} ms = {ratio:.2f}x median,"
                    f" {min(ours) / min(base):.2f}x min ({verdict} {TARGET}x)"
                )
            print("; ".join(line))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main_bench()

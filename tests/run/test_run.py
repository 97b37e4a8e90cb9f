"""A Run in process against a live repository: the quickstart, the lock, and the Expansion's
dispatch — concurrency, deterministic writes, and the first fault in Expansion order."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import orjson
import pytest

from hyper import capability
from hyper.store.lock import LockMode, acquire
from tests.run.support import ECHO, build, entry_files, process, run, scripts

FLEET = {
    "targets/fleet.yaml": (
        "kind: target-declaration\ntarget: fleet\nclass: fleet\nkinds: [read]\ncapabilities: [http]\n"
        "hosts: [api.fleet.example]\n"
    ),
    "providers/fleet.yaml": (
        "kind: provider\nprovider: fleet\nschema-version: 1\nclass: fleet\ncapabilities: [http]\n"
        "operations:\n  health:\n    kind: read\n    deadline: 5s\n    concurrency: 3\n    http:\n"
        '      method: GET\n      host: "{from-target}"\n      path: /health/{name}\n'
        "    input:\n      type: object\n      properties:\n        name: {type: string}\n"
        '    record:\n      identity: "{name}"\n      fields:\n        status: $.status\n'
    ),
    "definitions/fleet-health.yaml": (
        "kind: definition\ndefinition: fleet-health\nprovider: fleet\nkinds: [read]\ntargets: [fleet]\n"
    ),
    "procedures/sweep.yaml": (
        "kind: procedure\nprocedure: sweep\ntargets: [fleet, local]\nsteps:\n"
        "  - id: health\n    definition: fleet-health\n    operation: health\n    target: fleet\n"
        "    over:\n      values: [n1, n2, n3, n4, n5, n6]\n    args:\n      name: {item: $}\n"
        "  - id: after\n    definition: host-checks\n    operation: read\n    target: local\n"
        "    args:\n      command: [echo, after]\n"
    ),
}


def test_the_quickstart_completes_and_the_branch_holds_the_entry_and_the_observation(tmp_path: Path) -> None:
    root = build(tmp_path)
    bin_dir = scripts(tmp_path, echo=ECHO)
    ran = run(root, bin_dir, "say-hello")
    assert ran.code == 0, ran.stderr
    run_id = ran.stdout.rsplit("run ", 1)[1].strip()
    assert ran.stderr == f"run {run_id}\nstep 1/1 greet\n"
    log = subprocess.run(
        ["git", "log", "--format=%s", "hyper-store"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.splitlines()
    assert log[:4] == [
        f"End run {run_id}",
        f"Step 1 greet of run {run_id}: ran",
        f'Record local/host-checks/["echo","hello from hyper"] at run {run_id} step 1',
        f"Begin run {run_id}",
    ]
    assert entry_files(root) == ["outcome.json", "run.json", "steps/0001.json"]

    again = run(root, bin_dir, "say-hello", "--json")
    assert again.code == 0
    rows = [orjson.loads(line) for line in again.stdout.splitlines()]
    assert [row["type"] for row in rows] == ["step", "provenance", "provenance", "outcome"]
    second = subprocess.run(
        ["git", "log", "-3", "--format=%s", "hyper-store"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    assert "Record " not in second, "an unchanged answer mints no version"


def test_a_run_that_finds_the_lock_taken_answers_75_and_writes_nothing(tmp_path: Path) -> None:
    root = build(tmp_path)
    bin_dir = scripts(tmp_path, echo=ECHO)
    before = entry_files(root)
    with acquire(str(root), process(root, bin_dir), LockMode.EXCLUSIVE):
        ran = run(root, bin_dir, "say-hello")
    assert ran.code == 75
    assert ran.stdout == ""
    assert ran.stderr.startswith("hyper run: another Run holds")
    assert entry_files(root) == before


def _fleet(monkeypatch: pytest.MonkeyPatch, delays: dict[str, float], faults: frozenset[str]) -> list[int]:
    """The http Capability stood in for: each member answers after its delay (a deadline where
    named), and the most calls ever in flight at once is recorded."""
    lock = threading.Lock()
    flying = [0]
    peak: list[int] = [0]
    real = capability.perform

    def perform(call: capability.Call, context: capability.Context) -> capability.Answer:
        if call.operation.capability != "http":
            return real(call, context)
        name = str(call.inputs["name"])
        with lock:
            flying[0] += 1
            peak[0] = max(peak[0], flying[0])
        time.sleep(delays.get(name, 0.0))
        with lock:
            flying[0] -= 1
        if name in faults:
            return capability.Answer({"host": "api.fleet.example"}, capability.Fault("deadline", f"{name} timed out"))
        return capability.Answer({"host": "api.fleet.example", "status": 200})

    monkeypatch.setattr(capability, "perform", perform)
    return peak


@pytest.mark.serial  # the peak of calls in flight depends on each call outlasting the next start: run alone
def test_a_read_expansion_runs_up_to_its_concurrency_and_writes_in_expansion_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = build(tmp_path, FLEET)
    bin_dir = scripts(tmp_path, echo=ECHO)
    # Later members answer first: completion order is the reverse of Expansion order.
    peak = _fleet(monkeypatch, {"n1": 0.3, "n2": 0.25, "n3": 0.2, "n4": 0.1, "n5": 0.05}, frozenset())
    ran = run(root, bin_dir, "sweep")
    assert ran.code == 0, ran.stderr
    assert peak[0] == 3
    records = subprocess.run(
        ["git", "log", "--reverse", "--format=%s", "--grep=^Record fleet/", "hyper-store"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert [line.split()[1].rsplit("/", 1)[1] for line in records] == ["n1", "n2", "n3", "n4", "n5", "n6"]


def test_a_read_expansion_drains_and_halts_on_the_first_fault_in_expansion_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = build(tmp_path, FLEET)
    bin_dir = scripts(tmp_path, echo=ECHO)
    # n5's deadline arrives long before n2's; the Run still names n2.
    _fleet(monkeypatch, {"n2": 0.3, "n5": 0.0}, frozenset({"n2", "n5"}))
    ran = run(root, bin_dir, "sweep", "--json")
    assert ran.code == 1
    assert ran.stderr.splitlines()[-1] == "hyper run: step health: n2: n2 timed out"
    steps = [row for row in map(orjson.loads, ran.stdout.splitlines()) if row["type"] == "step"]
    assert steps == [
        {"type": "step", "step": 1, "id": "health", "kind": "read", "disposition": "ran", "records": 4, "expanded": 6},
        {"type": "step", "step": 2, "id": "after", "kind": "read", "disposition": "never-reached"},
    ]
    assert entry_files(root)[-3:] == ["outcome.json", "run.json", "steps/0001.json"]
    recorded = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "hyper-store", "records/fleet/"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert sorted(path.split("/")[3] for path in recorded) == ["n1", "n3", "n4", "n6"]

"""Effectful Steps against a live repository: what the corpus pins as output, held here as
behaviour — each confirmed effect on the branch before the next call goes out, one call at a
time, the push rhythm, the reap and the evidence run-once reads off a closed entry."""

from __future__ import annotations

import datetime as _dt
import subprocess
from pathlib import Path

import orjson
import pytest

from hyper.artefact.repository import Repository, load_repository
from hyper.run import engine
from hyper.run.reap import reap
from hyper.store.branch import Store, Write
from hyper.store.journal import RunFile, Trigger
from hyper.store.paths import JournalEntry
from hyper.store.provenance import RunProvenance
from hyper.store.step import ClosedBy, StepCode
from tests.run.support import ECHO, build, entry_files, process, run, scripts

CHANGES = {
    "targets/local.yaml": (
        "kind: target-declaration\ntarget: local\nclass: local\nkinds: [read, mutate, destroy]\n"
        "capabilities: [shell]\nopaque-destroy: true\n"
    ),
    "definitions/host-changes.yaml": (
        "kind: definition\ndefinition: host-changes\nprovider: shell\nkinds: [mutate]\n"
        "destroy: [destroy]\ntargets: [local]\n"
    ),
    "procedures/deploy-each.yaml": (
        "kind: procedure\nprocedure: deploy-each\ntargets: [local]\nsteps:\n"
        "  - id: deploy\n    definition: host-changes\n    operation: mutate\n    target: local\n"
        "    over:\n      values: [web-1, web-2, web-3]\n    args:\n      command: [deploy, {item: $}]\n"
    ),
    "procedures/two-changes.yaml": (
        "kind: procedure\nprocedure: two-changes\ntargets: [local]\nsteps:\n"
        "  - id: first\n    definition: host-changes\n    operation: mutate\n    target: local\n"
        "    args:\n      command: [deploy, one]\n"
        "  - id: second\n    definition: host-changes\n    operation: mutate\n    target: local\n"
        "    args:\n      command: [deploy, two]\n"
    ),
    "procedures/migrate-once.yaml": (
        "kind: procedure\nprocedure: migrate-once\ntargets: [local]\nsteps:\n"
        "  - id: migrate\n    definition: host-changes\n    operation: mutate_once\n    target: local\n"
        "    args:\n      command: [deploy, migration]\n"
    ),
}

# Each call fails if another is in flight, and says how many Records the branch held as it began.
DEPLOY = (
    "#!/bin/sh\n"
    "if [ -e in-flight ]; then echo overlapped >&2; exit 9; fi\n"
    ": > in-flight\n"
    "n=$(git ls-tree -r --name-only hyper-store | grep -c '^records/')\n"
    "sleep 0.05\n"
    "rm in-flight\n"
    'echo "$1 after $n"\n'
)


def _log(root: Path) -> list[str]:
    return subprocess.run(
        ["git", "log", "--reverse", "--format=%s", "hyper-store"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()


def test_each_confirmed_effect_is_on_the_branch_before_the_next_call_and_none_overlap(tmp_path: Path) -> None:
    root = build(tmp_path, CHANGES)
    ran = run(root, scripts(tmp_path, deploy=DEPLOY), "deploy-each", "--json")
    assert ran.code == 0, ran.stderr
    shown = subprocess.run(
        ["git", "grep", "-h", "stdout", "hyper-store", "--", "records/local/host-changes"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert sorted(line.strip() for line in shown.splitlines()) == [
        '"stdout": "web-1 after 0\\n"',
        '"stdout": "web-2 after 1\\n"',
        '"stdout": "web-3 after 2\\n"',
    ]
    run_id = orjson.loads(ran.stdout.splitlines()[-1])["run_id"]
    assert _log(root)[1:] == [
        f"Begin run {run_id}",
        f'Record local/host-changes/["deploy","web-1"] at run {run_id} step 1',
        f'Record local/host-changes/["deploy","web-2"] at run {run_id} step 1',
        f'Record local/host-changes/["deploy","web-3"] at run {run_id} step 1',
        f"Step 1 deploy of run {run_id}: ran",
        f"End run {run_id}",
    ]


def test_an_effectful_run_pushes_after_begin_at_each_later_step_and_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = build(tmp_path, CHANGES)
    bin_dir = scripts(tmp_path, deploy=DEPLOY, echo=ECHO)
    pushes: list[str] = []
    monkeypatch.setattr(Store, "publish", lambda self: pushes.append(self.commit))
    assert run(root, bin_dir, "two-changes").code == 0
    assert len(pushes) == 3, "the Begin push, the boundary before step 2, the last push"
    pushes.clear()
    assert run(root, bin_dir, "say-hello").code == 0
    assert len(pushes) == 1, "a read-only Run pushes once, at its end"


def test_a_boundary_push_that_fails_ends_the_run_before_the_next_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = build(tmp_path, CHANGES)
    calls: list[int] = []

    def publish(self: Store) -> None:
        calls.append(1)
        if len(calls) == 2:
            from hyper.core.faults import GitError, PushExhausted

            raise PushExhausted(GitError(("push",), 1, "rejected"))

    monkeypatch.setattr(Store, "publish", publish)
    ran = run(root, scripts(tmp_path, deploy=DEPLOY), "two-changes")
    assert ran.code == 75
    assert "2     second  mutate  never-reached" in ran.stdout
    assert engine.PUSH_EXHAUSTED_WITH_RECORDS in ran.stderr
    assert entry_files(root) == ["outcome.json", "run.json", "steps/0001.json"]


def _open_entry(root: Path, run_id: str, procedure: str, *, dirty: bool) -> None:
    """An entry a killed Run left: ``run.json`` alone, at the commit HEAD names."""
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()
    started = _dt.datetime(2026, 4, 1, 8, 0, tzinfo=_dt.UTC)
    with Store.open(str(root), process(root, root / "no-bin"), started) as store:
        run_file = RunFile(
            run_id,
            procedure,
            Trigger("manual", "local", "igor", "thinkpad"),
            started,
            False,
            RunProvenance("1.4.0", "0" * 40, head, dirty),
        )
        store.append([Write(JournalEntry(run_id, started).run_path, run_file.encode())], f"Begin run {run_id}")


def test_the_reap_writes_code_facts_only_where_the_dead_runs_artefacts_are_known(tmp_path: Path) -> None:
    root = build(tmp_path, CHANGES)
    clean, dirty = "01991ea6-b118-7c93-8d41-6b2f7ae05a01", "01991ea6-b118-7c93-8d41-6b2f7ae05a02"
    _open_entry(root, clean, "two-changes", dirty=False)
    _open_entry(root, dirty, "two-changes", dirty=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()
    now = _dt.datetime(2026, 4, 2, 9, 0, tzinfo=_dt.UTC)
    closer = "01991ea6-b118-7c93-8d41-6b2f7ae05a03"
    repo = load_repository(str(root))
    assert isinstance(repo, Repository)
    with Store.open(str(root), process(root, root / "no-bin"), now) as store:
        writes = {write.path: ClosedBy.decode(write.content) for write in reap(store, repo, head, closer, now)}
    started = _dt.datetime(2026, 4, 1, 8, 0, tzinfo=_dt.UTC)
    assert writes == {
        JournalEntry(clean, started).closed_by_path(closer): ClosedBy(
            1, now, StepCode("first", "host-changes", "mutate", "shell", "local", "mutate")
        ),
        JournalEntry(dirty, started).closed_by_path(closer): ClosedBy(1, now),
    }


def test_a_reaped_step_is_run_once_evidence(tmp_path: Path) -> None:
    root = build(tmp_path, CHANGES)
    _open_entry(root, "01991ea6-b118-7c93-8d41-6b2f7ae05a04", "migrate-once", dirty=False)
    ran = run(root, scripts(tmp_path, deploy=DEPLOY), "migrate-once")
    assert ran.code == 77, ran.stdout
    assert "refused: run-once-recorded" in ran.stdout
    assert "records it as attempted-outcome-unknown" in ran.stdout
    again = run(root, scripts(tmp_path, deploy=DEPLOY), "migrate-once")
    assert again.code == 77, "a refusal is no evidence, and the reaped entry still is"


def test_a_rehearsal_is_no_run_once_evidence(tmp_path: Path) -> None:
    root = build(tmp_path, CHANGES)
    bin_dir = scripts(tmp_path, deploy=DEPLOY)
    assert run(root, bin_dir, "migrate-once", "--dry-run").code == 0
    assert run(root, bin_dir, "migrate-once").code == 0
    assert run(root, bin_dir, "migrate-once").code == 77


def test_two_members_of_one_argv_under_the_fold_refuse_before_either_effect(tmp_path: Path) -> None:
    """Under ``shell`` a Record's name is the argv, known before the call: two members whose
    argvs differ only in case are one identity, so the Step refuses with no call made."""
    root = build(
        tmp_path,
        {
            **CHANGES,
            "procedures/name-both.yaml": (
                "kind: procedure\nprocedure: name-both\ntargets: [local]\nsteps:\n"
                "  - id: name\n    definition: host-changes\n    operation: mutate\n    target: local\n"
                "    over:\n      values: [one, two]\n    args:\n      command: [name-of, {item: $}]\n"
            ),
            "procedures/deploy-named.yaml": (
                "kind: procedure\nprocedure: deploy-named\ntargets: [local]\nsteps:\n"
                "  - id: deploy\n    definition: host-changes\n    operation: mutate\n    target: local\n"
                "    over:\n      assets:\n        - field: exit_code\n          equals: 0\n"
                "    args:\n      command: [deploy, {item: $.stdout}]\n"
            ),
        },
    )
    marker = tmp_path / "deployed"
    bin_dir = scripts(
        tmp_path,
        **{"name-of": '#!/bin/sh\n[ "$1" = one ] && printf Web || printf web\n'},
        deploy=f'#!/bin/sh\necho "$1" >> {marker}\n',
    )
    named = run(root, bin_dir, "name-both")
    assert named.code == 0, named.stderr
    ran = run(root, bin_dir, "deploy-named", "--json")
    assert ran.code == 77, ran.stdout + ran.stderr
    rows = [orjson.loads(line) for line in ran.stdout.splitlines()]
    assert [row["disposition"] for row in rows if row["type"] == "step"] == ["refused"]
    assert rows[-1]["error_code"] == "record-identity-collision"
    assert not marker.exists()


def test_an_effectful_run_whose_sync_cannot_reach_the_remote_leaves_nothing(tmp_path: Path) -> None:
    """The reference's ``an-effectful-sync-that-could-not-reach-the-remote``, which no golden can
    hold (git's account names a temporary path): the sync is the push of ``run.json``, so a
    remote that cannot be reached loses the Store before any effect — 75, stdout silent, no entry."""
    root = build(tmp_path, CHANGES)
    subprocess.run(["git", "remote", "add", "origin", str(tmp_path / "nowhere.git")], cwd=root, check=True)
    marker = tmp_path / "deployed"
    ran = run(root, scripts(tmp_path, deploy=f"#!/bin/sh\n: > {marker}\n"), "two-changes")
    assert (ran.code, ran.stdout) == (75, "")
    assert "the Store could not be reached" in ran.stderr
    assert not marker.exists()
    assert entry_files(root) == []

"""A Procedure invoked twice in one Run: its Steps share one path, so the second invocation's
identity set is compared against the Step file the first wrote (#10, departure 3 closed).

The reference reads the comparand at each Step's turn off the Journal as it stands, the
Run's own entry included; a rehearsal's entry is no comparable evidence, so a dry run keeps
the Run-start reading. ``corpus/run/a-procedure-invoked-twice-…`` pins the bytes; these
hold the rule at its edges: a later Run, ``show`` resolving the digest-only set, a rehearsal,
and the reader itself."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from hyper.cli.main import main
from hyper.run.ledger import Comparands
from hyper.store.identities import Identities
from tests.run.support import ECHO, FACTS, branch_files, build, process, run, scripts

MEMBER = '["echo","inner item"]'
"""The Record name a shell read concludes: its command, as compact JSON."""

TWICE = {
    "procedures/twice.yaml": (
        "kind: procedure\nprocedure: twice\ntargets: [local]\nsteps:\n"
        "  - id: first\n    procedure: inner\n  - id: again\n    procedure: inner\n"
    ),
}


def _steps(root: Path) -> list[dict[str, Any]]:
    """Every Step file on the branch, oldest Run first, in Step order."""
    files = branch_files(root)
    return [json.loads(files[name]) for name in sorted(files) if "/steps/" in name]


def _twice(tmp_path: Path, *args: str) -> tuple[Path, list[dict[str, Any]]]:
    root = build(tmp_path, TWICE)
    bin_dir = scripts(tmp_path, echo=ECHO)
    ran = run(root, bin_dir, "twice", *args)
    assert ran.code == 0, ran.stdout + ran.stderr
    return root, _steps(root)


def test_the_second_invocation_compares_against_the_first(tmp_path: Path) -> None:
    _, (first, again) = _twice(tmp_path)
    assert first["path"] == again["path"] == "inner.item"
    assert first["identities"] == {"digest": first["identities"]["digest"], "members": [MEMBER]}
    assert again["identities"] == {"digest": first["identities"]["digest"]}


def test_a_rehearsal_keeps_the_comparand_the_run_began_with(tmp_path: Path) -> None:
    _, (first, again) = _twice(tmp_path, "--dry-run")
    assert first["identities"] == again["identities"]
    assert again["identities"]["members"] == [MEMBER]


def test_a_later_run_compares_against_the_newest_invocation(tmp_path: Path) -> None:
    root, _ = _twice(tmp_path)
    bin_dir = scripts(tmp_path, echo=ECHO)
    assert run(root, bin_dir, "twice").code == 0
    later = _steps(root)[2:]
    assert [step["identities"] for step in later] == [{"digest": later[0]["identities"]["digest"]}] * 2


def test_show_resolves_the_digest_only_set_to_the_first_invocations_members(tmp_path: Path) -> None:
    root, _ = _twice(tmp_path)
    run_id = next(name for name in branch_files(root) if name.endswith("/run.json")).split("/")[4]
    out, err = io.BytesIO(), io.BytesIO()
    bin_dir = scripts(tmp_path, echo=ECHO)
    code = main(["show", "--repo-dir", str(root), run_id, "--json"], out, err, process(root, bin_dir), FACTS)
    assert code == 0, err.getvalue().decode()
    rows = [json.loads(line) for line in out.getvalue().decode().splitlines()]
    steps = [row for row in rows if row.get("type") == "step"]
    assert [step.get("records") for step in steps] == [[MEMBER], [MEMBER]]
    assert [step.get("unchanged_since") for step in steps] == [None, run_id]  # read off its own entry


def test_the_reader_lays_the_runs_own_sets_over_the_standing_ones() -> None:
    standing = Comparands({("item", "inner.item"): "sha256:old"}, rehearsal=False)
    assert standing.previous("item", "inner.item") == "sha256:old"
    standing.filed("item", "inner.item", None)  # a Disposition carrying no set moves nothing
    standing.filed("item", "inner.item", Identities(""))
    assert standing.previous("item", "inner.item") == "sha256:old"
    standing.filed("item", "inner.item", Identities("sha256:new", ("a",)))
    assert standing.previous("item", "inner.item") == "sha256:new"
    assert standing.previous("item", "") == ""  # another chain is another Step


def test_a_rehearsals_own_sets_are_not_evidence() -> None:
    rehearsal = Comparands({}, rehearsal=True)
    rehearsal.filed("item", "inner.item", Identities("sha256:new", ("a",)))
    assert rehearsal.previous("item", "inner.item") == ""

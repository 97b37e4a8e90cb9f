"""``THE CODE MOVED`` between two real commits: the classed facts a Procedure writes in its own
lines, the repository revision, and the catch-all counting only the lines no classed row reports."""

from __future__ import annotations

import datetime as _dt
import pathlib

from hyper.inspect.comparison.code import code
from hyper.inspect.comparison.page import code_table
from hyper.inspect.comparison.rows import code_rows
from hyper.store.branch import Store
from hyper.store.journal import OutcomeFile, RunFile, Trigger
from hyper.store.provenance import RunProvenance
from hyper.store.reading import Dispositions, Entry

from ...store.support import NOW, git, process, repository, seed

BEFORE = """kind: procedure
procedure: retire
targets: [staging]
cadence: "0 3 * * 1"
steps:
  - id: retire
    definition: servers
    operation: delete_server
    target: staging
    bound: 3
"""
AFTER = """kind: procedure
procedure: retire
targets: [staging, local]
cadence: "*/5 * * * *"
steps:
  # widened after the audit
  - id: retire
    definition: servers
    operation: delete_server
    target: staging
    bound: 5
"""


def _commit(root: pathlib.Path, text: str) -> str:
    (root / "procedures").mkdir(exist_ok=True)
    (root / "procedures" / "retire.yaml").write_text(text)
    git(root, "add", "procedures")
    git(root, "commit", "-q", "-m", "edit")
    return git(root, "rev-parse", "HEAD")


def _end(revision: str, run: str, dirty: bool = False) -> Dispositions:
    started = _dt.datetime(2026, 8, 4, tzinfo=_dt.UTC)
    provenance = RunProvenance("1.4.0", "a" * 40, revision, dirty)
    run_file = RunFile(run, "retire", Trigger("cron", "github-actions", "hyper"), started, False, provenance)
    return Dispositions(Entry(run_file, OutcomeFile("completed", started)), ())


def test_classed_facts_and_the_other_lines(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    was, now = _commit(root, BEFORE), _commit(root, AFTER)
    seed(root, {"STORE.md": b"store\n"})
    with Store.open(str(root), process(root), NOW) as store:
        base = _end(was, "01991c3a-7d40-7a11-9c2e-4f0b8d61a3e7")
        subject = _end(now, "01991ea6-b118-7c93-8d41-6b2f7ae05c19")
        rows = code_rows(code(store, "retire", base, subject))
        dirty = code_rows(code(store, "retire", base, _end(now, subject.entry.run_id, dirty=True)))
    wire = [row.encode().decode() for row in rows]
    assert wire[:3] == [
        '{"type":"code","subject_kind":"procedure","subject":"retire","fact":"cadence","from":"0 3 * * 1",'
        '"to":"*/5 * * * *","from_phrase":"03:00 UTC every Monday","to_phrase":"every 5 minutes",'
        '"from_rate":4.3,"to_rate":8800}',
        '{"type":"code","subject_kind":"procedure","subject":"retire","fact":"step retire · bound","from":3,"to":5}',
        '{"type":"code","subject_kind":"procedure","subject":"retire","fact":"targets","from":["staging"],'
        '"to":["local","staging"]}',
    ]
    assert rows[3].get("fact") == "repository revision"
    command = f"git diff {was[:7]} {now[:7]}"
    assert rows[4].fields == {"fact": "other lines changed", "count": 1, "command": command}
    assert dirty[-1].fields == {"fact": "other lines changed", "count": 1}
    text, phrase = code_table(rows)
    assert phrase == "the code moved"
    assert "  THE CODE MOVED   4 facts\n" in text
    assert (
        "  procedure retire  cadence              0 3 * * 1               */5 * * * *\n"
        "                                         03:00 UTC every Monday  every 5 minutes\n"
        "                                         ≈4.3 runs/month         ≈8800 runs/month\n"
        "  procedure retire  step retire · bound  3                       5\n"
        "  procedure retire  targets              staging                 local · staging\n"
    ) in text
    assert f"  1 other lines changed · git diff {was[:7]} {now[:7]}\n" in text


def test_a_revision_this_clone_lacks(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    now = _commit(root, AFTER)
    seed(root, {"STORE.md": b"store\n"})
    with Store.open(str(root), process(root), NOW) as store:
        base = _end("f" * 40, "01991c3a-7d40-7a11-9c2e-4f0b8d61a3e7")
        found = code(store, "retire", base, _end(now, "01991ea6-b118-7c93-8d41-6b2f7ae05c19"))
    rows = code_rows(found)
    assert [row.get("fact") for row in rows] == ["repository revision", "other lines changed"]
    assert rows[-1].get("baseline_absent") == "not-in-clone"
    text, phrase = code_table(rows)
    assert phrase == "the code moved"
    assert text.endswith(f"  other lines could not be counted · git diff fffffff {now[:7]}\n")

"""``THE CODE MOVED`` between two real commits: the classed facts a Procedure writes in its own
lines, the repository revision, and the catch-all counting only the lines no classed row reports."""

from __future__ import annotations

import datetime as _dt
import pathlib

from hyper.cadence.facts import DEFAULT_BRANCH, ON_THE_HOUR, WITHIN_THE_HOUR
from hyper.inspect.comparison.classed import SUBJECT_KIND, classed
from hyper.inspect.comparison.code import code
from hyper.inspect.comparison.page import code_table
from hyper.inspect.comparison.rows import code_rows
from hyper.review import kinds
from hyper.review.kinds import Kind
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
    was_cells = ["0 3 * * 1", "03:00 UTC every Monday", "≈4.3 runs/month", DEFAULT_BRANCH, ON_THE_HOUR]
    now_cells = ["*/5 * * * *", "every 5 minutes", "≈8800 runs/month", DEFAULT_BRANCH, WITHIN_THE_HOUR, ON_THE_HOUR]
    width = max(len(cell) for cell in was_cells) + 2
    cadence = [
        ("  procedure retire  cadence              " if at == 0 else " " * 41)
        + (was_cells[at] if at < len(was_cells) else "").ljust(width)
        + now_cells[at]
        for at in range(len(now_cells))
    ]
    assert (
        "\n".join(cadence)
        + "\n"
        + "  procedure retire  step retire · bound  "
        + "3".ljust(width)
        + "5\n"
        + "  procedure retire  targets              "
        + "staging".ljust(width)
        + "local · staging\n"
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


def test_an_artefact_the_window_removed_draws_its_facts_against_an_absent_side(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    (root / "targets").mkdir()
    (root / "targets" / "old.yaml").write_text(
        "kind: target-declaration\ntarget: old\nclass: local\nkinds: [read, mutate]\n"
        "capabilities: [http]\nhosts: [a.example]\nauth:\n  token: {env: OLD_TOKEN}\n"
    )
    git(root, "add", "targets")
    git(root, "commit", "-q", "-m", "old")
    was = git(root, "rev-parse", "HEAD")
    git(root, "rm", "-q", "targets/old.yaml")
    git(root, "commit", "-q", "-m", "gone")
    now = git(root, "rev-parse", "HEAD")
    seed(root, {"STORE.md": b"store\n"})
    wanted: dict[Kind, set[str]] = {kind: set() for kind in SUBJECT_KIND} | {kinds.TARGET: {"old"}}
    with Store.open(str(root), process(root), NOW) as store:
        read = classed(store.git, was, now, ["targets/old.yaml"], wanted)
    assert [(fact.subject, fact.fact, fact.before, fact.after) for fact in read.facts] == [
        ("old", "kinds", ["mutate", "read"], None),
        ("old", "credential token", "OLD_TOKEN", None),
    ]
    assert read.covered == {("-", "targets/old.yaml"): frozenset({4, 8}), ("+", "targets/old.yaml"): frozenset()}

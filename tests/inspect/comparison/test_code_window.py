"""``THE CODE MOVED`` over two real commits, where a golden cannot hold it.

The classed facts and the catch-all's count read bytes at two revisions, and a
``repo_revision`` is a commit id no case directory can name. So the reference's fixture
``a-code-window-seeded-at-run-time`` (``corpus/changes/fixtures/code-window``: its
``code-baseline/`` committed below its ``repo/``) is materialised here, the Journal is seeded
against the two commits it made, and ``hyper changes`` is driven one Comparison at a time —
the reference's own cases for the table, each holding what its golden would have held.
"""

from __future__ import annotations

import hashlib
import io
import pathlib
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from hyper.cadence import gloss
from hyper.cli.main import main
from hyper.core.version import BuildFacts

from ...store.support import environ, git, process, seed

FIXTURE = pathlib.Path(__file__).resolve().parents[3] / "corpus" / "changes" / "fixtures" / "code-window"
FACTS = BuildFacts(version="1.4.0")
ABSENT = "1f0a3d78c2e5b91467af03d28b5c9e610473fa8d"
"""Forty hex digits this fixture never committed: what a Run on a runner whose code branch was
never fetched leaves behind."""
BASELINE_RUN = ("01991c3a-7d40-7a11-9c2e-4f0b8d61a3e7", "2026-08-04T09:12:03.000Z", "2026-08-04T09:13:51.000Z")
SUBJECT_RUN = ("01991ea6-b118-7c93-8d41-6b2f7ae05c19", "2026-08-06T11:03:18.000Z", "2026-08-06T11:05:49.000Z")


class Window:
    """The materialised two-commit repository, both revisions in hand."""

    def __init__(self, root: pathlib.Path) -> None:
        self.root = root
        self.baseline = git(root, "rev-parse", "HEAD~1")
        self.subject = git(root, "rev-parse", "HEAD")

    def object(self, revision: str, path: str) -> str:
        """A blob id, which is what a ``procedure_revision`` and a ``definition_revision`` are."""
        return git(self.root, "rev-parse", f"{revision}:{path}")

    def digest(self, revision: str, path: str) -> str:
        """SHA-256 over the bytes, which is what a ``manifest_digest`` is."""
        blob = subprocess.run(
            ["git", "cat-file", "blob", f"{revision}:{path}"],
            cwd=self.root,
            env=environ(),
            capture_output=True,
            check=True,
        )
        return "sha256:" + hashlib.sha256(blob.stdout).hexdigest()

    def seed(self, baseline: End, subject: End) -> None:
        """The two Journal entries the window is over, as the whole of the Store branch."""
        seed(self.root, {**self._entry(BASELINE_RUN, baseline), **self._entry(SUBJECT_RUN, subject)})

    def _entry(self, run: tuple[str, str, str], end: End) -> dict[str, bytes]:
        run_id, started, ended = run
        at = f"journal/{started[:4]}/{started[5:7]}/{started[8:10]}/{run_id}/"
        dirty = '\n    "repo_dirty": true,' if end.dirty else ""

        def step(number: int, name: str, operation: str, target: str) -> bytes:
            return (
                "{\n"
                '  "definition": "ci-keys",\n'
                '  "disposition": "ran",\n'
                f'  "ended_at": "{ended}",\n'
                f'  "id": "{name}",\n'
                '  "kind": "mutate",\n'
                f'  "operation": "{operation}",\n'
                '  "provenance": {\n'
                f'    "definition_revision": "{self.object(end.reads, "definitions/ci-keys.yaml")}",\n'
                f'    "manifest_digest": "{self.digest(end.reads, "providers/tailscale.yaml")}"\n'
                "  },\n"
                '  "provider": "tailscale",\n'
                '  "schema_version": 1,\n'
                f'  "started_at": "{started}",\n'
                f'  "step": {number},\n'
                f'  "target": "{target}"\n'
                "}\n"
            ).encode()

        run_json = (
            "{\n"
            '  "dry_run": false,\n'
            '  "procedure": "sync-ci-keys",\n'
            '  "provenance": {\n'
            '    "hyper_version": "1.4.0",\n'
            f'    "procedure_revision": "{self.object(end.reads, "procedures/sync-ci-keys.yaml")}",{dirty}\n'
            f'    "repo_revision": "{end.revision}"\n'
            "  },\n"
            f'  "run_id": "{run_id}",\n'
            '  "schema_version": 1,\n'
            f'  "started_at": "{started}",\n'
            '  "trigger": {\n'
            '    "actor": "igor",\n'
            '    "cause": "cron",\n'
            '    "executor": "local",\n'
            '    "host": "thinkpad"\n'
            "  }\n"
            "}\n"
        )
        outcome = f'{{\n  "ended_at": "{ended}",\n  "outcome": "completed",\n  "schema_version": 1\n}}\n'
        return {
            at + "run.json": run_json.encode(),
            at + "outcome.json": outcome.encode(),
            at + "steps/0001.json": step(1, "issue-runner-keys", "create_key", "staging"),
            at + "steps/0002.json": step(2, "retire-expired", "delete_key", end.retires_on),
        }

    def changes(self, *extra: str) -> str:
        out, err = io.BytesIO(), io.BytesIO()
        code = main(
            ["changes", "--repo-dir", str(self.root), "sync-ci-keys", *extra], out, err, process(self.root), FACTS
        )
        assert (code, err.getvalue()) == (0, b"")
        return out.getvalue().decode()


class End:
    """One end as a case asks for it: the revision the entry recorded, the one its other
    members were read at, the Target its retiring Step bound, and ``repo_dirty``."""

    def __init__(self, revision: str, retires_on: str, *, reads: str | None = None, dirty: bool = False) -> None:
        self.revision, self.reads, self.retires_on, self.dirty = revision, reads or revision, retires_on, dirty

    def naming(self, revision: str) -> End:
        return End(revision, self.retires_on, reads=self.reads, dirty=self.dirty)

    def with_dirty_tree(self) -> End:
        return End(self.revision, self.retires_on, reads=self.reads, dirty=True)


@pytest.fixture(scope="module")
def window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Window]:
    root = tmp_path_factory.mktemp("code-window") / "repo"
    shutil.copytree(FIXTURE / "code-baseline", root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "--all")
    git(root, "commit", "-q", "-m", "the fixture's earlier revision")
    git(root, "rm", "-rq", ".")
    shutil.copytree(FIXTURE / "repo", root, dirs_exist_ok=True)
    git(root, "add", "--all")
    git(root, "commit", "-q", "-m", "the fixture's working tree")
    yield Window(root)


def _ordinary(w: Window) -> tuple[End, End]:
    return End(w.baseline, "staging"), End(w.subject, "production")


def _table(page: str) -> str:
    """``THE CODE MOVED`` off a page: its head line and everything to the blank line beneath."""
    lines = page.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("THE CODE MOVED"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].strip())
    return "\n".join(lines[start:end])


def _totals(page: str) -> str:
    return next(line.strip() for line in page.split("\n") if line.strip().startswith("TOTALS"))


def _short(name: str) -> str:
    algorithm, colon, digits = name.partition(":")
    return f"{algorithm}:{digits[:7]}" if colon else name[:7]


def _laid_out(rows: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]) -> list[str]:
    """The table as the page lays it out: four columns two spaces apart, a multi-line value
    stacked beneath its first line with the cells left of it blank."""
    cells = [("SUBJECT", "FACT", ("FROM",), ("TO",)), *rows]
    widths = [max(len(row[0]) for row in cells), max(len(row[1]) for row in cells)]
    widths.append(max(len(line) for row in cells for line in row[2]))
    laid = []
    for subject, fact, was, now in cells:
        for at in range(max(len(was), len(now))):
            left = (subject, fact) if at == 0 else ("", "")
            parts = [left[0].ljust(widths[0]), left[1].ljust(widths[1])]
            parts += [(was[at] if at < len(was) else "").ljust(widths[2]), now[at] if at < len(now) else ""]
            laid.append(("  " + "  ".join(parts)).rstrip())
    return laid


def _cadence(expression: str) -> tuple[str, ...]:
    read = gloss(expression)
    assert read is not None
    return (expression, read.phrase, read.rate.text, *read.facts)


def test_every_class_emits_one_row_per_subject_and_fact(window: Window) -> None:
    """Every one of the nine classes moves: kinds, the Target set, a Bound taken away, the
    Cadence, both selectors, a Manifest's capabilities and operations, a credential source, the
    digests — kind-qualified subjects sorted by ``(SUBJECT, FACT)``, the ``—`` subject last, a
    Target declaration the window created drawing its facts against an absent side, and the
    catch-all closing the table."""
    window.seed(*_ordinary(window))
    page = window.changes()
    w, b, s = window, window.baseline, window.subject
    definition, procedure, manifest = (
        "definitions/ci-keys.yaml",
        "procedures/sync-ci-keys.yaml",
        "providers/tailscale.yaml",
    )
    rows = [
        (
            "definition ci-keys",
            "definition revision",
            (_short(w.object(b, definition)),),
            (_short(w.object(s, definition)),),
        ),
        ("definition ci-keys", "kinds", ("mutate",), ("destroy · mutate",)),
        ("definition ci-keys", "targets", ("staging",), ("production · staging",)),
        ("manifest tailscale", "capabilities", ("http",), ("http · shell",)),
        ("manifest tailscale", "manifest digest", (_short(w.digest(b, manifest)),), (_short(w.digest(s, manifest)),)),
        (
            "manifest tailscale",
            "operations",
            ("create_key · delete_key · list_keys",),
            ("create_key · delete_key · get_key · list_keys",),
        ),
        ("procedure sync-ci-keys", "cadence", _cadence("0 0 1 * *"), _cadence("*/5 * * * *")),
        (
            "procedure sync-ci-keys",
            "procedure revision",
            (_short(w.object(b, procedure)),),
            (_short(w.object(s, procedure)),),
        ),
        (
            "procedure sync-ci-keys",
            "step issue-runner-keys · over",
            ("values", "ci-arm64 · ci-x86 · ci-macos"),
            ("values", "ci-arm64 · ci-x86 · ci-macos · ci-arm64-2"),
        ),
        ("procedure sync-ci-keys", "step retire-expired · bound", ("5",), ("–",)),
        (
            "procedure sync-ci-keys",
            "step retire-expired · over",
            ("assets", "expires older_than 0s"),
            ("assets", "created older_than 30d", "expires older_than 0s"),
        ),
        ("procedure sync-ci-keys", "step retire-expired · target", ("staging",), ("production",)),
        ("procedure sync-ci-keys", "targets", ("staging",), ("production · staging",)),
        ("target production", "credential token", ("–",), ("TAILSCALE_PROD",)),
        ("target production", "kinds", ("–",), ("destroy · mutate · read",)),
        ("target staging", "credential token", ("TAILSCALE_STAGING",), ("TAILSCALE_PROD",)),
        ("—", "repository revision", (_short(b),), (_short(s),)),
    ]
    want = [
        "  THE CODE MOVED   17 facts",
        *_laid_out(rows),
        f"  24 other lines changed · git diff {_short(b)} {_short(s)}",
    ]
    assert _table(page).split("\n") == want
    assert _totals(page) == "TOTALS  0 changes · 0 asset · 0 observation · 0 tombstone · the code moved"


def test_a_manifest_no_step_file_names_draws_no_row(window: Window) -> None:
    window.seed(*_ordinary(window))
    table = _table(window.changes())
    assert "manifest unread" not in table
    assert "manifest tailscale      capabilities" in table


def test_the_count_is_gits_own_less_the_lines_the_rows_above_report(window: Window) -> None:
    window.seed(*_ordinary(window))
    numstat = git(window.root, "diff", "--numstat", "--no-renames", window.baseline, window.subject)
    total = sum(int(added) + int(removed) for added, removed, _ in (line.split("\t") for line in numstat.splitlines()))
    assert total == 46, "the fixture moved, and the arithmetic below is stale"
    assert "  24 other lines changed" in window.changes()


@pytest.mark.parametrize("side", ["baseline", "subject"])
def test_a_dirty_side_suppresses_the_command_and_keeps_the_count(window: Window, side: str) -> None:
    was, now = _ordinary(window)
    window.seed(
        was.with_dirty_tree() if side == "baseline" else was, now.with_dirty_tree() if side == "subject" else now
    )
    table = _table(window.changes())
    assert table.endswith("\n  24 other lines changed")
    assert "step retire-expired · bound" in table


def test_a_revision_absent_from_the_clone_replaces_the_catch_all(window: Window) -> None:
    was, now = _ordinary(window)
    window.seed(was.naming(ABSENT), now)
    table = _table(window.changes())
    assert table.endswith(f"\n  other lines could not be counted · git diff {ABSENT[:7]} {window.subject[:7]}")
    assert "other lines changed" not in table
    for unreadable in ("kinds", "cadence", "capabilities", "operations", "credential token"):
        assert unreadable not in table
    for read in ("definition revision", "manifest digest", "procedure revision", "repository revision"):
        assert read in table


def test_the_two_suppressions_stack(window: Window) -> None:
    was, now = _ordinary(window)
    window.seed(was.naming(ABSENT).with_dirty_tree(), now)
    assert _table(window.changes()).endswith("\n  other lines could not be counted")


@pytest.mark.parametrize(
    ("form", "want"),
    [
        ("a classed row rendered", "the code moved"),
        ("a classed row beside the absence line", "the code moved"),
        ("the absence line alone", "the code could not be fully read"),
        ("neither", "the code did not move"),
    ],
)
def test_totals_has_three_forms_tested_in_order(window: Window, form: str, want: str) -> None:
    was, now = _ordinary(window)
    ends = {
        "a classed row rendered": (was, now),
        "a classed row beside the absence line": (was.naming(ABSENT), now),
        "the absence line alone": (now.naming(ABSENT), now.naming(ABSENT)),
        "neither": (now, now),
    }[form]
    window.seed(*ends)
    assert _totals(window.changes()).endswith(" · " + want)


def test_a_window_that_moved_nothing_still_renders_its_table_and_its_catch_all(window: Window) -> None:
    _, now = _ordinary(window)
    window.seed(now, now)
    s = _short(window.subject)
    assert _table(window.changes()) == f"  THE CODE MOVED   0 facts\n  0 other lines changed · git diff {s} {s}"


def test_the_wire_carries_the_value_whole_and_in_its_authored_shape(window: Window) -> None:
    window.seed(*_ordinary(window))
    stream = window.changes("--json")
    b, s = window.baseline, window.subject
    for want in (
        '{"type":"code","subject_kind":"definition","subject":"ci-keys","fact":"kinds","from":["mutate"],'
        '"to":["destroy","mutate"]}',
        '{"type":"code","subject_kind":"procedure","subject":"sync-ci-keys","fact":"step retire-expired · bound",'
        '"from":5}',
        '{"type":"code","subject_kind":"procedure","subject":"sync-ci-keys","fact":"step issue-runner-keys · over",'
        '"from":{"values":["ci-arm64","ci-x86","ci-macos"]},"to":{"values":["ci-arm64","ci-x86","ci-macos","ci-arm64-2"]}}',
        '{"type":"code","subject_kind":"procedure","subject":"sync-ci-keys","fact":"step retire-expired · over",'
        '"from":{"assets":[{"field":"expires","older_than":"0s"}]},'
        '"to":{"assets":[{"field":"created","older_than":"30d"},{"field":"expires","older_than":"0s"}]}}',
        '{"type":"code","subject_kind":"procedure","subject":"sync-ci-keys","fact":"cadence","from":"0 0 1 * *",'
        '"to":"*/5 * * * *","from_phrase":"00:00 UTC on the 1st of the month","to_phrase":"every 5 minutes",'
        '"from_rate":1,"to_rate":8800}',
        '{"type":"code","subject_kind":"target","subject":"production","fact":"kinds","to":["destroy","mutate","read"]}',
        f'{{"type":"code","fact":"repository revision","from":"{b}","to":"{s}"}}',
        f'{{"type":"code","fact":"other lines changed","count":24,"command":"git diff {b[:7]} {s[:7]}"}}',
    ):
        assert want + "\n" in stream


def test_the_absence_carries_not_in_clone_in_place_of_the_count(window: Window) -> None:
    was, now = _ordinary(window)
    window.seed(was.naming(ABSENT), now)
    want = (
        '{"type":"code","fact":"other lines changed","baseline_absent":"not-in-clone",'
        f'"command":"git diff {ABSENT[:7]} {window.subject[:7]}"}}\n'
    )
    assert want in window.changes("--json")


def test_the_table_is_narrowed_by_nothing(window: Window) -> None:
    window.seed(*_ordinary(window))
    whole = _table(window.changes())
    for narrowed in (("--target", "staging"), ("--kind", "asset"), ("--limit", "1")):
        assert _table(window.changes(*narrowed)) == whole

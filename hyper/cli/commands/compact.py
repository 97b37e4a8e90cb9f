"""``hyper compact``: remove the interior Observation versions ``retention:`` lets go.

The predicate is :mod:`hyper.store.retention`'s; this command decides the policy in force and
what the two surfaces say. The policy lives in ``hyper.yaml`` alone — no flag, no variable, no
default — so a repository that declared none keeps every version, and one whose ``retention:``
is not a duration removes nothing either (that fault is ``check``'s to report).

The Store is synced and opened before the policy is acted on: a repository with no branch is a
guardrail declining (77), which must not be answered as *nothing to remove*. Under no policy
nothing is read at all, so a file above this reader's schema ceiling cannot Refuse it.

It is not a Run: no Journal entry, a ``result`` terminal row, and exit 0 or 1 — never 75, which
is a Run that lost the Store. It takes no lock for the same reason: its one commit lands by
compare-and-swap, re-applied onto whatever another writer left.
"""

from __future__ import annotations

import datetime as _dt

from hyper.artefact.declaration import PATH as DECLARATION_PATH
from hyper.artefact.repository import Repository, Unreadable, load_repository
from hyper.artefact.scalars import duration_seconds
from hyper.cli.commands.store import open_synced, report_store_fault
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.faults import STORE_FAULTS, PushExhausted
from hyper.core.row import Row, row
from hyper.render.table import table
from hyper.render.terminal import result
from hyper.store.canonical import instant_text
from hyper.store.names import BRANCH
from hyper.store.retention import Compaction, Removed, Retention, compact, interior_versions

COLUMNS = ("TARGET", "DEFINITION", "RECORD", "WRITTEN", "RUN")


def declared_retention(repo: Repository) -> str:
    """``hyper.yaml``'s ``retention:`` as written; ``""`` where it states none (or states
    something that is not a scalar, which ``check`` reports)."""
    declared = repo.declaration.retention if repo.declaration else None
    return declared.value if declared is not None else ""


def version_row(version: Removed) -> Row:
    """Named by Run and Step, never by ordinal — the number this command moves. ``step`` is on
    the wire only: it separates two versions one Run wrote, too rarely to earn a column."""
    meta = version.metadata
    return row(
        "version",
        target=meta.identity.target,
        definition=meta.identity.definition,
        name=meta.identity.name,
        run_id=meta.run_id,
        step=meta.step,
        written_at=instant_text(meta.written_at),
    )


def compacted_line(done: Compaction, retention: Retention) -> str:
    removed = interior_versions(len(done.removed)) if done.removed else "nothing"
    return f"{removed} removed · retention {retention.declared} · {done.untouched} series left whole"


def unbounded_line(declared: str) -> str:
    """Why nothing can be removed at all; the most likely empty state to be taken for a bug,
    so it names the file and the key."""
    if declared:
        return (
            f"{DECLARATION_PATH}'s retention: {declared} is not a duration, so every version is kept — run: hyper check"
        )
    return f"{DECLARATION_PATH} sets no retention:, so every version is kept for good"


def answer(to: Destination, done: Compaction, line: str) -> None:
    """The rows and the page; where no row carries the answer and no page is drawn, the line
    goes to the narration, so the two empty states stay apart on the wire too."""
    rows = [version_row(version) for version in done.removed]
    cells = [[str(r.get(key)) for key in ("target", "definition", "name", "written_at", "run_id")] for r in rows]
    page = (table([list(COLUMNS), *cells]) if rows else "") + line + "\n"
    to.answer(rows, result(False), page)
    if to.as_json and not rows:
        to.narrate(f"hyper compact: {line}\n")


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    loaded = load_repository(ctx.root, ctx.declared)
    if isinstance(loaded, Unreadable):
        to.usage(f"hyper compact: {loaded.message}\n")
        return codes.USAGE
    declared = declared_retention(loaded)
    seconds = duration_seconds(declared) if declared else None

    now = ctx.process.now()
    try:
        with open_synced(ctx.root, ctx.process, now) as store:
            if seconds is None:
                answer(to, Compaction(), unbounded_line(declared))
                return codes.CLEAN
            retention = Retention(declared, _dt.timedelta(seconds=seconds))
            done = compact(store, retention)
    except PushExhausted:
        to.narrate(
            f"hyper compact: origin refused the push three times running; the removal is committed"
            f" to {BRANCH} here and goes out with the next push\n"
        )
        return codes.PROBLEMS  # not PushExhausted.exit: compact is no Run, and has lost no Store
    except STORE_FAULTS as fault:
        return report_store_fault("compact", to, fault)
    answer(to, done, compacted_line(done, retention))
    return codes.CLEAN

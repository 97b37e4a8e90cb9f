"""``hyper records``: find a version — one row per Record, or every version of each under
``--history``.

The repository is read for one column only: an Asset is orphaned where the Definition that
owned it is no longer declared, and what is declared is a fact of the working tree, not of the
branch. The Journal is read for one column too — whether the writing Run was a rehearsal —
and only for the Runs the answer names, after the cut, so ``--limit 1`` opens one entry
rather than every entry ever written.

It is not a Run: it writes nothing, ends in a ``result`` row, and exits 0 whatever the Records
say. The two usage faults it has of its own (a positional, ``--since`` without ``--history``)
are decided by the parser from the argument list alone.
"""

from __future__ import annotations

from hyper.artefact.repository import Unreadable, load_repository
from hyper.cli.commands.store import open_synced, report_store_fault
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.faults import STORE_FAULTS
from hyper.inspect.records import (
    Narrowing,
    cap_line,
    cut,
    limit_line,
    not_loaded_line,
    page,
    rows_of,
    select,
    truncated,
    unattributed,
    unattributed_line,
)
from hyper.render.terminal import result
from hyper.store.reading import records, rehearsals, suppressed


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    loaded = load_repository(ctx.root, ctx.declared)
    if isinstance(loaded, Unreadable):
        to.usage(f"hyper records: {loaded.message}\n")
        return codes.USAGE
    broken = sum(1 for file in loaded.files if not file.ok and file.directory == "definitions")
    asked = Narrowing(inv.target, inv.definition, inv.name, inv.since)

    try:
        with open_synced(ctx.root, ctx.process, ctx.process.now()) as store:
            selected = select(records(store), asked, inv.history, loaded.definitions)
            kept, done = cut(selected, inv.limit)
            versions = [version for selection in kept for version in selection.versions]
            secret = suppressed(store, versions)
            entries = rehearsals(store, (version.metadata.run_id for version in versions))
    except STORE_FAULTS as fault:
        return report_store_fault("records", to, fault)

    rows = rows_of(kept, secret, entries)
    to.answer(rows, result(truncated(done)), page(rows, asked.narrowed))
    if done.identities_dropped:
        to.narrate(f"hyper records: {limit_line(done, inv.limit, inv.limit_named)}\n")
    if done.versions_dropped:
        to.narrate(f"hyper records: {cap_line(done)}\n")
    if broken:
        to.narrate(f"hyper records: {not_loaded_line(broken)}\n")
    missing = unattributed(rows)
    if missing:
        to.narrate(f"hyper records: {unattributed_line(missing)}\n")
    return codes.CLEAN

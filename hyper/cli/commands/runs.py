"""``hyper runs``: the Journal listed, newest first — the namespace ``show`` resolves a Run id in.

It writes nothing and loads no artefact: the answer is the Store alone, synced from ``origin``
first. A branch on neither side is ``store-absent`` (77) rather than an empty listing, since
that is a claim about the record and not about this clone. Whatever outcomes it lists, it
exits 0.
"""

from __future__ import annotations

from hyper.cli.commands.store import open_synced, report_store_fault
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.faults import STORE_FAULTS
from hyper.inspect.runs import Filter, cut, holds_any, listed, page, run_row
from hyper.render.terminal import result


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    wanted = Filter(since=inv.since, procedure=inv.procedure, target=inv.target, outcome=inv.outcome)
    try:
        with open_synced(ctx.root, ctx.process, ctx.process.now()) as store:
            found, total = listed(store, wanted, inv.limit)
            rows = [run_row(item) for item in found]
            filtered_out = not rows and wanted.narrows and holds_any(store)
    except STORE_FAULTS as fault:
        return report_store_fault("runs", to, fault)
    kept, truncated, line = cut(rows, inv.limit, inv.limit_named, total)
    if line:
        to.narrate(f"hyper runs: {line}\n")
    to.answer(kept, result(truncated), page(kept, filtered_out) if to.draws else "")
    return codes.CLEAN

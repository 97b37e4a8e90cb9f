"""``hyper show <run-id> [--expansion]``: one Journal entry read back whole.

The Store is the namespace a Run id resolves in, so it is located (synced and opened) before
the id is judged: with no branch anywhere the answer is ``store-absent`` (77), whatever was
typed. An id the Journal does not hold — a typo and a prefix alike, since nothing resolves a
partial id — is a usage error (2) naming the namespace and the command that lists it.
"""

from __future__ import annotations

from hyper.cli.commands.store import open_for_reading, report_store_fault
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.faults import STORE_FAULTS
from hyper.core.quote import go_quote
from hyper.inspect.show import page, read, rows
from hyper.render.terminal import result
from hyper.store.names import BRANCH
from hyper.store.reading import Journal


def unknown(run_id: str) -> str:
    return (
        f"hyper show: this repository's Store holds no Journal entry for run {go_quote(run_id)}\n"
        f"  an id is matched whole against the {BRANCH} branch; hyper runs lists every id it holds\n"
    )


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    run_id = inv.positional[0]
    try:
        with open_for_reading("show", to, ctx.root, ctx.process, ctx.process.now()) as store:
            journal = Journal(store)
            found = journal.entry(run_id)
            shown = read(journal, found) if found is not None else None
    except STORE_FAULTS as fault:
        return report_store_fault("show", to, fault)
    if shown is None:
        to.usage(unknown(run_id))
        return codes.USAGE
    to.answer(rows(shown, inv.expansion), result(False), page(shown, inv.expansion, ctx.root))
    return codes.CLEAN

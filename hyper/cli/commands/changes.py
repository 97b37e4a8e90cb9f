"""``hyper changes [procedure]``: the Comparison, one window per Procedure.

The order of what can stop it is fixed: the arguments alone (two windows named at once), then
the positional against the working tree's ``procedures/`` — so a typo is a usage error even
where there is no Store — then the Store (``store-absent`` is 77). Whatever the Runs in a window
ended as, the answer is 0: an outcome is a fact reported, not a fault of this command.

``--limit`` cuts the two Record tables together, across every window; the window rows and the
code facts always survive, since what a reader narrowed must not shrink what they are told moved.
"""

from __future__ import annotations

from collections.abc import Callable

from hyper.artefact.repository import Unreadable, load_repository
from hyper.cli.commands.store import open_synced, report_store_fault
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.faults import STORE_FAULTS, WindowFault
from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row
from hyper.inspect.comparison.code import code
from hyper.inspect.comparison.page import block
from hyper.inspect.comparison.records import Change, changes
from hyper.inspect.comparison.rows import change_row, code_rows, window_row
from hyper.inspect.comparison.sight import Sight, sight
from hyper.inspect.comparison.window import Window, between, latest, procedures, subject
from hyper.render.terminal import Marker, Truncated, narrowing, result
from hyper.store.canonical import instant_text
from hyper.store.reading import Journal

NAME = "changes"

WINDOW_FLAGS: tuple[tuple[str, Callable[[Invocation], bool]], ...] = (
    ("--since", lambda inv: inv.since is not None),
    ("--between", lambda inv: inv.between is not None),
    ("--subject", lambda inv: inv.subject is not None),
)
"""The three ways of naming a window, in the order a refusal of two of them names them."""


class Block(NamedTuple):
    window: Row
    rehearsal: bool
    records: list[Row]
    code: list[Row]
    notes: tuple[str, ...] = ()
    """Page-only sentences: what the rows cannot say about the ``vanished`` ones."""


def _usage(to: Destination, text: str) -> int:
    to.usage(f"hyper {NAME}: {text}")
    return codes.USAGE


def _windows(held: Journal, inv: Invocation, positional: str | None) -> list[Window]:
    if inv.between is not None:
        return [between(held, inv.between, positional)]
    if inv.subject is not None:
        return [subject(held, inv.subject, positional)]
    names = [positional] if positional is not None else procedures(held)
    return [found for name in names if (found := latest(held, name, inv.since)) is not None]


def _block(held: Journal, inv: Invocation, window: Window) -> Block:
    """One window's block; its two ends are read on ``held``, the handle that chose the window,
    so the command lists the date partitions once however many Steps scan for their members."""
    store = held.store
    base = sight(held, window.baseline, window.subject) if window.baseline is not None else None
    subject = sight(held, window.subject, window.baseline)
    found = changes(store, base, subject, inv.target)
    if inv.record_kind is not None:
        found = [change for change in found if change.record_type == inv.record_kind]
    ordered = [change for change in found if change.record_type == "asset"]
    ordered += [change for change in found if change.record_type == "observation"]
    facts = code(store, window.procedure, base.held if base is not None else None, subject.held)
    return Block(
        window_row(window),
        window.subject.run_file.dry_run,
        [change_row(change) for change in ordered],
        code_rows(facts),
        _emptied(subject, ordered),
    )


def _emptied(subject: Sight, found: list[Change]) -> tuple[str, ...]:
    """A sentence per read Step of the SUBJECT that concluded no Record at all where this window
    calls its pair's Records vanished. The Store keeps no status for a read (``answered`` is an
    effectful Step's), so an error answer whose collection read as empty — a token refused —
    and a world that emptied are one set here; what tells them apart is the Run's own output."""
    gone = {(c.identity.target, c.identity.definition) for c in found if c.change == "vanished"}
    said = []
    for step in subject.held.steps:
        pair = (step.code.target, step.code.definition)
        if step.code.kind != "read" or pair not in gone or step.identities is None:
            continue
        if step.identities.members == ():
            said.append(
                f"step {step.path or step.code.id} of the SUBJECT concluded no Record at all, which is what a"
                " read answered with an error status and an empty collection also concludes: the Store keeps"
                " no status for a read, and hyper run named any answer that was not 2xx"
            )
    return tuple(said)


def _cut(blocks: list[Block], inv: Invocation, to: Destination) -> tuple[list[Block], Truncated]:
    total = sum(len(held.records) for held in blocks)
    if total <= inv.limit:
        return blocks, False
    room = inv.limit
    cut = []
    for held in blocks:
        cut.append(held._replace(records=held.records[:room]))
        room -= len(cut[-1].records)
    dropped = total - inv.limit
    hint = narrowing(["--target", "--kind"])
    cap = f"--limit {inv.limit}" if inv.limit_named else f"the default limit of {inv.limit}"
    to.narrate(f"hyper {NAME}: returned {inv.limit} of {total} Records; {dropped} dropped by {cap} — {hint}\n")
    return cut, Marker("identity", inv.limit, dropped, hint)


def _nothing(inv: Invocation, positional: str | None) -> str:
    of = f" of {positional}" if positional is not None else ""
    if inv.since is not None:
        return f"no Run{of} since {instant_text(inv.since)}\n"
    return f"no Run{of} in this repository's Store — hyper runs lists what the hyper-store branch holds\n"


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    named = [flag for flag, given in WINDOW_FLAGS if given(inv)]
    if len(named) > 1:
        return _usage(to, f"{named[0]} and {named[1]} each name the window; give one of them\n")
    positional = inv.positional[0] if inv.positional else None
    if positional is not None:
        repo = load_repository(ctx.root, ctx.declared)
        if isinstance(repo, Unreadable):
            return _usage(to, f"{repo.message}\n")
        if positional not in repo.procedures:
            return _usage(
                to,
                f'no Procedure named "{positional}" in this repository\n'
                "  the Procedure namespace is procedures/, and hyper check reads every file in it\n",
            )
    try:
        with open_synced(ctx.root, ctx.process, ctx.process.now()) as store:
            try:
                journal = Journal(store)
                windows = _windows(journal, inv, positional)
            except WindowFault as fault:
                return _usage(to, fault.text)
            blocks = [_block(journal, inv, window) for window in windows]
    except STORE_FAULTS as fault:
        return report_store_fault(NAME, to, fault)
    if not blocks:
        line = _nothing(inv, positional)
        to.answer([], result(False), line)
        if to.as_json:
            to.narrate(f"hyper {NAME}: {line}")
        return codes.CLEAN
    blocks, truncated = _cut(blocks, inv, to)
    rows: list[Row] = []
    pages = []
    for held in blocks:
        rows += [held.window, *held.records, *held.code]
        assets = [found for found in held.records if found.type == "asset"]
        observations = [found for found in held.records if found.type == "observation"]
        pages.append(block(held.window, held.rehearsal, assets, observations, held.code, held.notes))
        if to.as_json:  # the rows carry no such sentence, and the page is not drawn
            for note in held.notes:
                to.narrate(f"hyper {NAME}: {note}\n")
    to.answer(rows, result(truncated), "\n".join(pages))
    return codes.CLEAN

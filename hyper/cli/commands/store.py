"""``hyper store init``: make the ``hyper-store`` branch exist, here and on ``origin``.

It is the one command that creates the Store; a Run never does, so every other command that
needs the branch and finds none Refuses ``store-absent`` naming this one. The helpers for that
Refusal, and for the other ways reading the Store can stop a command, live here beside it so
that ``run``, ``runs``, ``show``, ``records``, ``changes`` and ``compact`` all say it one way.

``init`` looks before it creates — the local ref, then ``origin``'s — and never touches the
working tree, the index or the checked-out branch: the root commit is written from objects, and
the branch is never checked out. It writes no Journal entry, since it is not a Run; and it never
answers 75 or 77: 75 belongs to a Run that lost the Store, and a failed push is the world
resisting (1), not a guardrail a verbatim retry would meet again.
"""

from __future__ import annotations

import datetime as _dt

from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.faults import (
    STORE_FAULTS,
    InitPushFailed,
    JournalFileUnreadable,
    NoRepository,
    SchemaUnsupported,
    StoreAbsent,
)
from hyper.core.process import Process
from hyper.core.row import Row, row
from hyper.render.refusal import Member, about_invocation
from hyper.render.table import labelled
from hyper.render.terminal import result
from hyper.store.branch import Store
from hyper.store.git import Git
from hyper.store.names import BRANCH, REMOTE
from hyper.store.paths import INTRODUCTION_PATH
from hyper.store.schema import SCHEMA_UNSUPPORTED_CODE
from hyper.store.sync import Initialised, init, sync, sync_for_reading

NAME = "store init"
"""What this verb's own messages are spelled with: the two words a caller retypes."""

STORE_ABSENT_CODE = "store-absent"
STORE_ABSENT = Member(
    STORE_ABSENT_CODE,
    f"this repository has no {BRANCH} branch yet, and no Run ever creates one — run: hyper store init",
)
"""The Refusal every command that needs the Store gives where neither this clone nor ``origin``
holds it. The remedy is somebody's act, which is what makes it 77 rather than 75."""


def said(command: str, text: str) -> str:
    """``hyper <command>: <first line>``, every further line indented beneath it.

    A fault's text can carry git's own multi-line stderr; indenting it keeps the one-line head
    a reader (or a script) looks for, and blank lines are dropped rather than padded.
    """
    lines = [line.rstrip() for line in text.splitlines() if line.strip()] or [""]
    return f"hyper {command}: {lines[0]}\n" + "".join(f"  {line}\n" for line in lines[1:])


def refuse_store_absent(to: Destination) -> int:
    """Writes the two-line ``store-absent`` Refusal and answers its exit code."""
    to.refusal(about_invocation([STORE_ABSENT]))
    return StoreAbsent.exit


def schema_unsupported(fault: Exception) -> Member | None:
    """The ``store-schema-unsupported`` member a fault stands for, naming the file where known;
    ``None`` for every other fault. The remedy is a different binary, not an edit."""
    cause = fault.cause if isinstance(fault, JournalFileUnreadable) else fault
    if not isinstance(cause, SchemaUnsupported):
        return None
    where = f"{fault.path}: " if isinstance(fault, JournalFileUnreadable) else ""
    return Member(SCHEMA_UNSUPPORTED_CODE, f"{where}{cause} — it takes a newer hyper to read it")


def report_store_fault(command: str, to: Destination, fault: Exception) -> int:
    """Renders whichever way the Store stopped ``command`` and answers the exit code.

    No branch on either side Refuses ``store-absent`` (77); a file above this reader's ceiling
    Refuses ``store-schema-unsupported`` (77). Everything else — a remote that would not answer,
    a push exhausted, an object that would not read — is the world resisting (1), never the
    Refusal: a failed fetch is not evidence that nothing was recorded.
    """
    if isinstance(fault, StoreAbsent):
        return refuse_store_absent(to)
    unsupported = schema_unsupported(fault)
    if unsupported is not None:
        to.refusal(about_invocation([unsupported]))
        return SchemaUnsupported.exit
    to.narrate(said(command, str(fault)))
    return codes.PROBLEMS


def open_synced(root: str, process: Process, now: _dt.datetime) -> Store:
    """The Store after a sync from ``origin``, pinned at ``now``; raises one of
    :data:`STORE_FAULTS`, :class:`StoreAbsent` where neither side holds the branch."""
    git = Git.open(root, process, now)
    sync(git)
    return Store.on(git, now)


def open_for_reading(command: str, to: Destination, root: str, process: Process, now: _dt.datetime) -> Store:
    """:func:`open_synced` for a command that writes nothing: a remote that cannot be read is
    narrated, not fatal, when this clone holds the branch — the page is the local branch's."""
    git = Git.open(root, process, now)
    stale = sync_for_reading(git)
    if stale is not None:
        to.narrate(
            f"hyper {command}: the Store could not be synced from {REMOTE}; "
            "what follows is the branch this clone holds, which may be behind it\n"
        )
    return Store.on(git, now)


def branch_row(done: Initialised) -> Row:
    """``created`` is always written (a second ``init`` says *there was one already*);
    ``pushed`` only where this invocation pushed."""
    return row("branch", branch=BRANCH, created=done.created, pushed=True if done.pushed else None)


def page(done: Initialised) -> str:
    """What was done, one labelled line per act and none for an act not done."""
    stated = labelled(
        [
            ("created", BRANCH if done.created else ""),
            ("pushed", REMOTE if done.pushed else ""),
            ("wrote", INTRODUCTION_PATH if done.created else ""),
        ]
    )
    return stated or f"{BRANCH} already exists; there was nothing to do\n"


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    try:
        done = init(ctx.root, ctx.process, ctx.process.now())
    except NoRepository as fault:
        to.usage(f"hyper {NAME}: {fault}\n")
        return fault.exit
    except InitPushFailed as failed:
        to.narrate(
            said(NAME, f"created {BRANCH} here, and sending it to {REMOTE} failed: {failed.cause}")
            + "  the branch stands locally, and the next hyper store init pushes it\n"
        )
        return failed.exit
    except STORE_FAULTS as fault:
        to.narrate(said(NAME, str(fault)))
        return codes.PROBLEMS
    to.answer([branch_row(done)], result(False), page(done))
    return codes.CLEAN

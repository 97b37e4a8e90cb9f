"""Closing the entries Runs left open: what an effectful Run does before its own entry exists.

A Run killed mid-way (a second signal, a lost machine) leaves an entry with no account.
A read-only Run cannot tell such an entry from a live one under a shared lock, so only an
effectful Run — holding the exclusive lock, a rehearsal of one included — infers that the
Run went quiet: one ``closed-by/<this-run>.json`` per open entry, all in this Run's
``Begin run`` commit, all at one clock reading, each at the Step after the highest the
dead Run filed. Every open entry is closed, whatever its Procedure: there is nothing to
filter on that a dead Run could have written.

The Step's code facts are written where they are known for certain and otherwise not at
all. Certain here means the dead Run recorded a clean tree at the commit HEAD still names,
and the artefacts its Procedure reads are still HEAD's bytes — then the repository this
Run loaded *is* the one that Run loaded. Anything else (another revision, a dirty tree on
either side, a sequence too short) writes the inference alone.
"""

from __future__ import annotations

import datetime as _dt

from hyper.artefact.repository import Repository
from hyper.core.faults import JournalFileUnreadable, RevisionUnread, SchemaUnsupported, Unbound
from hyper.run import binding, revision
from hyper.run.sequence import flatten
from hyper.store import reading
from hyper.store.branch import Store, Write
from hyper.store.journal import RunFile
from hyper.store.step import KINDS, ClosedBy, StepCode


def reap(store: Store, repo: Repository, head: str, run_id: str, ended: _dt.datetime) -> list[Write]:
    """The closing writes for every open entry, to travel in this Run's ``Begin run`` commit.

    A Journal file above this reader's schema ceiling reaps nothing: the schema gate
    Refuses the Run into its own entry citing it, and a reaper guessing past it would
    write beside evidence it cannot read."""
    try:
        opened = reading.open_entries(store)
    except JournalFileUnreadable as unreadable:
        if isinstance(unreadable.cause, SchemaUnsupported):
            return []
        raise
    known: dict[str, bool] = {}
    writes = []
    for dead in opened:
        step = dead.last + 1
        code = _code(store, repo, head, dead.run_file, step, known)
        writes.append(Write(dead.run_file.at.closed_by_path(run_id), ClosedBy(step, ended, code).encode()))
    return writes


def _code(store: Store, repo: Repository, head: str, dead: RunFile, step: int, known: dict[str, bool]) -> StepCode:
    if dead.provenance.repo_dirty or dead.provenance.repo_revision != head:
        return StepCode()
    walked = flatten(repo, dead.procedure)
    if walked.cycle or step > len(walked.steps):
        return StepCode()
    if dead.procedure not in known:
        files = binding.artefacts_read(repo, walked.procedures, walked.steps)
        try:
            facts = revision.read(store.git, store.objects.object_format, files)
        except RevisionUnread:
            facts = None
        known[dead.procedure] = facts is not None and not facts.dirty
    if not known[dead.procedure]:
        return StepCode()
    sequenced = walked.steps[step - 1]
    try:
        bound = binding.resolve(repo, sequenced)
    except Unbound:
        return StepCode()
    kind = bound.kind
    if kind not in KINDS:
        return StepCode()
    return StepCode(
        id=sequenced.id,
        definition=sequenced.definition,
        operation=sequenced.operation,
        provider=bound.manifest.declared_name,
        target=sequenced.target,
        kind=kind,
    )

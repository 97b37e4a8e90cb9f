"""What one end of a window had in view: the Records its Steps concluded about, and where it
was blind.

Eligibility, *appeared* and *vanished* all come from the identity sets the Dispositions carry,
never from the Records — an unchanged Record and one that stopped existing both write nothing,
so only the sets can tell them apart. A set is read for what it holds and never for what it
omits where it cannot vouch for its absences: a partial set (a projection failed part-way), a
Step that carries no set at all, and a Step the Run never reached leave their (Target,
Definition) pair *blind* on that end, and an absence there says nothing. So does a digest whose
members no earlier entry holds: the set cannot be read back, so it vouches for nothing.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.faults import IdentitySetError
from hyper.core.namedtuple import NamedTuple
from hyper.store.identities import Identities, read_identity_set
from hyper.store.paths import Identity
from hyper.store.reading import Dispositions, Entry, Journal, dispositions
from hyper.store.step import StepFile

Pair = tuple[str, str]


class Sight(NamedTuple):
    """One end: the identities it concluded about, and the pairs whose absences say nothing."""

    entry: Entry
    instant: _dt.datetime
    seen: frozenset[Identity]
    blind: frozenset[Pair]
    held: Dispositions

    def vouches_absent(self, identity: Identity) -> bool:
        return identity not in self.seen and (identity.target, identity.definition) not in self.blind


def instant(entry: Entry, held: Dispositions) -> _dt.datetime:
    """The end's own last instant: the owner's ``ended_at``; on a reaped entry the last Step
    file's — the closer's ``ended_at`` is another Run's clock, and would sweep every later Run's
    versions into this side."""
    if entry.owner is not None:
        return entry.owner.ended_at
    own = [step.ended_at for step in held.steps if step.provenance is not None and step.ended_at is not None]
    return max(own, default=entry.run_file.started_at)


def members(journal: Journal, entry: Entry, step: StepFile, identities: Identities) -> tuple[str, ...]:
    """The names a set holds, walking back through the same Step's comparable evidence where
    this entry wrote the digest alone (the set had not moved)."""
    if identities.members is not None:
        return identities.members
    run = entry.run_file
    chain: list[Identities] = []
    reached = False
    for evidence in journal.scan(step.code.id):
        if not reached:
            reached = evidence.entry.run_id == entry.run_id and evidence.step.step == step.step
            if not reached:
                continue
        elif not evidence.comparable(run.procedure, step.path):
            continue
        if evidence.step.identities is not None:
            chain.append(evidence.step.identities)
            if evidence.step.identities.members is not None:
                break
    return read_identity_set(step.code.id, chain)


def sight(journal: Journal, entry: Entry, other: Entry | None) -> Sight:
    """One end read. Steps ``other`` recorded that this entry never reached leave their pairs
    blind here, but only inside an entry that did not complete: a completed Run reached every
    Step its revision declared, so a Step it holds no record of is an absence of sight. A
    digest-only Step's members are scanned for on ``journal``, the handle the window was chosen
    on, so the date partitions are listed once for the whole command."""
    store = journal.store
    held = dispositions(store, entry)
    seen: set[Identity] = set()
    blind: set[Pair] = set()
    for step in held.steps:
        pair = (step.code.target, step.code.definition)
        identities = step.identities
        if identities is None or not identities.digest:
            blind.add(pair)
            continue
        try:
            names = members(journal, entry, step, identities)
        except IdentitySetError:
            blind.add(pair)
            continue
        if step.projection_failed_path:
            blind.add(pair)
        seen.update(Identity(pair[0], pair[1], name) for name in names)
    if other is not None and entry.outcome != "completed" and entry.account != "open":
        recorded = {step.code.id for step in held.steps}
        for step in dispositions(store, other).steps:
            if step.code.id not in recorded:
                blind.add((step.code.target, step.code.definition))
    return Sight(entry, instant(entry, held), frozenset(seen), frozenset(blind), held)

"""Compaction: the only act that takes anything off the branch, and the predicate that bounds it.

The policy is whatever ``retention:`` the Repository declaration states, handed in by the
caller; nothing here reads a flag or a variable that could widen it. What may go is written as
the whole of what is removable — an interior Observation version of an Observation-only series,
older than the policy — so every other file (Asset series, Tombstones, Journal entries,
``STORE.md``, and any shape this binary has not heard of) stays by construction rather than by a
list of exemptions that could fall behind.
"""

from __future__ import annotations

import datetime as _dt

import attrs

from hyper.store.branch import Store
from hyper.store.git import PathOperation
from hyper.store.names import BRANCH
from hyper.store.reading import Series, records
from hyper.store.record import Metadata


@attrs.frozen
class Retention:
    """A policy in force: the declaration's own spelling (``90d``), which the commit message and
    the command's line quote back, and the age it names, which the predicate measures."""

    declared: str
    age: _dt.timedelta


@attrs.frozen
class Removed:
    """One version a Compaction took: what the file said about itself and where it sat.

    It carries no ordinal on purpose. Removing an interior version renumbers every version above
    it, so the only stable name for a removed version is its Run and Step.
    """

    metadata: Metadata
    file: str


@attrs.frozen
class Compaction:
    """What a Compaction did: the versions it removed (in path order), and how many series lost
    nothing at all — Asset series, short series, series whose interior is all too young."""

    removed: tuple[Removed, ...] = ()
    untouched: int = 0


def removable(series: Series, age: _dt.timedelta, now: _dt.datetime) -> list[Removed]:
    """The predicate over one series, whole.

    A series needs three versions before it has an interior at all. One Asset version anywhere in
    it — a Tombstone is one — protects every version, since an Observation beneath a destroyed
    thing is part of that thing's account. Within the interior, a version goes only when it is
    *older* than the policy: one exactly the policy's age is still inside what was agreed.
    """
    versions = series.versions
    if len(versions) < 3:
        return []
    if any(v.metadata.record_type != "observation" or v.metadata.tombstone for v in versions):
        return []
    return [Removed(v.metadata, v.file) for v in versions[1:-1] if now - v.metadata.written_at > age]


def plan(store: Store, retention: Retention) -> Compaction:
    """What a Compaction under ``retention`` would remove from the handle's commit, at its clock."""
    removed: list[Removed] = []
    untouched = 0
    for series in records(store):
        taken = removable(series, retention.age, store.now)
        if taken:
            removed.extend(taken)
        else:
            untouched += 1
    removed.sort(key=lambda version: version.file)
    return Compaction(tuple(removed), untouched)


def interior_versions(count: int) -> str:
    """The count of removed versions in the one phrase the commit message and the page share."""
    noun = "version" if count == 1 else "versions"
    return f"{count} interior observation {noun}"


def commit_message(count: int, retention: Retention) -> str:
    """What ``git log`` on the branch says about a Compaction: the count and the policy as
    declared. The paths are the commit's own diff and are not repeated here."""
    return f"Compact the {BRANCH}: {interior_versions(count)} removed, retention {retention.declared}"


def compact(store: Store, retention: Retention) -> Compaction:
    """Removes what :func:`plan` finds as one commit of path removals, then publishes.

    Nothing to remove writes no commit and pushes nothing. The removal is expressed as path
    operations — the grain a rejected push is re-applied at — so a Compaction lands cleanly on a
    tip another writer moved, and a removal the tip already lacks is nothing. A failed publish
    raises with the commit standing locally; the next push sends it.
    """
    done = plan(store, retention)
    if not done.removed:
        return done
    store.apply(
        [PathOperation(version.file) for version in done.removed],
        commit_message(len(done.removed), retention),
    )
    store.publish()
    return done

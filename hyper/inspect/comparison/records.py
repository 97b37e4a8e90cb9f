"""What happened to each eligible Record between the two ends, named once per identity.

A change is read from what stood at the baseline's instant against what stands at the
subject's — the Head a reader would have found then — and never from the versions between, so
a Record changed and destroyed inside one window is one ``destroyed`` row. Where a
Disposition-derived name (*appeared*, *vanished*) and the Record-derived ``changed`` both
fire, the Disposition's wins: ``changed`` would claim the baseline had the Record in view.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from hyper.core.namedtuple import NamedTuple
from hyper.inspect.comparison.sight import Sight
from hyper.store.branch import Store
from hyper.store.paths import Identity
from hyper.store.reading import Version, read, series


class Change(NamedTuple):
    """One row's facts; ``fields`` holds pairs ``(old, new)`` on a ``changed`` row and values
    on every other."""

    record_type: str
    change: str
    identity: Identity
    from_ordinal: int | None
    to_ordinal: int | None
    fields: dict[str, Any]
    confirmed_at: _dt.datetime | None = None


def _standing(versions: tuple[Version, ...], at: _dt.datetime) -> Version | None:
    """The Head at an instant: the last version written by then."""
    standing = None
    for version in versions:
        if version.metadata.written_at <= at:
            standing = version
    return standing


def _fields(store: Store, version: Version) -> dict[str, Any]:
    return dict(read(store, version).fields or {})


def _moved(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    keys = sorted(old.keys() | new.keys())
    return {key: (old.get(key), new.get(key)) for key in keys if old.get(key) != new.get(key)}


def _asset(store: Store, identity: Identity, before: Version | None, after: Version | None) -> Change | None:
    if after is None or (before is not None and before.ordinal == after.ordinal):
        return None
    dead_before = before is not None and before.metadata.tombstone
    if after.metadata.tombstone:
        if dead_before:
            return None
        return Change(
            "asset",
            "destroyed",
            identity,
            before.ordinal if before is not None else None,
            after.ordinal,
            _fields(store, after),
            after.metadata.written_at,
        )
    if before is None or dead_before:
        return Change("asset", "created", identity, None, after.ordinal, _fields(store, after))
    moved = _moved(_fields(store, before), _fields(store, after))
    return Change("asset", "changed", identity, before.ordinal, after.ordinal, moved)


def _observation(
    store: Store,
    identity: Identity,
    base: Sight | None,
    subject: Sight,
    before: Version | None,
    after: Version | None,
) -> Change | None:
    in_subject = identity in subject.seen
    in_base = base is not None and identity in base.seen
    if in_subject and after is not None and (base is None or base.vouches_absent(identity)):
        return Change("observation", "appeared", identity, None, after.ordinal, _fields(store, after))
    if in_base and before is not None and subject.vouches_absent(identity):
        return Change("observation", "vanished", identity, before.ordinal, None, _fields(store, before))
    if before is None or after is None or before.ordinal == after.ordinal:
        return None
    moved = _moved(_fields(store, before), _fields(store, after))
    return Change("observation", "changed", identity, before.ordinal, after.ordinal, moved)


def changes(store: Store, base: Sight | None, subject: Sight, target: str | None) -> list[Change]:
    """Every row of the two Record tables, by (Target, Definition, name); ``target`` narrows
    the identities before a series is read."""
    eligible = set(subject.seen) | (set(base.seen) if base is not None else set())
    answered = []
    for identity in sorted(eligible):
        if target is not None and identity.target != target:
            continue
        versions = series(store, identity).versions
        before = _standing(versions, base.instant) if base is not None else None
        after = _standing(versions, subject.instant)
        standing = after or before
        if standing is None:
            continue
        if standing.metadata.record_type == "asset":
            found = _asset(store, identity, before, after)
        else:
            found = _observation(store, identity, base, subject, before, after)
        if found is not None:
            answered.append(found)
    return answered

"""``records``' answer: which versions of which series a call returns, as rows and as a page.

The command's job is finding a version, so a row names one by what identifies it — the Run
and the Step together, since two Steps of one Run writing one identity write two files — and
carries the ordinal only as a position, never as a name.

Two things can cut the answer, on the record's two axes. ``--limit`` counts identities: under
``--history`` a series comes back whole or not at all, because a history cut partway looks
like a complete one. The per-series cap bounds how much of one series comes back, newest
first; its remedy is ``--since``, a narrower window, never a larger cap — which is why the cap
is a constant and no flag.

``tombstoned`` and ``orphaned`` are the series' state, read off its Head and carried on every
row of it, so the column means one thing down a whole history. Every other member is the
version's own.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Container, Mapping, Sequence

from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, Value, members, row
from hyper.inspect.runs import RECORD_LOCATION, SEPARATOR, abbreviated
from hyper.render.table import table
from hyper.render.terminal import Marker, Truncated, narrowing
from hyper.store.paths import Identity
from hyper.store.reading import Series, Version

VERSIONS_PER_SERIES = 20
"""How many versions of one series a history returns. It is this implementation's pick and
nothing reads it back: the narration states counts, never the constant."""

COLUMNS = (
    "TARGET",
    "DEFINITION",
    "RECORD",
    "ORDINAL",
    "RUN",
    "STEP",
    "REHEARSAL",
    "KIND",
    "TOMBSTONE",
    "ORPHANED",
    "SECRETS",
    "HYPER",
)

IDENTITY_FLAGS = ("--target", "--definition", "--name")
"""What narrows the identity axis, which the limit cuts. ``--since`` is not among them: it
narrows the versions inside a series, and the limit drops whole Records."""

TIME_FLAGS = ("--since",)
"""What narrows the time axis, which the per-series cap cuts."""


class Narrowing(NamedTuple):
    """What the caller narrowed by. Each identity part is matched byte-exact; ``since`` bounds
    the versions inside a series, inclusively, and is legal only with a history."""

    target: str | None = None
    definition: str | None = None
    name: str | None = None
    since: _dt.datetime | None = None

    @property
    def narrowed(self) -> bool:
        """Whether anything was narrowed at all: what tells *nothing matched* from an empty Store."""
        return any(value is not None for value in self)

    def keeps(self, identity: Identity) -> bool:
        return (
            (self.target is None or identity.target == self.target)
            and (self.definition is None or identity.definition == self.definition)
            and (self.name is None or identity.name == self.name)
        )

    def window(self, versions: Sequence[Version]) -> list[Version]:
        since = self.since
        if since is None:
            return list(versions)
        return [version for version in versions if version.metadata.written_at >= since]


class Selection(NamedTuple):
    """One Record's part of the answer: its versions in the order they are rendered, how many
    the window admitted before the cap, and the two facts that are the series' own."""

    versions: tuple[Version, ...]
    found: int
    tombstoned: bool
    orphaned: bool


def orphaned(head: Version, definitions: Container[str]) -> bool:
    """An Asset still standing whose Definition the repository no longer declares. An
    Observation leaves nothing behind to be out of reach, nor does a destroyed Asset."""
    meta = head.metadata
    return meta.record_type == "asset" and not meta.tombstone and meta.identity.definition not in definitions


def select(held: Sequence[Series], narrowing: Narrowing, history: bool, definitions: Container[str]) -> list[Selection]:
    """One selection per Record the narrowing keeps, in the Store's identity order.

    Without a history it is the Head alone. With one it is the series' own order reversed —
    both keys at once — so the first row of each history is exactly the row a listing of Heads
    returns. A series the window leaves empty drops out rather than standing with no versions.
    """
    chosen: list[Selection] = []
    for series in held:
        head = series.head
        if head is None or not narrowing.keeps(series.identity):
            continue
        state = (head.metadata.tombstone, orphaned(head, definitions))
        if not history:
            chosen.append(Selection((head,), 1, *state))
            continue
        admitted = narrowing.window(series.versions[::-1])
        if admitted:
            chosen.append(Selection(tuple(admitted[:VERSIONS_PER_SERIES]), len(admitted), *state))
    return chosen


class Cut(NamedTuple):
    """What the answer left out on each axis: Records the limit dropped, and versions the cap
    dropped from the series that survived the limit (a dropped Record's versions were never
    on the page to be missing from it)."""

    identities: int
    identities_dropped: int
    versions: int
    versions_dropped: int


def cut(selected: Sequence[Selection], limit: int) -> tuple[list[Selection], Cut]:
    kept = list(selected[:limit]) if limit > 0 else list(selected)
    versions = sum(len(selection.versions) for selection in kept)
    capped = sum(selection.found - len(selection.versions) for selection in kept)
    return kept, Cut(len(kept), len(selected) - len(kept), versions, capped)


def truncated(done: Cut) -> Truncated:
    """One terminal row, two possible cuts: the identity axis is named first, being the coarser
    cut whose remedy comes first; the time cut shows on the narrower call that follows."""
    if done.identities_dropped:
        return Marker("identity", done.identities, done.identities_dropped, narrowing(IDENTITY_FLAGS))
    if done.versions_dropped:
        return Marker("time", done.versions, done.versions_dropped, narrowing(TIME_FLAGS))
    return False


def provenance(version: Version) -> dict[str, Value]:
    """The whole Provenance, Run half then Step half, markers and absent digests left out."""
    run, step = version.metadata.provenance
    return members(
        hyper_version=run.hyper_version,
        procedure_revision=run.procedure_revision,
        repo_revision=run.repo_revision,
        repo_dirty=True if run.repo_dirty else None,
        definition_revision=step.definition_revision,
        manifest_digest=step.manifest_digest,
        origin_digest=step.origin_digest or None,
    )


def record_row(version: Version, of: Selection, secret: Sequence[str], rehearsals: Mapping[str, bool]) -> Row:
    """One version. ``dry_run`` is written whenever the writing Run has an entry, ``false``
    included, and is absent only where the Journal holds none: a Store missing evidence must
    not read as *not a rehearsal*."""
    meta = version.metadata
    identity = meta.identity
    return row(
        "record",
        key={"target": identity.target, "definition": identity.definition, "name": identity.name},
        ordinal=version.ordinal,
        run_id=meta.run_id,
        step=meta.step,
        dry_run=rehearsals.get(meta.run_id),
        record_kind=meta.record_type,
        tombstoned=True if of.tombstoned else None,
        orphaned=True if of.orphaned else None,
        secret_fields=list(secret) if secret else None,
        provenance=provenance(version),
    )


def rows_of(kept: Sequence[Selection], secret: Sequence[Sequence[str]], rehearsals: Mapping[str, bool]) -> list[Row]:
    """Every row in the order the selections hold their versions; ``secret`` is paired back by
    position, having been read in one batch over that same order."""
    versions = [(version, selection) for selection in kept for version in selection.versions]
    return [
        record_row(version, selection, fields, rehearsals)
        for (version, selection), fields in zip(versions, secret, strict=True)
    ]


def _yes(value: Value) -> str:
    return "yes" if value is True else ""


def cells(record: Row) -> list[str]:
    """The row read across the page: the Run shortened, markers as words, and of the
    Provenance only the hyper that wrote the version — the wire carries the rest."""
    key = record.get("key")
    return [
        key["target"],
        key["definition"],
        key["name"],
        str(record.get("ordinal")),
        abbreviated(record.get("run_id")),
        str(record.get("step")),
        _yes(record.get("dry_run")),
        record.get("record_kind"),
        _yes(record.get("tombstoned")),
        _yes(record.get("orphaned")),
        SEPARATOR.join(record.get("secret_fields", ())),
        record.get("provenance")["hyper_version"],
    ]


def page(rows: Sequence[Row], narrowed: bool) -> str:
    """Where the record is (``runs``' own line: the other listing of the Store), then the table —
    or, with no row, the sentence standing for it."""
    head = RECORD_LOCATION + "\n\n"
    if rows:
        return head + table([list(COLUMNS), *(cells(record) for record in rows)])
    if narrowed:
        return head + "no Record matched the parameters given\n"
    return head + "this repository's Store holds no Record yet\n"


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def limit_line(done: Cut, limit: int, named: bool) -> str:
    """What the limit dropped, counted in Records, and what narrows the axis it cut."""
    total = done.identities + done.identities_dropped
    cap = f"--limit {limit}" if named else f"the default limit of {limit}"
    return (
        f"returned {done.identities} of {total} Records; {done.identities_dropped} dropped by {cap}"
        f" — {narrowing(IDENTITY_FLAGS)}"
    )


def cap_line(done: Cut) -> str:
    """What the per-series cap dropped: counts only, and the window as the remedy."""
    return (
        f"returned {done.versions} of {done.versions + done.versions_dropped} versions across"
        f" {done.identities} series; {done.versions_dropped} dropped by the per-series"
        f" cap on versions — {narrowing(TIME_FLAGS)}"
    )


def not_loaded_line(count: int) -> str:
    """A broken Definition file is in no namespace, so an Asset it owns reads as orphaned:
    the count is said rather than the column being quietly wrong."""
    definitions = _plural(count, "definition", "definitions")
    return f"{definitions} would not load · hyper check; ORPHANED is judged against the rest"


def unattributed_line(count: int) -> str:
    """Versions whose Run has no Journal entry: the blank REHEARSAL cell is missing evidence,
    and is said to be, rather than read as *not a rehearsal*."""
    if count == 1:
        return "1 version was written by a Run the Journal holds no entry for; its REHEARSAL cell is blank · hyper runs"
    return (
        f"{count} versions were written by Runs the Journal holds no entry for; their REHEARSAL cells are blank"
        " · hyper runs"
    )


def unattributed(rows: Sequence[Row]) -> int:
    """Counted off the rows, so the count and the member it counts cannot disagree."""
    return sum(1 for record in rows if "dry_run" not in record.fields)

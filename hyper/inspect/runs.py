"""The Journal as ``runs`` lists it: one row per entry, newest first, and the page drawn from them.

The four parameters are typed and closed, and three of them judge what ``run.json`` and the
account files say. ``--target`` alone needs the Step files — only they record what a Run
bound — so it is applied after the listing has read them (or the Journal's memo recalled what
they said), and only for the entries the other three kept.

``outcome`` is the entry's account in the triple; an open entry has none, and no value of
``--outcome`` selects it. A contested entry is listed with its owner's outcome and the
``contested`` marker beside it, never as a fourth value.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence

from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, row
from hyper.render.table import table
from hyper.render.terminal import Marker, Truncated, narrowing
from hyper.store.branch import Store
from hyper.store.canonical import instant_text
from hyper.store.reading import Journal, journal_listing
from hyper.store.summaries import Summary

COLUMNS = ("RUN", "STARTED", "TRIGGER", "OUTCOME", "CONTESTED", "PROCEDURE", "TARGETS", "HYPER")
NARROWED_BY = ("--since", "--target")
"""What a cut listing names to ask a narrower question: the time axis and the Target."""

RECORD_LOCATION = (
    "the record is the hyper-store branch of this repository — it is never checked out, and a clone carries it along"
)
"""Above every page a Store listing draws, empty ones included: a reader told *nothing* should
not go looking in the working tree for what was never there."""

NO_ENTRY = "this repository's Store holds no Journal entry yet"
NOTHING_MATCHED = "no Journal entry matched the parameters given"
SEPARATOR = " · "
ELLIPSIS = "\u2026"
ABBREVIATED = 13
"""The id's first two groups: enough to tell entries apart by eye; the wire carries it whole."""


class Filter(NamedTuple):
    """The four parameters; ``None`` is a parameter not given."""

    since: _dt.datetime | None = None
    procedure: str | None = None
    target: str | None = None
    outcome: str | None = None

    @property
    def narrows(self) -> bool:
        return any(value is not None for value in self)

    def keeps(self, entry: Summary) -> bool:
        """Every parameter ``run.json`` and the account files can answer, from the summary."""
        if self.since is not None and entry.started_at < self.since:
            return False
        if self.procedure is not None and entry.procedure != self.procedure:
            return False
        return self.outcome is None or entry.outcome == self.outcome

    def bound(self, entry: Summary) -> bool:
        return self.target is None or self.target in (entry.targets or ())


def listed(store: Store, wanted: Filter, limit: int) -> tuple[list[Summary], int]:
    """The entries every parameter keeps, in Journal order, and how many there are. With no
    parameter, every entry is kept, so the count comes from the branch listing and only the
    newest date partitions enough to fill ``limit`` are read."""
    journal = Journal(store)
    if not wanted.narrows:
        return journal.listing(enough=limit), journal.count()
    kept = [item for item in journal.listing(wanted.keeps) if wanted.bound(item)]
    return kept, len(kept)


def holds_any(store: Store) -> bool:
    """Whether the Journal holds an entry at all — answered from the branch listing alone."""
    return bool(journal_listing(store))


def run_row(entry: Summary) -> Row:
    """``targets`` is written on every row, ``[]`` included: a Run that bound nothing has an
    answer, and an absent member would read as *unknown*. The row is the entry's summary
    alone (adr/0031): listing it opened only what no reader had read before."""
    return row(
        "run",
        id=entry.run_id,
        started=instant_text(entry.started_at),
        trigger=entry.trigger,
        outcome=entry.outcome,
        contested=True if entry.contested else None,
        procedure=entry.procedure,
        targets=list(entry.targets or ()),
        hyper_version=entry.hyper_version,
    )


def cut(rows: Sequence[Row], limit: int, named: bool, total: int) -> tuple[Sequence[Row], Truncated, str]:
    """The rows within ``limit`` of the ``total`` kept, the terminal ``truncated``, and the
    narration line ("" where nothing was cut). The marker names the time axis this listing is
    ordered on."""
    kept = rows[:limit]
    if len(kept) == total:
        return kept, False, ""
    dropped = total - len(kept)
    hint = narrowing(NARROWED_BY)
    cap = f"--limit {limit}" if named else f"the default limit of {limit}"
    line = f"returned {len(kept)} of {total} Runs; {dropped} dropped by {cap} — {hint}"
    if not named:
        line += ", or name a larger --limit"
    return kept, Marker("time", len(kept), dropped, hint), line


def abbreviated(run_id: str) -> str:
    return run_id[:ABBREVIATED] + ELLIPSIS if len(run_id) > ABBREVIATED else run_id


def page(rows: Sequence[Row], filtered_out: bool) -> str:
    """The location line, then the table — or, where no row came back, the sentence saying
    which of the two empty answers this is: a Journal with nothing in it, or parameters that
    excluded everything it holds."""
    if not rows:
        body = (NOTHING_MATCHED if filtered_out else NO_ENTRY) + "\n"
    else:
        cells = [
            [
                abbreviated(str(r.get("id"))),
                str(r.get("started")),
                str(r.get("trigger")),
                str(r.get("outcome") or ""),
                "yes" if r.get("contested") else "",
                str(r.get("procedure")),
                SEPARATOR.join(r.get("targets")),
                str(r.get("hyper_version")),
            ]
            for r in rows
        ]
        body = table([list(COLUMNS), *cells])
    return f"{RECORD_LOCATION}\n\n{body}"

"""Which two Journal entries a Comparison stands on.

The rule picks for itself only entries that are closed and not rehearsals, so a window it
arrived at on its own always compares two accounts of the world. A caller naming the ends with
``--between``, or the subject alone with ``--subject``, may name a rehearsal as the subject —
asking what a rehearsal saw is a fair question — but never as the baseline, which asserts what
the world *became*.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.faults import WindowFault
from hyper.core.namedtuple import NamedTuple
from hyper.store.reading import Entry, Journal
from hyper.store.summaries import Summary


class Window(NamedTuple):
    """One Procedure's two ends; ``baseline`` is ``None`` on the Procedure's first Run."""

    procedure: str
    subject: Entry
    baseline: Entry | None


def _window(journal: Journal, procedure: str, subject: Summary, baseline: Summary | None) -> Window:
    """The ends chosen from their summaries, opened: the only entries a window reads whole."""
    chosen = [subject] if baseline is None else [subject, baseline]
    opened = journal.entries(chosen)
    return Window(procedure, opened[0], opened[1] if baseline is not None else None)


def nameable(entry: Summary) -> bool:
    """An end the rule may arrive at: closed, and not a rehearsal."""
    return entry.nameable


def _before(journal: Journal, subject: Summary) -> Summary | None:
    """The newest nameable entry of the same Procedure older than ``subject`` in Journal order."""
    passed = False
    for entry in journal.summaries():
        if entry.run_id == subject.run_id:
            passed = True
            continue
        if passed and entry.procedure == subject.procedure and nameable(entry):
            return entry
    return None


def procedures(journal: Journal) -> list[str]:
    """Every Procedure the Journal holds a nameable entry of, by code point — deleted ones too."""
    return sorted(journal.procedures())


def latest(journal: Journal, procedure: str, since: _dt.datetime | None) -> Window | None:
    """The newest nameable Run of ``procedure`` and the one before it; under ``since``, the
    baseline is the newest nameable Run that started before the instant, so everything from
    the instant on folds into one window. ``None`` where no Run stands inside the window.
    The Journal is read newest first only as far as the two ends."""
    own = (entry for entry in journal.summaries() if entry.procedure == procedure and nameable(entry))
    subject = next(own, None)
    if subject is None:
        return None
    if since is None:
        return _window(journal, procedure, subject, next(own, None))
    if subject.started_at < since:
        return None
    earlier = next((entry for entry in own if entry.started_at < since), None)
    return _window(journal, procedure, subject, earlier)


def _found(journal: Journal, run: str) -> Summary:
    for entry in journal.summaries():
        if entry.run_id == run:
            return entry
    raise WindowFault(
        f'no Journal entry for run "{run}" in this repository\'s Store\n'
        "  hyper runs lists the entries the hyper-store branch holds\n"
    )


def _closed(entry: Summary) -> None:
    if entry.account == "open":
        raise WindowFault(f"run {entry.run_id} holds no account of its end yet, so no window can name it as an end\n")


def _procedure_of(entry: Summary, positional: str | None) -> str:
    own = entry.procedure
    if positional is not None and positional != own:
        raise WindowFault(
            f"the positional names {positional}, and run {entry.run_id} is a Run of {own};"
            " a window stays within one Procedure\n"
        )
    return own


def subject(journal: Journal, run: str, positional: str | None) -> Window:
    """The window ``--subject`` names: that entry, a rehearsal included, and behind it the
    baseline the rule would have found for it."""
    named = _found(journal, run)
    _closed(named)
    return _window(journal, _procedure_of(named, positional), named, _before(journal, named))


def between(journal: Journal, ends: tuple[str, str], positional: str | None) -> Window:
    """The window ``--between`` names, baseline first; every way it cannot be one is a
    :class:`WindowFault`, never a silent reorder."""
    first, second = ends
    if first == second:
        raise WindowFault(f"--between names run {first} twice; a window needs two different ends\n")
    baseline, subject = _found(journal, first), _found(journal, second)
    if baseline.dry_run:
        raise WindowFault(
            f"run {first} is a rehearsal, and a --dry-run is never a baseline: it reached no effect"
            " to compare against\n"
        )
    _closed(baseline)
    _closed(subject)
    own, other = baseline.procedure, subject.procedure
    if own != other:
        raise WindowFault(
            f"run {first} is a Run of {own} and run {second} a Run of {other}; a window stays within one Procedure\n"
        )
    if positional is not None and positional != own:
        raise WindowFault(
            f"the positional names {positional}, and both Runs are of {own}; a window stays within one Procedure\n"
        )
    if baseline.order > subject.order:
        raise WindowFault(
            f"run {first} started after run {second}; --between takes the baseline first and the subject second\n"
        )
    return _window(journal, own, subject, baseline)

"""Which two Journal entries a Comparison stands on.

The rule picks for itself only entries that are closed and not rehearsals, so a window it
arrived at on its own always compares two accounts of the world. A caller naming the ends with
``--between``, or the subject alone with ``--subject``, may name a rehearsal as the subject —
asking what a rehearsal saw is a fair question — but never as the baseline, which asserts what
the world *became*.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence

from hyper.core.faults import WindowFault
from hyper.core.namedtuple import NamedTuple
from hyper.store.reading import Account, Entry


class Window(NamedTuple):
    """One Procedure's two ends; ``baseline`` is ``None`` on the Procedure's first Run."""

    procedure: str
    subject: Entry
    baseline: Entry | None


def nameable(entry: Entry) -> bool:
    """An end the rule may arrive at: closed, and not a rehearsal."""
    return entry.account is not Account.OPEN and not entry.run_file.dry_run


def _before(entries: Sequence[Entry], subject: Entry) -> Entry | None:
    """The newest nameable entry of the same Procedure older than ``subject`` in Journal order."""
    passed = False
    for entry in entries:
        if entry.run_id == subject.run_id:
            passed = True
            continue
        if passed and entry.run_file.procedure == subject.run_file.procedure and nameable(entry):
            return entry
    return None


def procedures(entries: Sequence[Entry]) -> list[str]:
    """Every Procedure the Journal holds a nameable entry of, by code point — deleted ones too."""
    return sorted({entry.run_file.procedure for entry in entries if nameable(entry)})


def latest(entries: Sequence[Entry], procedure: str, since: _dt.datetime | None) -> Window | None:
    """The newest nameable Run of ``procedure`` and the one before it; under ``since``, the
    baseline is the newest nameable Run that started before the instant, so everything from
    the instant on folds into one window. ``None`` where no Run stands inside the window."""
    own = [entry for entry in entries if entry.run_file.procedure == procedure and nameable(entry)]
    if not own:
        return None
    subject = own[0]
    if since is None:
        return Window(procedure, subject, _before(entries, subject))
    if subject.run_file.started_at < since:
        return None
    earlier = [entry for entry in own if entry.run_file.started_at < since]
    return Window(procedure, subject, earlier[0] if earlier else None)


def _found(entries: Sequence[Entry], run: str) -> Entry:
    for entry in entries:
        if entry.run_id == run:
            return entry
    raise WindowFault(
        f'no Journal entry for run "{run}" in this repository\'s Store\n'
        "  hyper runs lists the entries the hyper-store branch holds\n"
    )


def _closed(entry: Entry) -> None:
    if entry.account is Account.OPEN:
        raise WindowFault(
            f"run {entry.run_id} holds no account of its end yet, so no window can name it as an end\n"
        )


def _procedure_of(entry: Entry, positional: str | None) -> str:
    own = entry.run_file.procedure
    if positional is not None and positional != own:
        raise WindowFault(
            f"the positional names {positional}, and run {entry.run_id} is a Run of {own};"
            " a window stays within one Procedure\n"
        )
    return own


def subject(entries: Sequence[Entry], run: str, positional: str | None) -> Window:
    """The window ``--subject`` names: that entry, a rehearsal included, and behind it the
    baseline the rule would have found for it."""
    named = _found(entries, run)
    _closed(named)
    return Window(_procedure_of(named, positional), named, _before(entries, named))


def between(entries: Sequence[Entry], ends: tuple[str, str], positional: str | None) -> Window:
    """The window ``--between`` names, baseline first; every way it cannot be one is a
    :class:`WindowFault`, never a silent reorder."""
    first, second = ends
    if first == second:
        raise WindowFault(f"--between names run {first} twice; a window needs two different ends\n")
    baseline, subject = _found(entries, first), _found(entries, second)
    if baseline.run_file.dry_run:
        raise WindowFault(
            f"run {first} is a rehearsal, and a --dry-run is never a baseline: it reached no effect"
            " to compare against\n"
        )
    _closed(baseline)
    _closed(subject)
    own, other = baseline.run_file.procedure, subject.run_file.procedure
    if own != other:
        raise WindowFault(
            f"run {first} is a Run of {own} and run {second} a Run of {other}; a window stays within one Procedure\n"
        )
    if positional is not None and positional != own:
        raise WindowFault(
            f"the positional names {positional}, and both Runs are of {own}; a window stays within one Procedure\n"
        )
    if (baseline.run_file.started_at, baseline.run_id) > (subject.run_file.started_at, subject.run_id):
        raise WindowFault(
            f"run {first} started after run {second}; --between takes the baseline first and the subject second\n"
        )
    return Window(own, subject, baseline)

"""The range: the artefact as the last Run that read it saw it, and each way there is none.

A range opens at the last Run that read the artefact — never at ``HEAD``, where an
agent that committed its own widened Bound would leave nothing to mark. Which Runs
read an artefact is the Journal's to say (``run.json``'s ``procedure``, a Step file's
``definition``, ``provider``, ``target`` or ``path``); what the Run supplies is its
Provenance: a blob id for a top-level Procedure and a Definition, which carry a
revision of their own, and the commit the whole Run read for the other kinds, under
which the file's blob is looked up here.

Rehearsals are passed over (rehearsing a widened destroy must not retire the flag
that warned of it), and so are entries with an uncommitted tree for the kinds that
take the commit, whose blob would name bytes that did not run.

Everything is read from this clone: the ``hyper-store`` branch it holds and its
object database, with every git child forbidden any transport, so a missing object
in a partial clone is an absence and never a fetch. Nothing here fails: a Store that
cannot be read is ``no-store``, an object that cannot be read is ``not-in-clone``.
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple
from hyper.review import kinds
from hyper.review.resolve import Found

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

    from hyper.store.branch import Opening, Store
    from hyper.store.reading import Entry
    from hyper.store.step import StepFile

LEAD: Final = "no baseline — "


class Range(NamedTuple):
    stored: bool = False
    """The Store answered at all."""
    supplied: bool = False
    """Some entry read this artefact and may anchor it."""
    entry: Entry | None = None
    named: str = ""
    """The revision that entry recorded: a blob id, or the commit the Run read."""
    blob: str = ""
    """The blob the range opens at; ``""`` where this clone does not hold it."""
    data: bytes = b""


class Absence(NamedTuple):
    name: str
    """The wire's ``baseline_absent``."""
    sentence: str
    """What the header says in the range's place."""


class _Anchor(NamedTuple):
    entry: Entry
    named: str
    own: bool
    """The revision is the artefact's own blob, not the commit the Run read."""


def read_range(found: Found, opening: Opening | None) -> Range:
    if not found.path or opening is None:
        return Range()  # built in, no Run could have recorded a revision of what has none; or no Store
    from hyper.core.readfaults import GitError, StoreAbsent, StoreFileError

    try:
        store = opening.store()
        try:
            anchor = _supplying(store, found)
            if anchor is None:
                return Range(stored=True)
            opened = Range(True, True, anchor.entry, anchor.named)
            wanted = anchor.named if anchor.own else f"{anchor.named}:{found.path}"
            held = _blob(store, wanted)
        finally:
            # git is told it is done, and exits while the review is composed and written; the
            # opening's close waits for it once the page is out.
            store.objects.shut()
    except (StoreAbsent, GitError, StoreFileError, OSError, ValueError):
        return Range()
    if held is None:
        return opened
    return opened._replace(blob=held[0], data=held[1])


def _supplying(store: Store, found: Found) -> _Anchor | None:
    """The newest entry that read this artefact and may anchor it; the walk stops there.

    Entries are chosen from the Journal's summaries (adr/0031), newest first, and opened one
    at a time, so a range read off a recent Run costs that Run's files and not the Journal's.
    Every other partition is then only made to answer whether it decodes — from the memo's
    index of partition trees where it holds one, else by reading its account files — so an
    unreadable entry anywhere still makes the range ``no-store``, as a reading of every
    entry makes it (adr/0031, 2026-12-02 session 7)."""
    from hyper.store.reading import Journal, dispositions  # deferred: start-up cost

    journal = Journal(store)
    chosen = None
    for summary in journal.summaries():
        if summary.dry_run:
            continue
        (entry,) = journal.entries([summary])
        anchor = _in_run_file(entry, found)
        if anchor is None:
            anchor = _in_steps(entry, dispositions(store, entry).steps, found)
        if anchor is None or (not anchor.own and entry.run_file.provenance.repo_dirty):
            continue
        chosen = anchor
        break
    journal.procedures()
    return chosen


def _at_commit(entry: Entry) -> _Anchor | None:
    commit = entry.run_file.provenance.repo_revision
    return _Anchor(entry, commit, False) if commit else None


def _in_run_file(entry: Entry, found: Found) -> _Anchor | None:
    if found.kind is kinds.REPOSITORY:
        return _at_commit(entry)  # every Run is governed by the declaration
    if found.kind is kinds.PROCEDURE and found.name and entry.run_file.procedure == found.name:
        recorded = entry.run_file.provenance.procedure_revision
        return _Anchor(entry, recorded, True) if recorded else None
    return None


def _in_steps(entry: Entry, steps: tuple[StepFile, ...], found: Found) -> _Anchor | None:
    name = found.name
    if not name:
        return None
    for step in steps:
        code = step.code
        if found.kind is kinds.DEFINITION:
            revision = step.provenance.definition_revision if step.provenance is not None else ""
            if code.definition == name and revision:
                return _Anchor(entry, revision, True)
        elif (
            (found.kind is kinds.MANIFEST and code.provider == name)
            or (found.kind is kinds.TARGET and code.target == name)
            or (found.kind is kinds.PROCEDURE and _invokes(step.path, name))
        ):
            return _at_commit(entry)
    return None


def _invokes(chain: str, procedure: str) -> bool:
    """Whether a Step was reached through ``procedure``: every component of its chain but the
    last (the Step's own id) names a Procedure invoked on the way."""
    return procedure in chain.split(".")[:-1]


def _blob(store: Store, wanted: str) -> tuple[str, bytes] | None:
    """The blob ``wanted`` names and its bytes, or ``None`` where this clone cannot read one."""
    if "\n" in wanted:
        return None
    from hyper.core.readfaults import GitError

    try:
        (answer,) = store.objects.lookup([wanted])
    except GitError:
        return None  # a partial clone's reader gives up on an object it may not fetch
    if answer is None or answer[1] != b"blob":
        return None
    return answer[0], answer[2]


def absence(found: Found, opened: Range) -> Absence | None:
    """The first absence that holds, in rank; ``None`` where the range opened."""
    if not found.path:
        return Absence("built-in", f"{LEAD}{found.name} is compiled into hyper itself")
    if not opened.stored:
        return Absence("no-store", f"{LEAD}this clone holds no Store")
    if not opened.supplied:
        return Absence("not-run", LEAD + _unread(found))
    if not opened.blob:
        return Absence("not-in-clone", f"{LEAD}{opened.named} is missing from this clone")
    return None


def _unread(found: Found) -> str:
    """``not-run``'s sentence: the act that would have supplied a range, which differs by kind."""
    name = found.name
    if found.kind is kinds.PROCEDURE:
        return f"no Run of {name} yet"
    if found.kind is kinds.TARGET:
        return f"no Run has bound {name} yet"
    if found.kind is kinds.DEFINITION:
        return f"no Run has used {name} yet"
    if found.kind is kinds.MANIFEST:
        return f"no Run has loaded {name} yet"
    return "no Run yet"

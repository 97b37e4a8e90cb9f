"""The branch as one Run reads it while it writes: series Heads, the identity fold, and the
identity digest each Step is compared against (the Run's own Step files included, as they
go down).

A Run asks the branch the same few questions at every Step, and the branch moves under it
only by its own writes. So the questions are answered in process, through the Store
handle's own object reader — trees cached by id (an id names its content forever), every
version decoded once by blob — rather than by a git child per question; a Run of a hundred
Steps would otherwise spend its time starting git. What each answer *means* is
:mod:`hyper.store.reading`'s: the Head order, the fold and the comparable-evidence filter
are read from there, not restated.
"""

from __future__ import annotations

from hyper.core.faults import JournalFileUnreadable, SchemaUnsupported
from hyper.store import reading
from hyper.store.branch import Store
from hyper.store.git import TreeEntry
from hyper.store.identities import Identities
from hyper.store.paths import RECORDS_PREFIX, Identity, decode_segment, encode_segment
from hyper.store.record import RecordVersion

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable


_RECORDS = RECORDS_PREFIX.rstrip("/")


class Ledger:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._versions: dict[str, RecordVersion] = {}
        self._folded: dict[Identity, list[Identity]] | None = None

    def _tree(self, *segments: str) -> dict[str, TreeEntry] | None:
        objects = self._store.objects
        tree = objects.commit_tree(self._store.tip)
        for segment in segments:
            entry = objects.entry(tree, segment)
            if entry is None or not entry.is_tree:
                return None
            tree = entry.sha
        return objects.tree_entries(tree)

    def _version(self, blob: str) -> RecordVersion:
        held = self._versions.get(blob)
        if held is None:
            _, data = self._store.objects.read(blob)
            held = self._versions[blob] = RecordVersion.decode(data)
        return held

    def head(self, identity: Identity) -> RecordVersion | None:
        """The series' Head: versions by ``written_at``, ties by file name — the Store's order."""
        segments = (encode_segment(identity.target), encode_segment(identity.definition), encode_segment(identity.name))
        files = self._tree(_RECORDS, *segments)
        if not files:
            return None
        held = []
        for name, entry in files.items():
            if entry.is_tree:
                continue
            version = self._version(entry.sha)
            if version.metadata.identity == identity:  # paths are lossy: identity is read inside
                held.append((version.metadata, f"{name}", version))
        if not held:
            return None
        by_file = {file: version for _, file, version in held}
        ordered = reading.order((meta, file) for meta, file, _ in held)
        return by_file[ordered[-1].file]

    def collision(self, identity: Identity) -> Identity | None:
        """The stored identity that is one with ``identity`` under hyper's fold and is not it."""
        if self._folded is None:
            self._folded = {}
            for stored in self._stored():
                self._folded.setdefault(reading.folded(stored), []).append(stored)
        for stored in self._folded.get(reading.folded(identity), []):
            if stored != identity:
                return stored
        return None

    def minted(self, identity: Identity) -> None:
        """A series this Run opened joins the fold the rest of the Run is compared against."""
        if self._folded is not None:
            standing = self._folded.setdefault(reading.folded(identity), [])
            if identity not in standing:
                standing.append(identity)

    def _stored(self) -> Iterable[Identity]:
        """Every series on the branch, named from its path — or, where a segment was cut to
        fit, from inside one of its versions."""
        for target, target_entry in (self._tree(_RECORDS) or {}).items():
            if not target_entry.is_tree:
                continue
            for definition, definition_entry in (self._tree(_RECORDS, target) or {}).items():
                if not definition_entry.is_tree:
                    continue
                for name, name_entry in (self._tree(_RECORDS, target, definition) or {}).items():
                    if not name_entry.is_tree:
                        continue
                    if "~" in target + definition + name:
                        files = self._tree(_RECORDS, target, definition, name) or {}
                        first = next((entry for entry in files.values() if not entry.is_tree), None)
                        if first is not None:
                            yield self._version(first.sha).metadata.identity
                        continue
                    yield Identity(*(decode_segment(part) for part in (target, definition, name)))


class Comparands:
    """Each Step's comparand digest, by (Step id, path): the last comparable Run's, read once
    before Step 1, with the Step files this Run itself writes laid over it as they go down.

    A Procedure invoked twice gives its Steps one path twice in one Run, and the newest
    comparable Step file is then this Run's own first one — the Journal holds it by the
    second invocation's turn. A rehearsal's own entry is not comparable evidence, so a
    dry run keeps the Run-start reading throughout.
    """

    def __init__(self, standing: dict[tuple[str, str], str], *, rehearsal: bool) -> None:
        self._digests = standing
        self._rehearsal = rehearsal

    def previous(self, step_id: str, path: str) -> str:
        """The digest the Step's set is compared against; ``""`` where none was carried."""
        return self._digests.get((step_id, path), "")

    def filed(self, step_id: str, path: str, identities: Identities | None) -> None:
        """This Run wrote a Step file: a set it carried is the comparand from here on."""
        if not self._rehearsal and identities is not None and identities.digest:
            self._digests[(step_id, path)] = identities.digest


def comparands(store: Store, procedure: str, wanted: Iterable[tuple[str, str]], *, rehearsal: bool) -> Comparands:
    """For each (Step id, path), the identity digest the last comparable Run carried for it —
    not a rehearsal, the same Procedure, the same invocation chain — walking the Journal
    newest first and stopping once every one is found."""
    missing = set(wanted)
    found: dict[tuple[str, str], str] = {}
    journal = reading.Journal(store)
    try:
        for summary in journal.summaries():
            if not missing:
                break
            if summary.dry_run or summary.procedure != procedure:
                continue
            (entry,) = journal.entries([summary])
            for step in reversed(reading.dispositions(store, entry).steps):
                key = (step.code.id, step.path)
                if key in missing and step.identities is not None and step.identities.digest:
                    found[key] = step.identities.digest
                    missing.discard(key)
    except JournalFileUnreadable as unreadable:
        if not isinstance(unreadable.cause, SchemaUnsupported):
            raise
        # A Journal file above this reader's ceiling: the schema gate Refuses the Run into its
        # own entry, citing the file, which is the answer this walk must not pre-empt.
    return Comparands(found, rehearsal=rehearsal)

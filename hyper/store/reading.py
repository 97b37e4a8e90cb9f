"""The record, read: Journal entries and their accounts, Dispositions, the backward scan, Record
series and their Heads — the one reader ``review``'s baseline, ``run`` and the inspection
commands all stand on.

Nothing here is defined over the branch's commits: a Journal answer is a fact about the files
a listing found, and every file is read for what it says about itself. A file that does not sit
where its own contents put it was not written by hyper, and is a fault rather than a skip.
The one derived state is the Journal's summaries memo (adr/0031), keyed by the object ids it
was read from, so every answer is still the one a fresh read of the handle's commit gives.
"""

from __future__ import annotations

import datetime as _dt
import functools
import posixpath

from hyper.core.namedtuple import NamedTuple
from hyper.core.readfaults import GitError, JournalFileUnreadable, Misfiled, SchemaUnsupported, StoreFileError
from hyper.store.branch import Store
from hyper.store.git import FILE_MODE, TreeFile
from hyper.store.journal import Account as Account
from hyper.store.journal import OutcomeFile, RunFile
from hyper.store.journal import classify as _classify
from hyper.store.paths import (
    JOURNAL_PREFIX,
    RECORDS_PREFIX,
    Form,
    Identity,
    JournalEntry,
    cut_journal_path,
    is_partition,
    listed_journal,
    pair_prefix,
    parse_path,
    record_path,
    series_prefix,
)

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from hyper.store.checked import Checked
    from hyper.store.record import Metadata, RecordVersion
    from hyper.store.step import ClosedBy, Disposition, StepFile
    from hyper.store.summaries import Memo, Summary


class Closer(NamedTuple):
    """One closing write and the Run that drew it (from the file name, not a member)."""

    closed_by: ClosedBy
    run: str


class Entry(NamedTuple):
    """One Journal entry: its run.json, its own Run's account where it gave one, and every
    closing write another Run left — earliest inference first."""

    run_file: RunFile
    owner: OutcomeFile | None = None
    closers: tuple[Closer, ...] = ()

    @property
    def run_id(self) -> str:
        return self.run_file.run_id

    @property
    def account(self) -> Account:
        return _classify(self.owner is not None, bool(self.closers))

    @property
    def contested(self) -> bool:
        return self.account == "contested"

    @property
    def outcome(self) -> str | None:
        """The owner's wherever one exists (contested included); ``failed`` when only reaped."""
        if self.owner is not None:
            return self.owner.outcome
        return "failed" if self.closers else None

    @property
    def ended(self) -> _dt.datetime | None:
        """The owner's ``ended_at``; on a reaped entry the earliest closer's (the closer's clock)."""
        if self.owner is not None:
            return self.owner.ended_at
        return self.closers[0].closed_by.ended_at if self.closers else None

    @property
    def duration(self) -> _dt.timedelta | None:
        """Only within one entry: a reaped entry's two instants come from two clocks."""
        if self.owner is None:
            return None
        return self.owner.ended_at - self.run_file.started_at

    def inference(self) -> StepFile | None:
        return self.closers[0].closed_by.reading() if self.closers else None


def _newest_first(run_file: RunFile) -> tuple[float, str]:
    return (run_file.started_at.timestamp(), run_file.run_id)


def journal_order(entries: Iterable[Entry]) -> list[Entry]:
    """Newest first on ``started_at``, ties broken by the Run id, descending."""
    return sorted(entries, key=lambda entry: _newest_first(entry.run_file), reverse=True)


class Dispositions(NamedTuple):
    """What became of the Steps of one entry, in the Run's written order: its Step files and,
    where a closer reached a position the entry holds no file at, the closer's reading."""

    entry: Entry
    steps: tuple[StepFile, ...]

    def of(self, step_id: str) -> Disposition | None:
        """The Disposition of the Step authored under ``step_id``: its record's, else
        ``never-reached`` inside a closed entry, else nothing — an open entry's silence is no
        answer."""
        for step in self.steps:
            if step_id and step.code.id == step_id:
                return step.disposition
        if not step_id or self.entry.account == "open":
            return None
        return "never-reached"

    @property
    def targets(self) -> tuple[str, ...]:
        """The Targets these records bound, each once, in code-point order."""
        return tuple(sorted({step.code.target for step in self.steps if step.code.target}))


class Evidence(NamedTuple):
    """What one entry holds about one Step: the record, and the entry it sits in."""

    entry: Entry
    step: StepFile

    def comparable(self, procedure: str, path: str) -> bool:
        """The filter both readings of a Step's history apply: not a rehearsal, the same
        Procedure, the same invocation chain."""
        run = self.entry.run_file
        return not run.dry_run and run.procedure == procedure and self.step.path == path


class OpenEntry(NamedTuple):
    """An entry holding no account at all, and the highest Step position it holds (0: none)."""

    run_file: RunFile
    last: int


class _Found(NamedTuple):
    """One file a listing found under an entry, with what its path says."""

    file: TreeFile
    form: Form
    run: str
    step: int


class Group:
    """One entry's files as a listing found them, split by what a reader opens them for."""

    __slots__ = ("account", "dir", "owned", "partition", "reaped", "run", "steps")

    def __init__(self, dir: str, run: str, partition: str) -> None:
        self.dir = dir
        self.run = run
        self.partition = partition
        self.account: list[_Found] = []
        self.steps: list[_Found] = []
        self.owned = False
        self.reaped = False

    def add(self, found: _Found) -> None:
        if found.form == "step":
            self.steps.append(found)
            return
        self.account.append(found)
        if found.form == "outcome":
            self.owned = True
        elif found.form == "closed-by":
            self.reaped = True

    @property
    def classified(self) -> Account:
        return _classify(self.owned, self.reaped)

    @property
    def highest_step(self) -> int:
        return max((found.step for found in self.steps), default=0)


class EntryListing(NamedTuple):
    """An entry as the branch listing alone answers it — no file opened: its Run, where it
    sits, how it is classified, and how many Step files it holds."""

    run: str
    dir: str
    partition: str
    account: Account
    steps: int


def partitions(store: Store) -> Iterator[list[Group]]:
    """The Journal grouped by date partition, newest first, then by entry — each partition
    listed only when the one before it has been consumed, so a reader that stops early lists
    no older one. Where the year and month levels break the grammar, the whole Journal is
    listed at once instead, and the listing says which path is wrong."""
    days = _days(store)
    if days is None:
        yield from _grouped(store.files(JOURNAL_PREFIX))
        return
    for day, _ in days:
        yield from _grouped(store.files(f"{JOURNAL_PREFIX}{day}/"))


def _grouped(files: Sequence[TreeFile]) -> Iterator[list[Group]]:
    held: dict[str, dict[str, Group]] = {}
    for listed in listed_journal(files):
        dir_ = listed.dir
        by_dir = held.get(listed.day)
        if by_dir is None:
            by_dir = held[listed.day] = {}
        group = by_dir.get(dir_)
        if group is None:
            group = by_dir[dir_] = Group(dir_, listed.run, listed.partition)
        group.add(_Found(TreeFile(listed.path, listed.blob), listed.form, listed.writer, listed.step))
    for partition in sorted(held, reverse=True):
        yield list(held[partition].values())


def _days(store: Store) -> list[tuple[str, str]] | None:
    """Every date partition (``yyyy/mm/dd``) newest first with its tree id, read from the year
    and month trees alone; ``None`` where anything there is not a directory the grammar names."""
    objects = store.objects
    days: list[tuple[str, str]] = []
    try:
        # The Journal's own tree comes with its answer by path: resolving the path to an id and
        # then reading the id asked git for the same tree twice, a round trip of its own.
        (top,) = objects.listings([f"{store.commit}:{JOURNAL_PREFIX}"])
        if top is None:
            return []
        for year in sorted(top.values(), key=lambda entry: entry.name, reverse=True):
            if not year.is_tree:
                return None
            for month in sorted(objects.tree_entries(year.sha).values(), key=lambda entry: entry.name, reverse=True):
                if not month.is_tree:
                    return None
                for day in sorted(objects.tree_entries(month.sha).values(), key=lambda e: e.name, reverse=True):
                    named = f"{year.name}/{month.name}/{day.name}"
                    if not day.is_tree or not is_partition(named):
                        return None
                    days.append((named, day.sha))
    except GitError:
        return None
    return days


def journal_listing(store: Store) -> list[EntryListing]:
    """Every entry the branch lists, classified from the files present, opening none of them.

    The order is the listing's own — date partitions newest first, then Run ids descending —
    which is Journal order to the day; :func:`entries` reads ``started_at`` for the exact one.
    git lists an entry's files together, so one pass over the listing groups them; the
    listing is one ``git ls-tree -r`` of the Journal, so the walk over its trees is git's.
    """
    answered: list[EntryListing] = []
    current: tuple[str, str] | None = None
    owned = reaped = False
    steps = 0
    days: set[str] = set()
    runs: set[str] = set()
    listed = store.git.run("ls-tree", "-r", "-z", store.commit, "--", JOURNAL_PREFIX)
    for line in listed.decode("utf-8").split("\0")[:-1]:
        header, path = line.split("\t", 1)
        if not header.startswith(FILE_MODE + " "):
            mode = header.split()[0]
            raise GitError(("ls-tree",), 0, f"{path!r} has mode {mode}: the Store holds regular files only")
        day, run, tail = cut_journal_path(path, days, runs)
        if current is None or run != current[1] or day != current[0]:
            if current is not None:
                answered.append(_listed_entry(current, owned, reaped, steps))
            current, owned, reaped, steps = (day, run), False, False, 0
        kind = tail[:4]
        if kind == "outc":
            owned = True
        elif kind == "step":
            steps += 1
        elif kind != "run.":
            reaped = True
    if current is not None:
        answered.append(_listed_entry(current, owned, reaped, steps))
    answered.reverse()
    return answered


def _listed_entry(at: tuple[str, str], owned: bool, reaped: bool, steps: int) -> EntryListing:
    day, run = at
    partition = JOURNAL_PREFIX + day
    return EntryListing(run, f"{partition}/{run}", partition, _classify(owned, reaped), steps)


def _read(store: Store, files: Sequence[_Found]) -> list[bytes]:
    return store.contents([found.file.blob for found in files])


def _decode_entry(group: Group, contents: Sequence[bytes]) -> Entry:
    run_file: RunFile | None = None
    owner: OutcomeFile | None = None
    closers: list[Closer] = []
    for found, data in zip(group.account, contents, strict=True):
        try:
            if found.form == "run":
                run_file = RunFile.decode(data)
            elif found.form == "outcome":
                owner = OutcomeFile.decode(data)
            elif found.form == "closed-by":
                from hyper.store.step import ClosedBy  # deferred: only a reaped entry holds one

                closers.append(Closer(ClosedBy.decode(data), found.run))
        except StoreFileError as fault:
            raise JournalFileUnreadable(found.file.path, fault) from None
    if run_file is None:
        raise Misfiled(f"{group.dir!r} holds no run.json; every entry is written with one at Run start")
    _check_filed(group.dir, run_file)
    closers.sort(key=lambda closer: (closer.closed_by.ended_at, closer.run))
    return Entry(run_file, owner, tuple(closers))


def _check_filed(dir_: str, run_file: RunFile) -> None:
    built = run_file.at.run_path
    if built != dir_ + "/run.json":
        raise Misfiled(f"{dir_!r} holds an entry whose own run.json files it at {built!r}")


def _visits(store: Store, groups: Sequence[Group]) -> list[tuple[Group, Entry]]:
    wanted = [found for group in groups for found in group.account]
    contents = _read(store, wanted)
    visits = []
    at = 0
    for group in groups:
        count = len(group.account)
        visits.append((group, _decode_entry(group, contents[at : at + count])))
        at += count
    return visits


def entries(store: Store) -> list[Entry]:
    """Every entry, in Journal order, each with its account; no Step file is opened."""
    groups = [group for partition in partitions(store) for group in partition]
    return journal_order(entry for _, entry in _visits(store, groups))


class Journal:
    """The Journal newest first as its entries' summaries, and the entries themselves opened
    only where a reader asks for them.

    A date partition is summarised from the memo where it holds the partition's tree id
    (adr/0031), else from the memo's lines for the entries whose tree ids did not move and a
    decoding of the rest — every account file of them, so a fault is met where reading the
    partition whole meets it — and the memo is brought up to date. Partitions are read only as
    a reader reaches them, newest first, and each once per handle.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._days = _days(store)
        self._memo: Memo | None = None
        self._held: dict[str, list[Summary]] = {}
        self._opened: dict[str, tuple[Group, Entry]] = {}

    def partitions(self) -> Iterator[list[Summary]]:
        """Each date partition's summaries in Journal order, newest partition first."""
        if self._days is None:  # the year and month levels break the grammar: listed whole, as before
            for groups in partitions(self.store):
                yield journal_order_of(self._summarised(groups, {}))
            return
        for day, sha in self._days:
            yield self._partition_held(day, sha)

    def _partition_held(self, day: str, sha: str) -> list[Summary]:
        held = self._held.get(day)
        if held is None:
            held = self._held[day] = self._partition(day, sha)
        return held

    def remembered(self) -> Iterator[tuple[list[Summary], list[Group]]]:
        """Each date partition, newest first, as the memo holds it (its summaries) or else as
        its listing groups it — no file of it opened, and the memo left as it was."""
        if self._days is None:
            for groups in partitions(self.store):
                yield [], groups
            return
        memo = self._opened_memo()
        for day, sha in self._days:
            known = memo.read(day, sha)
            if known:
                yield journal_order_of(known.values()), []
            else:
                yield [], [group for part in _grouped(self.store.files(f"{JOURNAL_PREFIX}{day}/")) for group in part]

    def procedures(self) -> set[str]:
        """Every Procedure the Journal holds a nameable entry of: from the memo's index of
        partition trees where it holds one (adr/0039), else from the partition's memo file's
        own line, its entries left unread, else from the partition's summaries."""
        if self._days is None:
            return {summary.procedure for summary in self.summaries() if summary.nameable}
        memo = self._opened_memo()
        index = memo.named()
        gathered: dict[tuple[str, str], list[str]] = {}
        for day, sha in self._days:
            held = index.get((day, sha))
            if held is None and day not in self._held:
                held = memo.procedures(day, sha)
            if held is None:
                held = sorted({summary.procedure for summary in self._partition_held(day, sha) if summary.nameable})
            gathered[(day, sha)] = held
        if gathered != index:
            memo.save_named(gathered)
        return {name for held in gathered.values() for name in held}

    def summaries(self) -> Iterator[Summary]:
        """Every summary in Journal order, reading no partition before it is reached."""
        for partition in self.partitions():
            yield from partition

    def _opened_memo(self) -> Memo:
        """The summaries memo (adr/0031), opened on first use."""
        if self._memo is None:
            from hyper.store.summaries import Memo  # deferred: a reader of entries alone keeps no memo (ADR 0006)

            self._memo = Memo(self.store.objects.git_dir)
        return self._memo

    def _partition(self, day: str, sha: str) -> list[Summary]:
        memo = self._opened_memo()
        known = memo.read(day, sha)
        if known:
            return journal_order_of(known.values())
        known = memo.recent(day)
        prefix = f"{JOURNAL_PREFIX}{day}/"
        listed = self.store.objects.tree_entries(sha)
        kept = {run: known[(run, held.sha)] for run, held in listed.items() if (run, held.sha) in known}
        if kept and all(held.is_tree for held in listed.values()):
            fresh = [f"{prefix}{run}/" for run in sorted(listed.keys() - kept.keys(), reverse=True)]
            groups = [group for name in fresh for part in _grouped(self.store.files(name)) for group in part]
        else:  # nothing to keep, or something a whole listing must report: the partition whole
            kept = {}
            groups = [group for part in _grouped(self.store.files(prefix)) for group in part]
        trees = {run: held.sha for run, held in listed.items()}
        held = journal_order_of([*kept.values(), *self._summarised(groups, trees)])
        memo.write(day, sha, held)
        return held

    def _summarised(self, groups: Sequence[Group], trees: dict[str, str]) -> list[Summary]:
        summarised = []
        for group, entry_ in _visits(self.store, groups):
            self._opened[entry_.run_id] = (group, entry_)
            summarised.append(summarise(entry_, trees.get(group.run, ""), group.highest_step))
        return summarised

    def open(self, chosen: Sequence[Summary]) -> list[tuple[Group, Entry]]:
        """The entries summarised, each with its files as listed, in the order given; the
        account files of those not yet opened are read in one batch."""
        unopened = [summary for summary in chosen if summary.run_id not in self._opened]
        if unopened:
            roots = [(JournalEntry(summary.run_id, summary.started_at).dir + "/", summary.tree) for summary in unopened]
            known = [(dir_, tree) for dir_, tree in roots if tree]
            files = self.store.objects.below(known)
            files += [file for dir_, tree in roots if not tree for file in self.store.files(dir_)]
            groups = [group for part in _grouped(files) for group in part]
            for group, entry_ in _visits(self.store, groups):
                self._opened[entry_.run_id] = (group, entry_)
        return [self._opened[summary.run_id] for summary in chosen]

    def entries(self, chosen: Sequence[Summary]) -> list[Entry]:
        return [entry_ for _, entry_ in self.open(chosen)]

    def bound(self, chosen: Sequence[Summary]) -> list[Summary]:
        """The summaries given, in order, each with the Targets its records bound: from the memo
        where a reader has read them before, else from the entry's files — every Step file and
        account file of it decoded, so a fault is met where reading the entry meets it — and
        then kept in the memo, so the next listing opens no file of the entry."""
        unread = [summary for summary in chosen if summary.targets is None]
        if not unread:
            return list(chosen)
        visits = self.open(unread)
        contents = _read(self.store, [found for group, _ in visits for found in group.steps])
        read: dict[tuple[str, str], Summary] = {}
        at = 0
        for summary, (group, entry_) in zip(unread, visits, strict=True):
            count = len(group.steps)
            held = _dispositions_from(group.steps, contents[at : at + count], entry_)
            read[(summary.run_id, summary.tree)] = summary._replace(targets=held.targets)
            at += count
        for day, sha in self._days or ():
            partition = self._held.get(day)
            if partition is not None and any((summary.run_id, summary.tree) in read for summary in partition):
                partition = self._held[day] = [read.get((item.run_id, item.tree), item) for item in partition]
                if self._memo is not None:
                    self._memo.write(day, sha, partition)
        return [read.get((summary.run_id, summary.tree), summary) for summary in chosen]

    def listing(self, wanted: Callable[[Summary], bool] | None = None, enough: int | None = None) -> list[Summary]:
        """Summaries ``wanted`` keeps, in Journal order, each with the Targets its entry bound —
        chosen from the summaries, so only kept entries whose Targets no reader has read before
        are opened, a date partition at a time. With ``enough``, only the newest ``enough``
        entries are answered: no older partition is reached, and no entry past the cut is
        opened."""
        listed: list[Summary] = []
        for partition in self.partitions():
            kept = [summary for summary in partition if wanted is None or wanted(summary)]
            if enough is not None:
                kept = kept[: enough - len(listed)]
            listed += self.bound(kept)
            if enough is not None and len(listed) >= enough:
                break
        return listed

    def entry(self, run: str) -> Entry | None:
        """One entry by its Run's whole id (no prefix resolution), or ``None``: each date
        partition this handle listed is asked for it by name, so none is listed again."""
        for group in _groups_of(self.store, {run}, self._days):
            return _visits(self.store, [group])[0][1]
        return None

    def scan(self, step_id: str) -> Iterator[Evidence]:
        """Walks the Journal backward — newest entry first across every date partition, and
        within an entry the Run's own order reversed — yielding every record of the Step
        authored under ``step_id``. It filters no entry: which to keep is each consumer's (see
        :meth:`Evidence.comparable`). Entries are chosen from their summaries and opened one at
        a time, so stopping early is what keeps it cheap; a reader that scans more than once
        (``show``, ``changes``: once per digest-only Step) scans one handle, so the partitions
        are listed once and each is summarised once (adr/0031)."""
        if not step_id:
            return
        for summary in self.summaries():
            ((group, entry_),) = self.open([summary])
            held = _dispositions_from(group.steps, _read(self.store, group.steps), entry_)
            for step in reversed(held.steps):
                if step.code.id == step_id:
                    yield Evidence(entry_, step)

    def count(self) -> int:
        """How many entries the Journal holds, from the date partitions' own trees — the ones
        this handle listed, so a command that lists and counts lists once — counted once per
        tree id and remembered (adr/0031): no entry is opened. (Where the year and month
        levels break the grammar, the whole listing answers.)"""
        store = self.store
        if self._days is None:
            return sum(len(partition) for partition in partitions(store))
        memo = self._opened_memo()
        known = memo.counts()
        counts = {(day, sha): known[(day, sha)] for day, sha in self._days if (day, sha) in known}
        unknown = [(day, sha) for day, sha in self._days if (day, sha) not in counts]
        for at, held in zip(unknown, store.objects.listings([sha for _, sha in unknown]), strict=True):
            counts[at] = sum(1 for entry in (held or {}).values() if entry.is_tree)
        if unknown or len(counts) != len(known):
            memo.save_counts(counts)
        return sum(counts.values())


def summarise(entry_: Entry, tree: str, last_step: int) -> Summary:
    """What the memo keeps of an entry read from the tree ``tree`` (its Targets unread)."""
    from hyper.store.summaries import Summary, micros  # deferred: a reader of entries alone keeps no memo

    run = entry_.run_file
    return Summary(
        entry_.run_id,
        tree,
        micros(run.started_at),
        run.procedure,
        run.dry_run,
        entry_.account,
        entry_.outcome,
        last_step,
        run.trigger.text,
        run.provenance.hyper_version,
    )


def journal_order_of(summaries: Iterable[Summary]) -> list[Summary]:
    """Summaries in Journal order: what :func:`journal_order` is for entries."""
    return sorted(summaries, key=lambda summary: summary.order, reverse=True)


def _groups_of(store: Store, runs: set[str], days: list[tuple[str, str]] | None) -> Iterator[Group]:
    """The entries of the Runs named, newest partition first, each found by asking each
    partition's tree (``days``, as :func:`_days` lists them) for it by name, so no partition is
    listed and no other entry read; done once every one is found."""
    if days is None:
        for partition in partitions(store):
            yield from (group for group in partition if group.run in runs)
        return
    missing = {run for run in runs if run not in ("", ".", "..") and "/" not in run and "\n" not in run}
    for day, sha in days:
        if not missing:
            return
        asked = sorted(missing, reverse=True)
        answers = store.objects.lookup([f"{sha}:{run}" for run in asked])
        for run in [run for run, answer in zip(asked, answers, strict=True) if answer is not None]:
            missing.discard(run)
            for partition in _grouped(store.files(f"{JOURNAL_PREFIX}{day}/{run}/")):
                yield from partition


def _dispositions_from(files: Sequence[_Found], contents: Sequence[bytes], entry_: Entry) -> Dispositions:
    from hyper.store.step import StepFile  # deferred: a reader that opens no Step file never defines the Step's values

    steps: list[StepFile] = []
    for found, data in zip(files, contents, strict=True):
        try:
            step = StepFile.decode(data)
        except StoreFileError as fault:
            raise JournalFileUnreadable(found.file.path, fault) from None
        built = entry_.run_file.at.step_path(step.step)
        if built != found.file.path:
            raise Misfiled(f"{found.file.path!r} holds the record of a Step the grammar files at {built!r}")
        steps.append(step)
    reading = entry_.inference()
    if reading is not None and all(step.step != reading.step for step in steps):
        steps.append(reading)
    steps.sort(key=lambda step: step.step)
    return Dispositions(entry_, tuple(steps))


def dispositions(store: Store, entry_: Entry) -> Dispositions:
    """Every record one entry holds, in the Run's written order (the owner's file wins a
    position a closer also names)."""
    prefix = entry_.run_file.at.dir + "/"
    files = []
    for file in store.files(prefix):
        parsed = parse_path(file.path)
        if parsed.form == "step":
            files.append(_Found(file, parsed.form, parsed.run, parsed.step))
    return _dispositions_from(files, _read(store, files), entry_)


def open_entries(store: Store) -> list[OpenEntry]:
    """Every entry with no account at all, newest first — all of them, by no age or liveness
    test: a reaper guesses nothing. Only each one's run.json is opened; a partition the memo
    holds is classified from it, any other from its listing."""
    journal = Journal(store)
    groups = []
    chosen = []
    for summaries, listed in journal.remembered():
        chosen += [summary for summary in summaries if summary.account == "open"]
        groups += [group for group in listed if group.classified == "open"]
    opened = [
        OpenEntry(entry_.run_file, summary.last_step)
        for summary, entry_ in zip(chosen, journal.entries(chosen), strict=True)
    ]
    opened += [OpenEntry(entry_.run_file, group.highest_step) for group, entry_ in _visits(store, groups)]
    opened.sort(key=lambda item: _newest_first(item.run_file), reverse=True)
    return opened


def rehearsals(store: Store, runs: Iterable[str]) -> dict[str, bool]:
    """Each asked-for Run the Journal holds an entry for, with its ``dry_run`` (false included).
    A Run missing from the answer is a Store that lost evidence, never *not a rehearsal*."""
    wanted = set(runs)
    if not wanted:
        return {}
    files: list[_Found] = []
    dirs: list[str] = []
    for group in _groups_of(store, wanted, _days(store)):
        run_files = [found for found in group.account if found.form == "run"]
        if not run_files:
            raise Misfiled(f"{group.dir!r} holds no run.json; every entry is written with one at Run start")
        files.append(run_files[0])
        dirs.append(group.dir)
    answered = {}
    for found, dir_, data in zip(files, dirs, _read(store, files), strict=True):
        try:
            run_file = RunFile.decode(data)
        except StoreFileError as fault:
            raise JournalFileUnreadable(found.file.path, fault) from None
        _check_filed(dir_, run_file)
        answered[run_file.run_id] = run_file.dry_run
    return answered


class Version(NamedTuple):
    """One version as a listing answers it: its metadata, the file it sits at, and its
    1-based ordinal in the series' order — derived, unstable, and never accepted as input."""

    metadata: Metadata
    file: str
    ordinal: int


class Series(NamedTuple):
    """One Record's versions, oldest first; a series the Store lacks is one with no versions."""

    identity: Identity
    versions: tuple[Version, ...]

    @property
    def head(self) -> Version | None:
        """The last of the order, and not a marker anybody wrote; a Tombstone Head reads dead
        and a version above it makes it alive again."""
        return self.versions[-1] if self.versions else None


def order(versions: Iterable[tuple[Metadata, str]]) -> tuple[Version, ...]:
    """``written_at`` ascending, ties broken byte-wise by the file name, numbered from 1."""
    ordered = sorted(versions, key=lambda held: (held[0].written_at, posixpath.basename(held[1]).encode()))
    return tuple(Version(metadata, file, at) for at, (metadata, file) in enumerate(ordered, start=1))


def _read_versions(store: Store, files: Sequence[TreeFile]) -> list[tuple[Metadata, str]]:
    from hyper.store.record import RecordVersion  # deferred: a review reads the Journal, never a Record

    held = []
    for file, data in zip(files, store.contents([file.blob for file in files]), strict=True):
        try:
            version = RecordVersion.decode(data)
        except StoreFileError as fault:
            raise JournalFileUnreadable(file.path, fault) from None
        meta = version.metadata
        built = record_path(meta.identity, meta.run_id, meta.step)
        if built != file.path:
            raise Misfiled(f"{file.path!r} holds a version its own identity files at {built!r}")
        held.append((meta, file.path))
    return held


def series(store: Store, identity: Identity) -> Series:
    """One Record's versions, ordered; the identity is read back out of each file, since two
    identities share a directory only through a truncation collision."""
    files = store.files(series_prefix(identity))
    held = [item for item in _read_versions(store, files) if item[0].identity == identity]
    return Series(identity, order(held))


def head(store: Store, identity: Identity) -> Version | None:
    return series(store, identity).head


def records(store: Store) -> list[Series]:
    """Every series on the branch, ordered by identity (Target, Definition, name by code
    point) — never by the path, whose escaping orders nothing."""
    by_identity: dict[Identity, list[tuple[Metadata, str]]] = {}
    for item in _read_versions(store, store.files(RECORDS_PREFIX)):
        by_identity.setdefault(item[0].identity, []).append(item)
    return [
        Series(identity, order(by_identity[identity]))
        for identity in sorted(by_identity, key=lambda held: (held.target, held.definition, held.name))
    ]


def read(store: Store, version: Version) -> RecordVersion:
    """One version whole, content included, by the file a listing found it at."""
    from hyper.store.record import RecordVersion  # deferred: start-up cost

    (data,) = store.contents([f"{store.commit}:{version.file}"])
    try:
        return RecordVersion.decode(data)
    except StoreFileError as fault:
        raise JournalFileUnreadable(version.file, fault) from None


def suppressed(store: Store, versions: Sequence[Version]) -> list[tuple[str, ...]]:
    """Per version, in order, the field names holding the secret marker (one batch read)."""
    from hyper.store.record import RecordVersion, suppressed_fields  # deferred: start-up cost

    names = [f"{store.commit}:{version.file}" for version in versions]
    answered = []
    for version, data in zip(versions, store.contents(names), strict=True):
        try:
            answered.append(suppressed_fields(RecordVersion.decode(data).fields))
        except StoreFileError as fault:
            raise JournalFileUnreadable(version.file, fault) from None
    return answered


class Unreadable(NamedTuple):
    """A file a Run must read that this binary cannot: the ``store-schema-unsupported`` subject."""

    file: str
    written: int
    known: int


def _record_version(data: bytes) -> object:
    from hyper.store.record import RecordVersion  # deferred: start-up cost

    return RecordVersion.decode(data)


@functools.cache
def _decoders() -> dict[Form, Callable[[bytes], object]]:
    """The decoder of each form the Run-start gate reads, made on its first call: a reader
    that checks no Step file never defines the Step's values (ADR 0006)."""
    from hyper.store.step import ClosedBy, StepFile

    return {
        "record": _record_version,
        "run": RunFile.decode,
        "step": StepFile.decode,
        "outcome": OutcomeFile.decode,
        "closed-by": ClosedBy.decode,
    }


def readable(store: Store, pairs: Iterable[tuple[str, str]], checked: Checked | None = None) -> Unreadable | None:
    """The Run-start schema gate: the Journal whole, then the series under each (Target,
    Definition) pair the Procedure makes (sorted), each in path order; the first file above the
    ceiling is answered, and any other decode fault is raised.

    With ``checked``, a tree or file an earlier check found readable at the same path and id
    is not read again (adr/0013): the answer is the one reading everything gives, since what
    it skips is exactly what could not change it. What this check finds readable is saved."""
    prefixes = [JOURNAL_PREFIX] + [pair_prefix(target, definition) for target, definition in sorted(set(pairs))]
    decoders = _decoders()
    skip = checked.holds if checked is not None else None
    for prefix in prefixes:
        seen: list[tuple[str, str]] = []
        listed = store.files(prefix, skip, seen)
        files = listed if skip is None else [file for file in listed if not skip(file.path, file.blob)]
        for file, data in zip(files, store.contents([file.blob for file in files]), strict=True):
            decoder = decoders.get(parse_path(file.path).form)
            if decoder is None:
                continue
            try:
                decoder(data)
            except SchemaUnsupported as above:
                return Unreadable(file.path, above.written, above.known)
            except StoreFileError as fault:
                raise JournalFileUnreadable(file.path, fault) from None
        if checked is not None:
            checked.walked(seen, listed)
    if checked is not None:
        checked.save()
    return None


@functools.lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    """The least code point in a character's simple case-fold orbit (single-character case
    mappings only, so ``ß`` never becomes ``ss``)."""
    orbit = {char}
    frontier = [char]
    while frontier:
        current = frontier.pop()
        for mapped in (current.lower(), current.upper(), current.title()):
            if len(mapped) == 1 and mapped not in orbit:
                orbit.add(mapped)
                frontier.append(mapped)
    return min(orbit)


def folded(identity: Identity) -> Identity:
    """An identity under hyper's own fold, component by component — the filesystem's fold is
    one platform's, and the branch is written by two.

    An ASCII component folds to its upper case: an ASCII letter's orbit is its two cases, and
    the upper sorts first (a Step's every Record is folded several times, nearly always ASCII)."""
    return Identity(
        *(part.upper() if part.isascii() else "".join(_fold_char(char) for char in part) for part in identity)
    )


def collisions(store: Store, identities: Iterable[Identity]) -> dict[Identity, Identity]:
    """For each identity handed, the stored identity that is one with it under the fold (the
    first in identity order); an identity the Store holds exactly is the series itself."""
    held: dict[Identity, list[Identity]] = {}
    for stored in records(store):
        held.setdefault(folded(stored.identity), []).append(stored.identity)
    answered = {}
    for identity in identities:
        for standing in held.get(folded(identity), []):
            if standing != identity:
                answered[identity] = standing
                break
    return answered

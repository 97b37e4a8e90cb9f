"""The Journal's summaries memo: for each date partition, what each entry in it says about
itself — its Run, start, Procedure, rehearsal mark, account, trigger and hyper version, and,
once a reader has decoded its Step files, the Targets they bound — keyed by the object ids
they were read from; see adr/0031-the-journal-remembers-its-summaries.md.

A tree's id names everything under it forever, so "the entry tree at this path with this id
decodes, and says this" stays true for as long as the code that decoded it is the same code.
One file per partition, ``<git common dir>/hyper/journal/<yyyy>-<mm>-<dd>``: a first line of
the decoding code's digest and the partition's tree id, then a line per entry. A partition
whose id matches is answered from its file alone; one whose id moved (a Run was added to it)
keeps the lines of the entries whose tree ids did not move, and only the rest is decoded.

The memo can only spare reads, never change an answer: a file that is missing, unreadable,
malformed or keyed by other code is no memo at all, a partition that would not decode is
never written, and a file that cannot be saved is not saved. A save replaces the file whole
(a temporary file, then a rename), so any file a reader sees is one a reader wrote in full.
"""

from __future__ import annotations

import datetime as _dt
import os

from hyper.core.digest import sha256
from hyper.core.namedtuple import NamedTuple
from hyper.store.checked import source_key
from hyper.store.journal import ACCOUNTS
from hyper.store.journal import Account as Account

_DIRECTORY = ("hyper", "journal")
_COUNTS = "counts"
"""How many entries each partition tree holds: a file of its own, since counting opens nothing."""
_NAMED = "procedures"
"""The Procedures each partition tree holds a nameable entry of: ``changes`` reads this one
file, not every partition's (adr/0039)."""
_BREAKS = "\t\n\r"
"""What no text on a memo line may hold: the separators of its fields and of its lines."""
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)
_MICROSECOND = _dt.timedelta(microseconds=1)


class Summary(NamedTuple):
    """One entry as its run.json and account files describe it, without the files: enough to
    order, filter and choose entries before any of them is opened."""

    run_id: str
    tree: str
    """The entry's tree id: what the summary was read from."""
    started: int
    """``started_at`` in microseconds since the epoch: Journal order, exactly."""
    procedure: str
    dry_run: bool
    account: Account
    outcome: str | None
    last_step: int
    """The highest Step position the entry holds a file at (0: none)."""
    trigger: str
    """The trigger's one-cell rendering, as ``runs`` shows it."""
    hyper_version: str
    targets: tuple[str, ...] | None = None
    """The Targets the entry's records bound, in code-point order; ``None`` until a reader has
    decoded its Step files, which the account files alone cannot answer (adr/0031, 2026-12-02)."""

    @property
    def started_at(self) -> _dt.datetime:
        return _EPOCH + self.started * _MICROSECOND

    @property
    def contested(self) -> bool:
        return self.account == "contested"

    @property
    def nameable(self) -> bool:
        """Closed and not a rehearsal: an entry a Comparison's rule may stand on."""
        return self.account != "open" and not self.dry_run

    @property
    def order(self) -> tuple[int, str]:
        return (self.started, self.run_id)

    def line(self) -> str | None:
        """The memo's line: the fixed members, then tab-separated the Procedure, the trigger, the
        hyper version and the Targets (``-`` where unread, else ``=`` and one field each).
        ``None`` where a text could not sit on a line; Targets that could not are kept unread."""
        texts = (self.procedure, self.trigger, self.hyper_version)
        if any(char in text for text in texts for char in _BREAKS):
            return None
        bound = "-"
        if self.targets is not None and not any(char in target for target in self.targets for char in _BREAKS):
            bound = "\t".join(["=", *self.targets])
        mark = "1" if self.dry_run else "0"
        return (
            f"{self.run_id} {self.tree} {self.started} {mark} {self.account} {self.outcome or '-'}"
            f" {self.last_step} {self.procedure}\t{self.trigger}\t{self.hyper_version}\t{bound}"
        )

    @classmethod
    def parse(cls, line: str) -> Summary:
        fixed, trigger, version, bound, *targets = line.split("\t")
        run, tree, started, mark, account, outcome, last, procedure = fixed.split(" ", 7)
        if mark not in ("0", "1") or account not in ACCOUNTS or bound not in ("-", "=") or (bound == "-" and targets):
            raise ValueError(line)
        return cls(
            run,
            tree,
            int(started),
            procedure,
            mark == "1",
            account,
            None if outcome == "-" else outcome,
            int(last),
            trigger,
            version,
            tuple(targets) if bound == "=" else None,
        )


def micros(instant: _dt.datetime) -> int:
    return (instant - _EPOCH) // _MICROSECOND


class Memo:
    """The partitions' files under one repository's common git directory, read on demand."""

    def __init__(self, git_dir: str | None) -> None:
        self._key = source_key("hyper-journal-summaries 2")
        self._directory = os.path.join(git_dir, *_DIRECTORY) if git_dir is not None and self._key else None

    def _path(self, day: str) -> str | None:
        return None if self._directory is None else os.path.join(self._directory, day.replace("/", "-"))

    def _body(self, day: str, tree: str) -> bytes | None:
        """The file's lines after the first, where the first names this code, the tree ``tree``
        and the digest of the rest — so a file cut short or edited is no memo."""
        path = self._path(day)
        if path is None:
            return None
        try:
            with open(path, "rb") as memo:
                first, _, body = memo.read().partition(b"\n")
        except OSError:
            return None
        if first != f"{self._key} {tree} {sha256(body)}".encode("ascii"):
            return None
        return body

    def read(self, day: str, tree: str) -> dict[tuple[str, str], Summary]:
        """The entries of the file written for the tree ``tree``, by (Run, entry tree id)."""
        body = self._body(day, tree)
        try:
            held = [Summary.parse(line) for line in body.decode("utf-8").split("\n")[1:]] if body else []
        except (UnicodeDecodeError, ValueError):
            return {}
        return {(summary.run_id, summary.tree): summary for summary in held}

    def recent(self, day: str) -> dict[tuple[str, str], Summary]:
        """The entries of the file as it stands, whichever tree it was written for: the lines a
        partition that moved keeps for the entries that did not."""
        path = self._path(day)
        try:
            with open(path or "", "rb") as memo:
                first = memo.readline().split(b" ")
        except OSError:
            return {}
        return self.read(day, first[1].decode("ascii", "replace")) if len(first) == 3 else {}

    def counts(self) -> dict[tuple[str, str], int]:
        """How many entries each partition tree holds, by (day, tree id), as last counted."""
        try:
            return {at: int(count) for at, count in self._index(_COUNTS).items()}
        except ValueError:
            return {}

    def save_counts(self, counts: dict[tuple[str, str], int]) -> None:
        self._save_index(_COUNTS, {at: str(count) for at, count in counts.items()})

    def named(self) -> dict[tuple[str, str], list[str]]:
        """The Procedures each partition tree holds a nameable entry of, by (day, tree id), as
        last gathered: the partitions' own first lines in one small file (adr/0039)."""
        return {at: [name for name in names.split("\t") if name] for at, names in self._index(_NAMED).items()}

    def save_named(self, named: dict[tuple[str, str], list[str]]) -> None:
        if any(char in name for names in named.values() for name in names for char in _BREAKS):
            return
        self._save_index(_NAMED, {at: "\t".join(names) for at, names in named.items()})

    def _index(self, name: str) -> dict[tuple[str, str], str]:
        """One of the files holding a line per partition tree, ``<day> <tree id> <value>``, under
        a first line naming this code and the digest of the rest; empty where it is no memo."""
        path = self._path(name)
        try:
            with open(path or "", encoding="utf-8") as memo:
                first, _, body = memo.read().partition("\n")
            if first != f"{self._key} {sha256(body.encode('utf-8'))}" or not body:
                return {}
            return {(day, tree): value for day, tree, value in (line.split(" ", 2) for line in body.split("\n"))}
        except (OSError, UnicodeDecodeError, ValueError):
            return {}

    def _save_index(self, name: str, values: dict[tuple[str, str], str]) -> None:
        body = "\n".join(f"{day} {tree} {value}" for (day, tree), value in sorted(values.items()))
        self._replace(name, f"{self._key} {sha256(body.encode('utf-8'))}\n{body}".encode())

    def procedures(self, day: str, tree: str) -> list[str] | None:
        """The Procedures the file's partition holds a nameable entry of, for the tree ``tree``."""
        body = self._body(day, tree)
        if body is None:
            return None
        return [name for name in body.split(b"\n", 1)[0].decode("utf-8", "replace").split("\t") if name]

    def write(self, day: str, tree: str, held: list[Summary]) -> None:
        lines = [summary.line() for summary in held]
        if None in lines:
            return
        named = sorted({summary.procedure for summary in held if summary.nameable})
        body = "\n".join(["\t".join(named), *(line for line in lines if line)]).encode("utf-8")
        self._replace(day, f"{self._key} {tree} {sha256(body)}\n".encode("ascii") + body)

    def _replace(self, name: str, content: bytes) -> None:
        """Writes the file whole through a temporary one, or not at all."""
        path = self._path(name)
        if path is None:
            return
        import threading  # deferred: a handle that only reads never saves a memo

        temporary = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(temporary, "wb") as memo:
                memo.write(content)
            os.replace(temporary, path)
        except OSError:
            import contextlib  # deferred: as threading is

            with contextlib.suppress(OSError):
                os.unlink(temporary)

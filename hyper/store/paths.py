"""The Store's path grammar: the six forms every file on the branch sits at, built and read here.

Every path but ``STORE.md`` carries the id of the Run that wrote it, which is what makes a
push re-application clean: two Runs cannot mint one id, so two Runs cannot write one path.

A path answers its *shape* — which form, which Run, which Step — and never which series it
belongs to: an over-long identity segment is cut and suffixed, so the identity is read from
inside the file, where a Record version restates it unencoded and in full.
"""

from __future__ import annotations

import datetime as _dt
import re

from hyper.core.ids import is_run_id, parse_run_id
from hyper.core.namedtuple import NamedTuple
from hyper.core.pattern import compiled as _pattern
from hyper.core.readfaults import PathError

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Literal, TypeAlias

    from hyper.store.git import TreeFile

INTRODUCTION_PATH = "STORE.md"
RECORDS_PREFIX = "records/"
JOURNAL_PREFIX = "journal/"

SEGMENT_LIMIT = 200
DIGEST_WIDTH = 16
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
_UPPER_HEX = "0123456789ABCDEF"


def _impossible(message: str) -> PathError:
    """A constructor was handed what no path can be built from: hyper's own arithmetic is wrong.

    It is raised rather than returned because what would otherwise follow is a path outside the
    grammar being written into an append-only branch.
    """
    return PathError(f"store: {message}")


class Identity(NamedTuple):
    """A Record's identity: its Target, its Definition and its name, unencoded."""

    target: str
    definition: str
    name: str


def encode_segment(component: str) -> str:
    """One identity component as one path segment.

    Bytes outside ``[A-Za-z0-9._-]`` (and a leading ``.``) become ``%XX`` in uppercase, per UTF-8
    byte; case is preserved. Past 200 bytes the segment is cut at the last escape boundary at or
    below 200 and suffixed with ``~`` and 16 hex digits of the SHA-256 of the whole encoding.
    """
    encoded = _escape(component.encode("utf-8"))
    if len(encoded) <= SEGMENT_LIMIT:
        return encoded
    import hashlib  # only an over-long segment is digested

    digest = hashlib.sha256(encoded.encode("ascii")).hexdigest()[:DIGEST_WIDTH]
    return encoded[: _cut_width(encoded)] + "~" + digest


def _escape(raw: bytes) -> str:
    out = []
    for index, byte in enumerate(raw):
        if byte in _UNRESERVED and not (index == 0 and byte == 0x2E):
            out.append(chr(byte))
        else:
            out.append("%" + _UPPER_HEX[byte >> 4] + _UPPER_HEX[byte & 0xF])
    return "".join(out)


def _cut_width(encoded: str) -> int:
    """The last position at or below the limit that opens a byte rather than sitting in an escape."""
    cut = 0
    index = 0
    while index <= SEGMENT_LIMIT and index < len(encoded):
        cut = index
        index += 3 if encoded[index] == "%" else 1
    return cut


def decode_segment(segment: str) -> str:
    """A path segment read back to the component it spells, as ``urllib.parse.unquote`` reads
    one: each run of ``%XX`` escapes is the bytes it names, read as UTF-8 (a sequence that is
    not reads as U+FFFD), and anything else — a ``%`` naming no byte included — is itself.

    Spelled here, beside :func:`encode_segment`, because ``urllib.parse`` (with ``ipaddress``)
    costs a Run about 10M instructions to import for this one call (ADR 0006); the tests hold
    the two readings against each other. A cut segment's tail is not read back: the identity
    is inside the file."""
    if "%" not in segment:
        return segment
    return _pattern(_ESCAPES).sub(_escaped_bytes, segment)


_ESCAPES = r"(?:%[0-9A-Fa-f]{2})+"
"""A run of ``%XX`` escapes, either case, as ``unquote`` reads them."""


def _escaped_bytes(found: re.Match[str]) -> str:
    return bytes.fromhex(found.group().replace("%", "")).decode("utf-8", "replace")


def step_number(step: int) -> str:
    """``<nnnn>``: 1-based, four digits, widening past 9999 rather than wrapping."""
    if step < 1:
        raise _impossible(f"step {step} is not a position: the first Step in a Run is 1")
    return f"{step:04d}"


def series_dir(identity: Identity) -> str:
    """``records/<target>/<definition>/<name>``: where one Record's versions sit."""
    for role, value in (("target", identity.target), ("definition", identity.definition), ("name", identity.name)):
        if not value:
            raise _impossible(f"an identity carries no {role}")
    return (
        RECORDS_PREFIX
        + encode_segment(identity.target)
        + "/"
        + encode_segment(identity.definition)
        + "/"
        + encode_segment(identity.name)
    )


def series_prefix(identity: Identity) -> str:
    return series_dir(identity) + "/"


def pair_prefix(target: str, definition: str) -> str:
    """``records/<target>/<definition>/``: every series one (Definition, Target) pair makes."""
    return RECORDS_PREFIX + encode_segment(target) + "/" + encode_segment(definition) + "/"


def record_path(identity: Identity, run: str, step: int) -> str:
    """``records/<target>/<definition>/<name>/<run-id>-<nnnn>.json``."""
    parse_run_id(run)
    return f"{series_dir(identity)}/{run}-{step_number(step)}.json"


class JournalEntry(NamedTuple):
    """Where one Run's entry sits: its id and the instant it started (whose UTC date partitions it)."""

    run: str
    started: _dt.datetime

    @property
    def dir(self) -> str:
        at = self.started.astimezone(_dt.UTC)
        return f"{JOURNAL_PREFIX}{at.year:04d}/{at.month:02d}/{at.day:02d}/{self.run}"

    @property
    def run_path(self) -> str:
        return self.dir + "/run.json"

    def step_path(self, step: int) -> str:
        return f"{self.dir}/steps/{step_number(step)}.json"

    @property
    def outcome_path(self) -> str:
        return self.dir + "/outcome.json"

    def closed_by_path(self, closer: str) -> str:
        """The closing write a Run that does not own the entry leaves in it, named by the closer."""
        parse_run_id(closer)
        if closer == self.run:
            raise _impossible(f"run {self.run} is closing its own entry: its own end is outcome.json")
        return f"{self.dir}/closed-by/{closer}.json"


Form: TypeAlias = 'Literal["introduction", "record", "run", "step", "outcome", "closed-by"]'
"""Which of the six forms a path is. Strings the checker holds to these six, not an
``enum.Enum``: defining one cost a review's start-up about 1.1M instructions (ADR 0006), and
mypy's strict equality and exhaustiveness hold a literal the same way."""


class StorePath(NamedTuple):
    """What a Store path says about itself.

    ``run`` is who wrote it (the closer, on a closing write); ``entry`` is whose Journal entry
    it sits in. ``step`` is set on a Record version and a Step file; ``partition`` and ``dir``
    on the four Journal forms.
    """

    form: Form
    run: str = ""
    entry: str = ""
    step: int = 0
    partition: str = ""
    dir: str = ""


# A review reads a few Journal paths by cutting them and builds or checks no Record path, so the
# Journal and Record patterns are kept as text and compiled on first use (≈0.5 ms on import).
_RUN_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
_JOURNAL = (
    r"\A(journal/(\d{4}/\d{2}/\d{2}))/(" + _RUN_ID + r")/"
    r"(?:(run\.json)|(outcome\.json)|steps/(\d+)\.json|closed-by/(" + _RUN_ID + r")\.json)\Z"
)
_RECORD_NAME = r"\A(" + _RUN_ID + r")-(\d+)\.json\Z"
_SEGMENT = r"\A(?:[A-Za-z0-9_.\-]|%[0-9A-F]{2})+\Z"
_DIGEST = r"\A[0-9a-f]{16}\Z"
_valid_days: dict[str, bool] = {}


def parse_path(path: str) -> StorePath:
    """The shape of a Store path; anything outside the six forms is a :class:`PathError`."""
    try:
        return _parse(path)
    except PathError as fault:
        raise PathError(f"{path!r} is not a Store path: {fault}") from None


def _parse(path: str) -> StorePath:
    if path == INTRODUCTION_PATH:
        return StorePath("introduction")
    if path.startswith(JOURNAL_PREFIX):
        return StorePath(*journal_fields(path))
    if path.startswith(RECORDS_PREFIX):
        return _parse_record(path.split("/"))
    raise PathError(f"the Store holds {INTRODUCTION_PATH}, records/ and journal/, and nothing else")


def journal_fields(path: str) -> tuple[Form, str, str, int, str, str]:
    """A Journal path's shape as a plain tuple — ``(form, run, entry, step, partition, dir)``,
    :class:`StorePath`'s fields — for the listing that reads tens of thousands of them."""
    found = _pattern(_JOURNAL).match(path)
    if found is None:
        raise PathError(
            "a Journal path is run.json, steps/<nnnn>.json, outcome.json or closed-by/<run-id>.json"
            " under journal/<yyyy>/<mm>/<dd>/<run-id>/"
        )
    partition, day, run, run_json, outcome_json, step, closer = found.groups()
    if not _is_day(day):
        raise PathError(f"{day!r} is not a <yyyy>/<mm>/<dd> date partition")
    dir_ = f"{partition}/{run}"
    if run_json:
        return "run", run, run, 0, partition, dir_
    if outcome_json:
        return "outcome", run, run, 0, partition, dir_
    if step is not None:
        return "step", run, run, _parse_step(step), partition, dir_
    if closer == run:
        raise PathError(f"run {run} closes its own entry, which its own outcome.json is for")
    return "closed-by", closer, run, 0, partition, dir_


class ListedFile(NamedTuple):
    """One file of a ``journal/`` listing: its blob, its path, and the path's three parts."""

    blob: str
    path: str
    day: str
    run: str
    tail: str

    @property
    def form(self) -> Form:
        return _TAIL_FORMS.get(self.tail[:4], "closed-by")

    @property
    def step(self) -> int:
        return int(self.tail[6:-5]) if self.tail[:4] == "step" else 0

    @property
    def writer(self) -> str:
        """Who wrote the file: the closer on a closing write, the entry's own Run otherwise."""
        return self.tail[10:-5] if self.tail[:4] == "clos" else self.run

    @property
    def partition(self) -> str:
        return JOURNAL_PREFIX + self.day

    @property
    def dir(self) -> str:
        return f"{JOURNAL_PREFIX}{self.day}/{self.run}"


_TAIL_FORMS: dict[str, Form] = {"run.": "run", "outc": "outcome", "step": "step"}
_STEP_TAIL = r"\Asteps/(\d{4,})\.json\Z"


def listed_journal(files: Iterable[TreeFile]) -> list[ListedFile]:
    """The files of a ``journal/`` listing, every path held to the grammar."""
    days: set[str] = set()
    runs: set[str] = set()
    return [ListedFile(file.blob, file.path, *cut_journal_path(file.path, days, runs)) for file in files]


def cut_journal_path(path: str, days: set[str], runs: set[str]) -> tuple[str, str, str]:
    """A Journal path's ``(yyyy/mm/dd, run id, tail)``, held to the grammar.

    The four forms sit at fixed offsets once the date and the Run id are checked, so a path is
    cut rather than matched, and each date and Run id is checked once however many files carry
    it (``days`` and ``runs`` remember them): a Journal of ten thousand entries is twenty
    thousand paths. A path that does not fit goes to :func:`parse_path`, which says why.
    """
    day, run, tail = path[8:18], path[19:55], path[56:]
    if (
        path[:8] == JOURNAL_PREFIX
        and path[18:19] == "/"
        and path[55:56] == "/"
        and (day in days or _known_day(day, days))
        and (run in runs or _known_run(run, runs))
        and (tail in _PLAIN_TAILS or _known_tail(tail, run, runs))
    ):
        return day, run, tail
    parse_path(path)
    raise PathError(f"{path!r} is not a Store path")


_PLAIN_TAILS = frozenset(("run.json", "outcome.json"))


def _known_day(day: str, days: set[str]) -> bool:
    if not is_partition(day):
        return False
    days.add(day)
    return True


def _known_run(run: str, runs: set[str]) -> bool:
    if not is_run_id(run):
        return False
    runs.add(run)
    return True


def _known_tail(tail: str, run: str, runs: set[str]) -> bool:
    if tail[:6] == "steps/":
        step = _pattern(_STEP_TAIL).match(tail)
        return step is not None and int(step.group(1)) > 0 and f"{int(step.group(1)):04d}" == step.group(1)
    if tail[:10] == "closed-by/" and tail[-5:] == ".json":
        closer = tail[10:-5]
        return closer != run and (closer in runs or is_run_id(closer))
    return False


def is_partition(day: str) -> bool:
    """Whether ``day`` (``yyyy/mm/dd``, every digit a decimal one, as ``\\d`` reads it) names
    a date partition the grammar allows. Read by position: a pattern's compile cost a review
    more than every partition it reads (ADR 0006)."""
    return len(day) == 10 and day[4] == day[7] == "/" and (day[:4] + day[5:7] + day[8:]).isdecimal() and _is_day(day)


def _is_day(day: str) -> bool:
    known = _valid_days.get(day)
    if known is None:
        try:
            _dt.date(int(day[0:4]), int(day[5:7]), int(day[8:10]))
            known = True
        except ValueError:
            known = False
        _valid_days[day] = known
    return known


def _parse_step(number: str) -> int:
    step = int(number)
    if step < 1 or f"{step:04d}" != number:
        raise PathError(f"{number!r} is not a Step's position: 0001 onward, unpadded past four digits")
    return step


def _parse_record(segments: list[str]) -> StorePath:
    if len(segments) != 5:
        raise PathError("a Record version is a file under three identity segments")
    for segment in segments[1:4]:
        _check_segment(segment)
    found = _pattern(_RECORD_NAME).match(segments[4])
    if found is None:
        raise PathError("a Record version is named <run-id>-<nnnn>.json, the id a lowercase UUIDv7")
    return StorePath("record", found.group(1), step=_parse_step(found.group(2)))


def _check_segment(segment: str) -> None:
    """A segment this grammar could have written: escapes whole and uppercase, nothing bare
    outside the unreserved set, no leading dot, and a width the cut accounts for."""
    body, tilde, digest = segment.partition("~")
    if not body:
        raise PathError("an identity segment is not empty")
    if tilde:
        if _pattern(_DIGEST).match(digest) is None:
            raise PathError(f"{digest!r} is not 16 lowercase hexadecimal digits")
        if not SEGMENT_LIMIT - 2 <= len(body) <= SEGMENT_LIMIT:
            raise PathError(f"a segment cut at {SEGMENT_LIMIT} is {len(body)} bytes wide")
    elif len(body) > SEGMENT_LIMIT:
        raise PathError(f"a segment of {len(body)} bytes is past the {SEGMENT_LIMIT} it is cut at")
    if body[0] == ".":
        raise PathError("a leading . is escaped")
    if _pattern(_SEGMENT).match(body) is None:
        raise PathError(f"{body!r} carries a byte left bare or an escape that is not %XX uppercase")

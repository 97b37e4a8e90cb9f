"""One review, read once: the header, the gutter, the authority table and the flags.

The :class:`Review` is what both surfaces are made from. Its :meth:`Review.rows` are
the ``--json`` stream (and the MCP tool's rows); :func:`hyper.review.page.render`
draws the page from the same value. The artefact's own lines are not on the wire —
the consumer has the file — so the page carries them beside the rows.
"""

from __future__ import annotations

import datetime as _dt

from hyper.artefact.manifest import Manifest
from hyper.artefact.repository import Repository
from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, row
from hyper.review import kinds
from hyper.review.authority import Table, authority_of
from hyper.review.baseline import Absence, Range, absence, read_range
from hyper.review.changes import change_flags
from hyper.review.marks import Flag, Reach, by_line, composed_widths, marks_of, namespaces
from hyper.review.nodes import scalar_text
from hyper.review.resolve import Found
from hyper.review.source import source_lines
from hyper.review.touched import NOTHING, read_touched
from hyper.yaml.access import fields
from hyper.yaml.subset import Node

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from hyper.cadence import Gloss
    from hyper.check.graph import Graph
    from hyper.store.branch import Opening


class GutterLine(NamedTuple):
    """One rendered line with something in either column."""

    line: int
    marker: str
    """The marker as the page draws it, aligned; ``""`` where the line carries none."""
    wire: str
    changed: bool

    def to_row(self) -> Row:
        return row("gutter", line=self.line, marker=self.wire or None, changed=True if self.changed else None)


class LastRun(NamedTuple):
    run: str
    ended: _dt.datetime
    age: str

    def value(self) -> dict[str, str]:
        from hyper.store.canonical import instant_text  # deferred: start-up cost

        return {"run": self.run, "ended": instant_text(self.ended)}


class Header(NamedTuple):
    kind: kinds.Kind
    path: str
    baseline: str
    """The full blob id the range opens at; ``""`` where an absence stands in its place."""
    absence: Absence | None
    gloss: Gloss | None
    last_run: LastRun | None

    def to_row(self) -> Row:
        read = self.gloss
        return row(
            "artefact",
            kind=self.kind.wire,
            path=self.path or None,
            baseline=self.baseline or None,
            baseline_absent=self.absence.name if self.absence is not None else None,
            cadence=read.expression if read is not None else None,
            phrase=read.phrase if read is not None else None,
            rate=read.rate.value if read is not None else None,
            last_run=self.last_run.value() if self.last_run is not None else None,
        )


class Review(NamedTuple):
    header: Header
    source: list[str]
    ranged: bool
    """A range opened, so the change column is drawn."""
    gutter: tuple[GutterLine, ...]
    authority: Table
    flags: tuple[Flag, ...]

    def rows(self) -> list[Row]:
        return [
            self.header.to_row(),
            *(line.to_row() for line in self.gutter),
            *(pairing.to_row() for pairing in self.authority.pairings),
            *(flag_row(flag) for flag in self.flags),
        ]


def flag_row(flag: Flag) -> Row:
    return row("flag", flag=flag.name, cites_line=flag.cites, step=flag.step or None)


def compose(found: Found, repo: Repository, opening: Opening | None, now: _dt.datetime) -> Review:
    """The review of ``found``, its range read through ``opening`` (see :func:`hyper.review.opening.start`), which
    was opened at ``now``."""
    kind, loaded = found.kind, found.loaded
    source = source_lines(loaded.data)
    marks = marks_of(kind, loaded.root, _manifest(repo, loaded.path), lambda: namespaces(repo, _reach(repo)))
    opened = read_range(found, opening)
    missing = absence(found, opened)
    touched = read_touched(source_lines(opened.data), source, loaded.root) if missing is None else NOTHING

    sized = composed_widths(marks.markers)
    marked: dict[int, tuple[str, str]] = {}
    for marker in marks.markers:
        wire = marker.wire()
        if wire:
            marked[marker.line] = (marker.page(sized), wire)
    gutter = tuple(
        GutterLine(line, *marked.get(line, ("", "")), touched.marked(line))
        for line in sorted(set(marked) | touched.lines)
    )
    flags = list(marks.flags)
    if missing is None:
        drawn = frozenset(marked) | touched.lines
        flags += change_flags(kind, found.path, opened.data, loaded.root, touched, drawn, opened.blob)

    read = _gloss(loaded.root) if kind is kinds.PROCEDURE else None
    header = Header(
        kind=kind,
        path=found.path,
        baseline=opened.blob if missing is None else "",
        absence=missing,
        gloss=read,
        last_run=_last_run(opened, now) if read is not None else None,
    )
    return Review(
        header=header,
        source=source,
        ranged=missing is None,
        gutter=gutter,
        authority=authority_of(kind, loaded.root, found.name, repo),
        flags=by_line(flags),
    )


def _gloss(root: Node | None) -> Gloss | None:
    """The Cadence a Procedure declares, read as the header glosses it; none where it declares none."""
    expression = scalar_text(fields(root, "cadence").get("cadence"))
    if not expression:
        return None
    from hyper.cadence import gloss  # deferred: start-up cost

    return gloss(expression)


def _manifest(repo: Repository, path: str) -> Manifest | None:
    for manifest in repo.manifest_files:
        if manifest.path == path:
            return manifest
    return None


def _reach(repo: Repository) -> Reach:
    """What a nested invocation reaches, read off the invocation graph ``check`` walks.

    The graph is built on the first question, so a Procedure invoking nothing never pays for it.
    """
    graph: list[Graph] = []

    def reach(name: str) -> tuple[str, ...] | None:
        if name not in repo.procedures:
            return None
        if not graph:
            from hyper.artefact import procedure  # deferred: start-up cost
            from hyper.check.graph import Graph  # deferred: start-up cost
            from hyper.check.index import build  # deferred: start-up cost

            read = [procedure.read(loaded.path, loaded.root) for loaded in repo.procedures.values()]
            graph.append(Graph(read, build(repo)))
        return tuple(sorted(graph[0].reaches(name).targets))

    return reach


def _last_run(opened: Range, now: _dt.datetime) -> LastRun | None:
    """The entry the range was read off, where it has ended: its age is the gloss's *last ran*."""
    entry = opened.entry
    if not opened.supplied or entry is None or entry.ended is None:
        return None
    ended = entry.ended
    days = (now - ended) // _dt.timedelta(days=1)
    age = "less than a day ago" if days < 1 else "1 day ago" if days == 1 else f"{days} days ago"
    return LastRun(entry.run_id, ended, f"last ran {age}")

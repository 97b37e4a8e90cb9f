"""Rendering a Refusal.

A Refusal is a guardrail declining before any effect. It is rendered in one of two
forms, chosen by the caller and never inferred:

- *about the invocation* — two lines per member, ``refused: <code>`` and the message
  indented beneath it — for the gates that read no artefact line (the version pin,
  an absent Store);
- *citing an artefact* — the caret form: the file and line, up to two lines of
  context, a caret under the value at fault with the message beside it, the notes
  a reader needs (what a relative operand resolved to, when the check ran, what
  will not override it), and the ``EDIT ONE OF`` table naming every edit that
  would clear it.

The retry sentence an MCP client reads after a Refusal belongs to that surface.
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple
from hyper.render.table import table

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence


class Member(NamedTuple):
    error_code: str
    message: str


def about_invocation(members: Sequence[Member]) -> str:
    return "".join(f"refused: {m.error_code}\n  {m.message}\n" for m in members)


class Edit(NamedTuple):
    """One row of ``EDIT ONE OF``: an edit that would clear the Refusal."""

    file: str
    line: int | None = None
    field: str = ""
    from_: str = ""
    to: str = ""
    derived: str = ""


class Citation(NamedTuple):
    """One member of a Refusal that cites an artefact line.

    ``source`` is the cited file's text; where it is ``None`` (the file could not be
    read, or the fault has no line) no excerpt is drawn and the message, file and
    field become ``=`` notes instead, in the same gutter-less form as the rest.
    """

    error_code: str
    message: str
    file: str
    line: int | None
    field: str = ""
    source: str | None = None
    notes: tuple[str, ...] = ()
    edits: tuple[Edit, ...] = ()


def citing_artefact(members: Sequence[Citation]) -> str:
    """Every member's block, each followed by its own ``EDIT ONE OF`` table, one blank line
    between members: an edit is read beside the fault it clears, as the reference renders it."""
    return "\n".join(_block(member) + _edits(member) for member in members)


def _edits(member: Citation) -> str:
    return "\nEDIT ONE OF\n" + _edit_table(member.edits) if member.edits else ""


def _block(member: Citation) -> str:
    head = f"refused: {member.error_code}\n\n"
    lines = member.source.split("\n") if member.source is not None else []
    if member.line is None or not 1 <= member.line <= len(lines):
        notes = [member.message, f"file: {member.file}"]
        if member.field:
            notes.append(f"field: {member.field}")
        return head + "".join(f"  = {note}\n" for note in (*notes, *member.notes))
    cited = lines[member.line - 1]
    shown = _context(lines, member.line)
    width = max(5, len(str(member.line)))
    pad = " " * width
    out = [f"  {member.file}:{member.line}\n"]
    out.extend(f"{n:>{width}} │ {lines[n - 1]}".rstrip() + "\n" for n in shown)
    out.append(f"{pad} │ {' ' * _caret_column(cited)}^ {member.message}\n")
    out.append(f"{pad} │\n")
    out.extend(f"{pad} = {note}\n" for note in member.notes)
    return head + "".join(out)


def _context(lines: Sequence[str], cited: int) -> list[int]:
    """The cited line and up to two above it. A blank line ends the context; a shallower
    line is the cited key's parent (or its sequence item's first line), so it is shown —
    it is what names where the cited key sits — and nothing above it is."""
    depth = _indent(lines[cited - 1])
    shown = [cited]
    for n in (cited - 1, cited - 2):
        if n < 1 or not lines[n - 1].strip():
            break
        shown.insert(0, n)
        if _indent(lines[n - 1]) < depth:
            break
    return shown


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _caret_column(line: str) -> int:
    """Under the value, just past the first ``": "``; else under the first character."""
    key, sep, _ = line.partition(": ")
    return len(key) + len(sep) if sep else _indent(line)


def _edit_table(edits: Sequence[Edit]) -> str:
    valued = any(e.from_ or e.to for e in edits)
    derived = any(e.derived for e in edits)
    header = ["FILE", "LINE", "FIELD"] + (["FROM", "TO"] if valued else [])
    rows: list[list[str]] = [header]
    for e in edits:
        cells = [e.file, "" if e.line is None else str(e.line), e.field]
        if valued:
            cells += [e.from_, e.to]
        if derived:
            cells.append(e.derived)
        rows.append(cells)
    return table(rows)

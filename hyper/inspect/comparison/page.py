"""The page: one block per window, read back off its rows.

All three tables render on every window, head and count, whether or not they hold a row — an
absent block would be ambiguous between *nothing moved* and *nothing was said*. A value the
``FIELDS`` column cannot carry whole (long, multi-line, nested) renders as its path alone, or
``path: changed``; the stream carries it whole regardless.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from typing import Any

from hyper.cadence import gloss
from hyper.core.row import Row, encode_value
from hyper.inspect.comparison.code import CATCH_ALL
from hyper.render.table import table

INDENT = "  "
GAP = " · "
NOTHING = "–"
WHOLE_LIMIT = 120
RUN_DIGITS = 13
REVISION_DIGITS = 7
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_REVISIONS = frozenset({"procedure revision", "definition revision", "repository revision"})
_DIGESTS = frozenset({"manifest digest", "origin digest"})
"""Cut on the page as a revision is, behind the algorithm that names them; whole on the wire."""


def _instant(text: str) -> _dt.datetime:
    return _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def started_cell(text: str) -> str:
    at = _instant(text)
    return f"{_DAYS[at.weekday()]} {at.day} {_MONTHS[at.month - 1]} {at.hour:02d}:{at.minute:02d}"


def duration_cell(seconds: int) -> str:
    """Go's spelling of a duration cut to whole seconds: ``1m48s``, ``1m0s``, ``2h0m5s``."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}h{minutes}m{secs}s"
    if minutes:
        return f"{sign}{minutes}m{secs}s"
    return f"{sign}{secs}s"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _header_cells(label: str, side: dict[str, Any]) -> list[str]:
    if "ended" in side:
        spent = _instant(side["ended"]) - _instant(side["started"])
        duration = duration_cell(spent // _dt.timedelta(seconds=1))
    else:
        duration = "reaped"
    revision = side["procedure_revision"][:REVISION_DIGITS] + ("+" if side.get("repo_dirty") else "")
    return [
        label,
        side["run"][:RUN_DIGITS] + "…",
        side["trigger"],
        started_cell(side["started"]),
        side["outcome"],
        duration,
        f"procedure rev {revision}",
    ]


def _stated(label: str, side: dict[str, Any]) -> list[str]:
    """One line per closing write: ``contested — `` where the entry holds its own account too."""
    prefix = "contested — " if "ended" in side else ""
    return [
        f"{INDENT}{prefix}Run {closer['run']} closed the {label} entry as failed at {closer['ended']}\n"
        for closer in side.get("closed_by", ())
    ]


def header(window: Row, rehearsal: bool) -> str:
    procedure = window.get("procedure")
    baseline, subject = window.get("baseline"), window.get("subject")
    first = (
        _header_cells("BASELINE", baseline)
        if baseline is not None
        else ["BASELINE", f"no baseline — this is {procedure}'s first Run"]
    )
    lines = f"{INDENT}{procedure}\n" + table([first, _header_cells("SUBJECT", subject)], INDENT)
    if baseline is not None:
        lines += "".join(_stated("BASELINE", baseline))
    lines += "".join(_stated("SUBJECT", subject))
    if rehearsal:
        lines += (
            f"{INDENT}rehearsal — the SUBJECT entry is a --dry-run, which reaches no effect:"
            " nothing below is a change it made\n"
        )
    return lines


def _scalar(value: Any) -> str | None:
    """A value as the page writes it, or ``None`` where it cannot be written whole."""
    if isinstance(value, (dict, list)):
        return None
    text = value if isinstance(value, str) else NOTHING if value is None else encode_value(value).decode()
    if len(text) > WHOLE_LIMIT or "\n" in text:
        return None
    return text


def fields_cell(change: str, fields: dict[str, Any], confirmed: str | None) -> str:
    parts = [f"† confirmed {_instant(confirmed):%H:%M}"] if confirmed else []
    for path, value in fields.items():
        if change == "changed":
            old, new = _scalar(value[0]), _scalar(value[1])
            parts.append(f"{path}: changed" if old is None or new is None else f"{path}: {old} → {new}")
        else:
            text = _scalar(value)
            parts.append(path if text is None else f"{path}: {text}")
    return GAP.join(parts)


def _ordinal(value: Any) -> str:
    return NOTHING if value is None else str(value)


def record_table(title: str, noun: str, rows: Sequence[Row]) -> str:
    head = f"\n{INDENT}{title}   {plural(len(rows), noun)}\n"
    if not rows:
        return head
    cells = [["CHANGE", "TARGET", "DEFINITION", "RECORD", "ORDINAL", "FIELDS"]]
    for found in rows:
        cells.append(
            [
                found.get("change"),
                found.get("target"),
                found.get("definition"),
                found.get("name"),
                f"{_ordinal(found.get('from_ordinal'))} → {_ordinal(found.get('to_ordinal'))}",
                fields_cell(found.get("change"), found.get("fields"), found.get("confirmed_at")),
            ]
        )
    return head + table(cells, INDENT)


def _conjunct(member: Any) -> str:
    """A selector member on the page: a ``values:`` item as written, a predicate conjunct as
    ``field operator operand`` (``field exists`` where the operator takes none)."""
    if not isinstance(member, dict):
        return str(member)
    parts = [str(member.get("field", ""))]
    for operator, operand in member.items():
        if operator == "field":
            continue
        if operand is True:
            parts.append(operator)
        elif isinstance(operand, list):
            parts.append(f"{operator} [{', '.join(str(item) for item in operand)}]")
        else:
            parts.append(f"{operator} {operand}")
    return " ".join(parts)


def _code_value(fact: str, value: Any) -> str:
    """A ``FROM``/``TO`` cell, whole: a set as one sorted run, a selector under its form (a
    ``values:`` list as authored, a predicate one conjunct a line), a Cadence stacked with its
    phrase, rate and executor facts (as the review states them), a revision cut to seven digits."""
    if value is None:
        return NOTHING
    if isinstance(value, list):
        return GAP.join(str(member) for member in value)
    if isinstance(value, dict):
        ((form, members),) = value.items()
        listed = [_conjunct(member) for member in members]
        return f"{form}\n" + (GAP.join(listed) if form == "values" else "\n".join(listed))
    text = str(value)
    if fact == "cadence":
        read = gloss(text)
        return "\n".join((text, read.phrase, read.rate.text, *read.facts)) if read is not None else text
    if fact in _REVISIONS:
        return text[:REVISION_DIGITS]
    if fact in _DIGESTS:
        algorithm, _, hex_digits = text.rpartition(":")
        return f"{algorithm}:{hex_digits[:REVISION_DIGITS]}" if algorithm else text[:REVISION_DIGITS]
    return text


def code_table(rows: Sequence[Row]) -> tuple[str, str]:
    """The table and the phrase ``TOTALS`` ends with, which is decided by what rendered here."""
    classed = [found for found in rows if found.get("fact") != CATCH_ALL]
    closing = [found for found in rows if found not in classed]
    text = f"\n{INDENT}THE CODE MOVED   {plural(len(classed), 'fact')}\n"
    if classed:
        cells = [["SUBJECT", "FACT", "FROM", "TO"]]
        for found in classed:
            subject = f"{found.get('subject_kind')} {found.get('subject')}" if found.get("subject") else "—"
            fact = found.get("fact")
            cells.append([subject, fact, _code_value(fact, found.get("from")), _code_value(fact, found.get("to"))])
        text += table(cells, INDENT)
    unread = False
    for found in closing:
        command = found.get("command")
        counted = found.get("count")
        said = "other lines could not be counted" if counted is None else f"{counted} other lines changed"
        unread = unread or counted is None
        text += f"{INDENT}{said}{GAP + command if command else ''}\n"
    phrase = "the code moved" if classed else "the code could not be fully read" if unread else "the code did not move"
    return text, phrase


def block(
    window: Row,
    rehearsal: bool,
    assets: Sequence[Row],
    observations: Sequence[Row],
    code: Sequence[Row],
    notes: Sequence[str] = (),
) -> str:
    text = header(window, rehearsal)
    text += record_table("YOU DID THIS", "asset", assets)
    text += record_table("THE WORLD MOVED", "observation", observations)
    text += "".join(f"{INDENT}{note}\n" for note in notes)
    code_text, phrase = code_table(code)
    text += code_text
    tombstones = sum(1 for found in assets if found.get("change") == "destroyed")
    total = len(assets) + len(observations)
    text += (
        f"\n{INDENT}TOTALS  {total} changes{GAP}{len(assets)} asset{GAP}{len(observations)} observation"
        f"{GAP}{tombstones} tombstone{GAP}{phrase}\n"
    )
    return text

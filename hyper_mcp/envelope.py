"""An Answer turned into the envelope a tool call returns, and the envelope read back.

The envelope is hyper's own shape, not the SDK's ``CallToolResult``: one text block,
a structured half, and the ``isError`` bit written always (a Refusal is told from an
ordinary answer by that bit, so it may never be left out). The structured half is

    outcome?, run_id?, dry_run?, rendering?, rows, truncated

in that order, with ``rows`` spliced in as the bytes the command encoded — never
decoded and re-encoded — so a row on this surface and on the ``--json`` stream are
the same bytes. The terminal row does not travel: what it carried moves up beside
the rows.

Which exit code sets which shape is the tool's ``exits`` (hyper's mapping is handed
in by its command layer); the text block is chosen by the tool's ``reading``, except
for a Refusal, whose rendering is the whole remedy and goes over untouched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import attrs
import orjson

from hyper_mcp.answer import Answer
from hyper_mcp.errors import ProtocolError
from hyper_mcp.rawjson import SyntaxFault, array_spans, golden_string, object_spans
from hyper_mcp.table import Reading, Shape, Tool

RECORD_LOCATION: Final = (
    "the record is the hyper-store branch of this repository — it is never checked out, and a clone carries it along"
)
"""Where ``runs`` and ``records`` looked, under their summary line on every answer:
an agent told ``no rows`` should not conclude there is no record at all."""

RETRY: Final = (
    "the same call made again refuses the same way — no argument to this tool and no flag "
    "anywhere overrides a guardrail; what gets past it is the edit or the command named above."
)
"""Closes every Refusal's text block. ``isError`` usually invites a retry, and on a
surface without exit code 77 this sentence is the only place to say it will not help."""

_NOUNS: Final[Mapping[str, tuple[str, str]]] = {
    "provider": ("Provider", "Providers"),
    "manifest": ("Manifest", "Manifests"),
    "operation": ("Operation", "Operations"),
    "operation_detail": ("Operation", "Operations"),
    "target": ("Target", "Targets"),
    "problem": ("problem", "problems"),
    "remediation": ("remediation", "remediations"),
    "window": ("window", "windows"),
    "code": ("code fact", "code facts"),
    "probe_result": ("Probe", "Probes"),
    "workflow": ("workflow", "workflows"),
    "run": ("Run", "Runs"),
    "entry": ("Journal entry", "Journal entries"),
    "refusal": ("Refusal", "Refusals"),
    "provenance": ("Provenance row", "Provenance rows"),
    "step": ("Step", "Steps"),
    "asset": ("Asset", "Assets"),
    "observation": ("Observation", "Observations"),
    "record": ("Record", "Records"),
}
"""Each row type as the summary line counts it; a type missing here reads as itself."""

_OUTCOME_ROW: Final = "outcome"


@attrs.frozen
class TextBlock:
    """One member of ``content``; every block this surface writes is text."""

    text: str
    type: str = "text"


@attrs.frozen
class Structured:
    """``structuredContent``: the rows as encoded, and what the terminal row carried."""

    rows: tuple[bytes, ...]
    truncated: bytes
    outcome: str | None = None
    run_id: str | None = None
    dry_run: bool | None = None
    rendering: str | None = None

    def encode(self) -> bytes:
        """The half as it goes on the wire, members in their fixed order."""
        members: list[bytes] = []
        if self.outcome is not None:
            members.append(b'"outcome":' + orjson.dumps(self.outcome))
            if self.run_id is not None:
                members.append(b'"run_id":' + orjson.dumps(self.run_id))
            members.append(b'"dry_run":' + orjson.dumps(bool(self.dry_run)))
        if self.rendering:
            members.append(b'"rendering":' + orjson.dumps(self.rendering))
        members.append(b'"rows":[' + b",".join(self.rows) + b"]")
        members.append(b'"truncated":' + self.truncated)
        return b"{" + b",".join(members) + b"}"


@attrs.frozen
class Envelope:
    """What one tool call answered."""

    content: tuple[TextBlock, ...]
    structured: Structured | None
    is_error: bool

    @property
    def text(self) -> str:
        return "".join(block.text for block in self.content)

    def members(self) -> list[tuple[str, bytes]]:
        """The ``tools/call`` result's members, encoded, in the order they are written."""
        members = [("content", orjson.dumps([{"type": block.type, "text": block.text} for block in self.content]))]
        if self.structured is not None:
            members.append(("structuredContent", self.structured.encode()))
        members.append(("isError", orjson.dumps(self.is_error)))
        return members

    def encode(self) -> bytes:
        """The ``tools/call`` result object as it goes on the wire."""
        return b"{" + b",".join(orjson.dumps(key) + b":" + value for key, value in self.members()) + b"}"


# --- composing ---


def _fault(sentence: str) -> ProtocolError:
    return ProtocolError(f"{sentence}, which is a fault in this server")


_SHOWN: Final = 200
"""How much of a row a fault quotes: enough to recognise it, never a whole Record."""


def _shown(row: bytes) -> str:
    """``row`` as a fault quotes it: cut at :data:`_SHOWN` bytes."""
    return repr(row if len(row) <= _SHOWN else row[:_SHOWN] + b"...")


def _discriminated(row: bytes) -> tuple[str, dict[str, object]]:
    try:
        decoded = orjson.loads(row)
    except orjson.JSONDecodeError as failed:
        if "depth limit" in str(failed):
            # orjson stops at 1,024 levels; the CLI reads the Store to Go's 10,000 (ADR 0030)
            raise ProtocolError(
                "the answer holds a value nested more than 1024 levels deep, deeper than an MCP "
                "answer here carries; read it with the command's --json"
            ) from None
        decoded = None
    if not isinstance(decoded, dict) or not isinstance(decoded.get("type"), str):
        raise _fault(f"the command wrote the row {_shown(row)}, which is not a JSON object led by its type")
    return decoded["type"], decoded


def _in_arguments(tool: Tool, truncated: bytes) -> bytes:
    """The terminal row's ``truncated``, its hint naming this tool's arguments.

    The hint is the one wording that differs between the surfaces: the command names
    the flags a person types, and a caller here can only pass arguments. A hint that
    already names no flag passes unchanged.
    """
    flags = tool.flags
    marker = orjson.loads(truncated)
    if not flags or not isinstance(marker, dict) or not isinstance(marker.get("hint"), str):
        return truncated

    def respelled(flag: re.Match[str]) -> str:
        return f"`{flags[flag[0]]}`" if flag[0] in flags else flag[0]

    hint = re.sub(r"--[a-z][a-z-]*", respelled, marker["hint"])
    if hint == marker["hint"]:
        return truncated
    return orjson.dumps({**marker, "hint": hint})


def _structured(tool: Tool, answer: Answer, dry_run: bool | None) -> tuple[Structured | None, list[str]]:
    """The machine half, composed from what the command wrote and never from its exit code.

    It is absent exactly when the command opened no row stream and the tool carries
    no outcome: a guardrail declined before anything was looked at, and ``rows: []``
    would claim a namespace was searched and found empty.
    """
    kinds = [_discriminated(row)[0] for row in answer.rows]
    outcome: str | None = None
    run_id: str | None = None
    rehearsal: bool | None = None
    truncated = b"null"
    if answer.terminal is not None:
        kind, terminal = _discriminated(answer.terminal)
        if kind == _OUTCOME_ROW:
            if not isinstance(terminal.get("dry_run"), bool):
                raise _fault(f"the terminal row {_shown(answer.terminal)} carries no dry_run")
            outcome, rehearsal = str(terminal.get("outcome")), bool(terminal["dry_run"])
            named = terminal.get("run_id")
            run_id = named if isinstance(named, str) else None
        elif "truncated" not in terminal:
            raise _fault(f"the terminal row {_shown(answer.terminal)} carries no truncated")
        elif terminal["truncated"] is None or isinstance(terminal["truncated"], bool):
            # JSON spells true, false and null one way only, so these are the bytes the command
            # wrote, without finding them again member by member in Python.
            truncated = orjson.dumps(terminal["truncated"])
        else:
            start, end = dict(object_spans(answer.terminal.decode()))["truncated"]
            truncated = _in_arguments(tool, answer.terminal.decode()[start:end].encode())
    elif tool.reading is Reading.OUTCOME and tool.exits.of(answer.exit).outcome is not None:
        # A Run that lost the Store before it began writes no row; the exit code says
        # which outcome that is, and the call says whether it was a rehearsal.
        outcome, rehearsal = tool.exits.of(answer.exit).outcome, bool(dry_run)
    if answer.terminal is None and outcome is None:
        if answer.rows:
            raise _fault(f"the command wrote {len(answer.rows)} rows and no terminal row")
        return None, kinds
    structured = Structured(rows=answer.rows, truncated=truncated, outcome=outcome, run_id=run_id, dry_run=rehearsal)
    return structured, kinds


def _cut(truncated: bytes) -> bool:
    return truncated.strip() not in (b"false", b"null")


def summary_line(kinds: list[str], cut: bool) -> str:
    """The rows counted by type, in the order each type first appears."""
    if not kinds:
        return "no rows"
    counted: dict[str, int] = {}
    for kind in kinds:
        counted[kind] = counted.get(kind, 0) + 1
    parts = []
    for kind, count in counted.items():
        singular, plural = _NOUNS.get(kind, (kind, kind + "s"))
        parts.append(f"{count} {singular if count == 1 else plural}")
    return ", ".join(parts) + (", truncated" if cut else "")


def outcome_line(structured: Structured) -> str:
    """A Run's summary: outcome first, the rehearsal marker, then the entry it wrote."""
    parts = [structured.outcome or ""]
    if structured.dry_run:
        parts.append("dry-run")
    if structured.run_id is not None:
        parts.append(f"run {structured.run_id}")
    return " · ".join(parts)


def _answer_text(tool: Tool, answer: Answer, structured: Structured, kinds: list[str]) -> str:
    if structured.outcome is not None:
        line = outcome_line(structured)
        said = own_sentences(answer.narration)
        return f"{line}\n\n{said}" if said else line
    line = summary_line(kinds, _cut(structured.truncated))
    mode = tool.reading
    if mode is Reading.ROWS_BENEATH and structured.rows:
        if not answer.rendering:
            raise _fault(f"the command exited {answer.exit} with {len(structured.rows)} rows and drew none of them")
        return f"{line}\n\n{answer.rendering}"
    if mode is Reading.LOCATION_BENEATH:
        return f"{line}\n\n{RECORD_LOCATION}"
    if mode is Reading.WHOLE_RENDERING:
        if not answer.rendering:
            raise _fault(f"the command exited {answer.exit} and drew no page for a tool that answers with one")
        return answer.rendering
    return line


def own_sentences(narration: str) -> str:
    """What a Run said on stderr in its own sentences — each ``hyper <command>: …`` line and the
    lines indented beneath it — less its progress (``run <id>``, ``step <p>/<n> <name>``),
    which this surface sends as progress notifications. A Run the world resisted, or a read
    answered with an error status, is said here as it is at a terminal."""
    kept: list[str] = []
    inside = False
    for text in narration.splitlines():
        inside = text.startswith("hyper ") or (inside and text.startswith("  "))
        if inside:
            kept.append(text)
    return "\n".join(kept)


def refusal_text(rendering: str) -> str:
    """A Refusal's text block: its rendering whole, then the retry sentence."""
    return f"{rendering.rstrip(chr(10))}\n\n{RETRY}"


def _said(answer: Answer) -> str:
    """What the command said on stderr, beside its rows: its own account of a failure."""
    return answer.narration.strip("\n")


def envelope_of(tool: Tool, answer: Answer, dry_run: bool | None = None) -> Envelope:
    """The envelope one command's answer maps to, or the protocol error it becomes.

    The tool's ``exits`` decide the shape (:class:`~hyper_mcp.table.Shape`). hyper's:

    ====  =====================================================================
    0     the answer; ``isError`` false
    1     the answer; ``isError`` true (problems found, or a Run the world resisted)
    75    the answer; ``isError`` true (the Store was lost — the retryable one)
    77    the Refusal rendered whole, then the retry sentence; ``isError`` true
    2     no envelope: a protocol error carrying the command's usage sentence
    else  no envelope: a fault, since this server watches no signals
    ====  =====================================================================

    A command that answered with no row stream and no Refusal — it stopped before it
    looked — is a protocol error carrying what it said on stderr, the sentence a
    person at a terminal would have read; only a command that said nothing at all is
    a fault of this server's.

    ``dry_run`` is what an ``OUTCOME`` call asked for, read only when the command
    wrote no terminal row to say it.
    """
    shape = tool.exits.of(answer.exit).shape
    if shape is Shape.USAGE:
        said = answer.usage.rstrip("\n")
        if not said:
            raise _fault(f"the command exited {answer.exit} and gave no reason")
        raise ProtocolError(said)
    if shape is Shape.FAULT:
        raise _fault(f"the command exited {answer.exit}, an exit code no envelope answers")
    structured, kinds = _structured(tool, answer, dry_run)
    if shape is Shape.REFUSAL:
        rendering = answer.refusal or answer.rendering
        if not rendering:
            raise _fault("the command refused and rendered no Refusal")
        return Envelope((TextBlock(refusal_text(rendering)),), structured, True)
    if structured is None:
        said = _said(answer)
        if not said:
            raise _fault(f"the command exited {answer.exit}, opened no row stream and said nothing")
        raise ProtocolError(said)
    text = _answer_text(tool, answer, structured, kinds)
    if tool.reading is Reading.WHOLE_RENDERING:
        structured = attrs.evolve(structured, rendering=text)
    return Envelope((TextBlock(text),), structured, shape is Shape.ERROR_ANSWER)


# --- reading back and rendering ---


def envelope_from_wire(result: bytes) -> Envelope:
    """A ``tools/call`` result read back off the wire, each row kept as its bytes.

    The structured half is read closed: a member this surface never writes is a
    member that reached the wire from somewhere else, and is refused.
    """
    text = result.decode()
    members = dict(object_spans(text))
    if "content" not in members:
        raise SyntaxFault("the result carries no content")
    blocks = []
    for start, end in array_spans(text, members["content"][0]):
        block = orjson.loads(text[start:end])
        if not isinstance(block, dict) or block.get("type") != "text" or not isinstance(block.get("text"), str):
            raise SyntaxFault(f"the content block {text[start:end]} is not a text block")
        blocks.append(TextBlock(block["text"]))
    is_error = False
    if "isError" in members:
        is_error = orjson.loads(text[slice(*members["isError"])]) is True
    structured = None
    if "structuredContent" in members:
        structured = _structured_from_wire(text, members["structuredContent"][0])
    return Envelope(tuple(blocks), structured, is_error)


def _structured_from_wire(text: str, at: int) -> Structured:
    read: dict[str, object] = {}
    rows: tuple[bytes, ...] = ()
    truncated = b"null"
    for key, (start, end) in object_spans(text, at):
        if key == "rows":
            rows = tuple(text[s:e].encode() for s, e in array_spans(text, start))
        elif key == "truncated":
            truncated = text[start:end].encode()
        elif key in ("outcome", "run_id", "dry_run", "rendering"):
            read[key] = orjson.loads(text[start:end])
        else:
            raise SyntaxFault(f"structuredContent carries {key!r}, which this surface never writes")
    outcome, run_id, dry_run, rendering = (read.get(k) for k in ("outcome", "run_id", "dry_run", "rendering"))
    return Structured(
        rows=rows,
        truncated=truncated,
        outcome=outcome if isinstance(outcome, str) else None,
        run_id=run_id if isinstance(run_id, str) else None,
        dry_run=dry_run if isinstance(dry_run, bool) else None,
        rendering=rendering if isinstance(rendering, str) else None,
    )


def render_envelope_golden(envelope: Envelope) -> str:
    """The envelope in the layout of the corpus's ``envelope.golden`` files.

    Text is written as compact JSON with HTML characters left raw; rows are written
    exactly as they are held, which for an envelope read off the wire is the bytes
    that arrived.
    """
    lines = ["{", '  "content": [']
    blocks = [
        f'    {{"type":{golden_string(block.type)},"text":{golden_string(block.text)}}}' for block in envelope.content
    ]
    lines.append(",\n".join(blocks))
    structured = envelope.structured
    if structured is None:
        lines.append("  ],")
    else:
        lines += ["  ],", '  "structuredContent": {']
        if structured.outcome is not None:
            lines.append(f'    "outcome": {golden_string(structured.outcome)},')
            if structured.run_id is not None:
                lines.append(f'    "run_id": {golden_string(structured.run_id)},')
            lines.append(f'    "dry_run": {"true" if structured.dry_run else "false"},')
        if structured.rendering:
            lines.append(f'    "rendering": {golden_string(structured.rendering)},')
        if structured.rows:
            lines.append('    "rows": [')
            lines.append(",\n".join(f"      {row.decode()}" for row in structured.rows))
            lines.append("    ],")
        else:
            lines.append('    "rows": [],')
        lines += [f'    "truncated": {structured.truncated.decode()}', "  },"]
    lines += [f'  "isError": {"true" if envelope.is_error else "false"}', "}"]
    return "\n".join(lines) + "\n"

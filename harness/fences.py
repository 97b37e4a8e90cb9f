"""The rules that hold the corpus as a whole, read from the checked-in files.

Each fence walks the corpus and answers :class:`Judged`: how many things it held
the rule over, and every violation found. They read goldens rather than drive
anything, so a case added later is judged by having been written. A fence that
judged nothing held vacuously, and the caller decides what that means (the test
suite reports it as skipped rather than passed).

The two pairing fences are the point of having two surfaces in one corpus: an MCP
case ``mcp/<tool>/<case>`` is the same invocation as the argv case
``<command>/<case>``, so its rows are that twin's ``--json`` rows less the terminal
row, and its protocol error is the sentence the twin wrote on stderr.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import attrs
import orjson

from harness import case as case_module
from harness.case import BRANCH_GOLDENS, CLI_GOLDENS, MCP_GOLDENS, Case
from harness.fault import CaseFault
from hyper.cli.tree import all_names

TOOL_COMMANDS: Final = {"run_show": "show"}
"""Tools whose name is not their command's; every other tool is spelled as its command."""

TOOLS_GOLDEN: Final = "mcp/tools.golden"
TOOLS_LIST_GOLDEN: Final = "mcp/tools-list-2025-06-18.golden"
"""The ``tools/list`` frame at the protocol version its name states: like ``tools.golden``, no case."""
"""The one golden that belongs to no case: what ``tools/list`` publishes."""

USAGE_DIR: Final = "usage"
"""Where cases live whose first word is no command at all (bare ``hyper``, a typo)."""

TERMINAL_TYPES: Final = frozenset({"result", "outcome"})
REFUSAL_OPENING: Final = "refused: "


@attrs.frozen
class Judged:
    judged: int
    violations: tuple[str, ...]


@attrs.frozen
class _Read:
    """A case with its call or argv read; ``fault`` where the case cannot be read."""

    case: Case
    argv: tuple[str, ...] | None
    call: case_module.ToolCall | None
    fault: str | None


def _read_all(root: Path) -> list[_Read]:
    read: list[_Read] = []
    for case in case_module.discover(root):
        try:
            inputs = case_module.read(case)
        except CaseFault as fault:
            read.append(_Read(case, None, None, str(fault)))
            continue
        read.append(_Read(case, inputs.argv, inputs.call, None))
    return read


def _held(case: Case, name: str) -> bytes | None:
    path = case.dir / name
    return path.read_bytes() if path.is_file() else None


def _walk_files(root: Path) -> Iterator[Path]:
    for here, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            yield Path(here) / name


def every_case_reads(root: Path) -> Judged:
    """Every case's inputs are coherent: no typo, no contradiction, nothing ignored."""
    read = _read_all(root)
    return Judged(len(read), tuple(f"{r.case.name}: {r.fault}" for r in read if r.fault))


def every_golden_is_driven(root: Path) -> Judged:
    """Each golden sits in a case of the surface it answers; ``mcp/tools.golden`` aside."""
    root = root.resolve()
    kinds = {r.case.dir: ("call" if r.case.is_call else "argv") for r in _read_all(root)}
    violations: list[str] = []
    judged = 0
    for path in _walk_files(root):
        if not path.name.endswith(".golden"):
            continue
        rel = path.relative_to(root).as_posix()
        if rel in (TOOLS_GOLDEN, TOOLS_LIST_GOLDEN):
            continue
        judged += 1
        kind = kinds.get(path.parent)
        if kind is None:
            violations.append(f"{rel} sits in no case; it needs an argv or a call beside it")
        elif path.name in CLI_GOLDENS and kind != "argv":
            violations.append(f"{rel} answers an argv and sits beside a call")
        elif path.name in MCP_GOLDENS and kind != "call":
            violations.append(f"{rel} answers a call and sits beside an argv")
        elif path.name not in (*CLI_GOLDENS, *MCP_GOLDENS, *BRANCH_GOLDENS):
            violations.append(f"{rel} is no golden the harness compares")
    return Judged(judged, tuple(violations))


def every_argv_case_holds_its_three(root: Path) -> Judged:
    """stdout, stderr and exit are all checked in, empty ones included: nothing is implicit."""
    violations: list[str] = []
    judged = 0
    for r in _read_all(root):
        if r.case.is_call:
            continue
        judged += 1
        missing = [name for name in CLI_GOLDENS if not (r.case.dir / name).is_file()]
        if missing:
            violations.append(f"{r.case.name} lacks {', '.join(missing)}")
        exit_golden = _held(r.case, "exit.golden")
        if exit_golden is not None and not _is_exit_line(exit_golden):
            violations.append(f"{r.case.name}: exit.golden is {exit_golden!r}; it is a code and a newline")
    return Judged(judged, tuple(violations))


def _is_exit_line(data: bytes) -> bool:
    return data.endswith(b"\n") and data[:-1].isdigit()


def a_call_case_holds_one_golden(root: Path) -> Judged:
    """Exactly one of envelope.golden and error.golden: what came back, and nothing stale."""
    violations: list[str] = []
    judged = 0
    for r in _read_all(root):
        if not r.case.is_call:
            continue
        judged += 1
        held = [name for name in MCP_GOLDENS if (r.case.dir / name).is_file()]
        if len(held) != 1:
            violations.append(f"{r.case.name} holds {held or 'neither'}; a call is answered one way")
    return Judged(judged, tuple(violations))


def no_call_names_a_repository(root: Path) -> Judged:
    """No tool argument names a repository or directory; the environment does that."""
    violations: list[str] = []
    judged = 0
    for r in _read_all(root):
        if r.call is None:
            continue
        judged += 1
        arguments = orjson.loads(r.call.arguments)
        if not isinstance(arguments, dict):
            continue
        for key in arguments:
            if "repo" in key or "dir" in key:
                violations.append(f"{r.case.name} calls {r.call.tool} with {key!r}; no tool takes a repository")
    return Judged(judged, tuple(violations))


def a_case_sits_under_its_command(root: Path) -> Judged:
    """A case's directory, or its parent, is named for what it exercises.

    An argv case sits under its command word (``store-<verb>`` also for ``store``);
    one whose first word is no command of the tree, or that has none, sits under
    ``usage/``. A call case sits at ``mcp/<tool>/<case>``.
    """
    commands = frozenset(all_names())
    violations: list[str] = []
    judged = 0
    for r in _read_all(root):
        parts = r.case.name.split("/")
        judged += 1
        if r.call is not None:
            if len(parts) != 3 or parts[0] != "mcp" or parts[1] != r.call.tool:
                violations.append(f"{r.case.name} calls {r.call.tool}; it belongs at mcp/{r.call.tool}/<case>")
            continue
        if r.argv is None:
            continue
        word = r.argv[0] if r.argv else ""
        names = {word} if word in commands else {USAGE_DIR}
        if word == "store" and len(r.argv) > 1:
            names.add(f"store-{r.argv[1]}")
        here = {parts[-1], parts[-2] if len(parts) > 1 else ""}
        if not names & here:
            want = " or ".join(sorted(names))
            violations.append(f"{r.case.name} runs `hyper {' '.join(r.argv)}`; it belongs in a directory named {want}")
    return Judged(judged, tuple(violations))


def no_git_and_no_actual_files(root: Path) -> Judged:
    """Fixtures are built at run time, and ``.actual`` files are a foreign-corpus tool."""
    root = root.resolve()
    violations: list[str] = []
    judged = 0
    for here, dirs, files in os.walk(root):
        judged += 1
        for name in (*dirs, *files):
            rel = (Path(here) / name).relative_to(root).as_posix()
            if name == ".git":
                violations.append(f"{rel} is checked in; a case's repository is built in a temporary directory")
            elif name.endswith(".actual"):
                violations.append(f"{rel} is a --write-actual leftover")
    return Judged(judged, tuple(violations))


def every_subtree_has_a_readme(root: Path) -> Judged:
    root = root.resolve()
    violations: list[str] = []
    subtrees = sorted(entry for entry in root.iterdir() if entry.is_dir())
    if not (root / "README.md").is_file():
        violations.append("the corpus root has no README.md")
    for subtree in subtrees:
        if not (subtree / "README.md").is_file():
            violations.append(f"{subtree.name}/ has no README.md saying what its cases are for")
    return Judged(len(subtrees) + 1, tuple(violations))


def stdout_carries_only_the_answer(root: Path) -> Judged:
    """Past exit 0 and 1, stdout is empty unless it ends in a Run's outcome."""
    violations: list[str] = []
    judged = 0
    for r in _read_all(root):
        exit_golden = _held(r.case, "exit.golden")
        if exit_golden is None or not _is_exit_line(exit_golden) or int(exit_golden) in (0, 1):
            continue
        judged += 1
        stdout = _held(r.case, "stdout.golden") or b""
        if stdout and not _ends_in_outcome(stdout):
            violations.append(f"{r.case.name} exits {int(exit_golden)} and writes on stdout")
    return Judged(judged, tuple(violations))


def _ends_in_outcome(stdout: bytes) -> bool:
    last = stdout.rstrip(b"\n").split(b"\n")[-1]
    try:
        row = orjson.loads(last)
    except orjson.JSONDecodeError:
        return any(last.startswith(f"{word} · ".encode()) for word in ("completed", "refused", "failed"))
    return isinstance(row, dict) and row.get("type") == "outcome"


def a_json_stream_is_typed_rows_ending_in_its_terminal_row(root: Path) -> Judged:
    violations: list[str] = []
    judged = 0
    for r in _read_all(root):
        if r.argv is None or "--json" not in r.argv:
            continue
        stdout = _held(r.case, "stdout.golden")
        if not stdout:
            continue
        judged += 1
        rows = stdout.rstrip(b"\n").split(b"\n")
        for number, line in enumerate(rows, 1):
            if not line.startswith(b'{"type":'):
                violations.append(f"{r.case.name}: line {number} does not open with its type")
        if _row_type(rows[-1]) not in TERMINAL_TYPES:
            violations.append(f"{r.case.name}: the stream does not end in its terminal row")
    return Judged(judged, tuple(violations))


def _row_type(line: bytes) -> str | None:
    try:
        row = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return row.get("type") if isinstance(row, dict) else None


def envelope_goldens_are_envelopes(root: Path) -> Judged:
    """Each envelope.golden parses, has a content block, and keeps the structured-half rules."""
    violations: list[str] = []
    judged = 0
    for r in _read_all(root):
        held = _held(r.case, "envelope.golden")
        if held is None:
            continue
        judged += 1
        name = r.case.name
        try:
            envelope = orjson.loads(held)
        except orjson.JSONDecodeError as error:
            violations.append(f"{name}: envelope.golden is not one JSON value: {error}")
            continue
        if not isinstance(envelope, dict) or set(envelope) - {"content", "structuredContent", "isError"}:
            violations.append(f"{name}: envelope.golden carries members an envelope does not have")
            continue
        if not envelope.get("content"):
            violations.append(f"{name}: the envelope carries no content block")
        if not isinstance(envelope.get("isError"), bool):
            violations.append(f"{name}: isError is not written")
        half = envelope.get("structuredContent")
        if half is None:
            if envelope.get("isError") is not True:
                violations.append(f"{name}: an ordinary return with no structured half")
            continue
        if not isinstance(half, dict):
            violations.append(f"{name}: structuredContent is not an object")
            continue
        if "truncated" not in half:
            violations.append(f"{name}: the structured half carries no truncated member")
        if ("outcome" in half) != ("dry_run" in half):
            violations.append(f"{name}: outcome and dry_run are written together or not at all")
        if "run_id" in half and "outcome" not in half:
            violations.append(f"{name}: run_id without an outcome")
    return Judged(judged, tuple(violations))


def twin_of(case_name: str) -> str | None:
    """``mcp/<tool>/<case>`` → ``<command>/<case>``; ``None`` for a case not under mcp/."""
    parts = case_name.split("/")
    if len(parts) != 3 or parts[0] != "mcp":
        return None
    return f"{TOOL_COMMANDS.get(parts[1], parts[1])}/{parts[2]}"


def _envelope(case: Case) -> Mapping[str, Any] | None:
    held = _held(case, "envelope.golden")
    if held is None:
        return None
    try:
        value = orjson.loads(held)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _lines(data: bytes) -> list[bytes]:
    return data.rstrip(b"\n").split(b"\n") if data else []


def an_envelope_is_the_stream_less_its_terminal_row(root: Path) -> Judged:
    """Rows in order, values and key order equal to the ``--json`` twin's, terminal row dropped.

    The twin is ``<command>/<case>-json``, or ``<command>/<case>`` where that case
    itself runs with ``--json``. The truncation marker is held too, member by
    member, except its ``hint``: the one wording that differs, naming arguments on
    this surface and flags on the terminal.
    """
    streams = {r.case.name: r for r in _read_all(root) if r.argv is not None and "--json" in r.argv}
    violations: list[str] = []
    judged = 0
    for r in _read_all(root):
        envelope = _envelope(r.case)
        twin = twin_of(r.case.name)
        if envelope is None or twin is None:
            continue
        stream = streams.get(f"{twin}-json") or streams.get(twin)
        if stream is None:
            continue
        judged += 1
        half = envelope.get("structuredContent")
        half = half if isinstance(half, dict) else {}
        carried = half.get("rows")
        carried = carried if isinstance(carried, list) else []
        written = _lines(_held(stream.case, "stdout.golden") or b"")
        if not written:
            if carried:
                violations.append(f"{r.case.name} carries rows and {stream.case.name} wrote no stream")
            elif envelope.get("isError") is not True:
                violations.append(f"{r.case.name} answers, and {stream.case.name} declined with no stream")
            continue
        terminal = written.pop()
        if _row_type(terminal) not in TERMINAL_TYPES:
            violations.append(f"{stream.case.name} does not end in a terminal row")
            continue
        if len(carried) != len(written):
            violations.append(f"{r.case.name} carries {len(carried)} rows and {stream.case.name} writes {len(written)}")
            continue
        for number, (got, line) in enumerate(zip(carried, written, strict=True), 1):
            want = orjson.loads(line)
            if not isinstance(got, dict) or got != want or list(got) != list(want):
                shown = orjson.dumps(got).decode()
                violations.append(f"{r.case.name}: row {number} is {shown}; {stream.case.name} writes {line.decode()}")
        violations.extend(_truncation(r.case.name, stream.case.name, half.get("truncated"), orjson.loads(terminal)))
    return Judged(judged, tuple(violations))


def _truncation(name: str, twin: str, lifted: Any, terminal: Mapping[str, Any]) -> list[str]:
    if "truncated" not in terminal:
        return [] if lifted is None else [f"{name} carries truncated {lifted!r}; {twin}'s terminal row carries none"]
    written = terminal["truncated"]
    if not (isinstance(lifted, dict) and isinstance(written, dict)):
        return [] if lifted == written else [f"{name} carries truncated {lifted!r}; {twin} writes {written!r}"]
    found: list[str] = []
    tool_hint, flag_hint = lifted.get("hint"), written.get("hint")
    if (tool_hint is None) != (flag_hint is None):
        found.append(f"{name}: the hint is written on both surfaces or on neither")
    elif isinstance(tool_hint, str) and "--" in tool_hint:
        found.append(f"{name}: its hint {tool_hint!r} names a flag; a tool's hint names its arguments")
    rest = {k: v for k, v in lifted.items() if k != "hint"}
    if rest != {k: v for k, v in written.items() if k != "hint"}:
        found.append(f"{name} carries the marker {lifted!r}; {twin} writes {written!r}")
    return found


def an_error_golden_is_the_twins_stderr(root: Path) -> Judged:
    """A protocol error carries the twin's usage sentence; a Refusal block opens with a corpus Refusal."""
    read = _read_all(root)
    by_name = {r.case.name: r for r in read}
    refusals = [
        text
        for r in read
        if (text := (_held(r.case, "stderr.golden") or b"").decode("utf-8", "replace").rstrip("\n")).startswith(
            REFUSAL_OPENING
        )
    ]
    violations: list[str] = []
    judged = 0
    for r in read:
        if not r.case.is_call:
            continue
        error = _held(r.case, "error.golden")
        twin = twin_of(r.case.name)
        if error is not None:
            partner = by_name.get(twin) if twin else None
            if partner is None:
                continue  # a malformed call: no command ran, so no command line is its twin
            judged += 1
            wrote = (_held(partner.case, "stderr.golden") or b"").rstrip(b"\n")
            if error.rstrip(b"\n") != wrote:
                violations.append(f"{r.case.name}: error.golden is {error!r}; {twin} wrote {wrote!r}")
            continue
        envelope = _envelope(r.case)
        content = envelope.get("content") if envelope else None
        text = content[0].get("text", "") if content and isinstance(content[0], dict) else ""
        if not isinstance(text, str) or not text.startswith(REFUSAL_OPENING):
            continue
        judged += 1
        if not any(text.startswith(refusal) for refusal in refusals):
            violations.append(f"{r.case.name}: its Refusal text opens with no Refusal any case writes on stderr")
    return Judged(judged, tuple(violations))


def a_tool_leaves_what_its_command_leaves(root: Path) -> Judged:
    """A call case's branch, tree and remote goldens equal its argv twin's, byte for byte.

    The twin is ``<command>/<case>``, else its ``-json`` form: a tool call and the command
    line it builds must leave the world in one state, whichever surface asked.
    """
    read = _read_all(root)
    by_name = {r.case.name: r for r in read}
    violations: list[str] = []
    judged = 0
    for r in read:
        twin = twin_of(r.case.name) if r.case.is_call else None
        if twin is None:
            continue
        partner = by_name.get(twin) or by_name.get(f"{twin}-json")
        for golden in ("store.golden", "tree.golden", "remote.golden"):
            mine = _held(r.case, golden)
            if mine is None:
                continue
            judged += 1
            theirs = _held(partner.case, golden) if partner else None
            if theirs is None:
                violations.append(f"{r.case.name}: holds {golden} and no argv twin holds one to match")
            elif theirs != mine:
                violations.append(f"{r.case.name}: {golden} differs from its argv twin's")
    return Judged(judged, tuple(violations))


FENCES: Final[tuple[tuple[str, Callable[[Path], Judged]], ...]] = (
    ("every case reads", every_case_reads),
    ("every golden is driven", every_golden_is_driven),
    ("every argv case holds its three", every_argv_case_holds_its_three),
    ("a call case holds one golden", a_call_case_holds_one_golden),
    ("no call names a repository", no_call_names_a_repository),
    ("a case sits under its command", a_case_sits_under_its_command),
    ("no .git and no .actual", no_git_and_no_actual_files),
    ("every subtree has a README", every_subtree_has_a_readme),
    ("stdout carries only the answer", stdout_carries_only_the_answer),
    ("a --json stream ends in its terminal row", a_json_stream_is_typed_rows_ending_in_its_terminal_row),
    ("envelope goldens are envelopes", envelope_goldens_are_envelopes),
    ("an envelope is the stream less its terminal row", an_envelope_is_the_stream_less_its_terminal_row),
    ("an error golden is the twin's stderr", an_error_golden_is_the_twins_stderr),
    ("a tool leaves what its command leaves", a_tool_leaves_what_its_command_leaves),
)
"""Every fence, by the name a test reports it under."""

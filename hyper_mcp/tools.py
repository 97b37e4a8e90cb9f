"""hyper's thirteen tools: one :class:`~hyper_mcp.table.Table`, schemas from ``tools.json``.

The published half of every tool — name, title, description, annotations and both
schemas — is data (``tools.json``) rather than built from Python types, because it
is a contract: closed objects, enums and member order that inference would loosen,
and that a client writes its calls against. It is the single source: the decoder's
member kinds are derived from the input schemas (:func:`~hyper_mcp.table.member_kinds`).

What is code is each tool's command line and its reading of the Answer. The exit
codes are not known here at all: ``hyper_mcp`` never imports ``hyper``, so the
command layer hands its mapping in (``hyper.cli.mcp``).

The file holds the tools in the order the surface groups them — Discovery, the
repository, Authoring, Execution, Inspection, Lifecycle — which is the order they
are registered in. ``tools/list`` publishes them by name instead, as a client
receives them from the reference server.

Flags always precede a ``--`` and every positional follows it, so a name spelled like
a flag (``--json``) stays the name it is. A flag's value is its own argv element.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import attrs
import orjson

from hyper_mcp.rawjson import Number, Value, spelled
from hyper_mcp.table import Annotations, Argv, Exits, Read, Reading, Refused, Table, Tool


def _names_something(argument: str, value: str, noun: str) -> str:
    if value == "":
        raise Refused(f"{argument} is empty, and an empty string names no {noun}")
    return value


def _flag(flag: str, argument: str, value: str | None, noun: str) -> list[str]:
    """An optional argument as a flag and its value; absent is no flag at all."""
    if value is None:
        return []
    return [flag, _names_something(argument, value, noun)]


def _limit(value: int | None) -> list[str]:
    return [] if value is None else ["--limit", str(value)]


def _no_arguments(command: str) -> Argv:
    return lambda read: [command]


def _provider(read: Read) -> list[str]:
    return ["provider", "--", _names_something("name", read["name"], "Provider")]


def _operation(read: Read) -> list[str]:
    provider = _names_something("provider", read["provider"], "Provider")
    operation = _names_something("operation", read["operation"], "Operation")
    return ["operation", "--", provider, operation]


def _check(read: Read) -> list[str]:
    paths: list[str] = read["paths"] or []
    for index, path in enumerate(paths):
        _names_something(f"paths[{index}]", path, "path")
    return ["check", "--", *paths] if paths else ["check"]


def _review(read: Read) -> list[str]:
    return ["review", "--", _names_something("artefact", read["artefact"], "artefact")]


def _run(read: Read) -> list[str]:
    procedure = _names_something("procedure", read["procedure"], "Procedure")
    argv = ["run"]
    if read["dry_run"]:
        argv.append("--dry-run")
    argv += _flag("--secret-out", "secret_sink", read["secret_sink"], "path")
    return [*argv, "--", procedure]


def _input_text(name: str, value: Value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Number):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    raise Refused(
        f"inputs {name}: {spelled(value)} cannot be an input's value; "
        "an input holds a single scalar — a string, a number or a boolean"
    )


def _supplied_inputs(inputs: dict[str, Value] | None) -> list[str]:
    """One ``--input name=value`` per input, by name, so one call spells one line."""
    argv: list[str] = []
    for name in sorted(inputs or {}):
        if name == "":
            raise Refused("inputs has a member named by the empty string, and an empty string names no input")
        if "=" in name:
            raise Refused(
                f"inputs {name}: an input name containing = cannot be written as one --input name=value "
                "pair, and that pair is how this tool passes an input on"
            )
        argv += ["--input", f"{name}={_input_text(name, (inputs or {})[name])}"]
    return argv


def _probe(read: Read) -> list[str]:
    provider = _names_something("provider", read["provider"], "Provider")
    operation = _names_something("operation", read["operation"], "Operation")
    argv = ["probe", *_supplied_inputs(read["inputs"])]
    if read["response"]:
        argv += ["--response", read["response"]]
    return [*argv, "--", provider, operation]


def _runs(read: Read) -> list[str]:
    return [
        "runs",
        *_flag("--since", "since", read["since"], "instant"),
        *_flag("--procedure", "procedure", read["procedure"], "Procedure"),
        *_flag("--target", "target", read["target"], "Target"),
        *_flag("--outcome", "outcome", read["outcome"], "outcome"),
        *_limit(read["limit"]),
    ]


def _run_show(read: Read) -> list[str]:
    run_id = _names_something("run_id", read["run_id"], "Run")
    return ["show", *(["--expansion"] if read["expansion"] else []), "--", run_id]


def _between(ends: list[str] | None) -> list[str]:
    if ends is None:
        return []
    if len(ends) != 2:
        raise Refused(
            f"between needs exactly two Run ids, the baseline then the subject, and got {len(ends)}: "
            "a window has two ends"
        )
    for index, end in enumerate(ends):
        _names_something(f"between[{index}]", end, "Run")
    return ["--between", *ends]


def _changes(read: Read) -> list[str]:
    # The positional is checked first and written last, where the command takes it.
    procedure: str | None = read["procedure"]
    if procedure is not None:
        _names_something("procedure", procedure, "Procedure")
    argv = [
        "changes",
        *_flag("--since", "since", read["since"], "instant"),
        *_between(read["between"]),
        *_flag("--subject", "subject", read["subject"], "Run"),
        *_flag("--target", "target", read["target"], "Target"),
        *_flag("--kind", "record_kind", read["record_kind"], "Record type"),
        *_limit(read["limit"]),
    ]
    return argv if procedure is None else [*argv, "--", procedure]


def _records(read: Read) -> list[str]:
    return [
        "records",
        *_flag("--target", "target", read["target"], "Target"),
        *_flag("--definition", "definition", read["definition"], "Definition"),
        *_flag("--name", "name", read["name"], "Record"),
        *(["--history"] if read["history"] else []),
        *_flag("--since", "since", read["since"], "instant"),
        *_limit(read["limit"]),
    ]


@attrs.frozen
class _Command:
    """The code half of one tool: its command line, its reading, its narrowing flags."""

    argv: Argv
    reading: Reading = Reading.SUMMARY
    flags: Mapping[str, str] = attrs.field(factory=dict)


_COMMANDS: Final[Mapping[str, _Command]] = {
    "providers": _Command(_no_arguments("providers")),
    "provider": _Command(_provider),
    "operation": _Command(_operation),
    "targets": _Command(_no_arguments("targets")),
    # The problems are what an agent must repair, so the table goes under the line.
    "check": _Command(_check, Reading.ROWS_BENEATH),
    # The page is what a human will be handed.
    "review": _Command(_review, Reading.WHOLE_RENDERING),
    "run": _Command(_run, Reading.OUTCOME),
    "probe": _Command(_probe),
    "runs": _Command(
        _runs,
        Reading.LOCATION_BENEATH,
        {"--since": "since", "--procedure": "procedure", "--target": "target", "--outcome": "outcome"},
    ),
    "run_show": _Command(_run_show),
    "changes": _Command(_changes, flags={"--since": "since", "--target": "target", "--kind": "record_kind"}),
    "records": _Command(
        _records,
        Reading.LOCATION_BENEATH,
        {"--target": "target", "--definition": "definition", "--name": "name", "--since": "since"},
    ),
    "project": _Command(_no_arguments("project")),
}


@functools.cache
def _declared() -> tuple[Mapping[str, Any], ...]:
    return tuple(orjson.loads(Path(__file__).with_name("tools.json").read_bytes()))


def _annotations(wire: Mapping[str, bool]) -> Annotations:
    return Annotations(
        read_only=wire["readOnlyHint"],
        destructive=wire["destructiveHint"],
        idempotent=wire["idempotentHint"],
        open_world=wire["openWorldHint"],
    )


def hyper_table(exits: Exits) -> Table:
    """The thirteen tools in group order, each mapping exit codes as ``exits`` says."""
    return Table(
        Tool(
            name=entry["name"],
            title=entry["title"],
            description=entry["description"],
            input_schema=entry["inputSchema"],
            output_schema=entry["outputSchema"],
            annotations=_annotations(entry["annotations"]),
            argv=_COMMANDS[entry["name"]].argv,
            reading=_COMMANDS[entry["name"]].reading,
            exits=exits,
            flags=_COMMANDS[entry["name"]].flags,
        )
        for entry in _declared()
    )


def _indented(schema: Mapping[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False)


def render_tools_golden(tools: tuple[Tool, ...]) -> str:
    """The tool set in the format of the reference's ``tools.golden``.

    One block per tool, in the order given: ``=== <name>``, the description, then
    each schema indented by two spaces under ``--- input`` and ``--- output``. Titles
    and annotations are not in it: the reference's golden has neither.
    """
    return "".join(
        f"=== {tool.name}\n{tool.description}\n"
        f"--- input\n{_indented(tool.input_schema)}\n"
        f"--- output\n{_indented(tool.output_schema)}\n"
        for tool in tools
    )

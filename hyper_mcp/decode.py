"""Tool arguments read strictly and turned into the command line their command takes.

A tool is a schema and an argv: everything a tool does is build the line a person
would have typed, so a guardrail, a Refusal or a row cannot differ between the two
surfaces. Reading happens in two passes.

1. The arguments object is read member by member against the tool's declared
   members: an unknown member, or a value of the wrong JSON type, is refused. This is
   where ``additionalProperties: false`` and each member's ``type`` are made true —
   the server registers its tools at the SDK's low level, so nothing else checks them.
2. The command line is built, and the claims the schema makes about *values* are made
   true on the way: a name that is the empty string names nothing and is refused,
   ``between`` has two ends, an input is one scalar. What a value *means* — an
   unknown name, an enum member, a limit of zero, two arguments the command will not
   take together — is left to the command, whose usage sentence comes back instead.

``null`` is read as the reference reads it: on an optional member it is the member
left out, and on a required one it leaves the member at its empty value, so it meets
the same empty-string refusal a missing member does.

Flags always precede a ``--`` and every positional follows it, so a name spelled like
a flag (``--json``) stays the name it is. A flag's value is its own argv element.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from hyper_mcp.errors import ProtocolError
from hyper_mcp.rawjson import Members, Number, SyntaxFault, Value, parse, spelled

Arguments = bytes | Value
"""Tool arguments: raw JSON bytes, or a value already read with its numbers' spelling.

Only bytes are raw text: a ``str`` is the JSON string a caller sent as its arguments,
which is refused as no object rather than parsed a second time."""

_INT64_MAX: Final = 2**63 - 1
_INT64_MIN: Final = -(2**63)


@attrs.frozen
class Decoded:
    """A call's command line, and the one fact about the call the envelope needs.

    ``dry_run`` is the rehearsal marker a ``run`` call named, and None for every
    other tool: a Run whose command wrote no terminal row still reports whether it
    was a rehearsal, and the only place left to read that is the call.
    """

    argv: tuple[str, ...]
    dry_run: bool | None = None


class _Refused(Exception):
    """A sentence about the arguments, before the tool's name is put in front of it."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


# --- pass 1: the members, typed ---

_REQUIRED_STRING: Final = "required string"
_OPTIONAL_STRING: Final = "optional string"
_BOOLEAN: Final = "boolean"
_LIMIT: Final = "limit"
_STRINGS: Final = "strings"
_INPUTS: Final = "inputs"

_DECLARED: Final[Mapping[str, Mapping[str, str]]] = {
    "providers": {},
    "provider": {"name": _REQUIRED_STRING},
    "operation": {"provider": _REQUIRED_STRING, "operation": _REQUIRED_STRING},
    "targets": {},
    "check": {"paths": _STRINGS},
    "review": {"artefact": _REQUIRED_STRING},
    "run": {"procedure": _REQUIRED_STRING, "dry_run": _BOOLEAN, "secret_sink": _OPTIONAL_STRING},
    "probe": {
        "provider": _REQUIRED_STRING,
        "operation": _REQUIRED_STRING,
        "response": _REQUIRED_STRING,
        "inputs": _INPUTS,
    },
    "runs": {
        "since": _OPTIONAL_STRING,
        "procedure": _OPTIONAL_STRING,
        "target": _OPTIONAL_STRING,
        "outcome": _OPTIONAL_STRING,
        "limit": _LIMIT,
    },
    "run_show": {"run_id": _REQUIRED_STRING, "expansion": _BOOLEAN},
    "changes": {
        "procedure": _OPTIONAL_STRING,
        "since": _OPTIONAL_STRING,
        "between": _STRINGS,
        "subject": _OPTIONAL_STRING,
        "target": _OPTIONAL_STRING,
        "record_kind": _OPTIONAL_STRING,
        "limit": _LIMIT,
    },
    "records": {
        "target": _OPTIONAL_STRING,
        "definition": _OPTIONAL_STRING,
        "name": _OPTIONAL_STRING,
        "history": _BOOLEAN,
        "since": _OPTIONAL_STRING,
        "limit": _LIMIT,
    },
    "project": {},
}
"""Each tool's members and how each is read. ``probe.response`` reads as a plain
string because an empty one is treated as absent rather than refused."""

_EMPTY: Final[Mapping[str, Any]] = {
    _REQUIRED_STRING: "",
    _OPTIONAL_STRING: None,
    _BOOLEAN: False,
    _LIMIT: None,
    _STRINGS: None,
    _INPUTS: None,
}


def _kind_of(value: Value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Number):
        return "a number"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _type_fault(path: str, wanted: str, value: Value) -> _Refused:
    return _Refused(f"arguments: {path} must be {wanted}, not {_kind_of(value)}")


def _read_limit(name: str, value: Number) -> int:
    text = value.text
    whole = text.lstrip("-").isdigit()
    number = int(text) if whole else None
    if number is None or not _INT64_MIN <= number <= _INT64_MAX:
        raise _Refused(f"arguments: {name} must be a whole number that fits in 64 bits, not {text}")
    return number


def _read_strings(name: str, value: list[Value]) -> list[str]:
    read: list[str] = []
    for index, item in enumerate(value):
        if item is None:
            read.append("")
        elif isinstance(item, str):
            read.append(item)
        else:
            raise _type_fault(f"{name}[{index}]", "a string", item)
    return read


def _read_member(name: str, how: str, value: Value, previous: Any) -> Any:
    """One member's value, or the value it leaves behind when it is ``null``."""
    if value is None:
        # A required string and a boolean keep what they held; everything else is
        # optional, and null is that option not taken.
        return previous if how in (_REQUIRED_STRING, _BOOLEAN) else None
    if how in (_REQUIRED_STRING, _OPTIONAL_STRING):
        if not isinstance(value, str):
            raise _type_fault(name, "a string", value)
        return value
    if how == _BOOLEAN:
        if not isinstance(value, bool):
            raise _type_fault(name, "a boolean", value)
        return value
    if how == _LIMIT:
        if not isinstance(value, Number):
            raise _type_fault(name, "a whole number", value)
        return _read_limit(name, value)
    if how == _STRINGS:
        if not isinstance(value, list):
            raise _type_fault(name, "an array of strings", value)
        return _read_strings(name, value)
    if not isinstance(value, Members):
        raise _type_fault(name, "an object", value)
    return value.last()


def _read_members(declared: Mapping[str, str], arguments: Value) -> dict[str, Any]:
    read = {name: _EMPTY[how] for name, how in declared.items()}
    if arguments is None:
        return read
    if not isinstance(arguments, Members):
        raise _Refused(f"arguments: must be a JSON object, not {_kind_of(arguments)}")
    for name, value in arguments.pairs:
        how = declared.get(name)
        if how is None:
            raise _Refused(f'arguments: this tool takes no argument named "{name}"')
        read[name] = _read_member(name, how, value, read[name])
    return read


# --- pass 2: the command line ---


def _names_something(argument: str, value: str, noun: str) -> str:
    if value == "":
        raise _Refused(f"{argument} is empty, and an empty string names no {noun}")
    return value


def _flag(flag: str, argument: str, value: str | None, noun: str) -> list[str]:
    """An optional argument as a flag and its value; absent is no flag at all."""
    if value is None:
        return []
    return [flag, _names_something(argument, value, noun)]


def _limit(value: int | None) -> list[str]:
    return [] if value is None else ["--limit", str(value)]


def _no_arguments(command: str) -> Callable[[dict[str, Any]], list[str]]:
    return lambda read: [command]


def _provider(read: dict[str, Any]) -> list[str]:
    return ["provider", "--", _names_something("name", read["name"], "Provider")]


def _operation(read: dict[str, Any]) -> list[str]:
    provider = _names_something("provider", read["provider"], "Provider")
    operation = _names_something("operation", read["operation"], "Operation")
    return ["operation", "--", provider, operation]


def _check(read: dict[str, Any]) -> list[str]:
    paths: list[str] = read["paths"] or []
    for index, path in enumerate(paths):
        _names_something(f"paths[{index}]", path, "path")
    return ["check", "--", *paths] if paths else ["check"]


def _review(read: dict[str, Any]) -> list[str]:
    return ["review", "--", _names_something("artefact", read["artefact"], "artefact")]


def _run(read: dict[str, Any]) -> list[str]:
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
    raise _Refused(
        f"inputs {name}: {spelled(value)} cannot be an input's value; "
        "an input holds a single scalar — a string, a number or a boolean"
    )


def _supplied_inputs(inputs: dict[str, Value] | None) -> list[str]:
    """One ``--input name=value`` per input, by name, so one call spells one line."""
    argv: list[str] = []
    for name in sorted(inputs or {}):
        if name == "":
            raise _Refused("inputs has a member named by the empty string, and an empty string names no input")
        if "=" in name:
            raise _Refused(
                f"inputs {name}: an input name containing = cannot be written as one --input name=value "
                "pair, and that pair is how this tool passes an input on"
            )
        argv += ["--input", f"{name}={_input_text(name, (inputs or {})[name])}"]
    return argv


def _probe(read: dict[str, Any]) -> list[str]:
    provider = _names_something("provider", read["provider"], "Provider")
    operation = _names_something("operation", read["operation"], "Operation")
    argv = ["probe", *_supplied_inputs(read["inputs"])]
    if read["response"]:
        argv += ["--response", read["response"]]
    return [*argv, "--", provider, operation]


def _runs(read: dict[str, Any]) -> list[str]:
    return [
        "runs",
        *_flag("--since", "since", read["since"], "instant"),
        *_flag("--procedure", "procedure", read["procedure"], "Procedure"),
        *_flag("--target", "target", read["target"], "Target"),
        *_flag("--outcome", "outcome", read["outcome"], "outcome"),
        *_limit(read["limit"]),
    ]


def _run_show(read: dict[str, Any]) -> list[str]:
    run_id = _names_something("run_id", read["run_id"], "Run")
    return ["show", *(["--expansion"] if read["expansion"] else []), "--", run_id]


def _between(ends: list[str] | None) -> list[str]:
    if ends is None:
        return []
    if len(ends) != 2:
        raise _Refused(
            f"between needs exactly two Run ids, the baseline then the subject, and got {len(ends)}: "
            "a window has two ends"
        )
    for index, end in enumerate(ends):
        _names_something(f"between[{index}]", end, "Run")
    return ["--between", *ends]


def _changes(read: dict[str, Any]) -> list[str]:
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


def _records(read: dict[str, Any]) -> list[str]:
    return [
        "records",
        *_flag("--target", "target", read["target"], "Target"),
        *_flag("--definition", "definition", read["definition"], "Definition"),
        *_flag("--name", "name", read["name"], "Record"),
        *(["--history"] if read["history"] else []),
        *_flag("--since", "since", read["since"], "instant"),
        *_limit(read["limit"]),
    ]


_BUILDERS: Final[Mapping[str, Callable[[dict[str, Any]], list[str]]]] = {
    "providers": _no_arguments("providers"),
    "provider": _provider,
    "operation": _operation,
    "targets": _no_arguments("targets"),
    "check": _check,
    "review": _review,
    "run": _run,
    "probe": _probe,
    "runs": _runs,
    "run_show": _run_show,
    "changes": _changes,
    "records": _records,
    "project": _no_arguments("project"),
}

FLAG_ARGUMENTS: Final[Mapping[str, Mapping[str, str]]] = {
    "runs": {"--since": "since", "--procedure": "procedure", "--target": "target", "--outcome": "outcome"},
    "changes": {"--since": "since", "--target": "target", "--kind": "record_kind"},
    "records": {"--target": "target", "--definition": "definition", "--name": "name", "--since": "since"},
}
"""Which argument each narrowing flag is, per tool: what a truncation hint names."""


def _value_of(arguments: Arguments) -> Value:
    if isinstance(arguments, bytes):
        if not arguments.strip():
            return None
        try:
            return parse(arguments)
        except SyntaxFault as fault:
            raise _Refused(f"arguments: not one JSON value ({fault})") from None
    return arguments


def decode(tool: str, arguments: Arguments) -> Decoded:
    """The command line one call builds, or the :class:`ProtocolError` refusing it.

    Missing, empty or ``null`` arguments read as ``{}``. Nothing but a
    ``ProtocolError`` leaves this function, whatever ``arguments`` holds.
    """
    declared = _DECLARED.get(tool)
    build = _BUILDERS.get(tool)
    if declared is None or build is None:
        raise ProtocolError.of_tool(tool, "this server has no tool by that name; tools/list names all thirteen")
    try:
        read = _read_members(declared, _value_of(arguments))
        argv = tuple(build(read))
    except _Refused as refused:
        raise ProtocolError.of_tool(tool, refused.sentence) from None
    return Decoded(argv=argv, dry_run=bool(read["dry_run"]) if tool == "run" else None)

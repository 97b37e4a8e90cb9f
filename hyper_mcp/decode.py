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

The first pass is the adapter's and is derived from each tool's input schema
(:func:`hyper_mcp.table.member_kinds`); the second is the tool's own ``argv``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from hyper_mcp.errors import ProtocolError
from hyper_mcp.rawjson import Members, Number, SyntaxFault, Value, parse, spelled
from hyper_mcp.table import (
    BOOLEAN,
    INTEGER,
    OPTIONAL_STRING,
    REQUIRED_STRING,
    SCALARS,
    STRINGS,
    Reading,
    Refused,
    Table,
)

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


_EMPTY: Final[Mapping[str, Any]] = {
    REQUIRED_STRING: "",
    OPTIONAL_STRING: None,
    BOOLEAN: False,
    INTEGER: None,
    STRINGS: None,
    SCALARS: None,
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


def _type_fault(path: str, wanted: str, value: Value) -> Refused:
    return Refused(f"arguments: {path} must be {wanted}, not {_kind_of(value)}")


def _read_limit(name: str, value: Number) -> int:
    text = value.text
    whole = text.lstrip("-").isdigit()
    number = int(text) if whole else None
    if number is None or not _INT64_MIN <= number <= _INT64_MAX:
        raise Refused(f"arguments: {name} must be a whole number that fits in 64 bits, not {text}")
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
        return previous if how in (REQUIRED_STRING, BOOLEAN) else None
    if how in (REQUIRED_STRING, OPTIONAL_STRING):
        if not isinstance(value, str):
            raise _type_fault(name, "a string", value)
        return value
    if how == BOOLEAN:
        if not isinstance(value, bool):
            raise _type_fault(name, "a boolean", value)
        return value
    if how == INTEGER:
        if not isinstance(value, Number):
            raise _type_fault(name, "a whole number", value)
        return _read_limit(name, value)
    if how == STRINGS:
        if not isinstance(value, list):
            raise _type_fault(name, "an array of strings", value)
        return _read_strings(name, value)
    if not isinstance(value, Members):
        raise _type_fault(name, "an object", value)
    return value.last()


MAX_STRING: Final = 64 * 1024
"""The longest string an argument may hold, in UTF-8 bytes. No name or path comes near
it, and a longer one would otherwise travel whole into the command's usage sentence."""

QUOTED: Final = 64
"""How much of a refused string its refusal quotes."""


def _too_long(text: str) -> bool:
    return len(text) > MAX_STRING // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_STRING


def _within_the_cap(path: str, value: Value) -> None:
    """Refuse any string, member name included, longer than :data:`MAX_STRING`, quoting its start."""
    if isinstance(value, str):
        if _too_long(value):
            raise Refused(
                f"arguments: {path} is longer than the {MAX_STRING} bytes a string may hold here; "
                f"it begins {spelled(value[:QUOTED])}"
            )
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _within_the_cap(f"{path}[{index}]", item)
    elif isinstance(value, Members):
        for name, item in value.pairs:
            if _too_long(name):
                raise Refused(
                    f"arguments: a member name is longer than the {MAX_STRING} bytes a string may hold here; "
                    f"it begins {spelled(name[:QUOTED])}"
                )
            _within_the_cap(name if path == "" else f"{path}.{name}", item)


def _read_members(declared: Mapping[str, str], arguments: Value) -> dict[str, Any]:
    read = {name: _EMPTY[how] for name, how in declared.items()}
    if arguments is None:
        return read
    if not isinstance(arguments, Members):
        raise Refused(f"arguments: must be a JSON object, not {_kind_of(arguments)}")
    _within_the_cap("", arguments)
    for name, value in arguments.pairs:
        how = declared.get(name)
        if how is None:
            raise Refused(f'arguments: this tool takes no argument named "{name}"')
        read[name] = _read_member(name, how, value, read[name])
    return read


def _value_of(arguments: Arguments) -> Value:
    if isinstance(arguments, bytes):
        if not arguments.strip():
            return None
        try:
            return parse(arguments)
        except SyntaxFault as fault:
            raise Refused(f"arguments: not one JSON value ({fault})") from None
    return arguments


_WORDS: Final = (
    "none",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
)


def _counted(count: int) -> str:
    return _WORDS[count] if count < len(_WORDS) else str(count)


def decode(table: Table, tool: str, arguments: Arguments) -> Decoded:
    """The command line one call builds, or the :class:`ProtocolError` refusing it.

    Missing, empty or ``null`` arguments read as ``{}``. Nothing but a
    ``ProtocolError`` leaves this function, whatever ``arguments`` holds.
    """
    entry = table.named(tool)
    if entry is None:
        raise ProtocolError.of_tool(
            tool, f"this server has no tool by that name; tools/list names all {_counted(len(table.tools))}"
        )
    try:
        read = _read_members(entry.kinds, _value_of(arguments))
        argv = tuple(entry.argv(read))
    except Refused as refused:
        raise ProtocolError.of_tool(tool, refused.sentence) from None
    executes = entry.reading is Reading.OUTCOME
    return Decoded(argv=argv, dry_run=bool(read.get("dry_run")) if executes else None)

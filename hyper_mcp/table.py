"""The tool table: everything the adapter knows about the CLI it serves, stated as values.

An argv CLI becomes an MCP server by writing one :class:`Table` of :class:`Tool`
entries. Each entry says what ``tools/list`` publishes (name, title, description,
schemas, annotations), how the arguments become a command line, which reading of the
command's :class:`~hyper_mcp.answer.Answer` its envelope takes, and how each exit
code maps to the envelope. Nothing in the adapter checks a tool's *name* to decide
any of this, so a table for another CLI needs no private name patched.

The namespace is checked once, at construction: two entries with one name are
refused, naming both. Exposure is default-deny — a command the table does not list
is not a tool.

Nothing here imports the SDK, so a CLI may build its table on every start-up.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import attrs
import orjson

Read = Mapping[str, Any]
"""A call's arguments after the first pass: every declared member, at its empty value
where the call left it out (see :func:`member_kinds`)."""

Argv = Callable[[Read], Sequence[str]]
"""How a tool's arguments become the command line, without the program name.

It may raise :class:`Refused` for a value the schema claims but JSON types cannot
say (an empty name, a pair that must have two ends)."""


class Refused(Exception):
    """An argument refused before any command runs; the adapter puts the tool's name in front."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class DuplicateTool(ValueError):
    """A table naming one tool twice: the refusal names both entries."""


@attrs.frozen
class Annotations:
    """MCP's four behaviour hints, every one stated.

    The protocol's defaults are not neutral — a hint left out reads as destructive
    and open-world — so an entry may not leave any of them to the default.
    """

    read_only: bool
    destructive: bool
    idempotent: bool
    open_world: bool

    def wire(self) -> dict[str, bool]:
        """The ``annotations`` member, hints in the order the specification lists them."""
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


READ_ONLY_CLOSED: Final = Annotations(read_only=True, destructive=False, idempotent=True, open_world=False)
"""A read of the local world only: what a host may approve without asking."""

READ_ONLY_OPEN: Final = Annotations(read_only=True, destructive=False, idempotent=True, open_world=True)
"""A read that reaches beyond the machine (a remote, a network API)."""


class Reading(enum.Enum):
    """Which reading of an Answer a tool's envelope takes: its text block, and whether it carries an outcome.

    * ``SUMMARY``: one line counting the rows by type.
    * ``ROWS_BENEATH``: that line, then the page the command drew (a table to act on).
    * ``LOCATION_BENEATH``: that line, then a sentence saying where the rows were looked for.
    * ``WHOLE_RENDERING``: the page itself, also carried as ``structuredContent.rendering``.
    * ``OUTCOME``: an execution — the outcome triple (``outcome``, ``run_id``,
      ``dry_run``) in the structured half, read from the terminal row or, where the
      command wrote none, from the exit code; the text is the outcome line.
    """

    SUMMARY = "summary"
    ROWS_BENEATH = "rows beneath"
    LOCATION_BENEATH = "location beneath"
    WHOLE_RENDERING = "whole rendering"
    OUTCOME = "outcome"

    @property
    def shows_page(self) -> bool:
        """Whether this reading's text carries the page the command drew."""
        return self in (Reading.ROWS_BENEATH, Reading.WHOLE_RENDERING)


class Shape(enum.Enum):
    """What one exit code makes of a call."""

    ANSWER = "answer"
    """The envelope, ``isError`` false."""
    ERROR_ANSWER = "error answer"
    """The envelope, ``isError`` true: the command answered, and not with what was asked for."""
    REFUSAL = "refusal"
    """The Refusal rendered whole as the text block, ``isError`` true."""
    USAGE = "usage"
    """No envelope: a JSON-RPC error carrying the command's usage sentence."""
    FAULT = "fault"
    """No envelope: a JSON-RPC error saying the server met an exit it cannot answer."""


@attrs.frozen
class Exit:
    """One exit code's meaning: its shape, and the outcome an ``OUTCOME`` reading reports
    when the command wrote no terminal row to say it."""

    shape: Shape
    outcome: str | None = None


@attrs.frozen
class Exits:
    """How a CLI's exit codes map to the envelope. A code it does not list is a fault."""

    codes: Mapping[int, Exit]

    def of(self, code: int) -> Exit:
        return self.codes.get(code, Exit(Shape.FAULT))


@attrs.frozen
class Tool:
    """One entry of the table.

    ``flags`` maps each narrowing flag of the command to the argument that sets it, so
    a truncation hint the command words in flags reaches the caller in arguments.
    ``title`` and ``annotations`` are published only to a client whose protocol
    version knows them.
    """

    name: str
    title: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any]
    annotations: Annotations
    argv: Argv
    reading: Reading
    exits: Exits
    flags: Mapping[str, str] = attrs.field(factory=dict)
    kinds: Mapping[str, str] = attrs.field(init=False)

    @kinds.default
    def _derived(self) -> Mapping[str, str]:
        return member_kinds(self.input_schema)


# --- the members a schema declares, and how each is read ---

REQUIRED_STRING: Final = "required string"
OPTIONAL_STRING: Final = "optional string"
BOOLEAN: Final = "boolean"
INTEGER: Final = "integer"
STRINGS: Final = "strings"
SCALARS: Final = "scalars"

_OF_TYPE: Final[Mapping[str, str]] = {"boolean": BOOLEAN, "integer": INTEGER, "array": STRINGS, "object": SCALARS}


def member_kinds(input_schema: Mapping[str, Any]) -> dict[str, str]:
    """Each declared member and how the decoder reads it, derived from the schema alone.

    The schema is the published contract, so the decoder reads what it says rather
    than a second list that could drift from it: a string (or a string ``enum``) is
    required or optional as ``required`` says; ``boolean``, ``integer``, an array
    (of strings) and an object (of scalars) each read as their JSON type.
    """
    required = set(input_schema.get("required", ()))
    kinds: dict[str, str] = {}
    for name, member in input_schema.get("properties", {}).items():
        declared = member.get("type")
        if declared is None and all(isinstance(choice, str) for choice in member.get("enum", [None])):
            declared = "string"
        if declared == "string":
            kinds[name] = REQUIRED_STRING if name in required else OPTIONAL_STRING
        elif declared in _OF_TYPE:
            kinds[name] = _OF_TYPE[declared]
        else:
            raise ValueError(f"the member {name!r} declares {declared!r}, a type no argv can be built from")
    return kinds


# --- the table ---

TITLES_FROM: Final = "2025-06-18"
"""The first protocol version whose ``Tool`` carries ``title``."""

ANNOTATIONS_FROM: Final = "2025-03-26"
"""The first protocol version whose ``Tool`` carries ``annotations``."""


class Table:
    """The tools one server publishes: one checked namespace, in the order they were given."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self.tools: tuple[Tool, ...] = tuple(tools)
        seen: dict[str, int] = {}
        for index, tool in enumerate(self.tools):
            if tool.name in seen:
                raise DuplicateTool(
                    f"the tool table names {tool.name!r} twice: entry {seen[tool.name]} "
                    f"({self.tools[seen[tool.name]].title!r}) and entry {index} ({tool.title!r})"
                )
            seen[tool.name] = index
        self._by_name = {tool.name: tool for tool in self.tools}

    def named(self, name: str) -> Tool | None:
        """The tool called ``name``, or None where the table has no such tool."""
        return self._by_name.get(name)

    def published(self) -> tuple[Tool, ...]:
        """The tools in the order ``tools/list`` answers them: by name, byte for byte."""
        return tuple(sorted(self.tools, key=lambda tool: tool.name.encode()))

    def listing(self, protocol_version: str | None) -> bytes:
        """The ``tools`` array of a ``tools/list`` result, as it goes on the wire.

        Encoded here rather than by the SDK, which would re-order a schema's members.
        The members are the SDK's wire order (alphabetical); ``annotations`` and
        ``title`` appear only from the protocol version that defines them, which is
        what the SDK's own per-version models would leave.
        """
        version = protocol_version or ""
        return orjson.dumps([_declared(tool, version) for tool in self.published()])


def _declared(tool: Tool, version: str) -> dict[str, Any]:
    declared: dict[str, Any] = {}
    if version >= ANNOTATIONS_FROM:
        declared["annotations"] = tool.annotations.wire()
    declared |= {
        "description": tool.description,
        "inputSchema": tool.input_schema,
        "name": tool.name,
        "outputSchema": tool.output_schema,
    }
    if version >= TITLES_FROM:
        declared["title"] = tool.title
    return declared

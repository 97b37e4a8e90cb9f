"""The tool set: thirteen tools, each a name, a description and two schemas.

The schemas are data (``tools.json``) rather than built from Python types because
they are a published contract: closed objects, enums and member order that inference
would loosen, and that a client writes its calls against. They are declared once for
every call of a tool, which is what lets a client validate any answer it gets.

The file holds the tools in the order the surface groups them — Discovery, the
repository, Authoring, Execution, Inspection, Lifecycle — which is the order they
are registered in. ``tools/list`` publishes them by name instead, as a client
receives them from the reference server.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import orjson


@attrs.frozen
class Tool:
    """One tool as ``tools/list`` publishes it."""

    name: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any]


@functools.cache
def registered() -> tuple[Tool, ...]:
    """The thirteen tools in group order."""
    declared = orjson.loads(Path(__file__).with_name("tools.json").read_bytes())
    return tuple(
        Tool(
            name=entry["name"],
            description=entry["description"],
            input_schema=entry["inputSchema"],
            output_schema=entry["outputSchema"],
        )
        for entry in declared
    )


def published() -> tuple[Tool, ...]:
    """The tools in the order ``tools/list`` answers them: by name, byte for byte."""
    return tuple(sorted(registered(), key=lambda tool: tool.name.encode()))


def named(name: str) -> Tool | None:
    """The tool called ``name``, or None where the set has no such tool."""
    return next((tool for tool in registered() if tool.name == name), None)


@functools.cache
def listing() -> bytes:
    """The ``tools`` array of a ``tools/list`` result, exactly as it goes on the wire.

    Encoded here rather than by the SDK because the SDK re-orders the keys of a
    published schema; a schema's member order is part of what is published.
    """
    return orjson.dumps(
        [
            {
                "description": tool.description,
                "inputSchema": tool.input_schema,
                "name": tool.name,
                "outputSchema": tool.output_schema,
            }
            for tool in published()
        ]
    )


def _indented(schema: Mapping[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False)


def render_tools_golden(tools: tuple[Tool, ...] | None = None) -> str:
    """The tool set in the format of the reference's ``tools.golden``.

    One block per tool, in wire order: ``=== <name>``, the description, then each
    schema indented by two spaces under ``--- input`` and ``--- output``.
    """
    chosen = published() if tools is None else tools
    return "".join(
        f"=== {tool.name}\n{tool.description}\n"
        f"--- input\n{_indented(tool.input_schema)}\n"
        f"--- output\n{_indented(tool.output_schema)}\n"
        for tool in chosen
    )

"""The published tool set: the reference's schemas member for member, in our own words."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import orjson
import pytest

from hyper_mcp.driver import connected
from hyper_mcp.tools import render_tools_golden
from tests.mcp.fake_commands import TABLE, answer, answering, served

REFERENCE = Path(__file__).resolve().parents[2] / ".." / "shared" / "conformance" / "mcp" / "tools.golden"

GROUP_ORDER = [
    "providers", "provider", "operation", "targets", "check", "review", "run",
    "probe", "runs", "run_show", "changes", "records", "project",
]  # fmt: skip


def parse_golden(text: str) -> list[tuple[str, str, Any, Any]]:
    tools = []
    for block in re.split(r"^=== ", text, flags=re.M)[1:]:
        name, rest = block.split("\n", 1)
        description, rest = rest.split("\n--- input\n", 1)
        given, wanted = rest.split("\n--- output\n", 1)
        tools.append((name, description, json.loads(given), json.loads(wanted)))
    return tools


def without_descriptions(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: without_descriptions(item) for key, item in value.items() if key != "description"}
    if isinstance(value, list):
        return [without_descriptions(item) for item in value]
    return value


def descriptions(value: Any, at: str) -> dict[str, str]:
    found: dict[str, str] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "description" and isinstance(item, str):
                found[at] = item
            else:
                found.update(descriptions(item, f"{at}/{key}"))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.update(descriptions(item, f"{at}/{index}"))
    return found


def ours() -> list[tuple[str, str, Any, Any]]:
    return parse_golden(render_tools_golden(TABLE.published()))


def reference() -> list[tuple[str, str, Any, Any]]:
    if not REFERENCE.exists():
        pytest.skip("the reference's tools.golden is not beside this repository")
    return parse_golden(REFERENCE.read_text(encoding="utf-8"))


def test_the_set_is_thirteen_tools_in_group_order() -> None:
    assert [tool.name for tool in TABLE.tools] == GROUP_ORDER


def test_tools_list_publishes_them_by_name() -> None:
    assert [tool.name for tool in TABLE.published()] == sorted(GROUP_ORDER)
    assert [entry["name"] for entry in orjson.loads(TABLE.listing(None))] == sorted(GROUP_ORDER)


def test_every_schema_is_a_closed_object_with_its_members_in_order() -> None:
    for tool in TABLE.tools:
        for schema in (tool.input_schema, tool.output_schema):
            assert list(schema)[:4] == ["type", "additionalProperties", "required", "properties"]
            assert schema["type"] == "object" and schema["additionalProperties"] is False


def test_the_schemas_are_the_references_member_for_member() -> None:
    theirs = reference()
    mine = ours()
    assert [tool[0] for tool in mine] == [tool[0] for tool in theirs]
    for (name, _, given, wanted), (_, _, their_given, their_wanted) in zip(mine, theirs, strict=True):
        # Dumped without sorting, so the order of every member is compared too.
        assert json.dumps(without_descriptions(given)) == json.dumps(without_descriptions(their_given)), name
        assert json.dumps(without_descriptions(wanted)) == json.dumps(without_descriptions(their_wanted)), name


def test_every_description_is_written_in_our_own_words() -> None:
    theirs = {tool[0]: tool for tool in reference()}
    for name, description, given, wanted in ours():
        _, their_description, their_given, their_wanted = theirs[name]
        assert description != their_description, name
        for mine, their in ((given, their_given), (wanted, their_wanted)):
            mine_at, their_at = descriptions(mine, name), descriptions(their, name)
            assert mine_at.keys() == their_at.keys(), name
            same = [at for at in mine_at if mine_at[at] == their_at[at]]
            assert same == [], same


def test_the_golden_rendering_is_the_references_format() -> None:
    rendered = render_tools_golden(TABLE.published())
    assert rendered.startswith("=== changes\n")
    assert rendered.endswith("}\n")
    assert [tool[0] for tool in ours()] == sorted(GROUP_ORDER)
    changes = TABLE.named("changes")
    assert changes is not None
    assert f'=== changes\n{changes.description}\n--- input\n{{\n  "type": "object",' in rendered


def test_the_listing_carries_each_schema_compact_and_in_authored_order() -> None:
    for entry, tool in zip(orjson.loads(TABLE.listing(None)), TABLE.published(), strict=True):
        assert list(entry) == ["description", "inputSchema", "name", "outputSchema"]
        assert orjson.dumps(entry["inputSchema"]) == orjson.dumps(tool.input_schema)
        assert orjson.dumps(entry["outputSchema"]) == orjson.dumps(tool.output_schema)


def test_an_unknown_name_is_no_tool() -> None:
    assert TABLE.named("show") is None
    assert TABLE.named("install") is None


# --- annotations and titles ---

READ_ONLY_CLOSED = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
READ_ONLY_OPEN = {**READ_ONLY_CLOSED, "openWorldHint": True}
HINTS = {
    **dict.fromkeys(("providers", "provider", "operation", "targets", "check", "review"), READ_ONLY_CLOSED),
    # they sync with the origin remote before they read (ADR 0016)
    **dict.fromkeys(("runs", "run_show", "changes", "records", "probe"), READ_ONLY_OPEN),
    "run": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True},
    "project": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": True},
}


def test_every_tool_states_all_four_hints_and_a_short_title() -> None:
    assert {tool.name: tool.annotations.wire() for tool in TABLE.tools} == HINTS
    for tool in TABLE.tools:
        assert tool.title and len(tool.title) <= 30 and tool.title != tool.name, tool.name


@pytest.mark.parametrize(
    ("version", "members"),
    [
        ("2024-11-05", ["description", "inputSchema", "name", "outputSchema"]),
        ("2025-03-26", ["annotations", "description", "inputSchema", "name", "outputSchema"]),
        ("2025-06-18", ["annotations", "description", "inputSchema", "name", "outputSchema", "title"]),
        ("2025-11-25", ["annotations", "description", "inputSchema", "name", "outputSchema", "title"]),
    ],
)
def test_a_client_receives_only_what_its_protocol_version_defines(version: str, members: list[str]) -> None:
    async def listed() -> bytes:
        async with connected(served(answering(answer())[0])) as session:
            negotiated = await session.handshake(version)
            assert orjson.loads(negotiated)["result"]["protocolVersion"] == version
            return await session.request("tools/list")

    tools = orjson.loads(anyio.run(listed))["result"]["tools"]
    assert [list(tool) for tool in tools] == [members] * 13

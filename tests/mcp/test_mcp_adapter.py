"""The adapter as a public API: a table checked at construction, schemas read for the decoder,
exit codes as configuration, and the example CLI served to the SDK's own client."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import attrs
import pytest

from hyper.cli.mcp import EXITS
from hyper.core import exit as codes
from hyper_mcp import DuplicateTool, Exit, Exits, Reading, Shape, Table, Tool
from hyper_mcp.decode import decode
from hyper_mcp.envelope import envelope_of
from hyper_mcp.errors import ProtocolError
from hyper_mcp.table import BOOLEAN, INTEGER, OPTIONAL_STRING, READ_ONLY_CLOSED, REQUIRED_STRING, SCALARS, STRINGS
from tests.mcp.fake_commands import TABLE, answer, tool

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "examples" / "argv-mcp" / "serve.py"


def _entry(name: str, title: str) -> Tool:
    return Tool(
        name=name,
        title=title,
        description="d",
        input_schema={"type": "object", "properties": {}},
        output_schema={"type": "object"},
        annotations=READ_ONLY_CLOSED,
        argv=lambda read: [name],
        reading=Reading.SUMMARY,
        exits=Exits({0: Exit(Shape.ANSWER)}),
    )


def test_a_table_naming_one_tool_twice_is_refused_naming_both_entries() -> None:
    with pytest.raises(DuplicateTool) as refused:
        Table([_entry("list", "List things"), _entry("say", "Say"), _entry("list", "List again")])
    assert str(refused.value) == "the tool table names 'list' twice: entry 0 ('List things') and entry 2 ('List again')"


def test_hyper_maps_every_exit_code_it_has_and_no_other() -> None:
    assert set(EXITS.codes) == set(codes.ALL)
    assert all(tool.exits is EXITS for tool in TABLE.tools)


def test_the_decoder_reads_each_member_as_its_schema_declares_it() -> None:
    assert tool("provider").kinds == {"name": REQUIRED_STRING}
    assert tool("run").kinds == {"procedure": REQUIRED_STRING, "dry_run": BOOLEAN, "secret_sink": OPTIONAL_STRING}
    assert tool("probe").kinds["inputs"] == SCALARS
    assert tool("changes").kinds["between"] == STRINGS and tool("changes").kinds["record_kind"] == OPTIONAL_STRING
    assert tool("records").kinds["limit"] == INTEGER
    for entry in TABLE.tools:
        assert list(entry.kinds) == list(entry.input_schema["properties"]), entry.name


def test_a_reading_is_a_value_of_the_entry_not_a_check_on_its_name() -> None:
    renamed = Table([attrs.evolve(tool("run"), name="execute")])
    decoded = decode(renamed, "execute", b'{"procedure":"p","dry_run":true}')
    assert decoded.argv == ("run", "--dry-run", "--", "p") and decoded.dry_run is True
    envelope = envelope_of(renamed.tools[0], answer(terminal=None, exit=75), decoded.dry_run)
    assert envelope.structured is not None and (envelope.structured.outcome, envelope.structured.dry_run) == (
        "failed",
        True,
    )


def test_an_exit_the_table_does_not_map_is_a_fault() -> None:
    with pytest.raises(ProtocolError, match="exited 3, an exit code no envelope answers"):
        envelope_of(tool("providers"), answer(exit=3))


# --- #17: a command that stopped before it looked says why ---


def test_a_command_that_opened_no_row_stream_answers_its_own_sentence() -> None:
    said = "hyper records: the repository root is not a git repository; the Store is a branch of it\n"
    with pytest.raises(ProtocolError) as raised:
        envelope_of(tool("records"), answer(terminal=None, narration=said, exit=1))
    assert raised.value.message == said.rstrip("\n")


def test_a_command_that_opened_no_row_stream_and_said_nothing_is_a_fault() -> None:
    with pytest.raises(ProtocolError, match="opened no row stream and said nothing, which is a fault in this server"):
        envelope_of(tool("project"), answer(terminal=None, exit=1))


def test_a_run_that_stopped_before_it_began_gives_its_reason_under_the_outcome() -> None:
    said = "hyper run: the Store could not be reached: the repository root is not a git repository\n"
    envelope = envelope_of(tool("run"), answer(terminal=None, narration=said, exit=75), dry_run=False)
    assert envelope.is_error and envelope.text == "failed\n\n" + said.rstrip("\n")


# --- the example: another CLI, served to the SDK's own client ---


def test_the_example_imports_nothing_from_hyper() -> None:
    for path in EXAMPLE.parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not {name for name in imported if name.split(".")[0] == "hyper"}, path.name


async def test_the_example_serves_its_two_tools_to_the_official_python_client() -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError

    parameters = StdioServerParameters(command=sys.executable, args=[str(EXAMPLE)], cwd=REPOSITORY)
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        initialized = await session.initialize()
        assert (initialized.server_info.name, initialized.server_info.version) == ("greet", "0.1.0")
        listed = await session.list_tools()
        assert [(t.name, t.title) for t in listed.tools] == [("list", "List greetings"), ("say", "Say a greeting")]
        hints = listed.tools[0].annotations
        assert hints is not None and (hints.read_only_hint, hints.open_world_hint) == (True, False)
        result = await session.call_tool("list", {"limit": 2})
        assert result.is_error is False and result.structured_content == {
            "rows": [
                {"type": "greeting", "language": "en", "text": "hello"},
                {"type": "greeting", "language": "fr", "text": "bonjour"},
            ],
            "truncated": True,
        }
        with pytest.raises(MCPError) as refused:
            await session.call_tool("say", {"language": "xx"})
        assert refused.value.message == "greet: say: no greeting is known in 'xx'; greet list names every one"
        with pytest.raises(MCPError) as empty:
            await session.call_tool("say", {"language": ""})
        assert empty.value.message == "say: language is empty, and an empty string names no language"


# --- #12: a row nested past what the adapter decodes ---


def test_a_row_nested_past_the_adapters_depth_is_refused_with_a_sentence() -> None:
    deep = b'{"type":"record","fields":' + b"[" * 2_000 + b"]" * 2_000 + b"}"
    with pytest.raises(ProtocolError) as raised:
        envelope_of(tool("records"), answer(rows=(deep,)))
    assert "nested more than 1024 levels deep" in raised.value.message
    assert "--json" in raised.value.message and "[[[" not in raised.value.message


def test_a_row_that_is_no_object_is_quoted_only_in_part() -> None:
    with pytest.raises(ProtocolError) as raised:
        envelope_of(tool("records"), answer(rows=(b"[" + b"1," * 10_000 + b"1]",)))
    assert "which is not a JSON object led by its type" in raised.value.message
    assert len(raised.value.message) < 400

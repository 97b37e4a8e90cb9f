"""Every ``--json`` stream a ``run`` case holds, read as the MCP ``run`` tool's structured half,
is valid against the output schema the tool publishes — the rows in the reference's member
orders and nothing the schema does not name."""

from __future__ import annotations

from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # the SDK brings it; no stubs are installed
import orjson
import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
CASES = sorted(
    case
    for case in (REPOSITORY / "corpus" / "run").iterdir()
    if (case / "argv").is_file()
    and "--json" in (case / "argv").read_text().split()
    and (case / "exit.golden").read_text().strip() != "2"
)


def _schema() -> dict[str, object]:
    tools = orjson.loads((REPOSITORY / "hyper_mcp" / "tools.json").read_bytes())
    listed = tools if isinstance(tools, list) else tools["tools"]
    schema: dict[str, object] = next(tool["outputSchema"] for tool in listed if tool["name"] == "run")
    return schema


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_run_stream_is_the_run_tool_s_structured_content(case: Path) -> None:
    rows = [orjson.loads(line) for line in (case / "stdout.golden").read_bytes().splitlines()]
    terminal = rows.pop()
    assert terminal["type"] == "outcome"
    assert list(terminal)[:3] == ["type", "outcome", "code"] and "dry_run" in terminal
    structured = {"outcome": terminal["outcome"], "dry_run": terminal["dry_run"], "rows": rows, "truncated": None}
    if "run_id" in terminal:
        structured["run_id"] = terminal["run_id"]
    jsonschema.validate(structured, _schema())
    for row in rows:
        if row["type"] == "step":
            order = ["type", "step", "id", "path", "kind", "disposition", "records", "expanded", "withheld"]
            assert [key for key in order if key in row] == list(row)
        if row["type"] == "refusal":
            order = [
                "type",
                "error_code",
                "step",
                "step_id",
                "operation",
                "target",
                "declared",
                "observed",
                "file",
                "line",
                "field",
                "message",
                "resolved",
            ]
            assert [key for key in order if key in row] == list(row)


def test_there_are_streams_to_judge() -> None:
    assert len(CASES) >= 8

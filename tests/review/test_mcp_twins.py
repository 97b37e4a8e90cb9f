"""The review tool answers with the page; its rows are the ``--json`` stream and fit the published schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import orjson
import pytest

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
TOOL_CASES = sorted(path for path in (CORPUS / "mcp" / "review").iterdir() if (path / "envelope.golden").is_file())
JSON_CASES = sorted(path for path in (CORPUS / "review").iterdir() if path.name.endswith("-json"))


def review_schema() -> dict[str, Any]:
    tools = orjson.loads((Path(__file__).resolve().parents[2] / "hyper_mcp" / "tools.json").read_bytes())
    listed = tools if isinstance(tools, list) else tools["tools"]
    schema: dict[str, Any] = next(tool for tool in listed if tool["name"] == "review")["outputSchema"]
    return schema


def test_there_are_tool_cases_to_judge() -> None:
    assert len(TOOL_CASES) >= 6
    assert len(JSON_CASES) >= 10


@pytest.mark.parametrize("case", TOOL_CASES, ids=[case.name for case in TOOL_CASES])
def test_the_text_and_the_rendering_are_the_pages_bytes(case: Path) -> None:
    envelope = orjson.loads((case / "envelope.golden").read_bytes())
    page = (CORPUS / "review" / case.name / "stdout.golden").read_text(encoding="utf-8")
    (block,) = envelope["content"]
    assert block["text"] == page
    assert envelope["structuredContent"]["rendering"] == page
    jsonschema.validate(envelope["structuredContent"], review_schema())


@pytest.mark.parametrize("case", JSON_CASES, ids=[case.name for case in JSON_CASES])
def test_every_row_of_the_stream_fits_the_published_schema(case: Path) -> None:
    lines = (case / "stdout.golden").read_bytes().splitlines()
    if not lines:
        return  # a usage error: nothing on stdout
    rows = [orjson.loads(line) for line in lines]
    assert rows[-1] == {"type": "result", "truncated": False}
    answer = {"rendering": "a page", "rows": rows[:-1], "truncated": False}
    jsonschema.validate(answer, review_schema())
    if rows[0]["type"] == "artefact":
        assert ("baseline" in rows[0]) != ("baseline_absent" in rows[0])
        gutter = {row["line"] for row in rows if row["type"] == "gutter"}
        cited = {row["cites_line"] for row in rows if row["type"] == "flag"}
        assert cited <= gutter, "a flag cites a line no gutter row marks"

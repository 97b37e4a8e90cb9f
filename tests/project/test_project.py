"""``hyper project`` beyond the corpus: a write that fails, the round trip with ``check``, the gate,
and the published schema of its rows."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import orjson
import pytest

from hyper.artefact.repository import Repository, load_repository
from hyper.check.repository import check_repository
from hyper.cli.main import main
from hyper.cli.tree import COMMANDS
from hyper.core.version import BuildFacts
from tests.check.repos import DECLARATION, DEMO, write
from tests.fixed import fixed_process

ROOT = Path(__file__).resolve().parents[2]
FACTS = BuildFacts(version="1.4.0")


def hyper(root: Path, *argv: str) -> tuple[int, str, str]:
    process = fixed_process(str(root), {"HYPER_REPO_DIR": str(root)}, dt.datetime(2026, 4, 2, tzinfo=dt.UTC))
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["project", *argv], out, err, process, FACTS)
    return code, out.getvalue().decode(), err.getvalue().decode()


def test_what_project_writes_checks_clean(tmp_path: Path) -> None:
    root = write(tmp_path, {"hyper.yaml": DECLARATION, **DEMO})
    code, out, err = hyper(root)
    assert (code, err) == (0, "")
    assert out.startswith("PATH  ") and "retire-preview-dns" in out
    repo = load_repository(str(root))
    assert isinstance(repo, Repository)
    assert check_repository(repo) == []
    assert hyper(root)[0] == 0
    assert list(repo.workflows) == [".github/workflows/hyper-retire-preview-dns.yml"]


def test_a_write_that_fails_names_its_file_and_leaves_what_was_written(tmp_path: Path) -> None:
    root = write(tmp_path, {"hyper.yaml": DECLARATION.replace("\n", "\nretention: 90d\n", 1), **DEMO})
    (root / ".github").mkdir()
    (root / ".github" / "workflows").write_text("a file where the directory goes\n")
    code, out, err = hyper(root)
    assert (code, out) == (1, "")
    assert err == "hyper project: .github/workflows: File exists\n"
    assert (root / "hyper.yaml").read_text() == DECLARATION.replace("\n", "\nretention: 90d\n", 1)


def test_project_is_the_one_command_outside_the_pin_gate() -> None:
    assert [name for name, command in COMMANDS.items() if not command.gated] == ["project"]


def _project_schema() -> dict[str, Any]:
    tools = orjson.loads((ROOT / "hyper_mcp" / "tools.json").read_bytes())
    schema: dict[str, Any] = next(tool for tool in tools if tool["name"] == "project")["outputSchema"]
    return schema


JSON_CASES = sorted(
    case for case in (ROOT / "corpus" / "project").iterdir() if case.name.endswith("-json") and case.is_dir()
)


@pytest.mark.parametrize("case", JSON_CASES, ids=[case.name for case in JSON_CASES])
def test_every_written_stream_fits_the_published_tool(case: Path) -> None:
    rows = [orjson.loads(line) for line in (case / "stdout.golden").read_bytes().splitlines()]
    assert rows[-1] == {"type": "result", "truncated": False}
    if any(row["type"] == "problem" for row in rows):
        return  # check's own rows: the pre-write pass stopped it
    jsonschema.validate({"rows": rows[:-1], "truncated": False}, _project_schema())
    for row in rows[:-1]:
        assert ("cadence" in row) == ("phrase" in row) == ("rate" in row)


def test_the_tool_answers_the_rows_the_command_streams(tmp_path: Path) -> None:
    from hyper.cli.main import dispatch
    from hyper.cli.mcp import server
    from hyper_mcp.driver import call_blocking

    files: dict[str, str | bytes] = {"hyper.yaml": DECLARATION, **DEMO}
    cli_root, tool_root = write(tmp_path / "cli", files), write(tmp_path / "tool", files)
    code, streamed, _ = hyper(cli_root, "--json")
    process = fixed_process(str(tool_root), {"HYPER_REPO_DIR": str(tool_root)}, dt.datetime(2026, 4, 2, tzinfo=dt.UTC))
    outcome = call_blocking(server(FACTS.version, dispatch(process, FACTS)), "project")
    assert code == 0 and outcome.envelope is not None
    structured = orjson.loads(outcome.envelope.encode())["structuredContent"]
    assert structured["rows"] == [orjson.loads(line) for line in streamed.splitlines()[:-1]]
    assert (tool_root / ".github/workflows/hyper-retire-preview-dns.yml").read_bytes() == (
        cli_root / ".github/workflows/hyper-retire-preview-dns.yml"
    ).read_bytes()


def test_the_lock_is_written_beside_the_workflows_and_checked_like_them(tmp_path: Path) -> None:
    from hyper.artefact.repository import LOCK
    from hyper.workflow.lock import lock

    root = write(tmp_path, {"hyper.yaml": DECLARATION, **DEMO})
    assert hyper(root)[0] == 0
    held = root / LOCK
    assert held.read_bytes() == lock()
    held.unlink()
    repo = load_repository(str(root))
    assert isinstance(repo, Repository)
    assert [(p.file, p.error_code) for p in check_repository(repo)] == [(LOCK, "projection-stale")]
    assert "none stands" in check_repository(repo)[0].message
    assert hyper(root)[0] == 0 and held.read_bytes() == lock()

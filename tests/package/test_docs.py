"""The documentation cannot rot: every YAML example is checked, and the site builds strictly.

Every fenced ``yaml`` block under ``docs/`` is a whole artefact whose first line is a
comment naming its path. Each page's blocks are laid over the quickstart's (the repository
every other page extends) and ``hyper check`` must find nothing; a page whose Procedure
declares a Cadence gets the workflow ``hyper project`` would write, as its reader is told
to. Cost: one ``hyper check`` child per page that has examples, and one mkdocs build.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.check_scaling import project_workflows
from hyper.cli.placeholder import sentence
from tests.package.build import ROOT
from tests.package.readme import Block, blocks

DOCS = ROOT / "docs"
QUICKSTART = DOCS / "quickstart.md"
PAGES = sorted(DOCS.rglob("*.md"))


def files_of(page: Path) -> dict[str, str]:
    """The artefacts a page's ``yaml`` blocks write, by the path each block's first line names."""
    files: dict[str, str] = {}
    for block in blocks(page):
        if block.language != "yaml":
            continue
        first = block.text.split("\n", 1)[0]
        assert first.startswith("# ") and first.endswith(".yaml"), f"{page.name}: a yaml block names no path: {first}"
        files[first[2:]] = block.text
    return files


def lay_out(root: Path, *pages: Path) -> None:
    for page in pages:
        for name, text in files_of(page).items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)


def hyper(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hyper", *argv], cwd=cwd, capture_output=True, text=True)


@pytest.mark.parametrize("page", [p for p in PAGES if files_of(p)], ids=lambda p: str(p.relative_to(DOCS)))
def test_every_yaml_example_checks_clean(page: Path, tmp_path: Path) -> None:
    lay_out(tmp_path, QUICKSTART, page)
    if any("cadence:" in text for text in files_of(page).values()):
        project_workflows(tmp_path)
    checked = hyper("check", "--repo-dir", str(tmp_path), cwd=tmp_path)
    # the pages keep the all-zero placeholder digest, which check notes in one line (ADR 0019)
    assert checked.returncode == 0 and checked.stderr in ("", sentence("check")), checked.stdout + checked.stderr
    assert "no problems found" in checked.stdout


def test_the_quickstart_says_how_many_artefacts_check_counts(tmp_path: Path) -> None:
    lay_out(tmp_path, QUICKSTART)
    checked = hyper("check", "--repo-dir", str(tmp_path), cwd=tmp_path)
    assert f"`{checked.stdout.strip()}`" in QUICKSTART.read_text()


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "language" / "manifest" / "index.html").exists()


def test_a_block_reader_sees_headings_and_languages() -> None:
    found = blocks(QUICKSTART)
    assert Block("yaml", "2. A repository", found[2].text) == found[2]


def test_the_commands_page_names_every_command_flag_and_exit_code() -> None:
    from hyper.cli import tree
    from hyper.core import exit as codes

    page = (DOCS / "commands.md").read_text()
    for name in tree.all_names():
        assert f"| `{name}" in page, name
    for flag in (*tree.PARAMETER_ORDER, *tree.GLOBALS):
        assert f"`{flag}" in page, flag
    for code in codes.ALL:
        assert f"| `{code}` |" in page, code


def test_the_mcp_page_maps_every_tool() -> None:
    import json

    page = (DOCS / "mcp.md").read_text()
    for tool in json.loads((ROOT / "hyper_mcp" / "tools.json").read_text()):
        assert f"| `{tool['name']}` |" in page, tool["name"]
        for argument in tool["inputSchema"].get("properties", {}):
            assert f"`{argument}`" in page, (tool["name"], argument)


def test_every_json_example_parses() -> None:
    import json

    found = [(page.name, block.text) for page in PAGES for block in blocks(page) if block.language == "json"]
    assert len(found) >= 4  # one per MCP client
    for name, text in found:
        assert isinstance(json.loads(text), dict), name

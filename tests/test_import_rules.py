"""The two import rules, held: ``hyper_mcp`` never imports ``hyper``, and only
``hyper_mcp`` imports the ``mcp`` SDK — which no command but ``hyper mcp`` loads."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.loaded import ROOT, modules_loaded_by


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def _top(name: str) -> str:
    return name.split(".")[0]


def test_hyper_mcp_imports_nothing_from_hyper() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(m for m in _imports(path) if _top(m) == "hyper")
        for path in _sources("hyper_mcp")
    }
    assert {p: m for p, m in offenders.items() if m} == {}


@pytest.mark.parametrize("package", ["hyper", "harness", "tests", "benchmarks"])
def test_nothing_outside_hyper_mcp_imports_the_sdk(package: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(m for m in _imports(path) if _top(m) in ("mcp", "mcp_types"))
        for path in _sources(package)
    }
    allowed = {"tests/mcp"}  # the MCP surface's own tests drive the SDK client
    assert {p: m for p, m in offenders.items() if m and not any(p.startswith(a) for a in allowed)} == {}


@pytest.mark.parametrize(
    "argv",
    [
        ["version"],
        ["providers", "--repo-dir", "examples/quickstart"],
        ["targets", "--json", "--repo-dir", "examples/quickstart"],
        ["check", "--repo-dir", "examples/quickstart"],
        ["completions", "bash"],
        ["nonsense"],
    ],
)
def test_no_command_but_mcp_loads_the_sdk(argv: list[str]) -> None:
    _, modules, stderr = modules_loaded_by(argv)
    assert sorted(m for m in modules if _top(m) in ("mcp", "mcp_types")) == [], stderr

"""The import rule: the package is cheap to import, only ``server`` reaches the SDK, nothing reaches ``hyper``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
PACKAGE = REPOSITORY / "hyper_mcp"


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_module_imports_hyper() -> None:
    for path in PACKAGE.glob("*.py"):
        assert "hyper" not in imported_roots(path), path.name


def test_only_the_server_imports_the_sdk() -> None:
    reaching = {path.name for path in PACKAGE.glob("*.py") if imported_roots(path) & {"mcp", "mcp_types"}}
    assert reaching == {"server.py"}


def test_importing_the_package_loads_no_sdk_module() -> None:
    modules = ", ".join(
        f"hyper_mcp.{path.stem}" for path in sorted(PACKAGE.glob("*.py")) if path.stem not in ("__init__", "server")
    )
    probe = (
        f"import sys, hyper_mcp, {modules}\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types')]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, cwd=REPOSITORY, check=False)
    assert done.returncode == 0, done.stderr.decode()

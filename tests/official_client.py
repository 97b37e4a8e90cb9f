"""The official TypeScript SDK client, installed once for every test that drives ``hyper mcp`` with it.

The scripts under ``scripts/`` are copied beside one install of the SDK kept in
pytest's cache, so the ``npm install`` happens once however many tests use it.
A machine without node, npm or the installed ``hyper`` command skips these tests
rather than failing them: they check interoperability, not hyper's own logic.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Final

import pytest

REPOSITORY: Final = Path(__file__).resolve().parents[1]
HYPER: Final = REPOSITORY / ".venv" / "bin" / "hyper"
SCRIPTS: Final = ("mcp-official-client.mjs", "mcp-run-progress.mjs")


def client_dir(config: pytest.Config, factory: pytest.TempPathFactory) -> Path:
    """The directory holding the client scripts and the SDK; skips the test where either cannot be had."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to run the official TypeScript client")
    if not HYPER.exists():
        pytest.skip("the hyper command is not installed in .venv")
    cache = getattr(config, "cache", None)
    place = Path(cache.mkdir("mcp-official-client")) if cache else factory.mktemp("mcp-official-client")
    for name in ("package.json", *SCRIPTS):
        shutil.copy(REPOSITORY / "scripts" / name, place / name)
    if not (place / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        try:
            subprocess.run(
                ["npm", "install", "--prefix", str(place), "--no-audit", "--no-fund"],
                capture_output=True, timeout=180, check=True,
            )  # fmt: skip
        except (subprocess.SubprocessError, OSError) as fault:
            pytest.skip(f"could not install @modelcontextprotocol/sdk: {fault}")
    return place

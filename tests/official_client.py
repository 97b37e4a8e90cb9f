"""The official TypeScript SDK client, installed once for every test that drives ``hyper mcp`` with it.

The scripts under ``scripts/`` and the SDK their lock pins are installed once per checkout
under ``.cache/`` (tests/built.py), however many tests and pytest-xdist workers use them.
A machine without node, npm or the installed ``hyper`` command skips these tests
rather than failing them: they check interoperability, not hyper's own logic.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

from tests.built import node_scripts

HYPER: Final = Path(sys.executable).parent / "hyper"
"""The ``hyper`` of the venv running the tests, so each version's run drives its own."""


def client_dir() -> Path:
    """The directory holding the client scripts and the SDK; skips the test where either cannot be had."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to run the official TypeScript client")
    if not HYPER.exists():
        pytest.skip(f"the hyper command is not installed beside {sys.executable}")
    try:
        return node_scripts()
    except (subprocess.SubprocessError, OSError) as fault:
        pytest.skip(f"could not install @modelcontextprotocol/sdk from scripts/package-lock.json: {fault}")

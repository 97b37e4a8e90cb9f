"""``hyper mcp`` spoken to by the official TypeScript SDK client (skipped without node, npm or the CLI)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
SCRIPTS = REPOSITORY / "scripts"
HYPER = REPOSITORY / ".venv" / "bin" / "hyper"


@pytest.fixture(scope="session")
def client_dir(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The script beside an installed SDK, in pytest's cache so the install happens once."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to run the official TypeScript client")
    cache = getattr(pytestconfig, "cache", None)
    place = Path(cache.mkdir("mcp-official-client")) if cache else tmp_path_factory.mktemp("mcp-official-client")
    shutil.copy(SCRIPTS / "package.json", place / "package.json")
    shutil.copy(SCRIPTS / "mcp-official-client.mjs", place / "mcp-official-client.mjs")
    if not (place / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        try:
            subprocess.run(
                ["npm", "install", "--prefix", str(place), "--no-audit", "--no-fund"],
                capture_output=True, timeout=180, check=True,
            )  # fmt: skip
        except (subprocess.SubprocessError, OSError) as fault:
            pytest.skip(f"could not install @modelcontextprotocol/sdk: {fault}")
    return place


def test_the_official_client_lists_the_tools_and_calls_providers(client_dir: Path, tmp_path: Path) -> None:
    if not HYPER.exists():
        pytest.skip("the hyper command is not installed in .venv")
    version = subprocess.run([HYPER, "version"], capture_output=True, text=True, check=True).stdout.split()[1]
    subprocess.run(["git", "init", "--quiet", str(tmp_path)], check=True)
    (tmp_path / "hyper.yaml").write_text(f"kind: repository-declaration\nversion: {version}\n", encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("HYPER_")}
    done = subprocess.run(
        ["node", str(client_dir / "mcp-official-client.mjs"), str(HYPER), "mcp"],
        capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["server"] == {"name": "hyper", "version": version}
    assert seen["capabilities"] == {"tools": {}}
    assert f"version: {version}" in seen["instructions"]
    assert seen["tools"] == sorted(seen["tools"]) and len(seen["tools"]) == 13
    providers = seen["providers"]
    assert providers["isError"] is False
    assert [row["name"] for row in providers["structuredContent"]["rows"]] == ["shell"]
    assert providers["structuredContent"]["truncated"] is False
    assert providers["content"] == [{"type": "text", "text": "1 Provider"}]

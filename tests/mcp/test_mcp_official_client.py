"""``hyper mcp`` spoken to by the official TypeScript SDK client (skipped without node, npm or the CLI)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.official_client import HYPER, client_dir


def test_the_official_client_lists_the_tools_and_calls_providers(tmp_path: Path) -> None:
    client = client_dir()
    version = subprocess.run([HYPER, "version"], capture_output=True, text=True, check=True).stdout.split()[1]
    subprocess.run(["git", "init", "--quiet", str(tmp_path)], check=True)
    (tmp_path / "hyper.yaml").write_text(f"kind: repository-declaration\nversion: {version}\n", encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("HYPER_")}
    done = subprocess.run(
        ["node", str(client / "mcp-official-client.mjs"), str(HYPER), "mcp"],
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

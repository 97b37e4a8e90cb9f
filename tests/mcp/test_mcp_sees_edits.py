"""``hyper mcp`` reuses the parse of an artefact it has seen (hyper/yaml/parsed.py), yet
reads every file on every call: an edit between two calls is in the second answer."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import orjson

from hyper.core.version import installed

REPO_SHELL = Path(__file__).resolve().parents[2] / "corpus" / "run" / "repo-shell"


def _call(server: subprocess.Popen[bytes], rid: int, method: str, params: object = None) -> object:
    assert server.stdin is not None and server.stdout is not None
    message: dict[str, object] = {"jsonrpc": "2.0", "method": method, "id": rid}
    if params is not None:
        message["params"] = params
    server.stdin.write(orjson.dumps(message) + b"\n")
    server.stdin.flush()
    answer = orjson.loads(server.stdout.readline())
    assert answer["id"] == rid, answer
    return answer["result"]


def _repository(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(REPO_SHELL, root)
    declaration = root / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", f"version: {installed().version}"))
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _served(root: Path) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "hyper", "mcp"],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    _call(
        server,
        1,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    )
    assert server.stdin is not None
    server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    return server


def _ended(server: subprocess.Popen[bytes]) -> None:
    assert server.stdin is not None
    server.stdin.close()
    server.wait(timeout=30)


def test_an_edit_between_two_calls_is_seen(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    server = _served(root)
    try:
        before = _call(server, 2, "tools/call", {"name": "providers", "arguments": {}})
        assert isinstance(before, dict)
        assert sorted(row["name"] for row in before["structuredContent"]["rows"]) == ["paid", "shell"]
        provider = root / "providers" / "paid.yaml"
        provider.write_text(provider.read_text().replace("provider: paid", "provider: billed"))
        after = _call(server, 3, "tools/call", {"name": "providers", "arguments": {}})
        assert isinstance(after, dict)
        assert sorted(row["name"] for row in after["structuredContent"]["rows"]) == ["billed", "shell"]
        # the digest is over the bytes read now; only the built-in's (hyper's own bytes) is kept
        digests = [{row["name"]: row["digest"] for row in got["structuredContent"]["rows"]} for got in (before, after)]
        assert digests[1]["billed"] != digests[0]["paid"] and digests[1]["shell"] == digests[0]["shell"]
    finally:
        _ended(server)


def test_an_edit_to_hyper_yaml_between_two_calls_is_seen_by_the_load(tmp_path: Path) -> None:
    # The gate reads hyper.yaml and the repository is loaded from those bytes: read on every
    # call, so a fault the gate ignores (a key other than the pin) is in the next check.
    root = _repository(tmp_path)
    server = _served(root)
    try:
        before = _call(server, 2, "tools/call", {"name": "check", "arguments": {}})
        assert isinstance(before, dict)
        declaration = root / "hyper.yaml"
        declaration.write_text(declaration.read_text() + "retention:\n")
        after = _call(server, 3, "tools/call", {"name": "check", "arguments": {}})
        assert isinstance(after, dict)
        files = [{row.get("file") for row in got["structuredContent"]["rows"]} for got in (before, after)]
        assert "hyper.yaml" not in files[0] and "hyper.yaml" in files[1]
    finally:
        _ended(server)

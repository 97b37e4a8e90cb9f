"""``scripts/mcp-run-progress.mjs``: the official TypeScript SDK client running a Procedure
through a real ``hyper mcp`` — progress with a token, none without, and a cancel that
drains (skipped without node, npm or the installed CLI)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from hyper.version import installed
from tests.run.support import ECHO, WAIT_FOR, branch_files, build, scripts

REPOSITORY = Path(__file__).resolve().parents[2]
HYPER = REPOSITORY / ".venv" / "bin" / "hyper"


@pytest.fixture(scope="session")
def client_dir(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The script beside an installed SDK, sharing the install the other client check makes."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to run the official TypeScript client")
    cache = getattr(pytestconfig, "cache", None)
    place = Path(cache.mkdir("mcp-official-client")) if cache else tmp_path_factory.mktemp("mcp-official-client")
    shutil.copy(REPOSITORY / "scripts" / "package.json", place / "package.json")
    shutil.copy(REPOSITORY / "scripts" / "mcp-run-progress.mjs", place / "mcp-run-progress.mjs")
    if not (place / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        try:
            subprocess.run(
                ["npm", "install", "--prefix", str(place), "--no-audit", "--no-fund"],
                capture_output=True, timeout=180, check=True,
            )
        except (subprocess.SubprocessError, OSError) as fault:
            pytest.skip(f"could not install @modelcontextprotocol/sdk: {fault}")
    return place


def test_the_official_client_sees_progress_only_under_a_token_and_a_cancel_drains(
    client_dir: Path, tmp_path: Path
) -> None:
    if not HYPER.exists():
        pytest.skip("the hyper command is not installed in .venv")
    release = tmp_path / "release"
    held = (
        "kind: procedure\nprocedure: held\ntargets: [local]\nsteps:\n"
        "  - id: waits\n    definition: host-checks\n    operation: read\n    target: local\n"
        f"    args:\n      command: [wait-for, {release}]\n"
        "  - id: second\n    definition: host-checks\n    operation: read\n    target: local\n"
        "    args:\n      command: [echo, second]\n"
    )
    root = build(tmp_path, {"procedures/held.yaml": held}, version=installed().version)
    bin_dir = scripts(tmp_path, echo=ECHO, wait_for=WAIT_FOR)
    release.touch()
    env = {key: value for key, value in os.environ.items() if not key.startswith("HYPER_")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', os.defpath)}"
    done = subprocess.run(
        ["node", str(client_dir / "mcp-run-progress.mjs"), "held", "--release", str(release), str(HYPER), "mcp"],
        capture_output=True, text=True, cwd=root, env=env, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["watched"]["outcome"] == "completed"
    assert seen["watched"]["progress"] == [
        {"progress": 1, "total": 2, "message": "waits"},
        {"progress": 2, "total": 2, "message": "second"},
    ]
    assert seen["unwatched"]["outcome"] == "completed"
    assert seen["cancelled"]["progress"] == [{"progress": 1, "total": 2, "message": "waits"}]
    assert seen["cancelled"]["error"]

    entries: dict[str, list[str]] = {}
    for name in branch_files(root):
        if name.startswith("journal/"):
            run, rest = name.split("/")[4], name.split("/", 5)[5]
            entries.setdefault(run, []).append(rest)
    assert sorted(map(sorted, entries.values())) == [
        ["outcome.json", "run.json", "steps/0001.json"],
        ["outcome.json", "run.json", "steps/0001.json", "steps/0002.json"],
        ["outcome.json", "run.json", "steps/0001.json", "steps/0002.json"],
    ]
    outcomes = sorted(
        orjson.loads(data)["outcome"] for name, data in branch_files(root).items() if name.endswith("outcome.json")
    )
    assert outcomes == ["completed", "completed", "failed"]

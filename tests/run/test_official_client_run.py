"""``scripts/mcp-run-progress.mjs``: the official TypeScript SDK client running a Procedure
through a real ``hyper mcp`` — progress with a token, none without, and a cancel that
drains (skipped without node, npm or the installed CLI)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import orjson
import pytest

from hyper.core.version import installed
from tests.official_client import HYPER, client_dir
from tests.run.support import ECHO, WAIT_FOR, branch_files, build, held, scripts

pytestmark = pytest.mark.serial  # progress and a cancel timed against a held Step: run alone (ADR 0029)


def test_the_official_client_sees_progress_only_under_a_token_and_a_cancel_drains(tmp_path: Path) -> None:
    client = client_dir()
    release = tmp_path / "release"
    root = build(tmp_path, {"procedures/held.yaml": held(release, "second")}, version=installed().version)
    bin_dir = scripts(tmp_path, echo=ECHO, wait_for=WAIT_FOR)
    release.touch()
    env = {key: value for key, value in os.environ.items() if not key.startswith("HYPER_")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', os.defpath)}"
    done = subprocess.run(
        ["node", str(client / "mcp-run-progress.mjs"), "held", "--release", str(release), str(HYPER), "mcp"],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=120,
        check=False,
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

"""The README's quickstart, as a newcomer runs it: ``examples/quickstart`` committed, ``hyper
store init``, ``hyper run say-hello`` — through the installed command, the real ``echo`` —
then ``git log hyper-store`` showing the entry and the Observation; the ``--json`` twin and the
MCP twin agreeing row for row; and the README's reading commands over the Runs it made.

The installed command is the one beside the interpreter running the test, so under
``./scripts/test-versions`` each version's whole process is what is run, not ``.venv``'s."""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from hyper.cli.main import dispatch
from hyper.cli.mcp import server
from hyper.core.ids import mint_v7
from hyper.core.process import Process
from hyper.core.version import installed
from hyper_mcp.driver import call_blocking
from tests.run.support import git_env

REPOSITORY = Path(__file__).resolve().parents[2]
HYPER = Path(sys.executable).parent / "hyper"
"""The console script of the environment under test (``.venv``, or ``.venv-3.12`` under
``./scripts/test-versions``): its ``#!`` line is this interpreter."""


def _hyper(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("HYPER_")}
    return subprocess.run([str(HYPER), *args], cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_quickstart_as_a_newcomer_runs_it(tmp_path: Path) -> None:
    if not HYPER.exists():
        pytest.skip(f"the hyper command is not installed beside {sys.executable}")
    root = tmp_path / "quickstart"
    shutil.copytree(REPOSITORY / "examples" / "quickstart", root)
    declaration = root / "hyper.yaml"
    text = declaration.read_text()
    pinned = next(line for line in text.splitlines() if line.startswith("version:"))
    declaration.write_text(text.replace(pinned, f"version: {installed().version}"))
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "quickstart"]):
        subprocess.run(["git", *args], cwd=root, env=git_env(), check=True)

    here = "cpython{}.{}.{}".format(*sys.version_info[:3])
    assert f"python  {here}\n" in _hyper(root, "version").stdout, "the command runs the interpreter under test"
    assert _hyper(root, "store", "init").returncode == 0
    ran = _hyper(root, "run", "say-hello")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[0].split() == ["STEP", "ID", "KIND", "DISPOSITION", "RECORDS"]
    assert ran.stdout.splitlines()[1].split() == ["1", "greet", "read", "ran", "1"]
    run_id = ran.stdout.rsplit("run ", 1)[1].strip()
    log = subprocess.run(
        ["git", "log", "--stat", "--format=%s", "hyper-store"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    assert f"Begin run {run_id}" in log and f"End run {run_id}" in log
    assert f'Record local/host-ops/["echo","hello from hyper"] at run {run_id} step 1' in log
    observation = subprocess.run(
        [
            "git",
            "show",
            f"hyper-store:records/local/host-ops/%5B%22echo%22%2C%22hello%20from%20hyper%22%5D/{run_id}-0001.json",
        ],
        cwd=root,
        check=True,
        capture_output=True,
    ).stdout
    assert orjson.loads(observation)["fields"] == {"exit_code": 0, "stderr": "", "stdout": "hello from hyper\n"}

    twin = _hyper(root, "run", "say-hello", "--json")
    assert twin.returncode == 0, twin.stderr
    rows = [orjson.loads(line) for line in twin.stdout.splitlines()]
    process = Process(
        environ={"PATH": os.environ.get("PATH", os.defpath), "HYPER_REPO_DIR": str(root)},
        getwd=lambda: str(root),
        now=lambda: _dt.datetime.now(_dt.UTC),
        mint=mint_v7,
        user=lambda: "igor",
        hostname=lambda: "thinkpad",
    )
    served = server(installed().version, dispatch(process, installed()))
    answered = call_blocking(served, "run", b'{"procedure":"say-hello"}')
    assert answered.envelope is not None
    structured = orjson.loads(answered.frame)["result"]["structuredContent"]
    assert structured["rows"] == rows[:-1], "the MCP twin and the --json twin agree row for row"
    assert (structured["outcome"], structured["dry_run"]) == (rows[-1]["outcome"], rows[-1]["dry_run"])

    # The README's next lines: the Journal, the Record, what moved between the last two Runs.
    runs = _hyper(root, "runs", "--json")
    assert runs.returncode == 0, runs.stderr
    listed = [orjson.loads(line) for line in runs.stdout.splitlines()]
    assert [row["type"] for row in listed] == ["run", "run", "run", "result"]
    assert all(row["outcome"] == "completed" for row in listed[:-1])
    shown = _hyper(root, "show", run_id)
    assert shown.returncode == 0 and run_id in shown.stdout, shown.stderr
    records = _hyper(root, "records", "--json")
    assert records.returncode == 0, records.stderr
    assert [orjson.loads(line)["type"] for line in records.stdout.splitlines()] == ["record", "result"]
    changes = _hyper(root, "changes", "say-hello")
    assert changes.returncode == 0, changes.stderr
    assert "BASELINE" in changes.stdout and "SUBJECT" in changes.stdout

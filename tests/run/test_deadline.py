"""The Operation's deadline on a ``read``, through the real ``http`` Capability: the member that
reaches it is recorded as nothing, the rest of the Expansion still drains and is written, and
the Run then halts — ``failed``, exit 1, the Step ``ran`` with ``n of m``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson
import pytest

from hyper.cli.main import main
from tests.run.support import ECHO, FACTS, Answered, build, process, scripts, serve
from tests.run.test_run import FLEET

pytestmark = pytest.mark.serial  # a deadline measured against the clock: run alone (ADR 0029)


def _answer(path: str) -> Answered:
    return Answered(200, {"ok": True}, delay=5.0 if path == "/health/n2" else 0.0)


def test_a_member_past_its_deadline_halts_the_run_after_the_expansion_drains(tmp_path: Path) -> None:
    artefacts = dict(FLEET)
    artefacts["providers/fleet.yaml"] = artefacts["providers/fleet.yaml"].replace("deadline: 5s", "deadline: 1s")
    artefacts["procedures/sweep.yaml"] = artefacts["procedures/sweep.yaml"].replace(
        "[n1, n2, n3, n4, n5, n6]", "[n1, n2, n3]"
    )
    root = build(tmp_path, artefacts)
    bin_dir = scripts(tmp_path, echo=ECHO)
    with serve(tmp_path, _answer) as served:
        the_process = process(root, bin_dir, {"PATH": os.environ.get("PATH", os.defpath)})._replace(dial=served.dial)
        from io import BytesIO

        out, err = BytesIO(), BytesIO()
        code = main(["run", "--repo-dir", str(root), "sweep", "--json"], out, err, the_process, FACTS)
    assert code == 1
    rows = [orjson.loads(line) for line in out.getvalue().splitlines()]
    assert rows[0] == {
        "type": "step",
        "step": 1,
        "id": "health",
        "kind": "read",
        "disposition": "ran",
        "records": 2,
        "expanded": 3,
    }
    assert rows[1]["disposition"] == "never-reached"
    assert "deadline" in err.getvalue().decode().splitlines()[-1]
    recorded = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "hyper-store", "records/fleet/"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert sorted(path.split("/")[3] for path in recorded) == ["n1", "n3"]

"""Two Records of one answer under one and the same name halt the Step (#10).

An identity a template hole fills before the call (``identity: "{host}"``) names every
Record of a ``series`` answer alike. Only the first may be that Record; the Run halts with
the rest written under no name, as it does for two spellings the case fold makes one —
the reference's ``a-series-under-an-identity-that-fills-before-the-call``."""

from __future__ import annotations

import os
from io import BytesIO
from pathlib import Path

from hyper.cli.main import main
from tests.run.support import ECHO, FACTS, Answered, branch_files, build, process, scripts, serve
from tests.run.test_a_read_names_its_cause import AUDIT

NAMED = {
    **AUDIT,  # the fleet Target and Definition; the Operation and Procedure are this test's
    "providers/fleet.yaml": (
        "kind: provider\nprovider: fleet\nschema-version: 1\nclass: fleet\ncapabilities: [http]\n"
        "operations:\n  nodes:\n    kind: read\n    deadline: 20s\n    http:\n"
        '      method: GET\n      host: "{from-target}"\n      path: /nodes\n      host-input: host\n'
        "    input:\n      type: object\n      properties:\n        host: {type: string}\n"
        '    record:\n      over: $.body.result\n      identity: "{host}"\n      fields: {id: $.id}\n'
    ),
    "procedures/audit.yaml": AUDIT["procedures/audit.yaml"] + "    args:\n      host: api.fleet.example\n",
}


def _audit(tmp_path: Path, result: list[dict[str, str]]) -> tuple[int, str, str, dict[str, bytes]]:
    root = build(tmp_path, NAMED)
    bin_dir = scripts(tmp_path, echo=ECHO)
    with serve(tmp_path, lambda path: Answered(200, {"result": result})) as served:
        the_process = process(root, bin_dir, {"PATH": os.environ.get("PATH", os.defpath)})._replace(dial=served.dial)
        out, err = BytesIO(), BytesIO()
        code = main(["run", "--repo-dir", str(root), "audit"], out, err, the_process, FACTS)
    return code, out.getvalue().decode(), err.getvalue().decode(), branch_files(root)


def test_a_second_record_under_the_same_name_halts_and_is_written_under_none(tmp_path: Path) -> None:
    code, out, err, files = _audit(tmp_path, [{"id": "n-1"}, {"id": "n-2"}])
    assert code == 1
    assert "api.fleet.example was answered twice in this Step" in err
    assert "1 of 2" in out and out.rstrip().split("\n")[-1].startswith("failed · exit 1 · run ")
    versions = [name for name in files if name.startswith("records/fleet/fleet-nodes/api.fleet.example/")]
    assert len(versions) == 1 and b'"id": "n-1"' in files[versions[0]]


def test_one_record_under_the_name_completes(tmp_path: Path) -> None:
    code, out, _err, _files = _audit(tmp_path, [{"id": "n-1"}])
    assert code == 0, out

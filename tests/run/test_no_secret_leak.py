"""No secret reaches the Store, stdout, stderr or an envelope.

A credential set to a unique value is used for real — it crosses the wire to a local HTTPS
server the test stands up (a throwaway CA, no network) — beside a ``shell`` Step printing
the variable it would have inherited and a ``secret:`` field the server answers with a
second unique value. Then every output and every object on the branch is searched.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hyper.cli.main import dispatch
from hyper.cli.mcp import server
from hyper_mcp.driver import call_blocking
from tests.run.support import FACTS, VERSION, Answered, Served, build, process, run, scripts, serve

CREDENTIAL = "cred-7f3a9c1e-unique-credential-value"
ANSWERED_SECRET = "sess-52b8d0aa-unique-session-token"
PRINT_ENV = "#!/bin/sh\nprintf 'token=%s\\n' \"${PAID_API_TOKEN-unset}\"\n"
LEAK_PROBE = (
    "kind: procedure\nprocedure: leak-probe\ntargets: [paid-api, local]\nsteps:\n"
    "  - id: usage\n    definition: paid-usage\n    operation: read_usage\n    target: paid-api\n"
    "  - id: session\n    definition: paid-usage\n    operation: read_session\n    target: paid-api\n"
    "  - id: env\n    definition: host-checks\n    operation: read\n    target: local\n"
    "    args:\n      command: [print-env]\n"
)


def _answer(path: str) -> Answered:
    return Answered(200, {"token": ANSWERED_SECRET} if path == "/session" else {"used": 3})


@pytest.fixture
def paid_api(tmp_path: Path) -> Iterator[Served]:
    with serve(tmp_path, _answer) as served:
        yield served


def test_a_credential_and_a_secret_field_reach_nothing_hyper_writes(tmp_path: Path, paid_api: Served) -> None:
    root = build(tmp_path, {"procedures/leak-probe.yaml": LEAK_PROBE})
    bin_dir = scripts(tmp_path, print_env=PRINT_ENV)
    env = {"PATH": os.environ.get("PATH", os.defpath), "PAID_API_TOKEN": CREDENTIAL, "HYPER_REPO_DIR": str(root)}
    outside = tmp_path / "outside"
    outside.mkdir()
    sinks = [outside / surface for surface in ("text", "json", "mcp")]
    the_process = process(root, bin_dir, env)._replace(dial=paid_api.dial)

    from io import BytesIO

    from hyper.cli.main import main

    out, err = BytesIO(), BytesIO()
    code = main(
        ["run", "--repo-dir", str(root), "leak-probe", "--secret-out", str(sinks[0])], out, err, the_process, FACTS
    )
    json_out, json_err = BytesIO(), BytesIO()
    json_code = main(
        ["run", "--repo-dir", str(root), "leak-probe", "--secret-out", str(sinks[1]), "--json"],
        json_out,
        json_err,
        the_process,
        FACTS,
    )
    answered = call_blocking(
        server(VERSION, dispatch(the_process, FACTS)),
        "run",
        json.dumps({"procedure": "leak-probe", "secret_sink": str(sinks[2])}).encode(),
    )
    assert (code, json_code) == (0, 0), err.getvalue().decode()
    assert answered.envelope is not None and not answered.envelope.is_error
    assert paid_api.authorizations.count(f"Bearer {CREDENTIAL}") == 6, "the credential did reach the wire, every call"

    said = [out.getvalue(), err.getvalue(), json_out.getvalue(), json_err.getvalue(), answered.frame]
    objects = subprocess.run(
        ["git", "rev-list", "--objects", "hyper-store"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.split()
    stored = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=root,
        check=True,
        capture_output=True,
        input="".join(f"{name}\n" for name in objects if len(name) == 40).encode(),
    ).stdout
    assert b"token=unset" in stored, "the shell child did not inherit the credential"
    assert b"<secret>" in stored, "the secret field was recorded as the marker"
    for text in (*said, stored):
        assert CREDENTIAL.encode() not in text
        assert ANSWERED_SECRET.encode() not in text
    for sink in sinks:
        assert (sink / "0002" / "api.paid.example" / "token").read_bytes() == ANSWERED_SECRET.encode(), (
            "every surface put the secret in its sink, and only there"
        )


def test_a_run_with_no_credential_set_refuses_before_any_call(tmp_path: Path, paid_api: Served) -> None:
    root = build(tmp_path, {"procedures/leak-probe.yaml": LEAK_PROBE})
    ran = run(root, scripts(tmp_path, print_env=PRINT_ENV), "leak-probe")
    assert ran.code == 77
    assert "credential-absent" in ran.stdout
    assert paid_api.authorizations == []

"""``hyper probe`` on the paths the corpus does not pin: what it leaves behind, what it sends.

The pages, rows and usage sentences are corpus cases under ``corpus/probe/`` and
``corpus/mcp/probe/``; these need a repository built on the fly, a server whose request
log a test reads, or a dialer that must never be called.
"""

from __future__ import annotations

import io
import subprocess
from pathlib import Path
from typing import Any

import orjson

from hyper.cli.main import main
from hyper.core.process import Dialer, Process
from hyper.core.version import BuildFacts
from tests.capability.tls import NOW, Reply, serving

FACTS = BuildFacts(version="1.4.0")
HOST = "api.test.example"
SECRET = "cred-5b0e2f1d-never-sent"
PIN = "kind: repository-declaration\nversion: 1.4.0\ndigest: sha256:00\n"
LOCAL = f"kind: target-declaration\ntarget: local\nclass: local\nkinds: [read]\ncapabilities: [http]\nhosts: [{HOST}]\n"
PROD = (
    "kind: target-declaration\ntarget: prod\nclass: local\nkinds: [read]\ncapabilities: [http]\n"
    f"hosts: [{HOST}]\nauth:\n  token: {{env: API_TOKEN}}\n"
)
PROVIDER = """\
kind: provider
provider: api
schema-version: 1
class: local
capabilities: [http]
auth:
  header: {name: Authorization, prefix: "Bearer "}
operations:
  status:
    kind: read
    deadline: 10s
    http: {method: GET, host: "{from-target}", path: "/status/{which}"}
    input:
      type: object
      properties:
        which: {type: string, enum: [live, ready]}
        level: {type: integer}
    record:
      identity: $.host
      fields: {ok: $.body.ok, token: $.body.token}
    secret: [token]
"""


def _repository(root: Path) -> Path:
    for rel, body in {
        "hyper.yaml": PIN,
        "targets/local.yaml": LOCAL,
        "targets/prod.yaml": PROD,
        "providers/api.yaml": PROVIDER,
        "samples/answer.json": orjson.dumps({"host": HOST, "body": {"ok": True, "token": SECRET}}).decode(),
    }.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    return root


def _hyper(root: Path, dial: Dialer, *argv: str) -> tuple[int, str, str]:
    process = Process(
        environ={"API_TOKEN": SECRET},
        getwd=lambda: str(root),
        now=lambda: NOW,
        mint=lambda at: "",
        user=lambda: "tester",
        hostname=lambda: "box",
        dial=dial,
    )
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["probe", "--repo-dir", str(root), *argv], out, err, process, FACTS)
    return code, out.getvalue().decode(), err.getvalue().decode()


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def test_a_probe_writes_nothing_and_sends_no_credential(tmp_path: Path) -> None:
    root = _repository(tmp_path / "repo")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "fixture")
    before = (_git(root, "for-each-ref"), _git(root, "status", "--porcelain", "--ignored"))
    with serving(
        lambda seen: Reply(200, (("Content-Type", "application/json"),), b'{"ok":true,"token":"t"}')
    ) as server:
        code, out, err = _hyper(root, server.dial, "api", "status", "--input", "which=live", "--input", "level=2")
    assert (code, err) == (0, "")
    assert "authorization" not in server.seen[0].headers  # local has no credential slot
    assert server.seen[0].target == "/status/live"
    assert (_git(root, "for-each-ref"), _git(root, "status", "--porcelain", "--ignored")) == before
    assert SECRET not in out


def test_a_secret_field_is_the_marker_and_the_response_is_withheld(tmp_path: Path) -> None:
    root = _repository(tmp_path)

    def never(host: str, port: int, timeout: float | None) -> Any:
        raise AssertionError("a supplied response dials nothing")

    code, out, err = _hyper(root, never, "api", "status", "--response", "samples/answer.json", "--json")
    assert (code, err) == (0, "")
    row = orjson.loads(out.splitlines()[0])
    assert row["projection"] == [{"identity": HOST, "fields": {"ok": True, "token": "<secret>"}}]
    assert row["supplied"] is True
    assert row["response"]["host"] == HOST
    assert {k: v for k, v in row["response"].items() if k not in ("host", "status")} == {
        k: "<secret>" for k in row["response"] if k not in ("host", "status")
    }
    assert SECRET not in out


def test_every_input_fault_is_reported_at_once(tmp_path: Path) -> None:
    root = _repository(tmp_path)

    def never(host: str, port: int, timeout: float | None) -> Any:
        raise AssertionError("a usage error dials nothing")

    code, out, err = _hyper(
        root, never, "api", "status", "--input", "which=dead", "--input", "level=high", "--input", "x=1"
    )
    assert (code, out) == (2, "")
    lines = [line for line in err.splitlines() if line.startswith("hyper probe: ")]
    assert [line.split(":")[1].strip() for line in lines] == ["--input which=dead", "--input level=high", "--input x"]


def test_a_response_sample_that_is_a_device_a_fifo_or_a_link_out_is_not_read(tmp_path: Path) -> None:
    """Issue #12: a linked ``/dev/zero`` grew hyper to gigabytes and a FIFO held it forever."""
    import os

    root = _repository(tmp_path)

    def never(host: str, port: int, timeout: float | None) -> Any:
        raise AssertionError("a supplied response dials nothing")

    (root / "samples" / "zero.json").symlink_to("/dev/zero")
    os.mkfifo(root / "samples" / "fifo.json")
    for name, said in (("zero.json", "outside the repository"), ("fifo.json", "fifo, not a regular file")):
        code, out, err = _hyper(root, never, "api", "status", "--response", f"samples/{name}")
        assert (code, out) == (2, ""), err
        assert said in err and "Traceback" not in err

"""The Secret sink: ``<sink>/<nnnn>/<name>/<field>``, directories ``0700``, files ``0600``, each
file the value's bytes alone — and a sink path already there is the flag's fault."""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hyper.cli.main import main
from hyper.core.faults import SinkUnwritten
from hyper.run.sink import Sink
from tests.run.support import FACTS, Answered, Ran, Served, build, process, scripts, serve

SECRET = "sess-0c1d2e3f-sink-test-token"
PROBE = (
    "kind: procedure\nprocedure: sink-probe\ntargets: [paid-api]\nsteps:\n"
    "  - id: session\n    definition: paid-usage\n    operation: read_session\n    target: paid-api\n"
)
HALTS = (
    "kind: procedure\nprocedure: halts\ntargets: [paid-api, local]\nsteps:\n"
    "  - id: session\n    definition: paid-usage\n    operation: read_session\n    target: paid-api\n"
    "  - id: broken\n    definition: host-changes\n    operation: mutate\n    target: local\n"
    "    args:\n      command: [broken]\n"
)
QUIET = (
    "kind: procedure\nprocedure: no-secret\ntargets: [paid-api]\nsteps:\n"
    "  - id: usage\n    definition: paid-usage\n    operation: read_usage\n    target: paid-api\n"
)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def tight_umask() -> Iterator[None]:
    """A umask that would strip the owner's own bits: the modes must be set, not requested."""
    before = os.umask(0o277)
    try:
        yield
    finally:
        os.umask(before)


def test_the_sink_is_made_0700_whatever_the_umask(tmp_path: Path, tight_umask: None) -> None:
    Sink(str(tmp_path / "sink")).create()
    assert _mode(tmp_path / "sink") == 0o700


def test_a_sink_already_there_or_with_no_parent_is_not_made(tmp_path: Path) -> None:
    (tmp_path / "there").mkdir()
    with pytest.raises(SinkUnwritten, match="could not be made"):
        Sink(str(tmp_path / "there")).create()
    with pytest.raises(SinkUnwritten, match="could not be made"):
        Sink(str(tmp_path / "absent" / "sink")).create()
    assert not (tmp_path / "absent").exists()


def test_one_file_per_step_record_and_field(tmp_path: Path, tight_umask: None) -> None:
    sink = Sink(str(tmp_path / "sink"))
    sink.create()
    sink.write(1, "db-1", {"password": "p\u00e4ss", "port": 5432})
    sink.write(1, "db-2", {"password": "second"})
    sink.write(12, "\u00dc ber", {"key": {"a": [1, 2]}})
    sink.write(13, "nothing", {})

    root = tmp_path / "sink"
    found = sorted(str(path.relative_to(root)) for path in root.rglob("*"))
    assert found == [
        "0001",
        "0001/db-1",
        "0001/db-1/password",
        "0001/db-1/port",
        "0001/db-2",
        "0001/db-2/password",
        "0012",
        "0012/%C3%9C%20ber",
        "0012/%C3%9C%20ber/key",
    ]
    assert (root / "0001/db-1/password").read_bytes() == "p\u00e4ss".encode()
    assert (root / "0001/db-1/port").read_bytes() == b"5432"
    assert (root / "0012/%C3%9C%20ber/key").read_bytes() == b'{"a":[1,2]}'
    for path in (root, *root.rglob("*")):
        assert _mode(path) == (0o700 if path.is_dir() else 0o600), path


def _answer(path: str) -> Answered:
    return Answered(200, {"token": SECRET} if path == "/session" else {"used": 3})


@pytest.fixture
def paid_api(tmp_path: Path) -> Iterator[Served]:
    with serve(tmp_path, _answer) as served:
        yield served


def _repo(tmp_path: Path) -> Path:
    return build(
        tmp_path,
        {
            "procedures/sink-probe.yaml": PROBE,
            "procedures/no-secret.yaml": QUIET,
            "procedures/halts.yaml": HALTS,
        },
    )


def run(root: Path, served: Served, *args: str) -> Ran:
    env = {"PATH": os.environ.get("PATH", os.defpath), "PAID_API_TOKEN": "cred"}
    bin_dir = scripts(root.parent, broken="#!/bin/sh\nexit 3\n")
    the_process = process(root, bin_dir, env)._replace(dial=served.dial)
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["run", "--repo-dir", str(root), *args], out, err, the_process, FACTS)
    return Ran(code, out.getvalue().decode(), err.getvalue().decode())


def test_a_run_fills_the_sink_and_will_not_reuse_it(tmp_path: Path, paid_api: Served) -> None:
    root = _repo(tmp_path)
    sink = tmp_path / "sink"
    first = run(root, paid_api, "sink-probe", "--secret-out", str(sink))
    assert first.code == 0, first.stdout + first.stderr
    value = sink / "0001" / "api.paid.example" / "token"
    assert value.read_bytes() == SECRET.encode()
    assert (_mode(sink), _mode(value.parent), _mode(value)) == (0o700, 0o700, 0o600)

    again = run(root, paid_api, "sink-probe", "--secret-out", str(sink))
    assert again.code == 2
    assert "already" in again.stderr
    assert value.read_bytes() == SECRET.encode()


def test_a_sink_that_cannot_be_made_stops_the_run_before_any_call(tmp_path: Path, paid_api: Served) -> None:
    root = _repo(tmp_path)
    ran = run(root, paid_api, "sink-probe", "--secret-out", str(tmp_path / "no-parent" / "sink"))
    assert ran.code == 1
    assert "could not be made" in ran.stderr
    assert paid_api.authorizations == []


def test_a_sink_no_step_can_fill_refuses_the_run_and_makes_no_sink(tmp_path: Path, paid_api: Served) -> None:
    root = _repo(tmp_path)
    ran = run(root, paid_api, "no-secret", "--secret-out", str(tmp_path / "sink"))
    assert ran.code == 77, ran.stdout + ran.stderr
    assert "secret-sink-unfilled" in ran.stdout
    assert "procedures/no-secret.yaml" in ran.stdout
    assert not (tmp_path / "sink").exists()
    assert paid_api.authorizations == []


def test_a_rehearsal_is_not_exempt_from_the_unfilled_sink(tmp_path: Path, paid_api: Served) -> None:
    root = _repo(tmp_path)
    ran = run(root, paid_api, "no-secret", "--dry-run", "--secret-out", str(tmp_path / "sink"))
    assert ran.code == 77, ran.stdout + ran.stderr
    assert "secret-sink-unfilled" in ran.stdout


def test_a_halt_keeps_the_secrets_already_written(tmp_path: Path, paid_api: Served) -> None:
    root = _repo(tmp_path)
    sink = tmp_path / "sink"
    ran = run(root, paid_api, "halts", "--secret-out", str(sink))
    assert ran.code == 1, ran.stdout + ran.stderr
    assert (sink / "0001" / "api.paid.example" / "token").read_bytes() == SECRET.encode()
    assert sorted(path.name for path in sink.iterdir()) == ["0001"]

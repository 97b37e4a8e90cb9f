"""The two ``serve/`` keys the install cases stand on: ``answers`` in order, and ``repeat``."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from harness.fault import CaseFault
from harness.serve import Served, read_served, serving
from hyper.workflow.release import get
from tests.fixed import NOW


def test_answers_are_given_in_order_then_the_hosts_own() -> None:
    host = Served(404, body="gone", answers=(Served(200, body="first"), Served(200, body="second", repeat=3)))
    problems: list[str] = []
    with serving({"example.com": host}, NOW, problems) as dial:
        reads = [get(dial, "https://example.com/x") for _ in range(3)]
    assert reads == [(200, b"first"), (200, b"secondsecondsecond"), (404, b"gone")]
    assert problems == []


def test_a_served_file_reads_answers_and_repeat_strictly(tmp_path: Path) -> None:
    serve = tmp_path / "serve"
    serve.mkdir()
    (serve / "example.com.json").write_bytes(
        orjson.dumps({"status": 404, "answers": [{"status": 200, "body": "a", "repeat": 2}]})
    )
    assert read_served(serve)["example.com"].answers == (Served(200, body="a", repeat=2),)
    (serve / "example.com.json").write_bytes(orjson.dumps({"status": 200, "answers": [{"status": 200, "answers": []}]}))
    with pytest.raises(CaseFault, match="answers"):
        read_served(serve)
    (serve / "example.com.json").write_bytes(orjson.dumps({"status": 200, "repeat": 0}))
    with pytest.raises(CaseFault, match="repeat"):
        read_served(serve)

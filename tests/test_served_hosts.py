"""The ``serve/`` keys the run and install families stand on: dials refused a fixed number of
times and in a named way, a host that never answers, a body filled from the request, and a
``Content-Length`` the case declares."""

from __future__ import annotations

import socket
import ssl
from pathlib import Path

import orjson
import pytest

from harness.fault import CaseFault
from harness.serve import Served, read_served, serving
from hyper.core.faults import NotArrived
from hyper.workflow.release import get
from tests.fixed import NOW


def test_the_first_dials_fail_as_named_then_the_host_answers() -> None:
    host = Served(200, body="up", refuse_first=3, refuse_first_as=("name", "handshake"))
    with serving({"example.com": host}, NOW, []) as dial:
        raised = []
        for _ in range(3):
            with pytest.raises(OSError) as failed:
                dial("example.com", 443, 5)
            raised.append(type(failed.value))
        assert raised == [socket.gaierror, ssl.SSLCertVerificationError, ssl.SSLCertVerificationError]
        assert get(dial, "https://example.com/") == (200, b"up")


def test_a_refusal_named_by_no_kind_is_a_refused_connection() -> None:
    refused = pytest.raises(NotArrived, match="refused")
    with serving({"example.com": Served(0, refuse_first=1)}, NOW, []) as dial, refused:
        get(dial, "https://example.com/")


def test_a_body_is_filled_from_the_query_and_a_named_header() -> None:
    host = Served(200, body='{"q":"<<query>>","h":"<<header:x-page>>","none":"<<header:x-absent>>"}')
    with serving({"example.com": host}, NOW, []) as dial:
        assert get(dial, "https://example.com/list?page=2&per=5") == (200, b'{"q":"page=2&per=5","h":"","none":""}')


def test_a_declared_content_length_is_sent_as_declared() -> None:
    host = Served(200, headers=(("Content-Length", "40"),), body="kind: provider\n")
    with serving({"example.com": host}, NOW, []) as dial:
        sock = dial("example.com", 443, 5)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n")
        received = b""
        while chunk := sock.recv(4096):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    assert b"Content-Length: 40" in head and body == b"kind: provider\n"
    with serving({"example.com": host}, NOW, []) as dial, pytest.raises(NotArrived) as stopped:
        get(dial, "https://example.com/")
    assert str(stopped.value).endswith("the body stopped part-way: 15 of 40 bytes arrived")


def test_a_hanging_host_answers_nothing_until_the_case_is_over() -> None:
    with serving({"example.com": Served(0, hangs=True)}, NOW, []) as dial:
        sock = dial("example.com", 443, 5)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n")
        sock.settimeout(0.2)
        with pytest.raises(TimeoutError):
            sock.recv(1)
        sock.close()


@pytest.mark.parametrize(
    ("entry", "named"),
    [
        ({"status": 200, "refuse_first": -1}, "refuse_first"),
        ({"status": 200, "refuse_first": 1, "refuse_first_as": ["dns"]}, "refuse_first_as"),
        ({"status": 200, "refuse_first_as": ["name"]}, "refuses no dial"),
        ({"status": 200, "hangs": "yes"}, "hangs"),
        ({"status": 200, "answers": [{"status": 200, "hangs": True}]}, "hangs"),
        ({"body": "no status, and it neither refuses nor hangs"}, "status"),
    ],
)
def test_the_new_keys_are_read_strictly(tmp_path: Path, entry: dict[str, object], named: str) -> None:
    serve = tmp_path / "serve"
    serve.mkdir()
    (serve / "example.com.json").write_bytes(orjson.dumps(entry))
    with pytest.raises(CaseFault, match=named):
        read_served(serve)


def test_a_host_that_only_refuses_needs_no_status(tmp_path: Path) -> None:
    serve = tmp_path / "serve"
    serve.mkdir()
    (serve / "example.com.json").write_bytes(orjson.dumps({"refuse_first": 2, "refuse_first_as": ["name"]}))
    assert read_served(serve)["example.com"] == Served(0, refuse_first=2, refuse_first_as=("name",))


def test_a_host_of_answers_alone_repeats_its_last(tmp_path: Path) -> None:
    serve = tmp_path / "serve"
    serve.mkdir()
    answers = [{"status": 200, "body": "first"}, {"status": 201, "body": "last"}]
    (serve / "example.com.json").write_bytes(orjson.dumps({"answers": answers}))
    with serving(read_served(serve), NOW, []) as dial:
        got = [get(dial, "https://example.com/") for _ in range(3)]
    assert got == [(200, b"first"), (201, b"last"), (201, b"last")]

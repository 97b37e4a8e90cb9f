"""One absolute deadline over a whole request (issue #12 §3): a server that drips its answer a
byte at a time is cut off at the deadline, not let run as long as each byte comes in time.
And a grant written as an IPv6 literal with a port is dialled at that address and port."""

from __future__ import annotations

import socket
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from hyper.capability import http
from hyper.core.dial import Budget, resolve
from tests.capability.tls import NOW, contexts

pytestmark = pytest.mark.serial  # deadlines and budgets measured against the clock: run alone (ADR 0029)

HOST = "api.test.example"


@contextmanager
def dripping(pause: float) -> Iterator[tuple[int, ssl.SSLContext, threading.Event]]:
    """A TLS server that answers headers promising 200 bytes, then one byte every ``pause``."""
    _, side, trust = contexts([HOST])
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        raw, _ = listener.accept()
        with side.wrap_socket(raw, server_side=True) as conn:
            while b"\r\n\r\n" not in conn.recv(65536):
                pass
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 200\r\n\r\n")
            for _ in range(200):
                if stop.wait(pause):
                    return
                try:
                    conn.sendall(b"x")
                except OSError:
                    return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], trust, stop
    finally:
        stop.set()
        listener.close()
        thread.join(10)


def test_a_dripping_body_is_cut_off_at_the_deadline() -> None:
    with dripping(0.05) as (port, trust, _):

        def dial(host: str, _port: int, timeout: float | None) -> ssl.SSLSocket:
            raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
            return trust.wrap_socket(raw, server_hostname=host)

        # Each byte arrives well inside the deadline; the whole body would take ten seconds.
        exchange = http.send(http.Request("GET", HOST, "/"), dial, NOW, http.Clock(0.5))
    assert exchange.fault is not None and exchange.fault.reason == "deadline", exchange


def test_the_dial_budget_is_shared_and_runs_out() -> None:
    left = Budget(0.05)
    first = left()
    assert first is not None and first <= 0.05
    time.sleep(0.06)  # the budget is what is being tested: time passing is its input
    try:
        left()
    except TimeoutError:
        pass
    else:
        raise AssertionError("a spent budget answered time left")
    assert Budget(None)() is None


def test_resolution_answers_an_address_or_the_resolver_s_own_error() -> None:
    assert [address[3] for address in resolve("127.0.0.1", 443, 5)] == [("127.0.0.1", 443)]
    try:
        resolve("name.invalid", 443, 5)
    except socket.gaierror:
        pass
    except TimeoutError:
        pass  # a resolver slower than five seconds is told apart from one that answered


def test_an_ipv6_literal_grant_names_its_port() -> None:
    assert http._has_port("[::1]:8443")
    assert not http._has_port("[::1]")
    assert not http._has_port("::1")
    assert http._has_port("api.example.com:8443")
    assert not http._has_port("api.example.com")
    assert http._dialled_host("[::1]") == "::1"


def test_an_ipv6_literal_grant_is_dialled_at_its_address_and_port() -> None:
    dialled: list[tuple[str, int]] = []

    def dial(host: str, port: int, timeout: float | None) -> ssl.SSLSocket:
        dialled.append((host, port))
        raise ConnectionRefusedError(111, "Connection refused")

    exchange = http.send(http.Request("GET", "[::1]:8443", "/"), dial, NOW, http.Clock(5))
    assert dialled == [("::1", 8443)]
    assert exchange.fault is not None and exchange.fault.reason == "unsent"

"""The real dialer tries every address a granted name resolves to, in turn (issue #12 §3).

The resolver is the one part a test supplies: the name resolves to an address nobody
listens at (``127.0.0.2``, loopback, refused at once) and then to the test server's. The
connection, the handshake and the host name check are hyper's own
(:func:`hyper.core.dial.connect`), reached the way a Run reaches it, through the Process.
"""

from __future__ import annotations

import functools
import socket

from hyper.capability import http
from hyper.core.dial import Address, connect
from tests.capability.tls import NOW, Reply, Seen, serving

HOST = "api.test.example"


def _literal(address: str, port: int) -> list[Address]:
    return [(f, t, p, a) for f, t, p, _, a in socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)]


def test_a_name_whose_first_address_refuses_is_reached_at_its_second() -> None:
    asked: list[str] = []

    def ok(_: Seen) -> Reply:
        return Reply(200, (("Content-Type", "application/json"),), b'{"up": true}')

    with serving(ok, [HOST]) as server:

        def addresses(host: str, port: int, _timeout: float | None) -> list[Address]:
            asked.append(host)
            return _literal("127.0.0.2", server.port) + _literal("127.0.0.1", server.port)

        dial = functools.partial(connect, addresses=addresses, trust=lambda: server.trust)
        exchange = http.send(http.Request("GET", HOST, "/"), dial, NOW, http.Clock(10))
        assert exchange.fault is None, exchange
        assert exchange.response["body"] == {"up": True}
        assert [seen.target for seen in server.seen] == ["/"]
    assert asked == [HOST]


def test_where_no_address_connects_the_first_fault_is_the_one_said() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    # ``port`` is closed again: both loopback addresses refuse it.

    def addresses(_host: str, _port: int, _timeout: float | None) -> list[Address]:
        return _literal("127.0.0.2", port) + _literal("127.0.0.1", port)

    dial = functools.partial(connect, addresses=addresses)
    exchange = http.send(http.Request("GET", HOST, "/"), dial, NOW, http.Clock(10))
    assert exchange.fault is not None and exchange.fault.reason == "unsent", exchange
    assert exchange.fault.text.endswith(f"{HOST} refused the connection")


def test_a_name_that_resolves_to_nothing_is_not_dialled() -> None:
    dial = functools.partial(connect, addresses=lambda _h, _p, _t: [])
    exchange = http.send(http.Request("GET", HOST, "/"), dial, NOW, http.Clock(10))
    assert exchange.fault is not None and exchange.fault.reason == "unsent", exchange
    assert exchange.fault.text.endswith("did not resolve: it resolved to no address")

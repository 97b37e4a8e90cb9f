"""A handshake that fails verification says which of the three causes it was (#17).

Each cause is met for real: a peer the dialer's roots do not hold, a leaf past its end,
and a leaf for another name. The sentence names the host and the cause, and nothing the
peer sent."""

from __future__ import annotations

import ssl

from hyper.capability import http
from tests.capability import support
from tests.capability.tls import Reply, serving

HOST = "api.test.example"


def _failed(text: str) -> None:
    assert text.startswith(f"GET https://{HOST}/"), text
    assert f"the TLS handshake with {HOST} failed: the certificate {HOST} presented" in text


def test_an_unknown_issuer_is_named() -> None:
    with serving(lambda seen: Reply(200)) as server:
        server.trust = ssl.create_default_context()  # the system's roots: the test CA is not among them
        source = support.manifest(support.operation())
        answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(server.dial))
    assert answer.fault is not None and answer.fault.reason == "unsent"
    _failed(answer.fault.text)
    assert answer.fault.text.endswith("was issued by no authority this machine trusts (unknown issuer)")


def test_an_expired_certificate_is_named() -> None:
    with serving(lambda seen: Reply(200), expired=True) as server:
        source = support.manifest(support.operation())
        answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(server.dial))
    assert answer.fault is not None and answer.fault.reason == "unsent"
    _failed(answer.fault.text)
    assert answer.fault.text.endswith("has expired")


def test_a_certificate_for_another_host_is_named() -> None:
    with serving(lambda seen: Reply(200), hosts=["other.test.example"]) as server:
        server.hosts.append(HOST)  # the dial reaches the listener, whose leaf names another host
        source = support.manifest(support.operation())
        answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(server.dial))
    assert answer.fault is not None and answer.fault.reason == "unsent"
    _failed(answer.fault.text)
    assert answer.fault.text.endswith("is for another host name (wrong host)")
    assert "other.test.example" not in answer.fault.text

"""A handshake that fails verification says which of the three causes it was (#17).

Each cause is met for real: a peer the dialer's roots do not hold, a leaf past its end,
and a leaf for another name. The sentence names the host and the cause, and nothing the
peer sent."""

from __future__ import annotations

import ssl

import pytest

from hyper.capability import http
from tests.capability import support
from tests.capability.tls import Reply, serving

HOST = "api.test.example"
OTHER = "other.test.example"


@pytest.mark.parametrize(
    ("cause", "expired", "untrusted", "served_as", "ending"),
    [
        ("unknown issuer", False, True, HOST, "was issued by no authority this machine trusts (unknown issuer)"),
        ("expired", True, False, HOST, "has expired"),
        ("wrong host", False, False, OTHER, "is for another host name (wrong host)"),
    ],
)
def test_a_failed_verification_names_its_cause(
    cause: str, expired: bool, untrusted: bool, served_as: str, ending: str
) -> None:
    with serving(lambda seen: Reply(200), hosts=[served_as], expired=expired) as server:
        if untrusted:
            server.trust = ssl.create_default_context()  # the system's roots: the test CA is not among them
        if HOST not in server.hosts:
            server.hosts.append(HOST)  # the dial reaches the listener, whose leaf names another host
        source = support.manifest(support.operation())
        answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(server.dial))
    assert answer.fault is not None and answer.fault.reason == "unsent", cause
    text = answer.fault.text
    assert text.startswith(f"GET https://{HOST}/"), text
    assert f"the TLS handshake with {HOST} failed: the certificate {HOST} presented {ending}" in text
    assert text.endswith(ending) and OTHER not in text


def test_a_verification_error_carrying_no_openssl_code_is_still_named() -> None:
    # raised by code other than OpenSSL's (a wrapper, a stand-in dialer): no verify_code, no message
    def dial(host: str, port: int, timeout: float | None) -> ssl.SSLSocket:
        raise ssl.SSLCertVerificationError(1, "certificate verify failed")

    source = support.manifest(support.operation())
    answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(dial))
    assert answer.fault is not None and answer.fault.reason == "unsent"
    said = f"the TLS handshake with {HOST} failed: the certificate {HOST} presented did not verify: "
    assert said in answer.fault.text

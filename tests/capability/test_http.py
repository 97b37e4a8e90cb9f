"""The ``http`` Capability against a real local HTTPS server: the request, the grant, the answer."""

from __future__ import annotations

import threading
from typing import Any

import orjson

from hyper.capability import http
from hyper.capability.patterns import Exchange
from tests.capability import support
from tests.capability.tls import LIFE, NOW, Reply, Seen, serving

HOST = "api.test.example"


def _json(status: int, value: Any, *headers: tuple[str, str]) -> Reply:
    return Reply(status, (("Content-Type", "application/json"), *headers), orjson.dumps(value))


def test_a_read_answers_the_five_members_in_order() -> None:
    with serving(lambda seen: _json(200, {"b": 1, "a": [True, None]}, ("X-Up", "yes"))) as server:
        source = support.manifest(support.operation())
        answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(server.dial))
    assert answer.fault is None
    response = answer.response
    assert list(response) == ["host", "status", "headers", "body", "tls"]
    assert response["host"] == HOST and response["status"] == 200
    assert response["headers"]["x-up"] == "yes" and list(response["headers"]) == sorted(response["headers"])
    assert "connection" not in response["headers"]
    assert list(response["body"]) == ["a", "b"]  # held sorted, whatever the server wrote
    tls = response["tls"]
    assert list(tls) == ["not_after", "days_left", "subject", "issuer"]
    assert tls["days_left"] == LIFE.days  # floored: thirty days and six hours is thirty days
    assert tls["subject"] == f"CN={HOST},O=hyper tests" and tls["issuer"] == "CN=hyper test CA,O=hyper tests"
    assert tls["not_after"] == (NOW + LIFE).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert answer.pattern == {} and answer.pages == ()


def test_the_request_is_the_manifests_and_the_reserved_headers_are_hyper_s() -> None:
    text = support.operation(
        method="POST",
        path="/v1/{zone} x?",
        extra=(
            '      query: {b: "{zone}", a: "x y&z"}\n'
            '      headers: {Host: evil.example, X-Trace: "t-{zone}", content-length: "9", Connection: keep-alive}\n'
            '      body: {whole: "{count}", composed: "n{count}", flag: true, num: 10, quoted: "10", hex: 0x1F}\n'
        ),
        inputs="        zone: {type: string}\n        count: {type: integer}\n",
    )
    with serving(lambda seen: Reply(204)) as server:
        source = support.manifest(text)
        inputs = {"zone": "z/1", "count": 3}
        answer = http.perform(support.call(source, "get", support.target([HOST]), inputs), support.context(server.dial))
    assert answer.fault is None and answer.response["status"] == 204
    (seen,) = server.seen
    assert seen.method == "POST"
    assert seen.target == "/v1/z/1%20x%3F?b=z%2F1&a=x+y%26z"  # path escaped as a path, query in authored order
    assert seen.headers["host"] == HOST and seen.headers["x-trace"] == "t-z/1"
    assert seen.headers["content-type"] == "application/json" and seen.headers["connection"] == "close"
    assert seen.body == b'{"whole":3,"composed":"n3","flag":true,"num":10,"quoted":"10","hex":31}'
    assert seen.headers["content-length"] == str(len(seen.body))


def test_a_host_outside_the_grant_is_refused_before_anything_is_dialled() -> None:
    text = support.operation(extra="      host-input: host\n", inputs="        host: {type: string}\n")
    with serving(lambda seen: Reply(200)) as server:
        source = support.manifest(text)
        answer = http.perform(
            support.call(source, "get", support.target([HOST]), {"host": "elsewhere.example"}),
            support.context(server.dial),
        )
    assert answer.fault is not None and answer.fault.reason == "refused"
    assert answer.fault.error_code == "host-not-granted" and "elsewhere.example" in answer.fault.text
    assert server.dials == [] and server.seen == []


def test_a_candidate_set_meeting_the_grant_in_two_hosts_is_undecidable() -> None:
    with serving(lambda seen: Reply(200), [HOST, "b.test.example"]) as server:
        source = support.manifest(support.operation())
        answer = http.perform(
            support.call(source, "get", support.target([HOST, "b.test.example"]), {}), support.context(server.dial)
        )
    assert answer.fault is not None and answer.fault.error_code == "manifest-inconsistent"
    assert server.dials == []


def test_a_redirect_is_the_answer_and_is_never_followed() -> None:
    with serving(lambda seen: Reply(302, (("Location", f"https://{HOST}/elsewhere"),))) as server:
        source = support.manifest(support.operation())
        answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(server.dial))
    assert answer.fault is None
    assert answer.response["status"] == 302 and answer.response["headers"]["location"].endswith("/elsewhere")
    assert len(server.seen) == 1


def test_a_body_that_is_not_json_leaves_the_member_absent() -> None:
    for body in (b"<html>up</html>", b"", b"  ", b"[1] [2]", b"NaN"):
        with serving(lambda seen, body=body: Reply(200, (), body)) as server:  # type: ignore[misc]
            source = support.manifest(support.operation())
            answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(server.dial))
        assert "body" not in answer.response, body


CREDENTIAL = "tok-1f3c9a77-unique-credential"


def _everything_said(answer: Any) -> str:
    return repr(answer) + orjson.dumps(answer.response).decode() + (answer.fault.text if answer.fault else "")


def test_the_credential_reaches_the_wire_and_nothing_else() -> None:
    auth = 'auth:\n  header: {name: Authorization, prefix: "Bearer "}\n'
    with serving(lambda seen: _json(200, {"echo": "no secret here"})) as server:
        source = support.manifest(support.operation(auth=auth))
        answer = http.perform(
            support.call(source, "get", support.target([HOST]), {}, credentials={"token": CREDENTIAL}),
            support.context(server.dial),
        )
    assert server.seen[0].headers["authorization"] == f"Bearer {CREDENTIAL}"
    assert CREDENTIAL not in _everything_said(answer)


def test_basic_composes_the_two_slots_and_a_failed_call_says_nothing_of_them() -> None:
    auth = "auth:\n  basic: {}\n"
    with serving(lambda seen: Reply(200)) as server:
        source = support.manifest(support.operation(auth=auth))
        slots = {"username": "igor", "password": CREDENTIAL}
        answered = http.perform(
            support.call(source, "get", support.target([HOST]), {}, credentials=slots), support.context(server.dial)
        )
        server.refuse.append(HOST)
        failed = http.perform(
            support.call(source, "get", support.target([HOST]), {}, credentials=slots), support.context(server.dial)
        )
    import base64

    assert (
        server.seen[0].headers["authorization"] == "Basic " + base64.b64encode(f"igor:{CREDENTIAL}".encode()).decode()
    )
    assert failed.fault is not None and failed.fault.reason == "unsent" and failed.response == {"host": HOST}
    for answer in (answered, failed):
        assert CREDENTIAL not in _everything_said(answer)
    assert CREDENTIAL not in repr(http.credential(source.auth, slots))


def test_a_handshake_against_an_untrusted_peer_is_unsent() -> None:
    import ssl

    with serving(lambda seen: Reply(200)) as server:
        server.trust = ssl.create_default_context()  # the system's roots: the test CA is not among them
        source = support.manifest(support.operation())
        answer = http.perform(support.call(source, "get", support.target([HOST]), {}), support.context(server.dial))
    assert answer.fault is not None and answer.fault.reason == "unsent"
    assert "TLS handshake" in answer.fault.text and answer.response == {"host": HOST}


def test_the_deadline_cuts_a_call_in_flight() -> None:
    release = threading.Event()

    def stall(seen: Seen) -> Reply:
        release.wait(30)
        return Reply(200)

    try:
        with serving(stall) as server:
            source = support.manifest(support.operation())
            answer = http.perform(
                support.call(source, "get", support.target([HOST]), {}, deadline=0.3), support.context(server.dial)
            )
            release.set()
    finally:
        release.set()
    assert answer.fault is not None and answer.fault.reason == "deadline"
    assert answer.response == {"host": HOST}


def test_a_deadline_of_zero_dials_nothing() -> None:
    with serving(lambda seen: Reply(200)) as server:
        source = support.manifest(support.operation())
        answer = http.perform(
            support.call(source, "get", support.target([HOST]), {}, deadline=0.0), support.context(server.dial)
        )
    assert answer.fault is not None and answer.fault.reason == "deadline" and server.dials == []


def test_send_alone_is_one_request() -> None:
    with serving(lambda seen: _json(503, {})) as server:
        request = http.Request("GET", HOST, "/")
        exchange = http.send(request, server.dial, NOW, http.Clock(5))
    assert isinstance(exchange, Exchange) and exchange.fault is None and exchange.response["status"] == 503


def test_the_real_dialer_verifies_against_the_system_roots_alone() -> None:
    from hyper.core.process import Process

    with serving(lambda seen: Reply(200), ["localhost"]) as server:
        dial = Process._field_defaults["dial"]
        exchange = http.send(http.Request("GET", f"localhost:{server.port}", "/"), dial, NOW, http.Clock(5))
    assert exchange.fault is not None and exchange.fault.reason == "unsent" and server.seen == []
    assert "TLS handshake with localhost" in exchange.fault.text

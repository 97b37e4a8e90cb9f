"""The three closed Patterns, performed around real requests to a local HTTPS server."""

from __future__ import annotations

import urllib.parse
from typing import Any

import orjson

from hyper.capability import http
from tests.capability import support
from tests.capability.tls import Reply, Seen, serving

HOST = "api.test.example"


def _manifest(patterns: str, record: str | None = None) -> str:
    return (
        "kind: provider\nprovider: p\nschema-version: 1\nclass: c\ncapabilities: [http]\n"
        "operations:\n  list:\n    kind: read\n    deadline: 10s\n"
        '    http:\n      method: GET\n      host: "{from-target}"\n      path: /items\n'
        '      query: {per_page: "2", cursor: start}\n'
        f"    patterns:\n{patterns}"
        + (record or "    record:\n      over: $.body.items\n      identity: $.id\n      fields: {id: $.id}\n")
    )


def _query(seen: Seen) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(seen.target).query))


def _json(value: Any) -> Reply:
    return Reply(200, (("Content-Type", "application/json"),), orjson.dumps(value))


def _perform(text: str, server: Any, deadline: float = 10.0) -> Any:
    source = support.manifest(text)
    return http.perform(
        support.call(source, "list", support.target([HOST]), {}, deadline), support.context(server.dial)
    )


def test_a_cursor_walk_writes_the_token_over_the_authored_parameter_and_ends_on_an_empty_page() -> None:
    pages = {"start": ({"items": [{"id": 1}, {"id": 2}], "next": "c2"}), "c2": {"items": [{"id": 3}], "next": "c3"}}

    def answer(seen: Seen) -> Reply:
        return _json(pages.get(_query(seen)["cursor"], {"items": [], "next": "c9"}))

    with serving(answer) as server:
        walked = _perform(
            _manifest("      pagination:\n        cursor: {from: $.body.next, into: {query: cursor}}\n"), server
        )
    assert [_query(s)["cursor"] for s in server.seen] == ["start", "c2", "c3"]
    assert list(_query(server.seen[1])) == ["per_page", "cursor"]  # replaced in place, authored order kept
    assert [p["body"]["items"] for p in walked.pages] == [[{"id": 1}, {"id": 2}], [{"id": 3}]]
    assert walked.response["body"]["items"] == [] and walked.pattern == {"pages": 3}


def test_a_cursor_that_stops_resolving_ends_the_walk() -> None:
    with serving(lambda seen: _json({"items": [{"id": 1}]})) as server:
        walked = _perform(
            _manifest("      pagination:\n        cursor: {from: $.body.next, into: {query: cursor}}\n"), server
        )
    assert len(server.seen) == 1 and walked.pattern == {} and walked.pages == ()


def test_a_page_walk_writes_its_number_from_the_first_call_into_a_header() -> None:
    def answer(seen: Seen) -> Reply:
        number = int(seen.headers["x-page"])
        return _json({"items": [{"id": number}] if number < 3 else []})

    with serving(answer) as server:
        walked = _perform(_manifest("      pagination:\n        page: {from: 1, into: {header: X-Page}}\n"), server)
    assert [s.headers["x-page"] for s in server.seen] == ["1", "2", "3"]
    assert len(walked.pages) == 2 and walked.pattern == {"pages": 3}


def test_retry_follows_only_a_failure_that_preceded_the_request() -> None:
    with serving(lambda seen: _json({"items": []})) as server:
        server.refuse += [HOST, HOST]
        walked = _perform(_manifest("      retry: {attempts: 3}\n"), server)
    assert server.dials == [HOST, HOST, HOST] and len(server.seen) == 1
    assert walked.fault is None and walked.pattern == {"attempts": 3}


def test_an_exhausted_retry_answers_the_host_alone() -> None:
    with serving(lambda seen: _json({"items": []})) as server:
        server.refuse += [HOST, HOST, HOST]
        walked = _perform(_manifest("      retry: {attempts: 2}\n"), server)
    assert walked.fault is not None and walked.fault.reason == "unsent"
    assert walked.response == {"host": HOST} and walked.pattern == {"attempts": 2}


def test_a_status_is_an_answer_and_is_never_retried() -> None:
    with serving(lambda seen: Reply(503)) as server:
        walked = _perform(_manifest("      retry: {attempts: 5}\n"), server)
    assert len(server.seen) == 1 and walked.response["status"] == 503 and walked.pattern == {}


def test_polling_repeats_the_call_until_its_until_holds() -> None:
    states = iter(["pending", "pending", "done"])
    record = "    record:\n      identity: $.host\n      fields: {state: $.body.state}\n"
    with serving(lambda seen: _json({"state": next(states), "count": 1})) as server:
        walked = _perform(
            _manifest(
                "      polling:\n        interval: 0s\n        until:\n          - {field: body.state, equals: done}\n",
                record,
            ),
            server,
        )
    assert len(server.seen) == 3 and walked.response["body"]["state"] == "done"
    assert walked.fault is None and walked.pattern == {"polls": 3}


def test_an_until_that_cannot_compare_halts_naming_the_field() -> None:
    record = "    record:\n      identity: $.host\n      fields: {state: $.body.state}\n"
    with serving(lambda seen: _json({"state": "pending"})) as server:
        walked = _perform(
            _manifest(
                "      polling:\n        interval: 0s\n"
                "        until:\n          - {field: body.state, greater_than: 3}\n",
                record,
            ),
            server,
        )
    assert len(server.seen) == 1
    assert walked.fault is not None and walked.fault.reason == "deadline"
    assert "body.state" in walked.fault.text and "until:" in walked.fault.text


def test_the_deadline_bounds_every_poll() -> None:
    record = "    record:\n      identity: $.host\n      fields: {state: $.body.state}\n"
    with serving(lambda seen: _json({"state": "pending"})) as server:
        walked = _perform(
            _manifest(
                "      polling:\n        interval: 1s\n        until:\n          - {field: body.state, equals: done}\n",
                record,
            ),
            server,
            deadline=0.2,
        )
    assert walked.fault is not None and walked.fault.reason == "deadline" and len(server.seen) == 1

"""The response object's members, assembled off the wire or read from a file a caller saved."""

from __future__ import annotations

import datetime as _dt

import pytest

from hyper.capability.response import (
    body_member,
    distinguished_name,
    headers_member,
    read_supplied,
    tls_member,
)
from hyper.core.deepjson import compact
from hyper.core.faults import SuppliedFault


def test_headers_are_lowered_sorted_joined_and_free_of_framing() -> None:
    pairs = [("X-B", "1"), ("x-b", "2"), ("Content-Type", "a/b"), ("Connection", "close"), ("Transfer-Encoding", "x")]
    assert headers_member(pairs) == {"content-type": "a/b", "x-b": "1, 2"}


def test_a_body_is_present_only_where_it_parses_as_one_json_value() -> None:
    assert body_member(b'{"b":1,"a":{"d":2,"c":[{"z":1,"y":2}]}}') == (
        True,
        {"a": {"c": [{"y": 2, "z": 1}], "d": 2}, "b": 1},
    )
    assert body_member(b"123") == (True, 123)
    assert body_member(b"12345678901234567890123") == (True, 12345678901234567890123)
    for raw in (b"", b"  \n", b"<html/>", b'{"a":1} {"b":2}', b"NaN", b"[Infinity]"):
        assert body_member(raw) == (False, None), raw


def test_the_tls_facts_count_whole_days_from_the_invocations_instant() -> None:
    peer = {
        "notAfter": "May  6 21:41:14 2026 GMT",
        "subject": ((("organizationName", "hyper golden fixture"),), (("commonName", "status.hyper.dev"),)),
        "issuer": ((("commonName", "ca"),),),
    }
    instant = _dt.datetime(2026, 4, 2, 9, 41, 14, 221000, tzinfo=_dt.UTC)
    assert tls_member(peer, instant) == {
        "not_after": "2026-05-06T21:41:14Z",
        "days_left": 34,
        "subject": "CN=status.hyper.dev,O=hyper golden fixture",
        "issuer": "CN=ca",
    }
    assert tls_member(peer, _dt.datetime(2026, 5, 7, tzinfo=_dt.UTC))["days_left"] == -1  # type: ignore[index]


def test_a_name_renders_most_specific_first_and_escapes_what_rfc_4514_does() -> None:
    rdns = [
        [("countryName", "DE")],
        [("organizationName", "A, B")],
        [("organizationalUnitName", "x"), ("organizationalUnitName", "y")],
        [("commonName", " lead")],
    ]
    assert distinguished_name(rdns) == "CN=\\ lead,OU=x+OU=y,O=A\\, B,C=DE"


def test_the_row_encoding_leaves_html_characters_raw() -> None:
    assert compact({"a": "<&>"}) == b'{"a":"<&>"}'


def test_a_supplied_object_is_built_in_member_order_with_headers_lowered() -> None:
    read = read_supplied(
        "http", b'{"body": {"b": 1, "a": 2}, "headers": {"Content-Type": "x"}, "host": "h", "status": 200}'
    )
    assert list(read) == ["host", "status", "headers", "body"]
    assert read["headers"] == {"content-type": "x"} and list(read["body"]) == ["a", "b"]
    assert list(read_supplied("shell", b'{"stdout": "", "command": "[\\"x\\"]"}')) == ["command", "stdout"]


@pytest.mark.parametrize(
    ("capability", "data", "fault"),
    [
        ("http", b'{"status": 200}', "host:"),
        ("http", b'{"host": "h", "data": {}}', "data: no response object carries that member"),
        ("http", b'{"host": "h", "status": "200"}', "status: "),
        ("http", b'{"host": "h", "status": 200.0}', "status: "),
        ("http", b'{"host": "h", "headers": {"A": "1", "a": "2"}}', "lower to one header name"),
        ("http", b'{"host": "h", "tls": {"days": 3}}', "tls.days:"),
        ("http", b"[1]", "not a JSON object"),
        ("http", b"{", "not one JSON value"),
        ("shell", b'{"exit_code": 0}', "command:"),
        ("shell", b'{"command": "x", "host": "h"}', "host: no response object carries that member"),
    ],
)
def test_a_supplied_object_no_call_could_produce_is_refused(capability: str, data: bytes, fault: str) -> None:
    with pytest.raises(SuppliedFault, match=fault.replace(".", r"\.")):
        read_supplied(capability, data)

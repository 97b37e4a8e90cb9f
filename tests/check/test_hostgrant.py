"""A ``hosts:`` grant is ``host[:port]``, bracketed IPv6 included (#17)."""

from __future__ import annotations

import pytest

from hyper.check.hostgrant import misshapen


@pytest.mark.parametrize(
    "grant",
    [
        "api.example.com",
        "localhost:18443",
        "10.0.0.7",
        "10.0.0.7:8443",
        "[::1]",
        "[::1]:18443",
        "[2001:db8::7]:443",
        "xn--bcher-kva.example",
    ],
)
def test_a_host_with_an_optional_port_is_a_grant(grant: str) -> None:
    assert misshapen(grant) == ""


@pytest.mark.parametrize(
    ("grant", "instead"),
    [
        ("https://localhost:18443/", "write localhost:18443"),
        ("https://api.example.com", "write api.example.com"),
        ("https://[::1]:8443/v1", "write [::1]:8443"),
        ("::1", "write [::1]"),
    ],
)
def test_a_url_or_a_bare_ipv6_address_is_refused_with_what_to_write(grant: str, instead: str) -> None:
    said = misshapen(grant)
    assert said.startswith(f'"{grant}" is not a host[:port]') and said.endswith(instead)


@pytest.mark.parametrize(
    "grant",
    [
        "",
        "api.example.com/",
        "a b",
        "[::1",
        "[::1]x",
        "host:",
        "host:0",
        "host:99999",
        "-bad.example",
        "bad-.example",
        "api..example",
        "[not-an-address]",
    ],
)
def test_anything_else_is_refused(grant: str) -> None:
    assert misshapen(grant).startswith(f'"{grant}" is not a host[:port]')


def test_userinfo_is_refused_without_being_quoted() -> None:
    said = misshapen("igor:hunter2@api.example.com")
    assert "hunter2" not in said and "igor" not in said and "userinfo" in said

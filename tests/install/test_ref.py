"""The ref grammar: each clause on its own, the order they are read in, and what a Ref keeps."""

from __future__ import annotations

import pytest

from hyper.core.faults import NotARef
from hyper.registry import ref as grammar
from hyper.registry.ref import parse

REF = "https://providers.example.com/acme/dns.yaml"


@pytest.mark.parametrize(
    ("typed", "clause"),
    [
        ("https://providers.example.com/acme/dns .yaml", grammar.SPACE_OR_CONTROL),
        ("https://providers.example.com/acme/dns\x7f.yaml", grammar.SPACE_OR_CONTROL),
        ("https://providers.example.com/acme/dns\t.yaml", grammar.SPACE_OR_CONTROL),
        (f"{REF}?token=1", grammar.QUERY_OR_FRAGMENT),
        (f"{REF}#operations", grammar.QUERY_OR_FRAGMENT),
        ("https://providers.example.com:https/acme/dns.yaml", grammar.NOT_A_URL),
        ("https://providers.example.com/acme/%zz.yaml", grammar.NOT_A_URL),
        (":providers.example.com/dns.yaml", grammar.NOT_A_URL),
        ("providers_example:com/dns.yaml", grammar.NOT_A_URL),
        ("https://provi{ders}.example.com/dns.yaml", grammar.NOT_A_URL),
        ("http://providers.example.com/acme/dns.yaml", grammar.NOT_HTTPS),
        ("ftp://providers.example.com/acme/dns.yaml", grammar.NOT_HTTPS),
        ("providers.example.com/acme/dns.yaml", grammar.NOT_HTTPS),
        ("/etc/hyper/dns.yaml", grammar.NOT_HTTPS),
        ("https://acme:token@providers.example.com/acme/dns.yaml", grammar.USERINFO),
        ("https://acme@providers.example.com/acme/dns.yaml", grammar.USERINFO),
        ("https:///acme/dns.yaml", grammar.NO_HOST),
        ("https::443/acme/dns.yaml", grammar.NO_HOST),
        ("https://providers.example.com/acme/%FF.yaml", grammar.UNDECODABLE),
        ("https://providers.example.com/acme/..", grammar.DOT_SEGMENT),
        ("https://providers.example.com/acme/%2E%2E", grammar.DOT_SEGMENT),
        ("https://providers.example.com/acme/.", grammar.DOT_SEGMENT),
        ("https://providers.example.com/acme/sub%2Fdns.yaml", grammar.SEPARATOR),
        ("https://providers.example.com/acme/sub%5Cdns.yaml", grammar.SEPARATOR),
        ("https://providers.example.com/acme/sub\\dns.yaml", grammar.SEPARATOR),
        ("https://providers.example.com/acme/dns%0A.yaml", grammar.SEPARATOR),
        ("https://providers.example.com/acme/dns.json", grammar.NOT_YAML),
        ("https://providers.example.com/acme/", grammar.NOT_YAML),
        ("https://providers.example.com", grammar.NOT_YAML),
        ("https://providers.example.com/acme/dns.YAML", grammar.NOT_YAML),
    ],
)
def test_each_clause_refuses_on_its_own(typed: str, clause: str) -> None:
    with pytest.raises(NotARef) as refused:
        parse(typed)
    assert str(refused.value) == clause


@pytest.mark.parametrize(
    ("typed", "clause"),
    [
        ("http://acme@h/x.yaml?sig=1", grammar.QUERY_OR_FRAGMENT),
        ("http ://h/x.yaml?sig=1", grammar.SPACE_OR_CONTROL),
        ("http://acme@h/..", grammar.NOT_HTTPS),
        ("https://acme@/x.json", grammar.USERINFO),
        ("https:///..", grammar.NO_HOST),
        ("https://h/..", grammar.DOT_SEGMENT),
        ("https://h/a%2Fb", grammar.SEPARATOR),
    ],
)
def test_the_first_clause_broken_is_the_one_reported(typed: str, clause: str) -> None:
    with pytest.raises(NotARef) as refused:
        parse(typed)
    assert str(refused.value) == clause


def test_a_ref_keeps_what_was_typed_and_derives_its_checksums_beside_it() -> None:
    typed = "HTTPS://Providers.Example.com:8443/acme/v1/d%6Es.yaml"
    ref = parse(typed)
    assert ref.typed == typed
    assert ref.basename == "dns.yaml"
    assert ref.checksums_url == "HTTPS://Providers.Example.com:8443/acme/v1/checksums.txt"
    assert parse(REF).checksums_url == "https://providers.example.com/acme/checksums.txt"


def test_a_bare_host_with_a_yaml_name_is_a_ref() -> None:
    assert parse("https://providers.example.com/dns.yaml").basename == "dns.yaml"
    assert parse("https://[2001:db8::1]:443/dns.yaml").basename == "dns.yaml"

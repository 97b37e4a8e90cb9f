"""The Target declaration model: grants, hosts and credential slots as declared."""

from __future__ import annotations

from hyper.artefact.target import TargetDeclaration, read_target
from hyper.yaml import subset as yamlsubset


def target(text: str) -> TargetDeclaration:
    return read_target("targets/t.yaml", yamlsubset.parse(text.encode(), "t").root)


def test_a_declaration_reads_in_its_own_order() -> None:
    t = target(
        "kind: target-declaration\ntarget: hostco\nclass: hostco\nkinds: [read, mutate]\n"
        "capabilities: [http]\nhosts: [b.dev, a.dev]\nopaque-destroy: true\n"
        "auth:\n  username: {env: HOSTCO_USERNAME}\n  password: {env: HOSTCO_PASSWORD}\n"
    )
    assert t.declared_name == "hostco"
    assert (t.kind_values, t.capability_values, t.host_values) == (("read", "mutate"), ("http",), ("b.dev", "a.dev"))
    assert t.grants_opaque_destroy
    assert [(c.slot, c.env_name) for c in t.credentials] == [
        ("username", "HOSTCO_USERNAME"),
        ("password", "HOSTCO_PASSWORD"),
    ]
    assert t.credentials[0].key.line == 9


def test_a_malformed_slot_is_still_a_slot_naming_no_variable() -> None:
    t = target("auth:\n  token: TOKEN\n  key: {other: X, env: K}\n  gap: {env: [A]}\n")
    assert [(c.slot, c.env_name) for c in t.credentials] == [("token", ""), ("key", "K"), ("gap", "")]


def test_absent_and_misshapen_keys_read_as_not_stated() -> None:
    t = target("target: [x]\nkinds: read\nhosts: {a: b}\nauth: [a]\n")
    assert t.declared_name == "" and t.kinds is None and t.hosts is None and t.credentials == ()
    assert not t.grants_opaque_destroy
    assert read_target("targets/e.yaml", None).credentials == ()


def test_withhold_names_variables_and_nothing_else() -> None:
    t = target("withhold: [OP_SERVICE_ACCOUNT_TOKEN, {name: X}, AWS_PROFILE]\n")
    assert [item.value for _, item in t.withhold or ()] == ["OP_SERVICE_ACCOUNT_TOKEN", "AWS_PROFILE"]
    assert t.credentials == ()
    assert target("withhold: OP_SERVICE_ACCOUNT_TOKEN\n").withhold is None
    assert target("class: local\n").withhold is None

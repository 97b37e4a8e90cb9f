"""The Manifest model: every fact a discovery surface states, derived once and leniently."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from hyper.artefact import builtin, builtin_tree
from hyper.artefact.manifest import BUILTIN_PATH, Manifest, read_manifest
from hyper.yaml import subset as yamlsubset
from hyper.yaml.nodes import Map, Node, Scalar, Seq

DEMO = Path(__file__).resolve().parents[2] / "corpus" / "five-artefact-demo" / "repo"

SHELL_DIGEST = "sha256:2c572c3551bc4a6d424c6c5f9738657326f74b675d48b2a79e92683b4cdaa1e4"


def manifest(text: str, path: str = "providers/p.yaml") -> Manifest:
    data = text.encode()
    return read_manifest(path, data, yamlsubset.parse(data, path).root)


def test_the_built_in_shell_bytes_are_the_reference_contract() -> None:
    shell = builtin.shell()
    assert shell.digest == SHELL_DIGEST
    assert "sha256:" + hashlib.sha256(builtin.shell_bytes()).hexdigest() == SHELL_DIGEST
    assert shell.path == BUILTIN_PATH and shell.built_in and shell.origin_kind == "built-in"
    assert shell.declared_name == "shell"
    assert shell.summary == "class local; requires shell; 1 read, 3 mutate, 2 destroy"
    assert shell.auth_scheme == "none" and shell.capability_values == ("shell",)
    assert shell.schema_version_value == 1 and not shell.schema_unsupported


def held(node: Node) -> tuple[Any, ...]:
    """``node`` as :data:`hyper.artefact.builtin_tree.TREE` spells a node."""
    if isinstance(node, Scalar):
        return tuple(node)
    if isinstance(node, Seq):
        return ("seq", node.line, node.column, node.flow, tuple(held(item) for item in node.items))
    assert isinstance(node, Map)
    return ("map", node.line, node.column, node.flow, tuple((tuple(k), held(v)) for k, v in node.entries))


def spelled(node: Node, indent: int = 0) -> str:
    """``node``'s literal as :mod:`hyper.artefact.builtin_tree` writes it, one member a line."""
    if isinstance(node, Scalar):
        return repr(tuple(node)).replace("'", '"')
    pad = "    " * (indent + 1)
    if isinstance(node, Seq):
        lines = [f"{pad}{spelled(item, indent + 1)}," for item in node.items]
    else:
        assert isinstance(node, Map)
        lines = [f"{pad}({spelled(k)}, {spelled(v, indent + 1)})," for k, v in node.entries]
    kind = "seq" if isinstance(node, Seq) else "map"
    return "\n".join([f'("{kind}", {node.line}, {node.column}, {node.flow}, (', *lines, "    " * indent + "))"])


def test_the_built_in_tree_is_the_parse_of_its_bytes() -> None:
    """The built-in's tree is held as data so that no process parses it; the bytes stay the
    source of truth. Where they change, paste the literal this prints into builtin_tree.py."""
    parsed = yamlsubset.parse(builtin.shell_bytes(), BUILTIN_PATH)
    assert parsed.root is not None and parsed.ok and not parsed.faults
    assert held(parsed.root) == builtin_tree.TREE, "TREE: Final[Held] = " + spelled(parsed.root)
    assert held(builtin.shell_root()) == held(parsed.root)
    assert builtin.shell().root == parsed.root


def test_the_built_in_listing_is_what_its_bytes_come_to() -> None:
    """``providers`` states the built-in from these constants and never parses it: they must be
    exactly what the Manifest model derives from the bytes this build ships."""
    shell = builtin.shell()
    assert shell.summary == builtin.SHELL_SUMMARY
    assert len(shell.operations_by_name) == builtin.SHELL_OPERATION_COUNT
    assert shell.digest == builtin.SHELL_DIGEST == SHELL_DIGEST


def test_the_built_in_operations() -> None:
    facts = {
        op.name: (op.kind_value, op.opaque, op.summary, op.bound, op.record_cardinality)
        for op in builtin.shell().operations
    }
    assert facts == {
        "read": ("read", True, "shell; repeatable; projects one Record", "none", "one"),
        "mutate": ("mutate", True, "shell; repeatable; projects one Record", "none", "one"),
        "mutate_once": ("mutate", True, "shell; run-once; projects one Record", "none", "one"),
        "mutate_skip_if_recorded": ("mutate", True, "shell; skip-if-recorded; projects one Record", "none", "one"),
        "destroy": ("destroy", True, "shell; repeatable; projects no Record", "illegal", ""),
        "destroy_once": ("destroy", True, "shell; run-once; projects no Record", "illegal", ""),
    }
    read = builtin.shell().operation("read")
    assert read is not None and read.record_identity == "$.command" and read.deadline_seconds == 3600


def test_digests_are_over_the_exact_bytes() -> None:
    wanted = {
        "cloudflare-dns.yaml": "sha256:bdcb1f6ca78d449dcebfead665b363e70ca68a80d14fea354ad94af340ead1c8",
        "uptime.yaml": "sha256:14430d0615ccff83ca5062c11134192621a89380e92ce554177727f54ad092b7",
    }
    for name, digest in wanted.items():
        data = (DEMO / "providers" / name).read_bytes()
        assert read_manifest(f"providers/{name}", data, yamlsubset.parse(data, name).root).digest == digest
    assert manifest("kind: provider\n").digest != manifest("kind: provider \n").digest


def test_an_http_manifest_and_its_derived_facts() -> None:
    data = (DEMO / "providers" / "cloudflare-dns.yaml").read_bytes()
    m = read_manifest("providers/cloudflare-dns.yaml", data, yamlsubset.parse(data, "x").root)
    assert m.summary == "class cloudflare; requires http; 1 read, 1 mutate, 1 destroy"
    assert m.auth_scheme == "Authorization: Bearer <secret>" and m.origin_kind == "extension"
    assert m.auth is not None and m.auth.slots == ("token",)
    listing = m.operation("list_dns_records")
    assert listing is not None
    assert listing.capability == "http" and not listing.opaque
    assert listing.patterns_resolved == ("pagination", "retry")
    assert (listing.record_cardinality, listing.record_identity) == ("series", "$.id")
    assert listing.concurrency_limit == 4 and listing.deadline_seconds == 30
    assert listing.summary == "GET /client/v4/zones/{zone_id}/dns_records; repeatable; projects a Record series"
    delete = m.operation("delete_dns_record")
    assert delete is not None and delete.bound == "mandatory" and delete.record is None
    create = m.operation("create_dns_record")
    assert create is not None and create.effective_repeatability == "skip-if-recorded"
    assert create.record is not None and create.record.field_names == ("id", "name", "created_on")


@pytest.mark.parametrize(
    ("auth", "rendering"),
    [
        ("", "none"),
        ("auth:\n  header: {name: X-Key}\n", "X-Key: <secret>"),
        ('auth:\n  header: {name: Authorization, prefix: "Token "}\n', "Authorization: Token <secret>"),
        ("auth:\n  basic: {}\n", "Authorization: Basic <secret>"),
        ("auth: nope\n", ""),
        ("auth:\n  header: {prefix: x}\n", ""),
        ("auth:\n  header: nope\n", ""),
        ("auth: {}\n", ""),
    ],
)
def test_the_auth_scheme_is_composed_or_absent(auth: str, rendering: str) -> None:
    assert manifest(f"kind: provider\n{auth}").auth_scheme == rendering


def test_defaults_stated_by_omission() -> None:
    m = manifest(
        "operations:\n"
        "  r: {kind: read, deadline: 2m, http: {method: GET, host: h, path: /}, record: {identity: $.a},"
        " concurrency: 3}\n"
        "  m: {kind: mutate, deadline: 1d, http: {method: GET, host: h, path: /}, record: {identity: '{x}'},"
        " concurrency: 9}\n"
        "  d: {kind: destroy, deadline: 5x, shell: {}}\n"
        "  q: {deadline: 1s}\n"
    )
    r, mut, d, q = (m.operation(n) for n in "rmdq")
    assert r is not None and mut is not None and d is not None and q is not None
    assert (r.effective_repeatability, r.concurrency_limit, r.deadline_seconds) == ("repeatable", 3, 120)
    assert (mut.effective_repeatability, mut.concurrency_limit, mut.deadline_seconds) == ("run-once", 1, 86400)
    assert mut.run_once and not r.run_once
    assert (d.bound, d.deadline_seconds, d.deadline_text) == ("illegal", None, "5x")
    assert (q.kind_value, q.bound, q.effective_repeatability, q.capability, q.request) == ("", "", "", "", "")
    assert q.summary == "projects no Record"
    assert m.summary == "1 read, 1 mutate, 1 destroy"


def test_both_request_blocks_name_no_capability_and_shell_still_reads_opaque() -> None:
    op = manifest("operations:\n  x: {kind: read, http: {method: GET, path: /}, shell: {}}\n").operation("x")
    assert op is not None and op.capability == "" and op.opaque and op.request == "shell"


def test_secret_output_is_a_summary_clause_and_a_derived_list() -> None:
    op = manifest(
        "operations:\n  s:\n    kind: read\n    http: {method: GET, host: h, path: /s}\n"
        "    record: {identity: $.host, fields: {token: $.body.token, at: $.body.at}}\n"
        "    secret: [token, at]\n"
    ).operation("s")
    assert op is not None and op.secret_fields == ("token", "at")
    assert op.summary == "GET /s; repeatable; projects one Record; secret output: token, at"


def test_a_misshapen_manifest_reads_as_what_it_legibly_states() -> None:
    m = manifest("kind: provider\nprovider: [x]\ncapabilities: http\noperations: [a, b]\nschema-version: two\n")
    assert m.declared_name == "" and m.capability_values == () and m.capabilities is None
    assert m.operations == () and m.schema_version_value is None and not m.schema_unsupported
    assert m.summary == "no Operations"
    empty = read_manifest("providers/e.yaml", b"", None)
    assert empty.summary == "no Operations" and empty.auth_scheme == "none" and empty.operations == ()


@pytest.mark.parametrize(("version", "unsupported"), [("1", False), ("2", True), ("+2", True), ('"3"', True)])
def test_a_schema_version_above_the_readers_is_unsupported(version: str, unsupported: bool) -> None:
    assert manifest(f"schema-version: {version}\n").schema_unsupported is unsupported


def test_the_summary_counts_each_operation_name_once_and_sorts_capabilities() -> None:
    m = manifest(
        "class: c\ncapabilities: [shell, http, http]\noperations:\n"
        "  a: {kind: read}\n  b: {kind: destroy}\n  c: {kind: sideways}\n"
    )
    assert m.summary == "class c; requires http, shell; 1 read, 1 destroy"
    assert len(m.operations_by_name) == 3

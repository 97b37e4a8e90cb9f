"""The finer points of individual rules: what fires, where, and what stays silent beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyper.check.repository import narrow
from hyper.core.problem import Problem
from tests.check.repos import PROVIDER, check, procedure

Cited = tuple[int, int, str, str]


def cited(problems: list[Problem], file: str) -> list[Cited]:
    return [(p.line, p.column, p.field, p.error_code) for p in problems if p.file == file]


def _steps(tmp_path: Path, steps: str, **files: str) -> list[Cited]:
    extra: dict[str, str | bytes] = {f"{k.replace('__', '/')}.yaml": v for k, v in files.items()}
    return cited(check(tmp_path, {**procedure("go", steps), **extra}), "procedures/go.yaml")


def test_an_illegible_kind_is_a_schema_fault_and_nothing_more(tmp_path: Path) -> None:
    text = "kind: [definition]\ndefinition: reader\nprovider: p\ntargets: [t]\n"
    found = check(tmp_path, {"definitions/reader.yaml": text})
    assert cited(found, "definitions/reader.yaml") == [(1, 7, "kind", "schema-mismatch")]


def test_env_written_outside_a_slot_is_the_credential_rule_not_unknown_key(tmp_path: Path) -> None:
    text = "kind: definition\ndefinition: reader\nprovider: p\ntargets: [t]\nenv: TOKEN\n"
    found = check(tmp_path, {"definitions/reader.yaml": text})
    assert cited(found, "definitions/reader.yaml") == [(5, 1, "env", "credential-slot-malformed")]


def test_env_spelt_through_an_escape_is_the_credential_rule_too(tmp_path: Path) -> None:
    """A file whose bytes never spell ``env`` is not walked for the rule (hyper/check/shape.py),
    unless an escape could spell it: a double-quoted key is read for what it says."""
    text = 'kind: definition\ndefinition: reader\nprovider: p\ntargets: [t]\n"\\x65nv": TOKEN\n'
    found = check(tmp_path, {"definitions/reader.yaml": text})
    assert cited(found, "definitions/reader.yaml") == [(5, 1, "env", "credential-slot-malformed")]


def test_a_procedure_writing_no_targets_is_told_the_targets_its_steps_bind(tmp_path: Path) -> None:
    bound = (("a", "t"), ("b", "u"))
    steps = "".join(f"  - {{id: {id_}, definition: d, operation: get, target: {to}}}\n" for id_, to in bound)
    text = "kind: procedure\nprocedure: go\nsteps:\n" + steps
    found = [p for p in check(tmp_path, {"procedures/go.yaml": text}) if p.file == "procedures/go.yaml"]
    [row] = [p for p in found if p.field == "targets" and p.error_code == "schema-mismatch"]
    assert row.message.endswith(
        " — add targets: [t, u], the Targets its Steps bind; every envelope-exceeded row below follows from its absence"
    )
    assert all("add targets" not in p.message for p in found if p is not row)


def test_an_unreadable_schema_version_is_one_row_and_names_nothing(tmp_path: Path) -> None:
    manifest = "kind: provider\nprovider: q\nschema-version: 7\nclass: c\ncapabilities: [teleport]\nbogus: 1\n"
    definition = "kind: definition\ndefinition: qd\nprovider: q\nkinds: [read]\ntargets: [t]\n"
    found = check(tmp_path, {"providers/q.yaml": manifest, "definitions/qd.yaml": definition})
    assert cited(found, "providers/q.yaml") == [(3, 17, "schema-version", "manifest-schema-unsupported")]
    assert cited(found, "definitions/qd.yaml") == [(3, 11, "provider", "artefact-absent")]


def test_a_reserved_capability_replaces_the_mismatch_on_the_same_node(tmp_path: Path) -> None:
    manifest = (
        "kind: provider\nprovider: q\nschema-version: 1\nclass: local\ncapabilities: [http, shell]\noperations:\n"
        '  op:\n    kind: read\n    deadline: 1s\n    http: {method: GET, host: "{from-target}", path: /}\n'
        "    record: {identity: $.host}\n"
    )
    found = check(tmp_path, {"providers/q.yaml": manifest})
    assert cited(found, "providers/q.yaml") == [(5, 22, "capabilities", "capability-reserved")]


def test_a_requirement_stands_alone(tmp_path: Path) -> None:
    steps = (
        "  - id: all\n    definition: reader\n    operation: list\n    target: t\n"
        "  - id: sound\n    require: {step: all, field: id, exists: true}\n    bound: 1\n"
        "  - id: mixed\n    definition: reader\n    require: {step: all, field: id, exists: true}\n"
        "  - id: again\n    definition: reader\n    operation: list\n    target: t\n"
        "    when: {step: sound, field: id, exists: true}\n"
        "  - id: early\n    require: {step: later, field: nothing, exists: true}\n"
    )
    assert _steps(tmp_path, steps) == [
        (11, 5, "steps[1].bound", "unknown-key"),
        (12, 5, "steps[2]", "schema-mismatch"),
        (19, 18, "steps[3].when.step", "reference-unresolvable"),
        (21, 21, "steps[4].require.step", "reference-unresolvable"),
    ]


def test_a_values_list_wired_into_host_input_is_a_host_list(tmp_path: Path) -> None:
    provider = (
        "kind: provider\nprovider: up\nschema-version: 1\nclass: c\ncapabilities: [http]\noperations:\n"
        '  ping:\n    kind: read\n    deadline: 1s\n    http: {method: GET, host: "{from-target}", path: /, '
        "host-input: host}\n    input: {type: object, properties: {host: {type: string}}}\n"
        "    record: {identity: $.host, fields: {host: $.host}}\n"
    )
    target = (
        "kind: target-declaration\ntarget: t\nclass: c\nkinds: [read]\ncapabilities: [http]\n"
        "hosts: [a.example, b.example]\n"
    )
    definition = "kind: definition\ndefinition: pinger\nprovider: up\nkinds: [read]\ntargets: [t]\n"
    steps = (
        "  - id: ping\n    definition: pinger\n    operation: ping\n    target: t\n"
        "    over: {values: [a.example, c.example]}\n    args: {host: {item: $}}\n"
    )
    assert _steps(tmp_path, steps, providers__up=provider, targets__t=target, definitions__pinger=definition) == [
        (9, 32, "steps[0].over.values", "host-not-granted")
    ]


def test_a_host_set_several_wide_needs_a_host_input(tmp_path: Path) -> None:
    target = (
        "kind: target-declaration\ntarget: t\nclass: c\nkinds: [read, mutate, destroy]\ncapabilities: [http]\n"
        "hosts: [a.example, b.example]\n"
    )
    steps = "  - id: all\n    definition: reader\n    operation: list\n    target: t\n"
    assert _steps(tmp_path, steps, targets__t=target) == [(5, 5, "steps[0]", "manifest-inconsistent")]


def test_an_identity_fixed_before_the_call_collides_across_members(tmp_path: Path) -> None:
    steps = (
        "  - id: put\n    definition: writer\n    operation: put\n    target: t\n"
        "    over: {values: [a, b]}\n    args: {id: x}\n"
    )
    assert _steps(tmp_path, steps) == [(9, 20, "steps[0].over.values", "record-identity-collision")]


@pytest.mark.parametrize(
    ("predicate", "field"),
    [
        ("greater_than: 2026-01-01T00:00:00Z", "steps[1].when.greater_than"),
        ("in: [a, 1]", "steps[1].when.in[1]"),
        ("in: [a]", "steps[1].when.in[0]"),
        ("exists: false", "steps[1].when.exists"),
        ("older_than: soon", "steps[1].when.older_than"),
    ],
)
def test_operand_faults(tmp_path: Path, predicate: str, field: str) -> None:
    steps = (
        "  - id: all\n    definition: reader\n    operation: list\n    target: t\n"
        f"  - id: again\n    definition: reader\n    operation: list\n    target: t\n"
        f"    when: {{step: all, field: name, {predicate}}}\n"
    )
    assert [(f, code) for _, _, f, code in _steps(tmp_path, steps)] == [(field, "predicate-type-mismatch")]


def test_a_selector_on_a_secret_field_is_refused(tmp_path: Path) -> None:
    provider = (
        "kind: provider\nprovider: p\nschema-version: 1\nclass: c\ncapabilities: [http]\noperations:\n"
        '  list:\n    kind: read\n    deadline: 1s\n    http: {method: GET, host: "{from-target}", path: /}\n'
        "    record: {over: $.body, identity: $.id, fields: {id: $.id, token: $.token}}\n    secret: [token]\n"
    )
    steps = (
        "  - id: all\n    definition: reader\n    operation: list\n    target: t\n"
        "    over: {observations: [{field: token, exists: true}]}\n"
    )
    assert _steps(tmp_path, steps, providers__p=provider) == [
        (9, 35, "steps[0].over.observations[0].field", "predicate-type-mismatch")
    ]


def test_a_read_step_carries_no_bound_and_observations_select_for_reads_only(tmp_path: Path) -> None:
    steps = (
        "  - id: all\n    definition: reader\n    operation: list\n    target: t\n    bound: 2\n"
        "  - id: put\n    definition: writer\n    operation: put\n    target: t\n"
        "    over: {observations: [{field: id, exists: true}]}\n    args: {id: {item: $.id}}\n"
    )
    assert _steps(tmp_path, steps) == [
        (9, 12, "steps[0].bound", "unknown-key"),
        (14, 26, "steps[1].over.observations", "schema-mismatch"),
    ]


def test_an_argument_is_read_as_its_input_type(tmp_path: Path) -> None:
    typed = "id: {type: integer}}}\n    record: {identity: $.body.id"
    provider = PROVIDER.replace("id: {type: string}}}\n    record: {identity: $.body.id", typed)
    steps = "  - id: one\n    definition: reader\n    operation: get\n    target: t\n    args: {id: abc}\n"
    assert _steps(tmp_path, steps, providers__p=provider) == [(9, 16, "steps[0].args.id", "schema-mismatch")]


def test_an_invoked_procedure_reaching_outside_its_caller(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        **procedure("outer", "  - id: inner\n    procedure: inner\n", targets="[ro]"),
        **procedure("inner", "  - id: all\n    definition: reader\n    operation: list\n    target: t\n"),
    }
    assert cited(check(tmp_path, files), "procedures/outer.yaml") == [
        (6, 16, "steps[0].procedure", "envelope-exceeded")
    ]


@pytest.mark.parametrize(
    ("http", "field", "code"),
    [
        ('{method: GET, host: "{from-target}", path: "/x?y=1"}', "operations.op.http.path", "manifest-inconsistent"),
        ('{method: "GET ", host: "{from-target}", path: /}', "operations.op.http.method", "manifest-inconsistent"),
        ('{method: "{verb}", host: "{from-target}", path: /}', "operations.op.http.method", "hole-illegal"),
        ('{method: GET, host: "{region}.example", path: /}', "operations.op.http.host", "hole-illegal"),
        (
            '{method: GET, host: "{from-target}", path: /, body: {"{k}": v}}',
            "operations.op.http.body.{k}",
            "hole-illegal",
        ),
    ],
)
def test_request_positions(tmp_path: Path, http: str, field: str, code: str) -> None:
    manifest = (
        "kind: provider\nprovider: q\nschema-version: 1\nclass: c\ncapabilities: [http]\noperations:\n"
        f"  op:\n    kind: read\n    deadline: 1s\n    http: {http}\n    record: {{identity: $.host}}\n"
    )
    assert [(f, c) for _, _, f, c in cited(check(tmp_path, {"providers/q.yaml": manifest}), "providers/q.yaml")] == [
        (field, code)
    ]


def test_narrowing_keeps_a_file_or_a_directory(tmp_path: Path) -> None:
    files = ("definitions/a.yaml", "definitions/ab.yaml", "hyper.yaml")
    rows = [Problem(f, 1, 1, "", "unknown-key", "m") for f in files]
    assert [p.file for p in narrow(rows, ["definitions/a.yaml"])] == ["definitions/a.yaml"]
    assert [p.file for p in narrow(rows, ["definitions"])] == ["definitions/a.yaml", "definitions/ab.yaml"]
    assert narrow(rows, ["."]) == rows

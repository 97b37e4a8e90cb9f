"""Every error_code fires alone on a minimal repository, and the base repository is clean."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from hyper.artefact.repository import LOCK
from hyper.check import codes
from hyper.workflow.lock import lock
from tests.check.repos import STUB_WORKFLOW, check, procedure, workflow

_PUT = """\
  - id: put
    definition: writer
    operation: put
    target: t
"""
_SHELL_TARGET = """\
kind: target-declaration
target: sh
class: c
kinds: [read]
capabilities: [shell]
"""
_SECRET_PROVIDER = """\
kind: provider
provider: vault
schema-version: 1
class: c
capabilities: [http]
operations:
  issue:
    kind: read
    deadline: 10s
    http: {method: POST, host: "{from-target}", path: /token}
    record: {identity: $.body.id, fields: {id: $.body.id, token: $.body.token}}
    secret: [token]
"""
_REGIONAL_PROVIDER = """\
kind: provider
provider: regional
schema-version: 1
class: c
capabilities: [http]
enumerations: {region: [eu, us]}
operations:
  ping:
    kind: read
    deadline: 10s
    http: {method: GET, host: "{region}.example.com", path: /}
    record: {identity: $.host, fields: {host: $.host}}
"""


def _provider(extra: str, name: str = "q", operation: str = "") -> str:
    """A one-Operation http Provider; ``operation`` replaces its body, ``extra`` is added at the top level."""
    body = operation or (
        "    kind: read\n"
        "    deadline: 10s\n"
        '    http: {method: GET, host: "{from-target}", path: /}\n'
        "    record: {identity: $.host, fields: {host: $.host}}\n"
    )
    return (
        f"kind: provider\nprovider: {name}\nschema-version: 1\nclass: c\ncapabilities: [http]\n{extra}"
        f"operations:\n  op:\n{body}"
    )


CASES: Final[dict[str, dict[str, str | bytes]]] = {
    codes.STRICT_YAML_VIOLATION: {
        "targets/t.yaml": (
            "kind: target-declaration\ntarget: t\nclass: &c c\nkinds: [read, mutate, destroy]\n"
            "capabilities: [http]\nhosts: [api.example.com]\n"
        )
    },
    codes.UNKNOWN_KEY: {"hyper.yaml": "kind: repository-declaration\nversion: 1\ndigest: d\nextra: 1\n"},
    codes.SCHEMA_MISMATCH: {"hyper.yaml": "kind: repository-declaration\nversion: 1\ndigest: d\nretention: 1d12h\n"},
    codes.KIND_MISMATCH: {"hyper.yaml": "kind: definition\nversion: 1\ndigest: d\n"},
    codes.NAME_MISMATCH: {
        "definitions/reader.yaml": "kind: definition\ndefinition: reader2\nprovider: p\ntargets: [t]\n"
    },
    codes.SCHEMA_UNSUPPORTED: {
        "providers/q.yaml": _provider(
            "",
            operation="    kind: read\n    deadline: 10s\n"
            '    http: {method: GET, host: "{from-target}", path: "/{id}"}\n'
            "    input: {type: object, properties: {id: {type: string, minLength: 1}}}\n"
            "    record: {identity: $.host, fields: {host: $.host}}\n",
        )
    },
    codes.CREDENTIAL_SLOT_MALFORMED: {
        "targets/ro.yaml": (
            "kind: target-declaration\ntarget: ro\nclass: c\nkinds: [read]\ncapabilities: [http]\n"
            "hosts: [api.example.com]\nauth: {token: TOKEN}\n"
        )
    },
    codes.HOLE_ILLEGAL: {
        "providers/q.yaml": _provider(
            "",
            operation="    kind: read\n    deadline: 10s\n"
            '    http: {method: GET, host: "{from-target}", path: "/{nope}"}\n'
            "    record: {identity: $.host, fields: {host: $.host}}\n",
        )
    },
    codes.SERIES_REFERENCE: procedure(
        "go",
        "  - id: all\n    definition: reader\n    operation: list\n    target: t\n"
        "  - id: one\n    definition: reader\n    operation: get\n    target: t\n"
        "    args: {id: {step: all, path: $.id}}\n",
    ),
    codes.ARTEFACT_ABSENT: {
        "definitions/reader.yaml": "kind: definition\ndefinition: reader\nprovider: p\ntargets: [t, nowhere]\n"
    },
    codes.REFERENCE_UNRESOLVABLE: {
        "definitions/writer.yaml": "kind: definition\ndefinition: writer\nprovider: p\nkinds: [mutate]\n"
        "destroy: [delete, nothing]\ntargets: [t]\n"
    },
    codes.CAPABILITY_MISMATCH: {"providers/q.yaml": _provider("").replace("capabilities: [http]", "capabilities: []")},
    codes.MANIFEST_INCONSISTENT: {
        "providers/q.yaml": _provider(
            "",
            operation="    kind: mutate\n    repeatability: repeatable\n    deadline: 10s\n    concurrency: 2\n"
            '    http: {method: POST, host: "{from-target}", path: /}\n'
            "    record: {identity: $.host, fields: {host: $.host}}\n",
        )
    },
    codes.TARGET_INCONSISTENT: {
        "targets/ro.yaml": "kind: target-declaration\ntarget: ro\nclass: c\nkinds: [read]\ncapabilities: [http]\n"
    },
    codes.HEADER_RESERVED: {
        "providers/q.yaml": _provider(
            "",
            operation="    kind: read\n    deadline: 10s\n"
            '    http: {method: GET, host: "{from-target}", path: /, headers: {Host: example.com}}\n'
            "    record: {identity: $.host, fields: {host: $.host}}\n",
        )
    },
    codes.LOCAL_RESERVED: {
        "targets/local.yaml": "kind: target-declaration\ntarget: local\nclass: c\nkinds: [read]\n"
        "capabilities: [shell]\n"
    },
    codes.IDENTITY_UNDECLARED: {
        "providers/q.yaml": _provider(
            "",
            operation='    kind: read\n    deadline: 10s\n    http: {method: GET, host: "{from-target}", path: /}\n'
            "    record: {fields: {host: $.host}}\n",
        )
    },
    codes.TARGET_CLASS_MISMATCH: {
        "targets/other.yaml": "kind: target-declaration\ntarget: other\nclass: elsewhere\nkinds: [read]\n"
        "capabilities: [http]\nhosts: [api.example.com]\n",
        "definitions/reader.yaml": "kind: definition\ndefinition: reader\nprovider: p\nkinds: [read]\n"
        "targets: [t, other]\n",
    },
    codes.DEFINITION_KINDS_MIXED: {
        "definitions/reader.yaml": "kind: definition\ndefinition: reader\nprovider: p\nkinds: [read, mutate]\n"
        "targets: [t]\n"
    },
    codes.KIND_NOT_GRANTED: {
        "definitions/writer.yaml": "kind: definition\ndefinition: writer\nprovider: p\nkinds: [mutate]\n"
        "destroy: [delete]\ntargets: [t, ro]\n",
        **procedure("go", _PUT.replace("target: t", "target: ro") + "    args: {id: a}\n", targets="[t, ro]"),
    },
    codes.CAPABILITY_NOT_GRANTED: {
        "targets/sh.yaml": _SHELL_TARGET,
        "definitions/reader.yaml": "kind: definition\ndefinition: reader\nprovider: p\nkinds: [read]\n"
        "targets: [t, sh]\n",
    },
    codes.OPERATION_NOT_CLAIMED: procedure(
        "go",
        "  - id: gone\n    definition: writer\n    operation: purge\n    target: t\n"
        "    over: {values: [a]}\n    bound: 1\n    args: {id: {item: $}}\n",
    ),
    codes.TARGET_NOT_CLAIMED: procedure(
        "go",
        "  - id: one\n    definition: reader\n    operation: get\n    target: ro\n    args: {id: a}\n",
        targets="[ro]",
    ),
    codes.ENVELOPE_EXCEEDED: procedure(
        "go",
        "  - id: one\n    definition: reader\n    operation: get\n    target: t\n    args: {id: a}\n",
        targets="[ro]",
    ),
    codes.OPAQUE_DESTROY_NOT_GRANTED: {
        "targets/box.yaml": "kind: target-declaration\ntarget: box\nclass: local\nkinds: [read, mutate, destroy]\n"
        "capabilities: [shell]\n"
    },
    codes.BOUND_MISSING: procedure(
        "go",
        "  - id: gone\n    definition: writer\n    operation: delete\n    target: t\n"
        "    over: {values: [a]}\n    args: {id: {item: $}}\n",
    ),
    codes.BOUND_ILLEGAL: procedure(
        "go",
        "  - id: gone\n    definition: box-ops\n    operation: destroy\n    target: box\n"
        "    over: {values: [/tmp/x]}\n    bound: 1\n    args: {command: [rm, {item: $}]}\n",
        targets="[box]",
    ),
    codes.BOUND_NOT_POSITIVE: procedure("go", _PUT + "    bound: 0\n    args: {id: a}\n"),
    codes.HOST_NOT_GRANTED: {
        "providers/regional.yaml": _REGIONAL_PROVIDER,
        "targets/eu.yaml": "kind: target-declaration\ntarget: eu\nclass: c\nkinds: [read]\ncapabilities: [http]\n"
        "hosts: [eu.example.com]\n",
        "definitions/pinger.yaml": "kind: definition\ndefinition: pinger\nprovider: regional\nkinds: [read]\n"
        "targets: [eu]\n",
        **procedure(
            "go", "  - id: ping\n    definition: pinger\n    operation: ping\n    target: eu\n", targets="[eu]"
        ),
    },
    codes.COMMAND_MALFORMED: procedure(
        "go",
        "  - id: run\n    definition: box-ops\n    operation: mutate\n    target: box\n    args: {command: []}\n",
        targets="[box]",
    ),
    codes.DESTROY_UNSCOPED: procedure(
        "go",
        "  - id: gone\n    definition: writer\n    operation: delete\n    target: t\n    bound: 1\n    args: {id: a}\n",
    ),
    codes.SKIP_IF_RECORDED_UNREACHABLE: procedure(
        "go",
        "  - id: make\n    definition: writer\n    operation: make\n    target: t\n"
        "    over: {assets: [{field: name, equals: a}]}\n    args: {id: {item: $.id}}\n",
    ),
    codes.BOUND_EXCEEDED: procedure(
        "go", _PUT + "    over: {values: [a, b]}\n    bound: 1\n    args: {id: {item: $}}\n"
    ),
    codes.PREDICATE_TYPE_MISMATCH: procedure(
        "go",
        "  - id: all\n    definition: reader\n    operation: list\n    target: t\n"
        "  - id: again\n    definition: reader\n    operation: list\n    target: t\n"
        '    when: {step: all, field: name, starts_with: ""}\n',
    ),
    codes.RECORD_IDENTITY_COLLISION: procedure("go", _PUT + "    over: {values: [a, A]}\n    args: {id: {item: $}}\n"),
    codes.CADENCE_RUN_ONCE: {
        **procedure(
            "nightly",
            "  - id: once\n    definition: box-ops\n    operation: mutate_once\n    target: box\n"
            "    args: {command: [touch, /tmp/x]}\n",
            targets="[box]",
            cadence="0 3 * * *",
        ),
        workflow("nightly"): STUB_WORKFLOW,
        LOCK: lock(),
    },
    codes.CADENCE_SECRET_OUTPUT: {
        "providers/vault.yaml": _SECRET_PROVIDER,
        "definitions/issuer.yaml": "kind: definition\ndefinition: issuer\nprovider: vault\nkinds: [read]\n"
        "targets: [t]\n",
        **procedure(
            "nightly",
            "  - id: issue\n    definition: issuer\n    operation: issue\n    target: t\n",
            cadence="0 3 * * *",
        ),
        workflow("nightly"): STUB_WORKFLOW,
        LOCK: lock(),
    },
    codes.PROCEDURE_CYCLE: {
        **procedure("a", "  - id: b\n    procedure: b\n"),
        **procedure("b", "  - id: a\n    procedure: a\n"),
    },
    codes.CADENCE_MALFORMED: {
        **procedure(
            "nightly", "  - id: all\n    definition: reader\n    operation: list\n    target: t\n", cadence="@daily"
        ),
        workflow("nightly"): STUB_WORKFLOW,
        LOCK: lock(),
    },
    codes.PROJECTION_STALE: procedure(
        "nightly", "  - id: all\n    definition: reader\n    operation: list\n    target: t\n", cadence="0 3 * * *"
    ),
    codes.PROVIDER_NAME_COLLISION: {"providers/shell.yaml": _provider("", name="shell")},
    codes.CAPABILITY_RESERVED: {
        "providers/q.yaml": _provider(
            "",
            operation="    kind: read\n    deadline: 10s\n    shell: {}\n"
            "    input: {type: object, properties: {command: {type: array, items: {type: string}}}}\n"
            "    record: {identity: $.command, fields: {stdout: $.stdout}}\n",
        ).replace("capabilities: [http]", "capabilities: [shell]")
    },
    codes.ORIGIN_DIGEST_MISMATCH: {
        "providers/q.yaml": _provider("") + "origin:\n  ref: example.com/q@v1\n  digest: sha256:" + "0" * 64 + "\n"
    },
    codes.MANIFEST_SCHEMA_UNSUPPORTED: {
        "providers/q.yaml": _provider("").replace("schema-version: 1", "schema-version: 2")
    },
}


def test_the_base_repository_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {}) == []


def test_every_code_has_a_case() -> None:
    assert set(CASES) == codes.CODES


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_fires_alone(tmp_path: Path, code: str) -> None:
    found = check(tmp_path, CASES[code])
    assert found, f"{code}: no problem found"
    assert {p.error_code for p in found} == {code}, [str(p) for p in found]
    for p in found:
        assert p.message
        if p.error_code != codes.PROJECTION_STALE:
            assert p.line >= 1 and p.column >= 1

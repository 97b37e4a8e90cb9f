"""Minimal repositories for ``check``: a clean base, and one overlay per error_code.

The base binds one http Provider through a reader and a writer Definition to two
Targets and checks clean. Each case overlays the fewest files that make exactly one
code fire, so a case failing says which rule moved and no other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from hyper.artefact.repository import Repository, Unreadable, load_repository
from hyper.check.repository import check_repository
from hyper.core.problem import Problem
from hyper.workflow import WorkflowFacts

STUB_WORKFLOW: Final = b"# a workflow as the stub generator writes it\n"


def stub_generate(facts: WorkflowFacts) -> bytes:
    """The generator these tests project with: the same bytes for every Procedure."""
    return STUB_WORKFLOW


def workflow(procedure: str) -> str:
    return f".github/workflows/hyper-{procedure}.yml"


DECLARATION: Final = """\
kind: repository-declaration
version: 1.4.0
digest: sha256:0000000000000000000000000000000000000000000000000000000000000000
"""

PROVIDER: Final = """\
kind: provider
provider: p
schema-version: 1
class: c
capabilities: [http]
operations:
  get:
    kind: read
    deadline: 10s
    http: {method: GET, host: "{from-target}", path: "/items/{id}"}
    input: {type: object, properties: {id: {type: string}}}
    record: {identity: $.body.id, fields: {id: $.body.id, name: $.body.name}}
  list:
    kind: read
    deadline: 10s
    http: {method: GET, host: "{from-target}", path: /items}
    record: {over: $.body.items, identity: $.id, fields: {id: $.id, name: $.name}}
  put:
    kind: mutate
    repeatability: repeatable
    deadline: 10s
    http: {method: PUT, host: "{from-target}", path: "/items/{id}"}
    input: {type: object, properties: {id: {type: string}}}
    record: {identity: "{id}", fields: {id: $.body.id, name: $.body.name}}
  make:
    kind: mutate
    repeatability: skip-if-recorded
    deadline: 10s
    http: {method: POST, host: "{from-target}", path: "/items/{id}"}
    input: {type: object, properties: {id: {type: string}}}
    record: {identity: "{id}", fields: {id: $.body.id, name: $.body.name}}
  delete:
    kind: destroy
    repeatability: repeatable
    deadline: 10s
    http: {method: DELETE, host: "{from-target}", path: "/items/{id}"}
    input: {type: object, properties: {id: {type: string}}}
  purge:
    kind: destroy
    repeatability: repeatable
    deadline: 10s
    http: {method: DELETE, host: "{from-target}", path: "/items/{id}/all"}
    input: {type: object, properties: {id: {type: string}}}
"""

BASE: Final[dict[str, str]] = {
    "hyper.yaml": DECLARATION,
    "providers/p.yaml": PROVIDER,
    "targets/t.yaml": """\
kind: target-declaration
target: t
class: c
kinds: [read, mutate, destroy]
capabilities: [http]
hosts: [api.example.com]
""",
    "targets/ro.yaml": """\
kind: target-declaration
target: ro
class: c
kinds: [read]
capabilities: [http]
hosts: [api.example.com]
""",
    "targets/box.yaml": """\
kind: target-declaration
target: box
class: local
kinds: [read, mutate, destroy]
capabilities: [shell]
opaque-destroy: true
""",
    "definitions/reader.yaml": """\
kind: definition
definition: reader
provider: p
kinds: [read]
targets: [t]
""",
    "definitions/writer.yaml": """\
kind: definition
definition: writer
provider: p
kinds: [mutate]
destroy: [delete]
targets: [t]
""",
    "definitions/box-ops.yaml": """\
kind: definition
definition: box-ops
provider: shell
kinds: [mutate]
destroy: [destroy]
targets: [box]
""",
}


DEMO: Final[dict[str, str | bytes]] = {
    "definitions/preview-dns-observed.yaml": """\
kind: definition
definition: preview-dns-observed
provider: cloudflare-dns
kinds: [read]
targets: [cloudflare-prod]
""",
    "definitions/preview-dns.yaml": """\
kind: definition
definition: preview-dns
provider: cloudflare-dns
kinds: [mutate]
destroy: [delete_dns_record]
targets: [cloudflare-prod]
""",
    "procedures/retire-preview-dns.yaml": """\
kind: procedure
procedure: retire-preview-dns
targets: [cloudflare-prod]
cadence: "0 3 * * 1"
steps:
  - id: publish
    definition: preview-dns
    operation: create_dns_record
    target: cloudflare-prod
    args: {zone_id: 023e105f4ecef8ad9ca31a8372d0c353, name: preview-42.example.com, type: A, content: 203.0.113.10}
  - id: publish-aliases
    definition: preview-dns
    operation: create_dns_record
    target: cloudflare-prod
    over:
      values: [docs.preview-42.example.com, api.preview-42.example.com, cdn.preview-42.example.com]
    args: {zone_id: 023e105f4ecef8ad9ca31a8372d0c353, name: {item: $}, type: CNAME, content: preview-42.example.com}
    bound: 3
  - id: retire
    definition: preview-dns
    operation: delete_dns_record
    target: cloudflare-prod
    over:
      assets:
        - field: name
          starts_with: preview-
        - field: created_on
          older_than: 14d
    args: {zone_id: 023e105f4ecef8ad9ca31a8372d0c353, record_id: {item: $.id}}
    bound: 5
""",
    "providers/cloudflare-dns.yaml": """\
kind: provider
provider: cloudflare-dns
schema-version: 1
class: cloudflare
capabilities: [http]
auth:
  header: {name: Authorization, prefix: "Bearer "}
operations:
  create_dns_record:
    kind: mutate
    repeatability: skip-if-recorded
    deadline: 30s
    http:
      method: POST
      host: "{from-target}"
      path: /client/v4/zones/{zone_id}/dns_records
      body: {name: "{name}", type: "{type}", content: "{content}"}
    input:
      type: object
      properties:
        zone_id: {type: string}
        name: {type: string}
        type: {type: string, enum: [A, AAAA, CNAME]}
        content: {type: string}
    record:
      identity: "{name}"
      fields:
        id: $.body.result.id
        name: $.body.result.name
        created_on: $.body.result.created_on
  list_dns_records:
    kind: read
    repeatability: repeatable
    deadline: 30s
    concurrency: 4
    http:
      method: GET
      host: "{from-target}"
      path: /client/v4/zones/{zone_id}/dns_records
      query: {per_page: "100"}
    input:
      type: object
      properties:
        zone_id: {type: string}
    patterns:
      pagination:
        cursor: {from: $.body.result_info.cursor, into: {query: cursor}}
      retry: {attempts: 3}
    record:
      over: $.body.result
      identity: $.id
      fields: {id: $.id, name: $.name, created_on: $.created_on}
  delete_dns_record:
    kind: destroy
    repeatability: repeatable
    deadline: 30s
    http:
      method: DELETE
      host: "{from-target}"
      path: /client/v4/zones/{zone_id}/dns_records/{record_id}
    input:
      type: object
      properties:
        zone_id: {type: string}
        record_id: {type: string}
""",
    "targets/cloudflare-prod.yaml": """\
kind: target-declaration
target: cloudflare-prod
class: cloudflare
kinds: [read, mutate, destroy]
capabilities: [http]
hosts: [api.cloudflare.com]
auth:
  token: {env: CLOUDFLARE_API_TOKEN}
""",
}
"""The specification's worked example: a DNS Provider, its Target, two Definitions, one Procedure."""


def procedure(name: str, steps: str, targets: str = "[t]", cadence: str = "") -> dict[str, str | bytes]:
    """One ``procedures/<name>.yaml`` whose ``steps:`` block is ``steps`` (indented two spaces)."""
    head = f"kind: procedure\nprocedure: {name}\ntargets: {targets}\n"
    if cadence:
        head += f'cadence: "{cadence}"\n'
    return {f"procedures/{name}.yaml": head + "steps:\n" + steps}


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if isinstance(content, bytes) else content.encode())
    return root


def load(root: Path) -> Repository:
    loaded = load_repository(str(root))
    assert not isinstance(loaded, Unreadable), loaded
    return loaded


def check(root: Path, files: dict[str, str | bytes], base: bool = True) -> list[Problem]:
    merged: dict[str, str | bytes] = {**(BASE if base else {}), **files}
    return check_repository(load(write(root, merged)), generate=stub_generate)

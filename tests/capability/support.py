"""Building a Manifest, a Target and a call from text, for the ``http`` Capability's tests."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

from hyper.artefact.manifest import Manifest, read_manifest
from hyper.artefact.target import TargetDeclaration, read_target
from hyper.capability import Call, Context
from hyper.core.process import Dialer, Process
from hyper.yaml import subset as yamlsubset
from tests.capability.tls import NOW


def manifest(text: str) -> Manifest:
    data = text.encode()
    parsed = yamlsubset.parse(data, "providers/p.yaml")
    assert parsed.root is not None and not parsed.faults, parsed.faults
    return read_manifest("providers/p.yaml", data, parsed.root)


def target(hosts: list[str], name: str = "prod") -> TargetDeclaration:
    text = f"kind: target-declaration\ntarget: {name}\nclass: c\nkinds: [read]\ncapabilities: [http]\n"
    text += f"hosts: [{', '.join(hosts)}]\nauth:\n  token: {{env: TOKEN}}\n"
    parsed = yamlsubset.parse(text.encode(), f"targets/{name}.yaml")
    return read_target(f"targets/{name}.yaml", parsed.root)


def call(
    source: Manifest,
    operation: str,
    bound: TargetDeclaration,
    inputs: Mapping[str, Any],
    deadline: float | None = 10.0,
    credentials: Mapping[str, str] | None = None,
) -> Call:
    op = source.operation(operation)
    assert op is not None
    return Call(source, op, bound, inputs, deadline, credentials or {})


def context(dial: Dialer, instant: _dt.datetime = NOW) -> Context:
    process = Process(
        environ={},
        getwd=lambda: "/",
        now=lambda: instant,
        mint=lambda at: "",
        user=lambda: "tester",
        hostname=lambda: "box",
        dial=dial,
    )
    return Context(process, "/", instant, {})


def operation(
    name: str = "get",
    *,
    host: str = '"{from-target}"',
    path: str = "/items",
    extra: str = "",
    inputs: str = "",
    record: str = "    record:\n      identity: $.host\n      fields:\n        status: $.status\n",
    auth: str = "",
    method: str = "GET",
) -> str:
    """A one-Operation Manifest; ``extra`` lines go inside ``http:``, ``inputs`` under properties."""
    props = "    input:\n      type: object\n      properties:\n" + inputs if inputs else ""
    return (
        "kind: provider\nprovider: p\nschema-version: 1\nclass: c\ncapabilities: [http]\n"
        + auth
        + f"operations:\n  {name}:\n    kind: read\n    deadline: 10s\n"
        + f"    http:\n      method: {method}\n      host: {host}\n      path: {path}\n"
        + extra
        + props
        + record
    )

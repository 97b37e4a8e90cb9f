"""What the cross-artefact rules need to know about a Provider and a Target, read once.

A Step is checked against the Operation it binds, the Definition's claim and the
Target's grant; a Definition against its Provider and each Target it names. Reading
those facts off the parsed tree once per ``check`` — rather than per Step — keeps a
repository of thousands of artefacts linear, and reading them leniently (anything
misshapen reads as absent) keeps every shape fault the schema's to report, once.
"""

from __future__ import annotations

import re

from hyper.artefact import manifest, target
from hyper.check import codes
from hyper.core.namedtuple import NamedTuple
from hyper.core.problem import Problem
from hyper.yaml.access import at, member, quote, scalars
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

HOLE: Final = re.compile(r"\{([^{}]+)\}")
"""One template hole, ``{name}``, anywhere in a scalar."""

PATH: Final = re.compile(r'\$(?:\.[A-Za-z_][A-Za-z0-9_-]*|\["[^"]*"\])*')
"""The path grammar: ``$``, then ``.member`` or ``["member"]`` segments, and nothing else."""


def path_unreadable(file: str, node: Node, field: str, path: str) -> list[Problem]:
    """``schema-mismatch`` where ``path`` is outside :data:`PATH`.

    A Manifest's projection and a Step's ``{item:}`` reference read paths with one
    grammar, so an author is told the same thing wherever a path is mistyped.
    """
    if PATH.fullmatch(path) is not None:
        return []
    message = f'{quote(path)} is not a path the grammar reads — $ then .member or ["member"] segments'
    return [at(file, node, field, codes.SCHEMA_MISMATCH, message)]


SHELL_COMMAND_INPUT: Final = "command"
"""The input a shell Operation's argv arrives in, by convention rather than by position."""


class Input(NamedTuple):
    type: str
    enum: tuple[str, ...]


class Operation(NamedTuple):
    name: str
    kind: str
    """``read``, ``mutate`` or ``destroy``; ``""`` where the Manifest's own kind: is illegible."""
    shell: bool
    """The request is the shell Capability — which is what makes the Operation opaque."""
    series: bool
    """``record.over`` is present: the response projects many Records."""
    record_fields: frozenset[str]
    inputs: Mapping[str, Input]
    repeatability: str
    """``""`` where undeclared."""
    secret_fields: frozenset[str]
    host_template: str
    host_input: str
    identity: str

    @property
    def opaque_destroy(self) -> bool:
        return self.kind == "destroy" and self.shell

    @property
    def run_once(self) -> bool:
        """Effectful with no Repeatability written: the default that refuses a second run."""
        return self.repeatability == "" and self.kind in ("mutate", "destroy")

    @property
    def has_secret(self) -> bool:
        return bool(self.secret_fields)


class Provider(NamedTuple):
    name: str
    class_: str
    capabilities: frozenset[str]
    operations: Mapping[str, Operation]
    auth_slots: tuple[str, ...]
    """The credential slots the Auth scheme needs, in the scheme's order; empty for none."""
    record_fields: frozenset[str]
    """Every Operation's projected field names together: what a selector's field: names."""
    secret_fields: frozenset[str]
    enumerations: Mapping[str, tuple[str, ...]]


class Target(NamedTuple):
    name: str
    class_: str
    capabilities: frozenset[str]
    auth_slots: frozenset[str]
    kinds: frozenset[str]
    opaque_destroy: bool
    hosts: frozenset[str] | None
    """The host grant; ``None`` where the declaration writes no hosts: at all."""


def input_properties(input_node: Node | None) -> Mapping[str, Input]:
    """The top-level properties an Operation's ``input:`` declares, with type and enum.

    Each property's ``type:`` and ``enum:`` are found in one pass over its keys (the later
    where one is written twice, as :func:`member` reads it): every Operation of every
    Provider is read here, so a ``member`` scan per keyword was a measurable part of ``check``.
    """
    props = member(input_node, "properties")
    if not isinstance(props, Map):
        return {}
    declared: dict[str, Input] = {}
    for key, value in props.entries:
        type_: Node | None = None
        enum: Node | None = None
        if isinstance(value, Map):
            for keyword, given in value.entries:
                if keyword.value == "type":
                    type_ = given
                elif keyword.value == "enum":
                    enum = given
        declared[key.value] = Input(
            type=type_.value if isinstance(type_, Scalar) else "",
            enum=tuple(item.value for item in enum.items if isinstance(item, Scalar)) if isinstance(enum, Seq) else (),
        )
    return declared


def operation_facts(op: manifest.Operation) -> Operation:
    http = op.http
    return Operation(
        name=op.name,
        kind=op.kind_value,
        shell=op.opaque,
        series=op.record_cardinality == "series",
        record_fields=frozenset(op.record.field_names) if op.record is not None else frozenset(),
        inputs=input_properties(op.input),
        repeatability=op.repeatability_value,
        secret_fields=frozenset(op.secret_fields),
        host_template=http.host.value if http is not None and http.host is not None else "",
        host_input=http.host_input.value if http is not None and http.host_input is not None else "",
        identity=op.record_identity,
    )


def provider_facts(read: manifest.Manifest) -> Provider:
    operations = {op.name: operation_facts(op) for op in read.operations_by_name.values()}
    enumerations: dict[str, tuple[str, ...]] = {}
    if isinstance(read.enumerations, Map):
        for key, value in read.enumerations.entries:
            if isinstance(value, Seq):
                enumerations[key.value] = tuple([item.value for _, item in scalars(value)])
    return Provider(
        name=read.declared_name,
        class_=read.class_.value if read.class_ is not None else "",
        capabilities=frozenset(read.capability_values),
        operations=operations,
        auth_slots=read.auth.slots if read.auth is not None else (),
        record_fields=frozenset().union(*(op.record_fields for op in operations.values())),
        secret_fields=frozenset().union(*(op.secret_fields for op in operations.values())),
        enumerations=enumerations,
    )


def target_facts(read: target.TargetDeclaration) -> Target:
    return Target(
        name=read.declared_name,
        class_=read.class_.value if read.class_ is not None else "",
        capabilities=frozenset(read.capability_values),
        auth_slots=frozenset([slot.slot for slot in read.credentials]),
        kinds=frozenset(read.kind_values),
        opaque_destroy=read.grants_opaque_destroy,
        hosts=frozenset(read.host_values) if read.hosts is not None else None,
    )

"""The rules over a Manifest: its grammar, and every way it can disagree with itself.

A Manifest is data, so what it claims can be checked against what its own Operations
do with nothing but the file in hand: the Capabilities it declares must equal the
ones its request blocks use, every input it declares must reach the request, a hole
may only be filled from the source its position allows, a ``read`` must project a
Record and a ``destroy`` must not. None of this says whether the Manifest describes
its API truthfully — no static check can — only that it is one coherent claim.

Two rules are about where a Manifest was loaded from rather than what it says, and
so apply to ``providers/`` files and never to the built-in: an Extension may not
hold the ``shell`` Capability, and an installed one must still be the bytes its
``origin:`` digest names. A Manifest written in a newer schema than this hyper reads
gets one row and nothing else: checking keys it cannot understand would be guessing.
"""

from __future__ import annotations

import re

from hyper.artefact import manifest as artefact
from hyper.artefact.manifest import HttpRequest, Manifest, Operation, Record
from hyper.check import codes, predicate, schemas
from hyper.check.facts import HOLE, PATH, SHELL_COMMAND_INPUT, Input, Provider, input_properties, path_unreadable
from hyper.check.schema import check as schema_check
from hyper.check.shape import env_rules, kind_mismatch, name_mismatch
from hyper.core.namedtuple import NamedTuple
from hyper.core.pattern import compiled
from hyper.core.problem import Problem
from hyper.yaml.access import at, descend, join, member, quote, text
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

RESERVED_HEADERS: Final = frozenset({"host", "content-length", "content-type", "transfer-encoding", "connection"})
"""Headers hyper computes itself; a second writer would make the request disagree with what hyper did."""
RESERVED_CAPABILITIES: Final = frozenset({"shell"})
"""Held by the Providers hyper ships only: no third party may ship one that runs commands here."""
INPUT_KEYWORDS: Final = ("type", "enum", "properties", "items")
INPUT_TYPES: Final = frozenset({"string", "integer", "number", "boolean", "object", "array", "duration", "timestamp"})
_TOKEN: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_FIELD_PATH: Final = r'[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*|\["[^"]*"\])*'
"""Compiled on first use (:func:`hyper.core.pattern.compiled`): only a polling ``until:`` reads a field path."""
_ORIGIN_LINE: Final = b"origin:"


def check(read: Manifest, facts: Provider | None) -> list[Problem]:
    """Every problem in one Manifest; the built-in runs the same rules bar the two about origin.

    ``facts`` is what the index read off ``read``, where it is the Manifest its name resolves
    to (``None`` otherwise): its Operations' inputs are then not read a second time.
    """
    file = read.path
    if not read.built_in:
        unsupported = schema_version_unsupported(read)
        if unsupported:
            return unsupported
    problems = body(read, facts)
    if read.built_in:
        return problems
    reserved = capability_reserved(read)
    sites = {(p.line, p.column) for p in reserved}
    problems = [p for p in problems if not (p.error_code == codes.CAPABILITY_MISMATCH and (p.line, p.column) in sites)]
    problems += reserved
    problems += kind_mismatch(file, read.kind, artefact.KIND)
    problems += name_mismatch(file, read.name, artefact.NAME_KEY)
    problems += origin_digest(read)
    return problems


def schema_version_unsupported(read: Manifest) -> list[Problem]:
    version = read.schema_version_value
    if version is None or version <= artefact.SCHEMA_VERSION:
        return []
    return [
        at(
            read.path,
            read.schema_version,
            "schema-version",
            codes.MANIFEST_SCHEMA_UNSUPPORTED,
            f"schema-version: {version} is newer than the {artefact.SCHEMA_VERSION} this hyper reads — "
            "nothing else in this file is checked, since its shape is unknown here",
        )
    ]


def body(read: Manifest, facts: Provider | None) -> list[Problem]:
    file = read.path
    problems = schema_check(read.root, schemas.MANIFEST, file)
    problems += _auth(read)
    problems += _enumerations(read)
    enumerations = frozenset(read.enumerations.keys() if isinstance(read.enumerations, Map) else ())
    owned = read.auth.owned_header if read.auth is not None else ""
    named = read.operations_by_name if facts is not None else {}
    for op in read.operations:
        # The index read one Operation per name: the later of a duplicate, whose inputs it holds.
        shared = facts.operations.get(op.name) if facts is not None and named.get(op.name) is op else None
        inputs = shared.inputs if shared is not None else input_properties(op.input)
        problems += _operation(file, op, enumerations, owned, inputs)
    problems += capability_mismatch(read)
    problems += _shell_only_auth(read)
    return env_rules(file, read.root, problems, read.data)


def _request_capabilities(read: Manifest) -> list[tuple[Operation, str, Node]]:
    """Each Operation's Capability as its request block names it, with that block's node."""
    found: list[tuple[Operation, str, Node]] = []
    for op in read.operations:
        if op.capability == "http" and op.http is not None:
            found.append((op, "http", op.http.node))
        elif op.capability == "shell" and op.shell is not None:
            found.append((op, "shell", op.shell))
    return found


def capability_mismatch(read: Manifest) -> list[Problem]:
    """Declared must equal derived, in both directions — the check the extension model rests on."""
    declared = set(read.capability_values)
    derived: set[str] = set()
    problems: list[Problem] = []
    for op, capability, node in _request_capabilities(read):
        derived.add(capability)
        if capability not in declared:
            problems.append(
                at(
                    read.path,
                    node,
                    f"operations.{op.name}.{capability}",
                    codes.CAPABILITY_MISMATCH,
                    f"operations.{op.name} makes its request through {capability}, which capabilities: does "
                    "not declare",
                )
            )
    for _, item in read.capabilities or ():
        if item.value not in derived:
            problems.append(
                at(
                    read.path,
                    item,
                    "capabilities",
                    codes.CAPABILITY_MISMATCH,
                    f"capabilities: declares {item.value}, and no Operation makes its request through it",
                )
            )
    return problems


def capability_reserved(read: Manifest) -> list[Problem]:
    problems = [
        at(
            read.path,
            item,
            "capabilities",
            codes.CAPABILITY_RESERVED,
            f"capabilities: declares {item.value}, which only the Providers hyper ships may hold — "
            "an Extension never can",
        )
        for _, item in read.capabilities or ()
        if item.value in RESERVED_CAPABILITIES
    ]
    problems += [
        at(
            read.path,
            node,
            f"operations.{op.name}.{capability}",
            codes.CAPABILITY_RESERVED,
            f"operations.{op.name} makes its request through {capability}, which only the Providers hyper "
            "ships may hold — an Extension never can",
        )
        for op, capability, node in _request_capabilities(read)
        if capability in RESERVED_CAPABILITIES
    ]
    return problems


def _shell_only_auth(read: Manifest) -> list[Problem]:
    declared = member(read.root, "capabilities")
    if read.auth is None or not isinstance(declared, Seq) or len(declared.items) != 1:
        return []
    if text(declared.items[0]) != "shell":
        return []
    return [
        at(
            read.path,
            read.auth.node,
            "auth",
            codes.MANIFEST_INCONSISTENT,
            "auth: is written on a Provider whose only Capability is shell — a credential belongs to reaching "
            "a host, and a command reaches none",
        )
    ]


def _auth(read: Manifest) -> list[Problem]:
    auth = read.auth
    if auth is None or not isinstance(auth.node, Map):
        return []
    file = read.path
    problems = predicate.one_form(file, "auth", auth.node, artefact.AUTH_SCHEMES, "an Auth scheme")
    if auth.header is not None:
        problems += schema_check(auth.header, schemas.AUTH_HEADER, file, "auth.header")
        problems += _auth_holes(file, "auth.header", auth.header)
        name = member(auth.header, "name")
        if isinstance(name, Scalar):
            problems += _reserved_header(file, "auth.header.name", name)
    if auth.basic is not None:
        problems += schema_check(auth.basic, schemas.AUTH_BASIC, file, "auth.basic")
        problems += _auth_holes(file, "auth.basic", auth.basic)
    return problems


def _auth_holes(file: str, field: str, node: Node) -> list[Problem]:
    return [
        at(
            file,
            scalar,
            here,
            codes.HOLE_ILLEGAL,
            "an Auth scheme's parameters are literals — no hole of any kind may stand in them",
        )
        for here, scalar in descend(node, field)
        if isinstance(scalar, Scalar) and _has_hole(scalar.value)
    ]


def _reserved_header(file: str, field: str, name: Scalar) -> list[Problem]:
    if name.value.lower() not in RESERVED_HEADERS:
        return []
    return [
        at(
            file,
            name,
            field,
            codes.HEADER_RESERVED,
            f"{name.value} is a header hyper computes itself, so nothing in a Manifest may write it",
        )
    ]


def _enumerations(read: Manifest) -> list[Problem]:
    if not isinstance(read.enumerations, Map):
        return []
    problems: list[Problem] = []
    for key, value in read.enumerations.entries:
        field = f"enumerations.{key.value}"
        if not isinstance(value, Seq):
            problems.append(
                at(read.path, value, field, codes.SCHEMA_MISMATCH, "an enumeration is a list of bare scalars")
            )
            continue
        problems += [
            at(read.path, item, f"{field}[{i}]", codes.SCHEMA_MISMATCH, "an enumeration member is a bare scalar")
            for i, item in enumerate(value.items)
            if not isinstance(item, Scalar)
        ]
    return problems


def _operation(
    file: str, op: Operation, enumerations: frozenset[str], owned_header: str, declared: Mapping[str, Input]
) -> list[Problem]:
    field = f"operations.{op.name}"
    problems = schema_check(op.node, schemas.OPERATION, file, field)
    if not isinstance(op.node, Map):
        return problems
    problems += predicate.exactly_one_of(file, field, op.node, artefact.CAPABILITIES)
    inputs = {name: input_.type for name, input_ in declared.items()}
    holes = _request_holes(op.http) if op.http is not None else _NO_HOLES
    if op.http is not None and isinstance(op.http.node, Map):
        problems += _http(file, join(field, "http"), op.http, enumerations, inputs, owned_header, holes)
    if isinstance(op.input, Map):
        problems += _input_schema(file, join(field, "input"), op.input)
    if op.patterns is not None:
        problems += _patterns(file, join(field, "patterns"), op)
    if op.record is not None:
        problems += _record(file, join(field, "record"), op.record, inputs)
    problems += _kind_against_projection(file, field, op)
    problems += _secret(file, field, op)
    if op.patterns is not None and op.patterns.pagination is not None and (op.record is None or op.record.over is None):
        problems.append(
            at(
                file,
                op.patterns.pagination,
                join(field, "patterns.pagination"),
                codes.MANIFEST_INCONSISTENT,
                "patterns.pagination walks the collection record.over names, and record: names no over:",
            )
        )
    problems += _skip_identity(file, field, op)
    if op.capability:
        problems += _unreached_inputs(file, field, op, holes)
    return problems


def _kind_against_projection(file: str, field: str, op: Operation) -> list[Problem]:
    kind = op.kind_value
    problems: list[Problem] = []
    record = member(op.node, "record")
    if kind in ("read", "mutate") and record is None:
        problems.append(
            at(
                file,
                op.kind,
                field,
                codes.MANIFEST_INCONSISTENT,
                f"kind: {kind} writes a Record and this Operation has no record: — a read or a mutate must project one",
            )
        )
    elif kind == "destroy" and record is not None:
        problems.append(
            at(
                file,
                record,
                join(field, "record"),
                codes.MANIFEST_INCONSISTENT,
                "kind: destroy projects nothing, and this Operation writes a record: — a destroy carries none",
            )
        )
    if op.repeatability is not None and op.repeatability.value == "skip-if-recorded" and kind != "mutate":
        problems.append(
            at(
                file,
                op.repeatability,
                join(field, "repeatability"),
                codes.MANIFEST_INCONSISTENT,
                "repeatability: skip-if-recorded reads the Asset a mutate projects, and this Operation is no mutate",
            )
        )
    concurrency = member(op.node, "concurrency")
    if concurrency is not None and kind != "read":
        problems.append(
            at(
                file,
                concurrency,
                join(field, "concurrency"),
                codes.MANIFEST_INCONSISTENT,
                "concurrency: limits parallel reads, and this Operation is no read — effects run one at a time",
            )
        )
    return problems


def _secret(file: str, field: str, op: Operation) -> list[Problem]:
    """Every ``secret:`` name is a field the Operation's own ``record:`` projects."""
    if not op.secret:
        return []  # most Operations mark nothing secret: no projected set to build
    projected = set(op.record.field_names) if op.record is not None else set()
    return [
        at(
            file,
            item,
            f"{join(field, 'secret')}[{i}]",
            codes.MANIFEST_INCONSISTENT,
            f"secret: names {item.value}, which record: fields: does not project",
        )
        for i, item in op.secret or ()
        if item.value not in projected
    ]


def _skip_identity(file: str, field: str, op: Operation) -> list[Problem]:
    if op.repeatability is None or op.repeatability.value != "skip-if-recorded" or op.record is None:
        return []
    identity = op.record.identity
    if identity is None or not identity.value.startswith("$"):
        return []
    if op.opaque and identity.value == "$.command":
        return []
    return [
        at(
            file,
            identity,
            join(field, "record.identity"),
            codes.MANIFEST_INCONSISTENT,
            f"{quote(identity.value)} is known only once the response is back, and a skip-if-recorded test "
            "has to decide before the call",
        )
    ]


def _holes(value: str) -> list[str]:
    """The names of ``value``'s holes. Most values hold none, and looking for a brace first costs a
    fraction of running the pattern over every value of every request."""
    return HOLE.findall(value) if "{" in value else []


def _has_hole(value: str) -> bool:
    return "{" in value and HOLE.search(value) is not None


class _RequestHoles(NamedTuple):
    """An http: block's holes, found in one walk: the hole rules and the unused-input rule both read them."""

    names: frozenset[str]
    """Every hole in path:, query:, headers: and body: values (host: is filled from elsewhere)."""
    in_body_key: bool
    """A body: key holds a brace — a hole stands in no key, so there is a key to look at."""


_NO_HOLES: Final = _RequestHoles(frozenset(), False)


def _request_holes(http: HttpRequest) -> _RequestHoles:
    names: set[str] = set()
    if http.path is not None:
        names.update(_holes(http.path.value))
    for mapping in (http.query, http.headers):
        if isinstance(mapping, Map):
            for _, value in mapping.entries:
                if isinstance(value, Scalar):
                    names.update(_holes(value.value))
    in_body_key = False
    pending: list[Node] = [] if http.body is None else [http.body]
    while pending:  # the body's scalars and keys, walked without the field paths a row would need
        node = pending.pop()
        if isinstance(node, Scalar):
            names.update(_holes(node.value))
        elif isinstance(node, Map):
            for key, value in node.entries:
                in_body_key = in_body_key or "{" in key.value
                pending.append(value)
        elif isinstance(node, Seq):
            pending.extend(node.items)
    return _RequestHoles(frozenset(names), in_body_key)


def _unreached_inputs(file: str, field: str, op: Operation, holes: _RequestHoles) -> list[Problem]:
    """Every input the request reaches is filled by a hole, by host-input:, or (shell) is the command."""
    props = member(op.input, "properties")
    if not isinstance(props, Map):
        return []
    if op.opaque:
        reached: frozenset[str] = frozenset([SHELL_COMMAND_INPUT])
    elif op.http is not None and op.http.host_input is not None:
        reached = holes.names | {op.http.host_input.value}
    else:
        reached = holes.names
    return [
        at(
            file,
            key,
            join(field, f"input.properties.{key.value}"),
            codes.MANIFEST_INCONSISTENT,
            f"input {quote(key.value)} is declared, and nothing in the request uses it",
        )
        for key, _ in props.entries
        if key.value not in reached
    ]


def _http(
    file: str,
    field: str,
    http: HttpRequest,
    enumerations: frozenset[str],
    declared: Mapping[str, str],
    owned_header: str,
    holes: _RequestHoles,
) -> list[Problem]:
    """``holes`` are the block's, found once. Where each names a declared scalar input — nearly
    always — no position's holes have anything to say, so no position is walked for them again."""
    problems = schema_check(http.node, schemas.HTTP, file, field)
    misfilled = any(name not in declared or declared[name] in ("object", "array") for name in holes.names)
    method = http.method
    if method is not None:
        if _has_hole(method.value):
            problems.append(
                at(
                    file,
                    method,
                    join(field, "method"),
                    codes.HOLE_ILLEGAL,
                    "method: takes no hole — the verb is written literally, never chosen by a value from outside "
                    "the artefact",
                )
            )
        elif _TOKEN.fullmatch(method.value) is None:
            problems.append(
                at(
                    file,
                    method,
                    join(field, "method"),
                    codes.MANIFEST_INCONSISTENT,
                    f"method: {quote(method.value)} is not an HTTP token — one word of the characters RFC 9110 "
                    "allows, or no request can carry it",
                )
            )
    if http.host is not None:
        for name in _holes(http.host.value):
            if name != "from-target" and name not in enumerations:
                problems.append(
                    at(
                        file,
                        http.host,
                        join(field, "host"),
                        codes.HOLE_ILLEGAL,
                        f"{{{name}}} in host: is filled only from the Target (from-target) or an enumerations: "
                        "entry, and it names neither",
                    )
                )
    if http.path is not None:
        if misfilled:
            problems += _ordinary_holes(file, join(field, "path"), http.path, declared)
        problems += _path_delimiters(file, join(field, "path"), http.path)
    for name, mapping in (("query", http.query), ("headers", http.headers)):
        if isinstance(mapping, Map):
            for key, value in mapping.entries:
                if not isinstance(value, Scalar):
                    child = join(field, f"{name}.{key.value}")
                    problems.append(
                        at(file, value, child, codes.SCHEMA_MISMATCH, f"{name}: maps each name to one string")
                    )
                elif misfilled and "{" in value.value:  # no hole here to report: its field is never spelled
                    problems += _ordinary_holes(file, join(field, f"{name}.{key.value}"), value, declared)
    if isinstance(http.headers, Map):
        owned = owned_header.lower()
        for key, _ in http.headers.entries:
            lowered = key.value.lower()
            if lowered not in RESERVED_HEADERS and (not owned or lowered != owned):
                continue  # the commonest header: nothing to say, so no field to spell
            child = join(field, f"headers.{key.value}")
            problems += _reserved_header(file, child, key)
            if owned and lowered == owned:
                problems.append(
                    at(
                        file,
                        key,
                        child,
                        codes.MANIFEST_INCONSISTENT,
                        f"{key.value} is the header this Manifest's Auth scheme writes the credential into — a "
                        "second writer there is refused",
                    )
                )
    if isinstance(http.body, Map) and (misfilled or holes.in_body_key):
        problems += _body(file, join(field, "body"), http.body, declared)
    if http.host_input is not None and http.host_input.value not in declared:
        problems.append(
            at(
                file,
                http.host_input,
                join(field, "host-input"),
                codes.MANIFEST_INCONSISTENT,
                f"host-input: {http.host_input.value} names no input this Operation declares",
            )
        )
    return problems


def _ordinary_holes(file: str, field: str, node: Scalar, declared: Mapping[str, str]) -> list[Problem]:
    """Holes in a request position other than host: — each fills from one of the Operation's inputs."""
    problems: list[Problem] = []
    for name in _holes(node.value):
        if name not in declared:
            problems.append(
                at(file, node, field, codes.HOLE_ILLEGAL, f"{{{name}}} names no input this Operation declares")
            )
        elif declared[name] in ("object", "array"):
            problems.append(
                at(
                    file,
                    node,
                    field,
                    codes.MANIFEST_INCONSISTENT,
                    f"{{{name}}} fills a scalar position from an input declared {declared[name]}",
                )
            )
    return problems


def _path_delimiters(file: str, field: str, node: Scalar) -> list[Problem]:
    if "?" not in node.value and "#" not in node.value:
        return []  # taking the holes out cannot add either
    written = HOLE.sub("", node.value)
    if "?" in written:
        message = "path: holds a ? — hyper escapes it into the path; a query belongs in query: beside it"
    elif "#" in written:
        message = "path: holds a # — hyper escapes it into the path, and a fragment is never sent anyway"
    else:
        return []
    return [at(file, node, field, codes.MANIFEST_INCONSISTENT, message)]


def _body(file: str, field: str, node: Node, declared: Mapping[str, str]) -> list[Problem]:
    """A body: tree: a hole fills a value from an input, and never stands in a key."""
    problems: list[Problem] = []
    for here, current in descend(node, field):
        if isinstance(current, Scalar):
            problems += _ordinary_holes(file, here, current, declared)
        elif isinstance(current, Map):
            problems += [
                at(
                    file,
                    key,
                    join(here, key.value),
                    codes.HOLE_ILLEGAL,
                    "a hole fills a value, never a body: key — a key is no position at all",
                )
                for key, _ in current.entries
                if _has_hole(key.value)
            ]
    return problems


def _input_schema(file: str, field: str, node: Node) -> list[Problem]:
    """The input-schema subset, at every level of ``properties:`` and ``items:``."""
    problems: list[Problem] = []
    pending: list[tuple[str, Node]] = [(field, node)]
    while pending:
        here, current = pending.pop()
        if not isinstance(current, Map):
            problems.append(at(file, current, here, codes.SCHEMA_MISMATCH, "an input schema is a mapping"))
            continue
        parts: dict[str, Node] = {}  # each keyword (the later, where written twice), found in the same pass
        for key, value in current.entries:
            if key.value in INPUT_KEYWORDS:
                parts[key.value] = value
                continue
            problems.append(
                at(
                    file,
                    key,
                    join(here, key.value),
                    codes.SCHEMA_UNSUPPORTED,
                    f"{quote(key.value)} is outside the input-schema subset, which is type, enum, properties and items",
                )
            )
        type_ = parts.get("type")
        if type_ is not None and (not isinstance(type_, Scalar) or type_.value not in INPUT_TYPES):
            problems.append(
                at(
                    file,
                    type_,
                    join(here, "type"),
                    codes.SCHEMA_MISMATCH,
                    "type: is one of string, integer, number, boolean, object, array, duration or timestamp",
                )
            )
        enum = parts.get("enum")
        if enum is not None and not isinstance(enum, Seq):
            message = "enum: is a list of bare scalars"
            problems.append(at(file, enum, join(here, "enum"), codes.SCHEMA_MISMATCH, message))
        props = parts.get("properties")
        if isinstance(props, Map):
            pending.extend(
                (join(here, f"properties.{key.value}"), value) for key, value in props.entries if not _typed_only(value)
            )
        elif props is not None:
            problems.append(
                at(file, props, join(here, "properties"), codes.SCHEMA_MISMATCH, "properties: maps names to schemas")
            )
        items = parts.get("items")
        if items is not None:
            pending.append((join(here, "items"), items))
    return problems


def _typed_only(node: Node) -> bool:
    """A schema that writes nothing but a known ``type:`` — the commonest property of all,
    ``{type: string}`` — has nothing in it to report, so its field is never spelled."""
    if not isinstance(node, Map):
        return False
    for key, value in node.entries:
        if key.value != "type" or not isinstance(value, Scalar) or value.value not in INPUT_TYPES:
            return False
    return True


def _patterns(file: str, field: str, op: Operation) -> list[Problem]:
    patterns = op.patterns
    assert patterns is not None
    problems = schema_check(patterns.node, schemas.PATTERNS_BLOCK, file, field)
    if isinstance(patterns.pagination, Map):
        problems += _pagination(file, join(field, "pagination"), patterns.pagination)
    if isinstance(patterns.polling, Map):
        pfield = join(field, "polling")
        problems += schema_check(patterns.polling, schemas.POLLING, file, pfield)
        until = member(patterns.polling, "until")
        if isinstance(until, Seq):
            for i, item in enumerate(until.items):
                ifield = f"{pfield}.until[{i}]"
                found, read = predicate.core(file, ifield, item, allow_step=False)
                problems += found
                if (
                    read is not None
                    and read.field is not None
                    and compiled(_FIELD_PATH).fullmatch(read.field.value) is None
                ):
                    problems.append(
                        at(
                            file,
                            read.field,
                            join(ifield, "field"),
                            codes.SCHEMA_MISMATCH,
                            f"{quote(read.field.value)} is not a response path — until: field: is a path "
                            "written without its leading $",
                        )
                    )
    if patterns.retry is not None:
        problems += schema_check(patterns.retry, schemas.RETRY, file, join(field, "retry"))
    return problems


def _pagination(file: str, field: str, node: Map) -> list[Problem]:
    problems = predicate.exactly_one_of(file, field, node, ("cursor", "page"))
    for form, schema in (("cursor", schemas.CURSOR), ("page", schemas.PAGE)):
        written = member(node, form)
        if written is None:
            continue
        ffield = join(field, form)
        problems += schema_check(written, schema, file, ffield)
        into = member(written, "into")
        if isinstance(into, Map):
            problems += predicate.exactly_one_of(file, join(ffield, "into"), into, ("query", "header"))
        source = member(written, "from")
        if form == "cursor" and isinstance(source, Scalar):
            problems += path_unreadable(file, source, join(ffield, "from"), source.value)
    return problems


def _record(file: str, field: str, record: Record, declared: Mapping[str, str]) -> list[Problem]:
    problems = schema_check(record.node, schemas.RECORD, file, field)
    identity = record.identity
    if member(record.node, "identity") is None:
        problems.append(
            at(
                file,
                record.node,
                field,
                codes.IDENTITY_UNDECLARED,
                "record: projects a Record without an identity: — nothing would say which Record it is",
            )
        )
    elif identity is not None:
        if identity.value.startswith("$"):
            problems += path_unreadable(file, identity, join(field, "identity"), identity.value)
        elif identity.value.startswith("{"):
            problems += _ordinary_holes(file, join(field, "identity"), identity, declared)
        else:
            problems.append(
                at(
                    file,
                    identity,
                    join(field, "identity"),
                    codes.SCHEMA_MISMATCH,
                    f"identity: {quote(identity.value)} is neither a response path ($…) nor a template hole ({{…}})",
                )
            )
    if isinstance(record.over, Scalar):
        problems += path_unreadable(file, record.over, join(field, "over"), record.over.value)
    if isinstance(record.fields, Map):
        for key, value in record.fields.entries:
            if isinstance(value, Scalar) and PATH.fullmatch(value.value) is not None:
                continue  # the commonest field, a path the grammar reads: no field to spell
            child = join(field, f"fields.{key.value}")
            if isinstance(value, Scalar):
                problems += path_unreadable(file, value, child, value.value)
            elif isinstance(value, Map) and member(value, "secret") is not None:
                problems.append(
                    at(
                        file,
                        value,
                        child,
                        codes.SCHEMA_MISMATCH,
                        f"a field is made secret by secret: [{key.value}] beside record:, never inside fields: "
                        "— a marking here would be dropped and the value stored in the clear",
                    )
                )
            else:
                problems.append(at(file, value, child, codes.SCHEMA_MISMATCH, "a fields: entry is one response path"))
    return problems


def origin_digest(read: Manifest) -> list[Problem]:
    """An installed Manifest's bytes, up to its origin: block, still hash to the digest recorded."""
    origin = read.origin
    if origin is None or not isinstance(origin.node, Map) or origin.ref is None or origin.digest is None:
        return []
    published = _published(read.data)
    if published is None:
        return []
    from hyper.core.digest import sha256  # deferred: only an installed Manifest records a digest

    recomputed = sha256(published)
    if origin.digest.value == recomputed:
        return []
    if published.endswith(b"\n") and origin.digest.value == sha256(published[:-1]):
        return []
    return [
        at(
            read.path,
            origin.digest,
            "origin.digest",
            codes.ORIGIN_DIGEST_MISMATCH,
            f"origin: records digest {origin.digest.value}, and the bytes above the block hash to {recomputed} "
            "— re-install the Manifest, or drop its origin: block if the edit is deliberate; never retype "
            "the digest",
        )
    ]


def _published(data: bytes) -> bytes | None:
    """The file up to the last line that starts with ``origin:`` at column 0: what install verified."""
    end: int | None = None
    start = 0
    while start < len(data):
        if data.startswith(_ORIGIN_LINE, start):
            end = start
        newline = data.find(b"\n", start)
        if newline < 0:
            break
        start = newline + 1
    return None if end is None else data[:end]

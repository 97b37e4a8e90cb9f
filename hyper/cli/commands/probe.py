"""``hyper probe <provider> <operation>``: what does this endpoint actually answer?

A Probe is the cheapest question hyper lets anyone ask the world, and it is cheap by
writing nothing: no Record, no Journal entry, no Provenance, no lock, no Store, no
credential. Its instant is its own start and is recorded nowhere. An agent authoring a
Manifest against an unfamiliar API asks it twenty times, and none of those questions
costs a reviewed Definition.

What it may not escape is reach. It invokes a ``read`` Operation — never an effectful
one and never an opaque one, whatever any Target grants (usage errors: no edit would
make either work) — bound to the repository's ``local`` Target, and a host outside
``local``'s ``hosts:`` grant is ``host-not-granted``, a Refusal at 77 citing the line to
edit. ``local`` carries no credential slot, so nothing secret is ever sent, and that is
what makes the raw response safe to show beside the projection.

It exits 0 whatever came back — a 503, or no response at all — because a read never
halts on what it was told: the exit code says the command did what was asked, and the
page says what came back.

``--response <path>`` is the second form, and it makes no call: the Operation's
``record:`` block is read against a response object the caller saved, so the rules that
bound a request leaving this machine (Kind, opacity, the grant) have nothing to bound,
and any Operation may be projected — including the response to a create, the one no
calling form could ever look at. The path is read against the repository root.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from hyper.artefact.manifest import SECRET_MARKER, Manifest, Operation
from hyper.artefact.repository import Repository
from hyper.artefact.target import LOCAL
from hyper.capability import Fault, Response, http, projection, reach
from hyper.capability.response import read_supplied
from hyper.cli.commands.operation import resolve_operation
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.deepjson import compact
from hyper.core.faults import SuppliedFault, TemplateFault
from hyper.core.row import Row
from hyper.render.table import table
from hyper.render.terminal import result
from hyper.yaml.subset import Map

COMMAND = "probe"
FIELD_COLUMNS = ("FIELD", "VALUE")
UNRESOLVED_COLUMNS = ("UNRESOLVED", "PATH")


class _Usage(Exception):
    """A usage error: its lines follow ``hyper probe: ``."""


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    resolved = resolve_operation(inv, to, ctx)
    if resolved is None:
        return codes.USAGE
    repo, manifest, op = resolved
    try:
        if inv.response is not None:
            return _supplied(inv, to, ctx, manifest, op, inv.response)
        return _live(inv, to, ctx, repo, manifest, op)
    except _Usage as fault:
        to.usage("".join(f"hyper {COMMAND}: {line}\n" for line in fault.args))
        return codes.USAGE


def _live(inv: Invocation, to: Destination, ctx: Context, repo: Repository, manifest: Manifest, op: Operation) -> int:
    """The calling form: one request, bound to ``local``, answered whatever came back."""
    name = f"{manifest.declared_name} {op.name}"
    if op.opaque:
        raise _Usage(
            f"{name} is opaque, and no Target's grant lets a Probe invoke an opaque Operation\n"
            "  no edit to any artefact changes that; run the command yourself if you need its answer"
        )
    if op.kind_value != "read":
        raise _Usage(
            f"{name} declares kind: {op.kind_value}, and a Probe invokes read Operations only\n"
            "  an effectful Operation runs as a Step of a reviewed Procedure — hyper run"
        )
    inputs = _inputs(op, inv.inputs, every=True)
    instant = ctx.process.now()
    declared = op.http
    if declared is None:
        raise _Usage(f"{name} has no legible http: block; hyper check says what is wrong with it")
    local = repo.targets.get(LOCAL)
    where = reach.resolve(
        declared.host.value if declared.host is not None else "",
        _enumerations(manifest),
        local.host_values if local is not None else (),
        declared.host_input.value if declared.host_input is not None else "",
        inputs,
    )
    if where.verdict == "undecidable":
        raise _Usage(
            f"{LOCAL}'s hosts: grant holds {where.granted} of the hosts {name} can reach, and it declares no "
            "host-input:\n  which host the request would go to cannot be decided — name an input carrying the "
            f"host in the Manifest, or grant {LOCAL} only one of them"
        )
    if where.verdict == "illegible":
        raise _Usage(
            f"{name} writes a host: hole that names neither from-target nor an enumeration\n"
            "  hyper check says what is wrong with the Manifest"
        )
    if where.verdict == "outside":
        to.refusal(_host_not_granted(repo, where.host))
        return codes.REFUSED
    try:
        request = http.build(declared, where.host, inputs)
    except TemplateFault as fault:
        raise _Usage(str(fault)) from None
    exchange = http.send(request, ctx.process.dial, instant, http.Clock(op.deadline_seconds, ctx.process.monotonic))
    if exchange.fault is not None:
        to.narrate(_no_answer(op, exchange.fault))
    return _answer(to, manifest, op, inputs, exchange.response, supplied=False)


def _no_answer(op: Operation, fault: Fault) -> str:
    """The reason nothing came back, on stderr only: no response member ever says it."""
    if fault.reason == "deadline":
        return f"hyper {COMMAND}: the Operation's deadline of {op.deadline_text} passed before any response arrived\n"
    return f"hyper {COMMAND}: no response arrived: {fault.text}\n"


def _enumerations(manifest: Manifest) -> dict[str, tuple[str, ...]]:
    from hyper.check.facts import provider_facts  # deferred: start-up cost

    return dict(provider_facts(manifest).enumerations)


def _host_not_granted(repo: Repository, host: str) -> str:
    """The Refusal, citing the ``hosts:`` line of ``local`` where there is one to edit."""
    # deferred: start-up cost
    from hyper.render.refusal import Citation, Edit, Member, about_invocation, citing_artefact

    code = "host-not-granted"
    quoted = f'"{host}"' if host else "the host this Operation would reach"
    local = repo.targets.get(LOCAL)
    if local is None:
        return about_invocation(
            [
                Member(
                    code,
                    f"no Target named {LOCAL} is declared here, so nothing is granted — write "
                    f"targets/{LOCAL}.yaml with a hosts: list holding {quoted}",
                )
            ]
        )
    entry = local.root.get("hosts") if isinstance(local.root, Map) else None
    if entry is None:
        return about_invocation(
            [
                Member(
                    code,
                    f"{LOCAL} has no hosts: list, so it grants no host — add one holding {quoted} to {local.file}",
                )
            ]
        )
    line = entry[0].line
    loaded = repo.file(local.file)
    source = loaded.data.decode("utf-8", "replace") if loaded is not None else None
    return citing_artefact(
        [
            Citation(
                error_code=code,
                message=f"{LOCAL}'s grant does not hold {host or 'any host'}",
                file=local.file,
                line=line,
                field="hosts",
                source=source,
                notes=("nothing on the command line overrides this (ADR-0001); the way past is an artefact edit",),
                edits=(Edit(local.file, line, "hosts"),),
            )
        ]
    )


def _supplied(inv: Invocation, to: Destination, ctx: Context, manifest: Manifest, op: Operation, path: str) -> int:
    """The form that makes no call: the ``record:`` block against a saved response object."""
    from hyper.cli.commands.check import repository_path
    from hyper.core.faults import PathFault

    if projection.read(op.record).empty:
        raise _Usage(
            f"{manifest.declared_name} {op.name} declares no record: block, so a response has nothing to be "
            "projected into"
        )
    inputs = _inputs(op, inv.inputs, every=False)
    try:
        relative = repository_path(ctx.root, path)
    except PathFault as fault:
        raise _Usage(f"--response {fault}") from None
    from hyper.fs.read import read_held

    try:
        data = read_held(ctx.root, relative)
    except IsADirectoryError:
        raise _Usage(f"--response {path}: is a directory, and a response object is a file") from None
    except OSError as exc:
        raise _Usage(f"--response {path}: {(exc.strerror or str(exc)).lower()}") from None
    try:
        response = read_supplied("shell" if op.opaque else "http", data)
    except SuppliedFault as fault:
        raise _Usage(f"--response {path}: {fault}") from None
    return _answer(to, manifest, op, inputs, response, supplied=True)


def _inputs(op: Operation, given: Sequence[tuple[str, str]], every: bool) -> dict[str, Any]:
    """Each ``--input`` read as the type the Operation declares at that position.

    Every fault is reported, not the first. ``every`` requires each declared input: a
    request has no way to leave one out. With a supplied response there is no request,
    and an input left out only leaves an ``identity:`` hole unfilled.
    """
    from hyper.check.facts import input_properties  # deferred: start-up cost
    from hyper.check.schema import reads_as  # deferred: start-up cost
    from hyper.run.arguments import typed  # deferred: start-up cost

    declared = input_properties(op.input)
    read: dict[str, Any] = {}
    named: set[str] = set()
    faults: list[str] = []
    for name, text in given:
        spec = declared.get(name)
        if spec is None:
            listed = ", ".join(sorted(declared))
            faults.append(
                f"--input {name}: the Operation has no input by that name\n  "
                + (f"it declares {listed}" if listed else "it declares no inputs at all")
            )
            continue
        if name in named:
            faults.append(f"--input {name}: given twice; an input takes a single value")
            continue
        named.add(name)
        if not reads_as(spec.type, text):  # type: ignore[arg-type]
            faults.append(f"--input {name}={text}: not readable as the {spec.type} the Operation declares")
            continue
        value = typed(spec.type, text)
        if spec.enum and projection.text(value) not in spec.enum:
            faults.append(f"--input {name}={text}: the Operation accepts {', '.join(spec.enum)} and nothing else")
            continue
        read[name] = value
    if every:
        faults += [
            f"--input {name}: declared by the Operation and not supplied"
            for name in sorted(declared)
            if name not in named
        ]
    if faults:
        raise _Usage(*faults)
    return read


def _withheld(response: Response) -> Response:
    """The response with every member a secret could be projected from replaced by the marker.

    The published schema makes ``response`` an object, so the withholding happens inside
    it: ``host`` and ``status`` stay (neither can carry a credential-bearing value),
    everything else reads ``<secret>``.
    """
    return {key: value if key in ("host", "status") else SECRET_MARKER for key, value in response.items()}


def _answer(
    to: Destination, manifest: Manifest, op: Operation, inputs: Mapping[str, Any], response: Response, supplied: bool
) -> int:
    projected = projection.read(op.record)
    reading = projected.against(inputs, response)
    secret = set(op.secret_fields)
    records = [
        (record.name, {name: SECRET_MARKER if name in secret else value for name, value in record.fields.items()})
        for record in reading.records
    ]
    shown = _withheld(response) if secret else response
    probe = Row(
        "probe_result",
        {
            "provider": manifest.declared_name,
            "operation": op.name,
            "supplied": supplied,
            "projection": orjson.Fragment(
                compact(
                    [{**({"identity": name} if name is not None else {}), "fields": fields} for name, fields in records]
                )
            ),
            "unresolved": orjson.Fragment(
                compact([{"position": p.position, "path": p.path} for p in reading.unresolved])
            ),
            "response": orjson.Fragment(compact(shown)),
        },
    )
    page = _page(manifest, op, projected.over, reading, records, shown, supplied, bool(secret))
    to.answer([probe], result(False), page)
    return codes.CLEAN


def _page(
    manifest: Manifest,
    op: Operation,
    over: str,
    reading: projection.Reading,
    records: Sequence[tuple[str | None, dict[str, Any]]],
    shown: Response,
    supplied: bool,
    withheld: bool,
) -> str:
    """The collection line, one FIELD/VALUE table per Record, the paths that missed, the response."""
    blocks: list[str] = []
    if over:
        if reading.over_is_list:
            count = len(reading.records)
            found = f"{count} member" + ("" if count == 1 else "s")
        else:
            found = "resolved to something other than a list"
        blocks.append(f"COLLECTION  {over}  {found}\n")
    for name, fields in records:
        cells = ([[projection.POSITION_IDENTITY, name]] if name is not None else []) + [
            [field, projection.text(value)] for field, value in fields.items()
        ]
        if cells:
            blocks.append(table([list(FIELD_COLUMNS), *cells]))
    if reading.unresolved:
        blocks.append(table([list(UNRESOLVED_COLUMNS), *([p.position, p.path] for p in reading.unresolved)]))
    if withheld:
        heading = f"RESPONSE  (withheld; {manifest.declared_name} {op.name} declares secret output)"
    else:
        heading = "RESPONSE  (supplied; no call was made)" if supplied else "RESPONSE"
    blocks.append(f"{heading}\n{compact(shown).decode('utf-8')}\n")
    return "\n".join(blocks)

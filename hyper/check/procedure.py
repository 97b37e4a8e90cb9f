"""The rules over one Procedure file: its shape, each ``steps:`` entry, and its own envelope.

Every Step is checked against what it binds — the Definition's claim, the Target's
grant, the Operation's Kind, inputs and host template — because that is where two
independently reviewed artefacts meet, and a mismatch there is exactly what a human
reading either file alone would miss. Rules that need every Procedure at once (an
invoked Procedure's envelope, cycles, what a Cadence reaches) are :mod:`graph`'s.

A name that does not resolve is reported once, where it is written, and every rule
that would have read through it stays silent: a second row for one cause is noise.
"""

from __future__ import annotations

import re

from hyper.artefact import procedure as artefact
from hyper.artefact.procedure import (
    Conflicted,
    Invocation,
    Procedure,
    Reference,
    Requirement,
    Step,
    holds_item_reference,
    read_reference,
)
from hyper.check import codes
from hyper.check.facts import HOLE, SHELL_COMMAND_INPUT, Input, Operation, Provider, Target, path_unreadable
from hyper.check.index import Claim, Index, artefact_absent
from hyper.check.predicate import core, one_form
from hyper.check.schema import INTEGER, OPEN_OBJECT, STRING, STRINGS, Schema, Type, obj, prop, reads_as
from hyper.check.schema import check as schema_check
from hyper.check.shape import env_rules, kind_mismatch, name_mismatch
from hyper.core.namedtuple import NamedTuple
from hyper.core.problem import Problem
from hyper.yaml.access import at, join, member, quote
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Final, Literal

SCHEMA: Final = obj(
    prop("kind", STRING, required=True),
    prop("procedure", STRING, required=True),
    prop("targets", STRINGS, required=True),
    prop("cadence", STRING),
    prop("steps", Schema("array", items=OPEN_OBJECT), required=True),
)

STEP_SCHEMA: Final = obj(
    prop("id", STRING, required=True),
    prop("definition", STRING, required=True),
    prop("operation", STRING, required=True),
    prop("target", STRING, required=True),
    prop("args", OPEN_OBJECT),
    prop("over", OPEN_OBJECT),
    prop("bound", INTEGER),
    prop("when", OPEN_OBJECT),
)
INVOCATION_SCHEMA: Final = obj(prop("id", STRING, required=True), prop("procedure", STRING, required=True))
REQUIREMENT_SCHEMA: Final = obj(prop("id", STRING, required=True), prop("require", OPEN_OBJECT, required=True))

_SCALAR_INPUT = Input("string", ())
_ARRAY_INPUT = Input("array", ())


class Earlier(NamedTuple):
    """An ``id:`` written earlier in the same ``steps:``, as a later entry may point at it."""

    shape: Literal["step", "invocation", "requirement"]
    """Only a Step has a Record to root at."""
    operation: Operation | None = None
    provider: Provider | None = None


def check(read: Procedure, root: Node | None, index: Index, data: bytes) -> list[Problem]:
    """``read`` is ``root`` (the tree of ``data``) as :func:`hyper.artefact.procedure.read` reads
    it; the graph reuses it."""
    file = read.file
    problems = _targets_named(read, schema_check(root, SCHEMA, file))
    problems += kind_mismatch(file, member(root, "kind"), artefact.KIND)
    problems += name_mismatch(file, read.name, artefact.NAME_KEY)
    problems += cadence_malformed(read)
    envelope = read.target_names
    envelope_kinds = frozenset(
        kind for name in envelope if (target := index.targets.get(name)) for kind in target.kinds
    )
    earlier: dict[str, Earlier] = {}
    for entry in read.entries:
        if isinstance(entry, Conflicted):
            problems.append(_conflicted(file, entry))
        elif isinstance(entry, Invocation):
            problems += _invocation(file, entry, index)
            _register(earlier, entry.id, Earlier("invocation"))
        elif isinstance(entry, Requirement):
            problems += schema_check(entry.entry, REQUIREMENT_SCHEMA, file, entry.field)
            problems += _rooted_predicate(file, join(entry.field, "require"), entry.require, earlier, True)
            _register(earlier, entry.id, Earlier("requirement"))
        else:
            step_problems, operation, provider = _step(file, entry, index, earlier, envelope, envelope_kinds)
            problems += step_problems
            _register(earlier, entry.id, Earlier("step", operation, provider))
    return env_rules(file, root, problems, data)


def _targets_named(read: Procedure, problems: list[Problem]) -> list[Problem]:
    """A Procedure that writes no ``targets:`` has every Step outside its envelope, and the
    reference reports each of those rows as well; the schema row leads them (line 1), so it is
    the one that says what to add — the Targets its Steps bind, in written order. (The Steps
    are read for them only where that row stands: most Procedures write ``targets:``.)"""
    if not any(_targets_unwritten(problem) for problem in problems):
        return problems
    bound = list(dict.fromkeys(step.target.value for step in read.steps if isinstance(step.target, Scalar)))
    if not bound:
        return problems
    remedy = (
        f" — add targets: [{', '.join(bound)}], the Targets its Steps bind; every envelope-exceeded row"
        " below follows from its absence"
    )
    return [
        problem._replace(message=problem.message + remedy) if _targets_unwritten(problem) else problem
        for problem in problems
    ]


def _targets_unwritten(problem: Problem) -> bool:
    return (
        problem.field == "targets"
        and problem.error_code == codes.SCHEMA_MISMATCH
        and problem.message.endswith("is required at this position and is not written")
    )


def _register(earlier: dict[str, Earlier], id_: Scalar | None, what: Earlier) -> None:
    if id_ is not None:
        earlier[id_.value] = what


def cadence_malformed(read: Procedure) -> list[Problem]:
    if not isinstance(read.cadence, Scalar):
        return []
    from hyper.cadence import grammar  # deferred: a repository declaring no Cadence reads no grammar

    parsed = grammar.parse(read.cadence.value)
    if not isinstance(parsed, grammar.CadenceFault):
        return []
    return [
        at(
            read.file,
            read.cadence,
            "cadence",
            codes.CADENCE_MALFORMED,
            f"cadence: {quote(read.cadence.value)} is outside the five-field cron grammar — {parsed.reason}",
        )
    ]


def _conflicted(file: str, entry: Conflicted) -> Problem:
    if entry.with_ == "procedure":
        message = (
            "this entry writes procedure: beside definition:, operation: or target: — an invocation is "
            "id: and procedure: alone, and a Step binds without procedure:"
        )
    else:
        message = (
            "this entry writes require: beside a binding or a procedure: — a requirement is id: and "
            "require: alone, and binds or invokes nothing"
        )
    return at(file, entry.entry, entry.field, codes.SCHEMA_MISMATCH, message)


def _invocation(file: str, entry: Invocation, index: Index) -> list[Problem]:
    problems = schema_check(entry.entry, INVOCATION_SCHEMA, file, entry.field)
    callee = entry.callee
    if callee is not None and callee.value not in index.procedures:
        problems.append(artefact_absent(file, callee, join(entry.field, "procedure"), "procedure", "procedures"))
    return problems


def _step(
    file: str,
    step: Step,
    index: Index,
    earlier: Mapping[str, Earlier],
    envelope: frozenset[str],
    envelope_kinds: frozenset[str],
) -> tuple[list[Problem], Operation | None, Provider | None]:
    problems = schema_check(step.entry, STEP_SCHEMA, file, step.field)
    claim: Claim | None = None
    if step.definition is not None:
        claim = index.definitions.get(step.definition.value)
        if claim is None:
            field = join(step.field, "definition")
            problems.append(artefact_absent(file, step.definition, field, "definition", "definitions"))
    provider: Provider | None = None
    operation: Operation | None = None
    if claim is not None:
        provider = index.providers.get(claim.provider)
        if step.operation is not None:
            operation = provider.operations.get(step.operation.value) if provider is not None else None
            if operation is None:
                problems.append(
                    at(
                        file,
                        step.operation,
                        join(step.field, "operation"),
                        codes.REFERENCE_UNRESOLVABLE,
                        f"operation: {step.operation.value} is not an Operation of the Provider "
                        f"{claim.provider or 'the Definition names'}",
                    )
                )
    if operation is not None:
        problems += _args(file, step, operation, earlier)
        problems += _expansion_identity(file, step, operation)
    problems += _values_duplicates(file, step)
    problems += _over(file, step, operation, provider)
    problems += _bound_size(file, step, operation)
    if step.when is not None:
        problems += _rooted_predicate(file, join(step.field, "when"), step.when, earlier, False)
    if claim is not None:
        problems += _authority(file, step, claim, operation, provider)
    problems += _envelope(file, step, envelope, envelope_kinds, operation)
    return problems, operation, provider


def _args(file: str, step: Step, operation: Operation, earlier: Mapping[str, Earlier]) -> list[Problem]:
    field = join(step.field, "args")
    problems: list[Problem] = []
    supplied: dict[str, Node] = {}
    if isinstance(step.args, Map):
        for key, value in step.args.entries:
            supplied[key.value] = value
            if key.value not in operation.inputs:
                problems.append(
                    at(
                        file,
                        key,
                        join(field, key.value),
                        codes.UNKNOWN_KEY,
                        f"{quote(key.value)} is not an input of the Operation {operation.name}",
                    )
                )
    missing_at = step.args if step.args is not None else step.entry
    for name, input_ in operation.inputs.items():
        given = supplied.get(name)
        if given is None:
            problems.append(
                at(
                    file,
                    missing_at,
                    join(field, name),
                    codes.SCHEMA_MISMATCH,
                    f"the Operation {operation.name} takes the input {quote(name)}, and args: does not supply it",
                )
            )
        elif operation.shell and name == SHELL_COMMAND_INPUT:
            problems += _command(file, join(field, name), given, earlier)
        elif isinstance(given, Scalar) and input_.type == "string":
            # The commonest argument of all: any literal text fills a string input, so only an
            # enum has anything to say.
            if input_.enum and given.value not in input_.enum:
                problems.append(_not_in_enum(file, join(field, name), given, input_))
        else:
            found = _arg_value(file, join(field, name), given, input_, earlier)
            problems += found
            if not found and isinstance(given, Scalar) and input_.enum and given.value not in input_.enum:
                problems.append(_not_in_enum(file, join(field, name), given, input_))
    return problems


def _not_in_enum(file: str, field: str, given: Scalar, input_: Input) -> Problem:
    return at(
        file,
        given,
        field,
        codes.SCHEMA_MISMATCH,
        f"{quote(given.value)} is not one of {', '.join(input_.enum)}, the values this input takes",
    )


def _command(file: str, field: str, node: Node, earlier: Mapping[str, Earlier]) -> list[Problem]:
    """A shell Step's argv: a list whose first word — what runs — is written literally."""
    if isinstance(node, Map):
        return _arg_value(file, field, node, _ARRAY_INPUT, earlier)
    if not isinstance(node, Seq):
        return [at(file, node, field, codes.COMMAND_MALFORMED, "command: is a list of argv words, and this is not one")]
    if not node.items:
        return [at(file, node, field, codes.COMMAND_MALFORMED, "command: is empty — nothing names what to run")]
    problems: list[Problem] = []
    if not isinstance(node.items[0], Scalar):
        problems.append(
            at(
                file,
                node.items[0],
                f"{field}[0]",
                codes.COMMAND_MALFORMED,
                "command:'s first word names what runs and must be written literally, never as a reference",
            )
        )
    for i, item in enumerate(node.items[1:], start=1):
        problems += _arg_value(file, f"{field}[{i}]", item, _SCALAR_INPUT, earlier)
    return problems


def _arg_value(file: str, field: str, node: Node, input_: Input, earlier: Mapping[str, Earlier]) -> list[Problem]:
    reference = read_reference(node)
    if reference is None:
        return _literal(file, field, node, input_)
    if reference.form == "malformed" and input_.type == "object":
        return []  # a literal object, for the one input type a mapping may fill
    if reference.form == "malformed":
        return [
            at(
                file,
                reference.node,
                field,
                codes.SCHEMA_MISMATCH,
                "a mapping in a value position is a reference, and its two forms are {step:, path:} and {item:}",
            )
        ]
    problems: list[Problem] = []
    if input_.type in ("object", "array"):
        problems.append(
            at(
                file,
                reference.node,
                field,
                codes.SCHEMA_MISMATCH,
                f"a reference fills a scalar position only, and this input is declared {input_.type}",
            )
        )
    if reference.form == "item":
        return problems + path_unreadable(file, reference.node, join(field, "item"), reference.path)
    return problems + _step_reference(file, field, reference, earlier)


_SCALAR_TYPES: Final[dict[str, Type]] = {
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "duration": "duration",
    "timestamp": "timestamp",
}


def _literal(file: str, field: str, node: Node, input_: Input) -> list[Problem]:
    """A literal argument read as its input's declared type, as every scalar in the format is."""
    declared = input_.type
    scalar_type = _SCALAR_TYPES.get(declared)
    if declared == "array":
        fits = isinstance(node, Seq)
    elif scalar_type is not None:
        fits = isinstance(node, Scalar) and reads_as(scalar_type, node.value)
    else:
        return []  # an undeclared or unknown type: the Manifest's own schema says so
    if fits:
        return []
    if isinstance(node, Scalar) and declared != "array":
        message = f"{quote(node.value)} does not read as {_a(declared)}, which this input is declared"
    else:
        message = f"this input is declared {_a(declared)}, and the value written is not one"
    return [at(file, node, field, codes.SCHEMA_MISMATCH, message)]


def _a(type_: str) -> str:
    return f"an {type_}" if type_ in ("integer", "array", "object") else f"a {type_}"


def _unresolved_step(name: str, earlier: Mapping[str, Earlier], condition: bool) -> str | None:
    """Why ``name`` roots at no earlier Step's Record, or ``None`` where it does."""
    found = earlier.get(name)
    verdict = (
        " A shared Procedure states its own verdict instead: a require: inside it halts the whole Run."
        if condition
        else ""
    )
    if found is not None and found.shape == "step":
        return None
    if found is not None and found.shape == "invocation":
        return (
            f"step: {name} is a nested invocation, which projects no Record — and an invoked Procedure's "
            f"Steps are not visible to its caller, Procedures composing by invocation only.{verdict}"
        )
    if found is not None:
        return f"step: {name} is a requirement, which acts on no Record, so nothing can root at it"
    head = earlier.get(name.split(".", 1)[0])
    if "." in name and head is not None and head.shape == "invocation":
        return (
            f"step: {name} is no id: declared earlier here — an invoked Procedure's Steps are not visible "
            f"to its caller, however the name is spelled.{verdict}"
        )
    return f"step: {name} is no id: declared earlier in this Procedure"


def _step_reference(file: str, field: str, reference: Reference, earlier: Mapping[str, Earlier]) -> list[Problem]:
    why = _unresolved_step(reference.step, earlier, condition=False)
    if why is not None:
        return [at(file, reference.node, join(field, "step"), codes.REFERENCE_UNRESOLVABLE, why)]
    pointed = earlier[reference.step]
    operation = pointed.operation
    if operation is not None and operation.series:
        return [
            at(
                file,
                reference.node,
                field,
                codes.SERIES_REFERENCE,
                f"step: {reference.step} projects a series — a reference reads one Record and cannot pick "
                "one out of a series",
            )
        ]
    fields_ = operation.record_fields if operation is not None else frozenset()
    if path_field(reference.path) not in fields_:
        return [
            at(
                file,
                reference.node,
                join(field, "path"),
                codes.REFERENCE_UNRESOLVABLE,
                f"path: {reference.path} is no field the Record of step {reference.step} projects",
            )
        ]
    return []


_SEGMENT = re.compile(r'\$(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\["([^"]*)"\])')


def path_field(path: str) -> str:
    """The one flat field a ``$.name`` or ``$["name"]`` path names; ``""`` for any other path."""
    match = _SEGMENT.fullmatch(path)
    if match is None:
        return ""
    name = match.group(1) if match.group(1) is not None else match.group(2)
    return "" if any(c in name for c in '.["') else name


def _values_duplicates(file: str, step: Step) -> list[Problem]:
    values = step.values
    if values is None:
        return []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for item in values.items:
        if not isinstance(item, Scalar):
            continue
        folded = item.value.lower()
        prior = seen.get(folded)
        if prior is None:
            seen[folded] = item.value
            continue
        problems.append(
            at(
                file,
                item,
                join(step.field, "over.values"),
                codes.RECORD_IDENTITY_COLLISION,
                f"{quote(item.value)} and {quote(prior)}, earlier in this list, are one identity once case is "
                "set aside",
            )
        )
    return problems


def _identity_fillers(operation: Operation) -> tuple[str, ...] | None:
    """The inputs whose values fill an identity that resolves before the call, or ``None``."""
    identity = operation.identity
    if identity.startswith("{"):
        names = tuple(HOLE.findall(identity))
        if not names or any(name not in operation.inputs for name in names):
            return None
        return names
    if operation.shell and identity == "$.command":
        return (SHELL_COMMAND_INPUT,)
    return None


def _expansion_identity(file: str, step: Step, operation: Operation) -> list[Problem]:
    values = step.values
    if values is None or sum(1 for item in values.items if isinstance(item, Scalar)) < 2:
        return []
    fillers = _identity_fillers(operation)
    if fillers is None:
        return []
    for name in fillers:
        value = step.arg(name)
        if value is None or holds_item_reference(value):
            return []
        reference = read_reference(value)
        if reference is not None and reference.form == "malformed":
            return []
    return [
        at(
            file,
            values,
            join(step.field, "over.values"),
            codes.RECORD_IDENTITY_COLLISION,
            f"every member of this values: list lands on one Record identity — {operation.name}'s identity "
            "is fixed before the call and no {item:} reference reaches the input it reads; wire the member "
            "into that input, or write the calls as separate Steps",
        )
    ]


def _over(file: str, step: Step, operation: Operation | None, provider: Provider | None) -> list[Problem]:
    over = step.over
    if not isinstance(over, Map):
        return []
    field = join(step.field, "over")
    problems = one_form(file, field, over, artefact.OVER_FORMS, "a selector form")
    for key, value in over.entries:
        if key.value not in artefact.OVER_FORMS:
            continue  # one_form has reported it
        child = join(field, key.value)
        if key.value == "values":
            problems += _values_shape(file, child, value)
        else:
            problems += _predicate_list(file, child, value, provider)
            if key.value == "observations" and operation is not None and operation.kind != "read":
                problems.append(
                    at(
                        file,
                        value,
                        child,
                        codes.SCHEMA_MISMATCH,
                        f"observations: selects for a read Step only, and {operation.name} is a {operation.kind}",
                    )
                )
    return problems


def _values_shape(file: str, field: str, node: Node) -> list[Problem]:
    if not isinstance(node, Seq):
        return [at(file, node, field, codes.SCHEMA_MISMATCH, "values: is a list of bare scalars")]
    problems: list[Problem] = []
    for i, item in enumerate(node.items):
        if not isinstance(item, Scalar):
            problems.append(
                at(
                    file,
                    item,
                    f"{field}[{i}]",
                    codes.SCHEMA_MISMATCH,
                    "a values: member is a bare scalar — a mapping here would be a reference, and a member "
                    "never is one",
                )
            )
        elif item.value == "":
            problems.append(
                at(
                    file,
                    item,
                    field,
                    codes.SCHEMA_MISMATCH,
                    "a values: member is empty — each member is the Record name its call acts under, and an "
                    "empty one names nothing",
                )
            )
    return problems


def _predicate_list(file: str, field: str, node: Node, provider: Provider | None) -> list[Problem]:
    if not isinstance(node, Seq):
        return [
            at(file, node, field, codes.SCHEMA_MISMATCH, "a selector is a list of predicates, all of which must hold")
        ]
    problems: list[Problem] = []
    for i, item in enumerate(node.items):
        item_field = f"{field}[{i}]"
        found, predicate = core(file, item_field, item, allow_step=False)
        problems += found
        if predicate is not None and predicate.field is not None:
            problems += _record_field(file, join(item_field, "field"), predicate.field, provider)
    return problems


def _record_field(file: str, field: str, node: Scalar, provider: Provider | None) -> list[Problem]:
    """A Record-root ``field:``: one declared field name of the Provider, never a path."""
    if node.value.startswith("$"):
        return [
            at(
                file,
                node,
                field,
                codes.SCHEMA_MISMATCH,
                "field: here names one projected field — a Record's fields are flat, so no path is read",
            )
        ]
    if provider is None:
        return []
    if node.value not in provider.record_fields:
        return [
            at(
                file,
                node,
                field,
                codes.REFERENCE_UNRESOLVABLE,
                f"field: {node.value} is projected by no Operation of the Provider {provider.name}",
            )
        ]
    if node.value in provider.secret_fields:
        return [
            at(
                file,
                node,
                field,
                codes.PREDICATE_TYPE_MISMATCH,
                f"field: {node.value} is secret — it is stored as a constant, so no comparison on it can mean anything",
            )
        ]
    return []


def _rooted_predicate(
    file: str, field: str, node: Node, earlier: Mapping[str, Earlier], requirement: bool
) -> list[Problem]:
    """A condition (``when:``) or a requirement (``require:``): rooted at a named earlier Step."""
    problems, predicate = core(file, field, node, allow_step=True)
    if predicate is None:
        return problems
    provider: Provider | None = None
    if predicate.step is None:
        problems.append(
            at(
                file,
                predicate.node,
                join(field, "step"),
                codes.SCHEMA_MISMATCH,
                '"step" is required at this position and is not written — this predicate roots at an earlier '
                "Step's Record, named by step:",
            )
        )
    else:
        why = _unresolved_step(predicate.step.value, earlier, condition=not requirement)
        if why is not None:
            problems.append(at(file, predicate.step, join(field, "step"), codes.REFERENCE_UNRESOLVABLE, why))
        else:
            provider = earlier[predicate.step.value].provider
    if predicate.field is not None:
        problems += _record_field(file, join(field, "field"), predicate.field, provider)
    return problems


def _bound_size(file: str, step: Step, operation: Operation | None) -> list[Problem]:
    """A Bound below one, and a ``values:`` list longer than the Bound — both decided from the file."""
    bound = step.bound_value
    if bound is None or (operation is not None and (operation.kind == "read" or operation.opaque_destroy)):
        return []
    if bound < 1:
        return [
            at(
                file,
                step.bound,
                join(step.field, "bound"),
                codes.BOUND_NOT_POSITIVE,
                f"bound: {bound} admits no Record at all, so any Expansion that finds something exceeds it "
                "and the Step can never act",
            )
        ]
    values = step.values
    if values is None or len(values.items) <= bound:
        return []
    return [
        at(
            file,
            values,
            join(step.field, "over.values"),
            codes.BOUND_EXCEEDED,
            f"over: values: lists {len(values.items)} members and bound: is {bound} — the list can only "
            "shrink at a Run, so it cannot fit",
        )
    ]


def _authority(
    file: str, step: Step, claim: Claim, operation: Operation | None, provider: Provider | None
) -> list[Problem]:
    problems: list[Problem] = []
    target: Target | None = None
    if step.target is not None:
        target = claim.targets.get(step.target.value)
        if target is None:
            problems.append(
                at(
                    file,
                    step.target,
                    join(step.field, "target"),
                    codes.TARGET_NOT_CLAIMED,
                    f"target: {step.target.value} is not among the targets: the Definition "
                    f"{step.definition.value if step.definition else ''} claims",
                )
            )
    if operation is None:
        return problems
    if target is not None and not (claim.claims(operation.kind) and operation.kind in target.kinds):
        problems.append(
            at(
                file,
                step.entry,
                step.field,
                codes.KIND_NOT_GRANTED,
                f"{operation.name} is a {operation.kind}, and {operation.kind} is not both claimed by the "
                f"Definition and accepted by {target.name}",
            )
        )
    if operation.kind == "destroy" and operation.name not in claim.destroy and step.operation is not None:
        problems.append(
            at(
                file,
                step.operation,
                join(step.field, "operation"),
                codes.OPERATION_NOT_CLAIMED,
                f"operation: {operation.name} is a destroy the Definition does not name in its destroy: claims",
            )
        )
    if target is not None and provider is not None:
        problems += _hosts(file, step, operation, provider, target)
    problems += _bound_rules(file, step, operation)
    if operation.repeatability == "skip-if-recorded" and member(step.over, "assets") is not None:
        problems.append(
            at(
                file,
                step.entry,
                step.field,
                codes.SKIP_IF_RECORDED_UNREACHABLE,
                "this skip-if-recorded Step expands over assets:, which are all standing Assets — every member "
                "would skip on every Run and no call could go out",
            )
        )
    return problems


def _bound_rules(file: str, step: Step, operation: Operation) -> list[Problem]:
    if operation.kind != "destroy" and (operation.kind != "read" or step.bound is None):
        return []  # a mutate, or a read with no bound: — most Steps, and nothing below applies
    field = join(step.field, "bound")
    cited = step.bound if step.bound is not None else step.entry
    problems: list[Problem] = []
    if operation.kind == "read" and step.bound is not None:
        problems.append(
            at(
                file,
                cited,
                field,
                codes.UNKNOWN_KEY,
                "bound: is written on a read Step — a read carries no Bound, having no effect for one to limit",
            )
        )
    elif operation.opaque_destroy and step.bound is not None:
        problems.append(
            at(
                file,
                cited,
                field,
                codes.BOUND_ILLEGAL,
                "bound: is written on an opaque destroy Step — counting the commands it ran says nothing of "
                "what they removed",
            )
        )
    elif operation.kind == "destroy" and not operation.opaque_destroy and step.bound is None:
        problems.append(
            at(
                file,
                cited,
                field,
                codes.BOUND_MISSING,
                "this destroy Step writes no bound: — no Bound means no limit, and a destroy without a limit "
                "is refused before anything runs",
            )
        )
    if operation.kind == "destroy" and step.over is None:
        problems.append(
            at(
                file,
                step.entry,
                step.field,
                codes.DESTROY_UNSCOPED,
                "this destroy Step names no population with over: — it would act once, unnamed, and leave "
                "nothing in the record",
            )
        )
    return problems


def expand_host(template: str, enumerations: Mapping[str, tuple[str, ...]], grant: frozenset[str]) -> list[str] | None:
    """Every host a ``host:`` template can reach, in first-expanded order; ``None`` where a hole is unknown."""
    prefixes = [""]
    previous = 0
    for match in HOLE.finditer(template):
        name = match.group(1)
        if name == "from-target":
            members: tuple[str, ...] = tuple(sorted(grant))
        elif name in enumerations:
            members = enumerations[name]
        else:
            return None
        literal = template[previous : match.start()]
        prefixes = [prefix + literal + m for prefix in prefixes for m in members]
        previous = match.end()
    return list(dict.fromkeys(prefix + template[previous:] for prefix in prefixes))


_GRANTED_HOST: Final = "{from-target}"
"""The commonest host template: the Target's own grant, whatever it lists, so nothing to expand."""


def _hosts(file: str, step: Step, operation: Operation, provider: Provider, target: Target) -> list[Problem]:
    grant = target.hosts or frozenset()
    problems: list[Problem] = []
    if operation.host_template:
        if operation.host_template == _GRANTED_HOST:
            granted = len(grant)  # the template reaches exactly the granted hosts: none is outside them
        else:
            candidates = expand_host(operation.host_template, provider.enumerations, grant)
            granted = -1 if candidates is None else sum(1 for c in candidates if c in grant)
            for candidate in candidates or ():
                if candidate not in grant:
                    problems.append(
                        at(
                            file,
                            step.entry,
                            step.field,
                            codes.HOST_NOT_GRANTED,
                            f"{operation.name} can reach {quote(candidate)}, which {target.name}'s hosts: do not grant",
                        )
                    )
        if not operation.host_input and granted > 1:
            problems.append(
                at(
                    file,
                    step.entry,
                    step.field,
                    codes.MANIFEST_INCONSISTENT,
                    f"{operation.name} can reach several of {target.name}'s granted hosts and declares no "
                    "host-input: to say which one a call goes to",
                )
            )
    problems += _values_hosts(file, step, operation, target, grant)
    return problems


def _values_hosts(file: str, step: Step, operation: Operation, target: Target, grant: frozenset[str]) -> list[Problem]:
    """A ``values:`` list is a host list exactly where ``{item: $}`` is wired into ``host-input:``."""
    if not operation.host_input:
        return []
    wired = read_reference(step.arg(operation.host_input))
    values = step.values
    if wired is None or wired.form != "item" or wired.path != "$" or values is None:
        return []
    return [
        at(
            file,
            item,
            join(step.field, "over.values"),
            codes.HOST_NOT_GRANTED,
            f"{quote(item.value)} is wired into host-input: {operation.host_input}, and {target.name}'s hosts: "
            "do not grant it",
        )
        for item in values.items
        if isinstance(item, Scalar) and item.value not in grant
    ]


def _envelope(
    file: str, step: Step, envelope: frozenset[str], envelope_kinds: frozenset[str], operation: Operation | None
) -> Iterator[Problem]:
    """``envelope`` is the Procedure's declared targets:, and ``envelope_kinds`` the Kinds they accept."""
    if step.target is not None and step.target.value not in envelope:
        yield at(
            file,
            step.target,
            join(step.field, "target"),
            codes.ENVELOPE_EXCEEDED,
            f"target: {step.target.value} is outside the targets: this Procedure declares",
        )
    if operation is not None and operation.kind not in envelope_kinds:
        yield at(
            file,
            step.entry,
            step.field,
            codes.ENVELOPE_EXCEEDED,
            f"{operation.kind} is a Kind none of this Procedure's declared targets: accepts",
        )

"""The rules over a Definition: its own claim, what it names, and each binding it makes.

A (Definition, Target) pair is where a Provider meets a Target for the first time —
a Target declaration is written without knowing which Provider will bind it — so the
class, Capability, credential-slot and opaque-destroy checks are asked here, once per
``targets:`` member, and cited at that member: the line whose edit fixes the binding.
"""

from __future__ import annotations

from hyper.artefact import definition as artefact
from hyper.artefact.definition import Definition
from hyper.check import codes
from hyper.check.facts import Provider, Target
from hyper.check.index import Index, artefact_absent
from hyper.check.schema import STRING, STRINGS, array_of, obj, one_of, prop
from hyper.check.schema import check as schema_check
from hyper.check.shape import env_rules, kind_mismatch, name_mismatch
from hyper.core.problem import Problem
from hyper.yaml.access import at, member
from hyper.yaml.subset import Node, Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

SCHEMA: Final = obj(
    prop("kind", STRING, required=True),
    prop("definition", STRING, required=True),
    prop("provider", STRING, required=True),
    prop("kinds", array_of(one_of(*artefact.CLAIMABLE_KINDS))),
    prop("destroy", STRINGS),
    prop("targets", STRINGS, required=True),
)


def check(file: str, root: Node | None, index: Index, data: bytes) -> list[Problem]:
    problems = schema_check(root, SCHEMA, file)
    read = index.read_definitions.get(file)
    if read is None:  # its name illegible, or taken by another file: the index never read it
        read = artefact.read(file, root)
    problems += kind_mismatch(file, member(root, "kind"), artefact.KIND)
    problems += name_mismatch(file, read.name, artefact.NAME_KEY)
    problems += kinds_mixed(read)

    provider: Provider | None = None
    if read.provider is not None:
        provider = index.providers.get(read.provider.value)
        if provider is None:
            problems.append(
                artefact_absent(file, read.provider, "provider", "provider", "providers", built_in="Provider")
            )

    bound: list[tuple[int, Scalar, Target]] = []
    for i, item in read.targets:
        target = index.targets.get(item.value)
        if target is None:
            problems.append(artefact_absent(file, item, f"targets[{i}]", "targets", "targets"))
        else:
            bound.append((i, item, target))

    if provider is not None:
        problems += destroy_resolution(read, provider)
        opaque = any((op := provider.operations.get(item.value)) is not None and op.shell for _, item in read.destroy)
        for i, item, target in bound:
            problems += binding(file, i, item, target, provider, opaque)
    return env_rules(file, root, problems, data)


def kinds_mixed(read: Definition) -> list[Problem]:
    """``read`` beside ``mutate`` or a ``destroy:`` claim: a Definition observes or effects."""
    reads = [item for _, item in read.kinds if item.value == "read"]
    if not reads:
        return []
    if not read.claims("mutate") and not read.destroy:
        return []
    return [
        at(
            read.file,
            reads[-1],
            "kinds",
            codes.DEFINITION_KINDS_MIXED,
            "kinds: claims read together with an effect (mutate or destroy: Operations) — a Definition "
            "either observes or acts; split it into two",
        )
    ]


def destroy_resolution(read: Definition, provider: Provider) -> list[Problem]:
    return [
        at(
            read.file,
            item,
            f"destroy[{i}]",
            codes.REFERENCE_UNRESOLVABLE,
            f"destroy: {item.value} is not an Operation of the Provider {provider.name}",
        )
        for i, item in read.destroy
        if item.value not in provider.operations
    ]


def binding(file: str, i: int, item: Scalar, target: Target, provider: Provider, opaque: bool) -> list[Problem]:
    """The four checks a (Definition, Target) pair decides and neither artefact can alone."""
    field = f"targets[{i}]"
    problems: list[Problem] = []
    if provider.class_ and target.class_ and provider.class_ != target.class_:
        problems.append(
            at(
                file,
                item,
                field,
                codes.TARGET_CLASS_MISMATCH,
                f"{target.name} is a {target.class_} Target and the Provider {provider.name} serves class "
                f"{provider.class_}",
            )
        )
    for capability in sorted(provider.capabilities - target.capabilities):
        problems.append(
            at(
                file,
                item,
                field,
                codes.CAPABILITY_NOT_GRANTED,
                f"{target.name} grants no {capability}, and the Provider {provider.name}'s Operations need it",
            )
        )
    missing = [slot for slot in provider.auth_slots if slot not in target.auth_slots]
    if missing:
        problems.append(
            at(
                file,
                item,
                field,
                codes.MANIFEST_INCONSISTENT,
                f"{target.name} declares no credential slot for {', '.join(missing)}, which the Provider "
                f"{provider.name}'s Auth scheme needs",
            )
        )
    if opaque and not target.opaque_destroy:
        problems.append(
            at(
                file,
                item,
                field,
                codes.OPAQUE_DESTROY_NOT_GRANTED,
                f"this Definition claims an opaque destroy, and {target.name} does not opt in with "
                f"opaque-destroy: true — the opt-in admits it for every Definition bound to {target.name}; "
                "to confine it, bind a second class-local declaration that opts in",
            )
        )
    return problems

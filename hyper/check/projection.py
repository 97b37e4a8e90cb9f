"""``projection-stale``: the generated workflows against what ``hyper project`` would write now.

Generate and verify are one derivation: :func:`projection` is what ``project``
writes and what this rule compares the working tree against, whole-file and
byte-exact, so a Cadence edited and not projected, a hand-edited workflow, a
deleted one and one left behind by a Procedure that dropped its Cadence are all the
same finding. The rule regenerates at the pin ``hyper.yaml`` declares (under the
gate, the running hyper's own version), so it reads nothing outside the repository.

INTEGRATION POINT: the workflow template is ``hyper project``'s and not yet built.
:data:`GENERATOR` names the module expected to provide ``generate(facts) -> bytes``;
until it exists, a workflow that stands where one is wanted is not byte-compared
(the missing and the unwanted shapes are still decided).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Final, NamedTuple

from hyper.artefact.repository import WORKFLOWS, Repository
from hyper.check import codes
from hyper.check.graph import Graph
from hyper.check.index import Index
from hyper.problem import Problem
from hyper.yamlsubset import Scalar

GENERATOR: Final = "hyper.workflow"
"""The module that owns the workflow template: ``generate(WorkflowFacts) -> bytes``."""


class WorkflowFacts(NamedTuple):
    """Everything one generated workflow is a function of."""

    procedure: str
    cadence: str
    effects: bool
    """Whether any Step the Procedure reaches is not a read (it then takes the Store's lock group)."""
    variables: tuple[str, ...]
    """The credential variables its bindings read, in walk order with repeats; the template sorts."""
    version: str
    digest: str


class ProjectedWorkflow(NamedTuple):
    procedure: str
    path: str
    cadence: str
    facts: WorkflowFacts


Generate = Callable[[WorkflowFacts], bytes]


def workflow_path(procedure: str) -> str:
    return f"{WORKFLOWS}/hyper-{procedure}.yml"


def default_generator() -> Generate | None:
    try:
        module = importlib.import_module(GENERATOR)
    except ImportError:
        return None
    generate: Generate = module.generate
    return generate


def _variables(repo: Repository, index: Index, pairs: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    named: list[str] = []
    for definition, target in pairs:
        claim = index.definitions.get(definition)
        provider = index.providers.get(claim.provider) if claim else None
        declared = repo.targets.get(target)
        if provider is None or declared is None:
            continue
        by_slot = {slot.slot: slot.env_name for slot in declared.credentials}
        named.extend(by_slot[slot] for slot in provider.auth_slots if by_slot.get(slot))
    return tuple(named)


def projection(repo: Repository, index: Index, graph: Graph, version: str, digest: str) -> list[ProjectedWorkflow]:
    """One workflow per Procedure declaring a Cadence, by Procedure name."""
    projected: list[ProjectedWorkflow] = []
    for name in graph.names:
        cadence = graph.cadence(name)
        if not isinstance(cadence, Scalar) or not cadence.value:
            continue
        reach = graph.reaches(name)
        facts = WorkflowFacts(
            procedure=name,
            cadence=cadence.value,
            effects=reach.effects,
            variables=_variables(repo, index, reach.pairs),
            version=version,
            digest=digest,
        )
        projected.append(ProjectedWorkflow(name, workflow_path(name), cadence.value, facts))
    return projected


def _stale(path: str, message: str) -> Problem:
    return Problem(file=path, line=0, column=0, field="", error_code=codes.PROJECTION_STALE, message=message)


def stale(
    repo: Repository, index: Index, graph: Graph, generate: Generate | None, standing: Mapping[str, bytes]
) -> list[Problem]:
    declaration = repo.declaration
    version = declaration.version.value if declaration and declaration.version else ""
    digest = declaration.digest.value if declaration and declaration.digest else ""
    if not version or not digest:
        return []  # the declaration's own schema-mismatch says so; there is no pin to regenerate at
    problems: list[Problem] = []
    wanted = projection(repo, index, graph, version, digest)
    for workflow in wanted:
        held = standing.get(workflow.path)
        if held is None:
            problems.append(
                _stale(
                    workflow.path,
                    f"the Procedure {workflow.procedure} declares a Cadence and no workflow stands here — "
                    "hyper project writes it",
                )
            )
        elif generate is not None and held != generate(workflow.facts):
            problems.append(
                _stale(
                    workflow.path,
                    "this workflow differs from what hyper project writes now (compared whole and byte for byte)",
                )
            )
    asked = {workflow.path for workflow in wanted}
    problems += [
        _stale(path, "no Procedure asks for this workflow — hyper project removes it")
        for path in standing
        if path not in asked
    ]
    return problems

"""``projection-stale``: the generated workflows against what ``hyper project`` would write now.

Generate and verify are one derivation: :func:`projection` is what ``project``
writes and what this rule compares the working tree against, whole-file and
byte-exact, so a Cadence edited and not projected, a hand-edited workflow, one
written for another version or digest, a deleted one and one left behind by a
Procedure that dropped its Cadence are all the same finding. The rule regenerates
at the pin ``hyper.yaml`` declares (under the gate, the running hyper's own
version), so it reads nothing outside the repository.
"""

from __future__ import annotations

from hyper.artefact import procedure as procedure_artefact
from hyper.artefact.repository import LOCK, Repository
from hyper.check import codes
from hyper.check.graph import Graph
from hyper.check.index import Index, build
from hyper.core.namedtuple import NamedTuple
from hyper.core.problem import Problem
from hyper.yaml.subset import Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import TypeAlias

    from hyper.workflow import WorkflowFacts

__all__ = ["Generate", "ProjectedWorkflow", "projection", "stale", "wanted"]


class ProjectedWorkflow(NamedTuple):
    procedure: str
    path: str
    cadence: str
    facts: WorkflowFacts


Generate: TypeAlias = "Callable[[WorkflowFacts], bytes]"


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
    """One workflow per Procedure declaring a Cadence, by Procedure name.

    :mod:`hyper.workflow` is imported only where there is one: ``check`` projects on every run,
    and over a repository that declares no Cadence it would import the package for nothing.
    """
    cadenced: list[tuple[str, str]] = []
    for name in graph.names:
        cadence = graph.cadence(name)
        if isinstance(cadence, Scalar) and cadence.value:
            cadenced.append((name, cadence.value))
    if not cadenced:
        return []
    from hyper.workflow import WorkflowFacts
    from hyper.workflow.namespace import path as workflow_path

    projected: list[ProjectedWorkflow] = []
    for name, expression in cadenced:
        reach = graph.reaches(name)
        facts = WorkflowFacts(
            procedure=name,
            cadence=expression,
            effects=reach.effects,
            variables=_variables(repo, index, reach.pairs),
            version=version,
            digest=digest,
        )
        projected.append(ProjectedWorkflow(name, workflow_path(name), expression, facts))
    return projected


def wanted(repo: Repository, version: str, digest: str) -> list[ProjectedWorkflow]:
    """:func:`projection` over a loaded repository on its own, at a pin the caller names.

    ``project`` projects at the pin it is about to write, not the one the file holds,
    so it cannot borrow the graph ``check`` built at the declared pin.
    """
    index = build(repo)
    procedures = [
        procedure_artefact.read(loaded.path, loaded.root)
        for loaded in repo.files
        if loaded.ok and loaded.directory == "procedures"
    ]
    return projection(repo, index, Graph(procedures, index), version, digest)


def _stale(path: str, message: str) -> Problem:
    return Problem(file=path, line=0, column=0, field="", error_code=codes.PROJECTION_STALE, message=message)


def stale(
    repo: Repository, index: Index, graph: Graph, template: Generate, standing: Mapping[str, bytes]
) -> list[Problem]:
    declaration = repo.declaration
    version = declaration.version.value if declaration and declaration.version else ""
    digest = declaration.digest.value if declaration and declaration.digest else ""
    if not version or not digest:
        return []  # the declaration's own schema-mismatch says so; there is no pin to regenerate at
    problems: list[Problem] = []
    projected = projection(repo, index, graph, version, digest)
    for workflow in projected:
        held = standing.get(workflow.path)
        if held is None:
            problems.append(
                _stale(
                    workflow.path,
                    f"the Procedure {workflow.procedure} declares a Cadence and no workflow stands here — "
                    "hyper project writes it",
                )
            )
        elif held != template(workflow.facts):
            problems.append(
                _stale(
                    workflow.path,
                    "this workflow differs from what hyper project writes now (compared whole and byte for byte)",
                )
            )
    asked = {workflow.path for workflow in projected}
    problems += [
        _stale(path, "no Procedure asks for this workflow — hyper project removes it")
        for path in standing
        if path not in asked
    ]
    return problems + _lock_stale(repo.lock, bool(projected), any(path in standing for path in asked))


def _lock_stale(held: bytes | None, wanted: bool, installed_from: bool) -> list[Problem]:
    """The dependency lock against the one this build writes: wanted beside any workflow, else absent.

    A lock is what the workflows install dependencies from, so an edited one is drift as a
    hand-edited workflow is — and one left with no workflow beside it is left behind. A missing
    one is named only where a wanted workflow stands to install from it: a repository never
    projected already hears, once per workflow, that ``project`` writes them.
    """
    if not wanted:
        return [] if held is None else [_stale(LOCK, "no workflow installs from this lock — hyper project removes it")]
    from hyper.workflow.lock import lock

    if held is None and not installed_from:
        return []
    if held is None:
        missing = "the workflows install hyper's dependencies from this lock and none stands — hyper project writes it"
        return [_stale(LOCK, missing)]
    if held != lock():
        return [_stale(LOCK, "this lock differs from the one this hyper writes (compared whole and byte for byte)")]
    return []

"""``check`` over a whole repository: every artefact's rules, then the ones over all of them.

A file that failed to load carries its one problem and is read no further; every
other file is checked in full, so one broken artefact never hides another's faults.
The whole repository is always checked — every rule compares one artefact with
another, and a subset is not checkable on its own — and narrowing to paths is a
filter over the answer, applied after.
"""

from __future__ import annotations

import posixpath

from hyper.artefact import procedure as procedure_artefact
from hyper.artefact.declaration import PATH as DECLARATION_PATH
from hyper.artefact.manifest import BUILTIN_NAMES, Manifest
from hyper.artefact.procedure import Procedure
from hyper.artefact.repository import LoadedFile, Repository
from hyper.artefact.target import TargetDeclaration
from hyper.check import codes, declaration, definition, manifest, procedure, target
from hyper.check.graph import Graph
from hyper.check.index import Index, build
from hyper.check.projection import Generate, stale
from hyper.core.problem import Problem
from hyper.yaml.access import at

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from hyper.workflow import WorkflowFacts


def generate_workflow(facts: WorkflowFacts) -> bytes:
    """The workflow ``hyper project`` writes for ``facts``: :func:`hyper.workflow.generate`, imported at
    the first workflow compared, since a repository that declares no Cadence compares none."""
    from hyper.workflow import generate

    return generate(facts)


def check_repository(repo: Repository, generate: Generate = generate_workflow) -> list[Problem]:
    """Every problem in ``repo``, sorted by file, line, column and code.

    ``generate`` is the workflow template ``projection-stale`` compares against: the one
    ``hyper project`` writes with, unless a test hands in another.
    """
    index = build(repo)
    manifests = {read.path: read for read in repo.manifest_files}
    targets = {read.file: read for read in repo.target_files}
    problems: list[Problem] = []
    procedures: list[Procedure] = []
    for loaded in repo.files:
        problems.extend(loaded.problems)
        if loaded.ok:
            problems += _artefact(repo, loaded, index, manifests, targets, procedures)
    graph = Graph(procedures, index)
    problems += graph.problems()
    problems += collisions(repo.manifest_files)
    problems += stale(repo, index, graph, generate, repo.workflows)
    return sorted(problems, key=Problem.sort_key)


def _artefact(
    repo: Repository,
    loaded: LoadedFile,
    index: Index,
    manifests: dict[str, Manifest],
    targets: dict[str, TargetDeclaration],
    procedures: list[Procedure],
) -> list[Problem]:
    if loaded.path in manifests:
        held = manifests[loaded.path]
        resolves = repo.manifests.get(held.declared_name) is held  # the one its name stands for, as indexed
        return manifest.check(held, index.providers[held.declared_name] if resolves else None)
    if loaded.path in targets:
        return target.check(targets[loaded.path])
    if loaded.path == DECLARATION_PATH:
        return declaration.check(loaded.root, loaded.data)
    directory = loaded.directory  # worked out from the path at each asking
    if directory == "definitions":
        return definition.check(loaded.path, loaded.root, index, loaded.data)
    if directory == "procedures":
        read = procedure_artefact.read(loaded.path, loaded.root)
        procedures.append(read)
        return procedure.check(read, loaded.root, index, loaded.data)
    return []


def collisions(manifests: Iterable[Manifest]) -> list[Problem]:
    """A ``providers/`` Manifest taking a built-in's name: the built-in stands, and the file names nothing."""
    return [
        at(
            read.path,
            read.name,
            "provider",
            codes.PROVIDER_NAME_COLLISION,
            f"provider: {read.declared_name} is the name of a Provider hyper ships — that one stands, and "
            "this file is in the Provider namespace under no name",
        )
        for read in manifests
        if not read.built_in and read.declared_name in BUILTIN_NAMES
    ]


def narrow(problems: Sequence[Problem], paths: Iterable[str]) -> list[Problem]:
    """The problems under any of ``paths`` (repository-relative): the file itself, or a directory's files."""
    kept = [posixpath.normpath(p) for p in paths]
    if not kept:
        return list(problems)
    if "." in kept:
        return list(problems)
    return [p for p in problems if any(p.file == k or p.file.startswith(k + "/") for k in kept)]

"""The files ``hyper project`` owns: ``.github/workflows/hyper-<procedure>.yml``, and no others.

The path carries the Procedure's name verbatim, so which file is a Procedure's has one
answer, read either way. A hand-written workflow whose name begins ``hyper-`` sits in
the namespace and is removed by the next ``project``; renaming it is the way out.
"""

from __future__ import annotations

from hyper.artefact.repository import WORKFLOW_PREFIX, WORKFLOW_SUFFIX, WORKFLOWS


def path(procedure: str) -> str:
    """Where ``procedure``'s workflow sits, relative to the repository root, in slashes."""
    return f"{WORKFLOWS}/{WORKFLOW_PREFIX}{procedure}{WORKFLOW_SUFFIX}"


def procedure_of(workflow: str) -> str | None:
    """The Procedure name a namespace path carries; ``None`` for a path outside the namespace.

    ``hyper-.yml`` names the empty Procedure, which no Procedure is, and is still in
    the namespace: where a file sits decides whose it is, not whether its name resolves.
    """
    directory, slash, name = workflow.rpartition("/")
    if not slash or directory != WORKFLOWS:
        return None
    if not name.startswith(WORKFLOW_PREFIX) or not name.endswith(WORKFLOW_SUFFIX):
        return None
    return name[len(WORKFLOW_PREFIX) : len(name) - len(WORKFLOW_SUFFIX)]

"""``hyper project``: write the pin and one workflow per Procedure that declares a Cadence.

It is repo-wide and all-or-nothing, so it takes no positional (a per-Procedure
projection could leave two Procedures pinning two versions over one Store) and no
``--dry-run`` (the diff it leaves is the rehearsal). It is the one command in the tree
outside the pin gate, because it is the pin's only writer: gated, it would refuse
an unpinned repository and a new binary alike, and upgrading would have no first
step.

What it does, in order, and only when every step before it succeeded:

1. The whole static pass, less ``projection-stale`` — the drift this command repairs;
   refusing on it would leave no way out. Any other problem prints ``check``'s table,
   exits 1 and writes nothing: a projection of a repository that does not check is a
   projection of something nobody could review.
2. The digest: kept where the declared version is already this build's, otherwise
   read once from the package index's JSON page for the release
   (:mod:`hyper.workflow.release`).
   ``release-artefact-absent`` Refuses (77); a read that did not complete exits 1.
3. Everything computed, then written: ``hyper.yaml`` edited in place, the workflows
   written whole with the dependency lock beside them (removed when no workflow is
   left), every ``hyper-*.yml`` nothing asks for removed, and ``AGENTS.md`` (the
   orientation) only where the repository has none. A write that fails
   names its file and exits 1; there is no rollback — git is the undo.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from hyper.artefact.declaration import PATH as DECLARATION_PATH
from hyper.artefact.repository import WORKFLOWS, Repository, Unreadable, load_repository
from hyper.cadence import gloss
from hyper.check import codes as check_codes
from hyper.check.projection import ProjectedWorkflow, wanted
from hyper.check.repository import check_repository
from hyper.cli.commands.check import page as problem_page
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.faults import NotArrived, ReleaseAbsent, WriteFault
from hyper.core.row import Row, row
from hyper.fs.write import make_held_directory, replace_held
from hyper.render.refusal import Member, about_invocation
from hyper.render.table import table
from hyper.render.terminal import result
from hyper.workflow import generate
from hyper.workflow.declaration import pinned
from hyper.workflow.lock import LOCK, lock
from hyper.workflow.namespace import procedure_of
from hyper.workflow.release import published_digest

RELEASE_ARTEFACT_ABSENT = "release-artefact-absent"
ORIENTATION_PATH = "AGENTS.md"
HEADER = ("PATH", "PROCEDURE", "CADENCE")
REMOVED = "removed"
"""The CADENCE cell of a file taken away: the row records an act, and a blank would read as
"declares no recurrence", which is true of the file and not what happened to it."""
NOTHING = "nothing to project: no Procedure declares a Cadence, and no hyper-*.yml workflow stands\n"


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    root = os.path.normpath(ctx.root)
    repo = load_repository(root)
    if isinstance(repo, Unreadable):
        to.usage(f"hyper project: {repo.message}\n")
        return codes.USAGE
    problems = [p for p in check_repository(repo) if p.error_code != check_codes.PROJECTION_STALE]
    if problems:
        to.answer([p.to_row() for p in problems], result(False), problem_page(problems, len(repo.files)))
        return codes.PROBLEMS

    version = ctx.version
    digest = _kept_digest(repo, version)
    if digest is None:
        try:
            digest = published_digest(ctx.process.dial, version)
        except ReleaseAbsent as absent:
            sentence = (
                f"{absent}, so there is no released hyper {version} to pin — publish that release, "
                "or run project with a hyper that has been released"
            )
            to.refusal(about_invocation([Member(RELEASE_ARTEFACT_ABSENT, sentence)]))
            return absent.exit
        except NotArrived as fault:
            to.narrate(f"hyper project: no digest for hyper {version} could be read: {fault}\n")
            return fault.exit

    # Nothing is written until everything is computed. The projection is made at the pin being
    # written, not the one the file holds: the workflows must install the version the pin moves to.
    held = repo.file(DECLARATION_PATH)
    declaration = pinned(held.data if held is not None else None, version, digest)
    projected = wanted(repo, version, digest)
    asked = {workflow.path for workflow in projected}
    unwanted = [path for path in repo.workflows if path not in asked]
    # The lock goes with the last workflow: with none left, nothing installs from it.
    unlocked = [LOCK] if not projected and os.path.lexists(_on_disk(root, LOCK)) else []
    try:
        _write(root, declaration, projected, unwanted + unlocked)
        _orient(root, version)
    except WriteFault as fault:
        to.narrate(f"hyper project: {fault}\n")
        return fault.exit

    rows = _rows(repo, projected, unwanted)
    to.answer(rows, result(False), _page(rows))
    return codes.CLEAN


def _kept_digest(repo: Repository, version: str) -> str | None:
    """The declared digest where the declared version is this build's; ``None`` where it must be read.

    Re-projecting at an unchanged pin reaches no network: the digest already declared is a
    reviewed fact, and only a version change is worth a fetch.
    """
    declaration = repo.declaration
    if declaration is None or declaration.version is None or declaration.version.value != version:
        return None
    return declaration.digest.value if declaration.digest is not None else None


def _write(root: str, declaration: bytes, projected: Sequence[ProjectedWorkflow], unwanted: Sequence[str]) -> None:
    """The declaration, then every wanted workflow whole, then every unwanted one removed.

    The declaration goes first: a tree interrupted after it names the version its workflows
    are converging on. Writing before removing means an interrupted tree holds a file too
    many rather than a Cadence with nothing behind it. The workflows' directory is made
    only where a file goes into it.
    """
    workflows = [(workflow.path, generate(workflow.facts)) for workflow in projected]
    if workflows:
        workflows.append((LOCK, lock()))
    _put(root, DECLARATION_PATH, declaration)
    if workflows:
        with _naming(WORKFLOWS):
            make_held_directory(root, WORKFLOWS)
    for path, data in workflows:
        _put(root, path, data)
    for path in unwanted:
        with _naming(path):
            os.remove(_on_disk(root, path))


def _orient(root: str, version: str) -> None:
    """``AGENTS.md`` where the repository has none: the orientation ``hyper mcp`` hands an agent
    at its handshake, so an agent working from the files alone starts from the same page.

    A file that stands is someone's and is left byte for byte as it is, whatever it says;
    nothing reports this write, since it asks nothing of the reviewer that the diff does not.
    """
    from hyper_mcp.instructions import instructions  # deferred: start-up cost

    path = os.path.join(root, ORIENTATION_PATH)
    if os.path.lexists(path):
        return
    _put(root, ORIENTATION_PATH, instructions(version).encode("utf-8"))


def _put(root: str, path: str, data: bytes) -> None:
    with _naming(path):
        replace_held(root, path, data)


def _on_disk(root: str, path: str) -> str:
    return os.path.join(root, *path.split("/"))


@contextmanager
def _naming(path: str) -> Iterator[None]:
    """An operating-system failure inside, as a :class:`WriteFault` naming ``path`` as the repository spells it."""
    try:
        yield
    except OSError as exc:
        raise WriteFault(path, exc.strerror or str(exc)) from exc


def _rows(repo: Repository, projected: Sequence[ProjectedWorkflow], unwanted: Sequence[str]) -> list[Row]:
    """One ``workflow`` row per file written or removed, by the Procedure name its path carries.

    A written file's row carries the gloss's parts — the executor facts are derived from them,
    so they stay off the wire. A removed file's row carries its path and, where a Procedure of
    that name still stands (it dropped its Cadence), the Procedure; no gloss at all.
    """
    made: list[Row] = []
    for workflow in projected:
        read = gloss(workflow.cadence)
        made.append(
            row(
                "workflow",
                path=workflow.path,
                procedure=workflow.procedure,
                cadence=workflow.cadence,
                phrase=read.phrase if read else None,
                rate=read.rate.value if read else None,
            )
        )
    for path in unwanted:
        name = procedure_of(path)
        made.append(row("workflow", path=path, procedure=name if name in repo.procedures else None))
    return sorted(made, key=lambda made_row: procedure_of(made_row.get("path")) or "")


def _page(rows: Sequence[Row]) -> str:
    if not rows:
        return NOTHING
    return table([list(HEADER), *(_cells(made) for made in rows)])


def _cells(made: Row) -> list[str]:
    """PATH, PROCEDURE and a CADENCE cell that stacks the expression, phrase, rate and facts."""
    cadence: str | None = made.get("cadence")
    if cadence is None:
        return [made.get("path"), made.get("procedure", ""), REMOVED]
    read = gloss(cadence)
    stacked = [cadence, read.phrase, read.rate.text, *read.facts] if read else [cadence]
    return [made.get("path"), made.get("procedure", ""), "\n".join(stacked)]

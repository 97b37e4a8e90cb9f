"""``hyper check [path...]``: every static rule, over the whole repository, offline.

An agent loops on this until it is clean, so the answer is every problem at once,
each cited by file, line and field, and nothing is skipped to be quick. Paths only
narrow what is reported: the whole repository is always loaded and checked, since
every rule compares one artefact with another. A path is read against the
repository root — not the caller's directory — and one naming no file, or lying
outside the repository (as written, or once its links are resolved), is a usage error
before anything is read.
"""

from __future__ import annotations

import gc
import os
import posixpath

from hyper.artefact.repository import Unreadable, load_repository
from hyper.check.repository import check_repository, narrow
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.cli.placeholder import note
from hyper.core import exit as codes
from hyper.core.basefaults import PathFault
from hyper.core.problem import Problem
from hyper.fs.read import inside, real_root
from hyper.render.terminal import result

HEADER = ("FILE", "LINE", "FIELD", "ERROR_CODE", "MESSAGE")


def repository_path(root: str, given: str) -> str:
    """``given`` as a repository-relative path with forward slashes, or :class:`PathFault`."""
    if given == "":
        raise PathFault("an empty path names no file")
    resolved = os.path.normpath(os.path.join(root, given))
    if resolved != root and not resolved.startswith(root.rstrip(os.sep) + os.sep):
        raise PathFault(f"{given}: outside the repository")
    if not os.path.lexists(resolved):
        raise PathFault(f"{given}: no such file or directory")
    if not inside(os.path.realpath(resolved), real_root(root)):
        raise PathFault(f"{given}: outside the repository")
    relative = os.path.relpath(resolved, root)
    return posixpath.join(*relative.split(os.sep)) if relative != os.curdir else "."


def page(problems: list[Problem], artefacts: int) -> str:
    if not problems:
        noun = "artefact" if artefacts == 1 else "artefacts"
        return f"checked {artefacts} {noun}: no problems found\n"
    from hyper.render.table import table  # deferred: a clean repository, the loop's goal, draws no table

    cells = [[p.file, str(p.line) if p.line else "", p.field, p.error_code, p.message] for p in problems]
    return table([list(HEADER), *cells])


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    root = os.path.normpath(ctx.root)
    try:
        paths = [repository_path(root, given) for given in inv.positional]
    except PathFault as fault:
        to.usage(f"hyper check: {fault}\n")
        return fault.exit
    collecting = gc.isenabled()
    gc.disable()  # every node is acyclic: collection passes over thousands of them would find nothing
    try:
        repo = load_repository(root, ctx.declared)
        if isinstance(repo, Unreadable):
            to.usage(f"hyper check: {repo.message}\n")
            return codes.USAGE
        problems = narrow(check_repository(repo), paths)
        artefacts = len(repo.files)
        note(repo, "check", to)
    finally:
        if collecting:
            # The trees outlive the command (the parse table keeps each for the next load of the
            # same bytes), and the collector, switched back on, would walk every node of them at
            # its first pass to find no cycle. Frozen first, they are out of its sight while the
            # answer is written.
            gc.freeze()
            gc.enable()
    try:
        to.answer([p.to_row() for p in problems], result(False), page(problems, artefacts))
    finally:
        if collecting:
            # Thawed into the oldest generation: a long-lived caller (`hyper mcp`) keeps a
            # collector that can still free any cycle made before the command (ADR 0043).
            gc.unfreeze()
    return codes.PROBLEMS if problems else codes.CLEAN

"""``hyper review <artefact>``: one artefact, as the person approving it reads it.

Exit 0 whenever the review renders, however much it flags; 1 where the artefact is
found and will not load, answered with ``check``'s own rows for it; 2 where the
positional names nothing (stdout silent, no row stream). An artefact that loads and
names something missing still renders: marking that is the gutter's job, refusing it
``check``'s. It takes no ``--limit`` — a review that dropped lines would show
something other than what is about to be approved.

A review reaches past the artefact only for its range: the ``hyper-store`` branch
this clone holds and one git object, read with every transport refused. It resolves
no credential and runs nothing.
"""

from __future__ import annotations

import gc
import os

from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.review.opening import is_path, start


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    root = os.path.normpath(ctx.root)
    named = inv.positional[0]
    now = ctx.process.now()
    # git is started before the artefact is parsed, and before the modules that parse and
    # review it are imported, so that it starts while they run. A path never names the
    # built-in, which has no range; a name is known to need one only once it is resolved.
    opening = start(root, ctx.process, now) if is_path(named) else None
    collecting = gc.isenabled()
    gc.disable()  # the trees are acyclic: a collection over them would find nothing
    try:
        from hyper.artefact.repository import Unreadable, load_repository
        from hyper.cli.placeholder import note
        from hyper.core import exit as codes
        from hyper.render.terminal import result
        from hyper.review.compose import compose
        from hyper.review.page import render
        from hyper.review.resolve import Unresolved, resolve

        repo = load_repository(root, ctx.declared)
        if isinstance(repo, Unreadable):
            to.usage(f"hyper review: {repo.message}\n")
            return codes.USAGE
        found = resolve(named, repo)
        if isinstance(found, Unresolved):
            to.usage(found.text)
            return codes.USAGE
        note(repo, "review", to)
        if found.loaded.problems:
            from hyper.cli.commands.check import page  # deferred: start-up cost
            from hyper.core.problem import Problem  # deferred: start-up cost

            problems = sorted(found.loaded.problems, key=Problem.sort_key)
            to.answer([problem.to_row() for problem in problems], result(False), page(problems, 1))
            return codes.PROBLEMS

        if opening is None and found.path:
            opening = start(root, ctx.process, now)
        review = compose(found, repo, opening, now)
        to.answer(review.rows(), result(False), render(review))
        return codes.CLEAN
    finally:
        if opening is not None:
            # The range told git it was done; it exited while the page was composed and written,
            # and is waited for only now. Ended here too where the review stopped short of it.
            opening.close()
        if collecting:
            gc.enable()

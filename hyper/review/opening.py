"""What a review does before it reads the artefact: tell a path from a name, and start the
Store's reader for an artefact it will read a range for.

git takes 2–12 ms to start and answer its first question on a loaded machine — as long as
parsing the artefact and importing the review's own modules together. Started first, it
answers while they run, and the review reads the answer when it reaches the range.

This module imports nothing heavier than ``os``, so a review starts git before the YAML
reader and the artefact model are imported.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    import datetime as _dt

    from hyper.core.process import Process
    from hyper.store.branch import Opening


def is_path(named: str) -> bool:
    """Whether a positional names a file, repository-relative, rather than a declared name —
    so never the built-in artefact, which has no file."""
    return "/" in named or named.endswith(".yaml")


def offline(env: dict[str, str]) -> dict[str, str]:
    """``env`` with every git transport refused, so no read can turn into a fetch."""
    try:
        count = int(env.get("GIT_CONFIG_COUNT", "0"))
    except ValueError:
        return env
    return {
        **env,
        "GIT_CONFIG_COUNT": str(count + 1),
        f"GIT_CONFIG_KEY_{count}": "protocol.allow",
        f"GIT_CONFIG_VALUE_{count}": "never",
    }


def start(root: str, process: Process, now: _dt.datetime) -> Opening | None:
    """The Store's reader started, its child offline, and the branch's tip asked for, the
    answer left for :func:`hyper.review.baseline.read_range`. ``None`` where no Store can be
    read: no repository at ``root`` (so nothing of the Store is worth importing), or no git
    to start — which a review reports as ``no-store``, as it would a Store it could not open."""
    if not os.path.lexists(os.path.join(root, ".git")):
        return None
    # The Store's reader is imported only where there may be a Store to read.
    from hyper.core.readfaults import GitError, NoRepository
    from hyper.store.branch import Opening
    from hyper.store.git import Git

    try:
        git = Git.open(root, process, now)
        git.env = offline(git.env)
        return Opening(git, now)
    except (NoRepository, GitError, OSError):
        return None

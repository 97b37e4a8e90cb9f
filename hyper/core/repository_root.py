"""Finding the repository a command acts on.

Flag, then environment, then the git root above the working directory — and the
working directory is read only here, only for the commands inside the tree.
"""

from __future__ import annotations

import os

from hyper.core.basefaults import RootFault
from hyper.core.process import Process


def find_git_root(start: str) -> str | None:
    here = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def resolve(repo_dir_flag: str | None, process: Process, wd: str) -> str:
    repo_dir = repo_dir_flag or process.nonempty_env("HYPER_REPO_DIR")
    if repo_dir:
        resolved = os.path.normpath(os.path.join(wd, repo_dir))
        if not os.path.isdir(resolved):
            raise RootFault(f"--repo-dir {repo_dir}: not a directory")
        return resolved
    root = find_git_root(wd)
    if root is None:
        raise RootFault("not inside a git repository; pass --repo-dir or set HYPER_REPO_DIR")
    return root

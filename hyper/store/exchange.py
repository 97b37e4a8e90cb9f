"""Fetching the branch into a clone and pushing it back out.

The depth is decided once, when the branch arrives in a clone that holds neither it nor its
tracking ref: a depth-1 fetch of that one ref. After that every fetch names no depth, so a Store
held whole stays whole and one held shallow is never deepened. No fetch is ever filtered.

What arrives lands on the tracking ref; the local branch follows only where that loses
nothing. Local commits the remote lacks are never discarded: they go out with the next push,
re-applied path by path onto whatever tip the remote moved to.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.faults import GitError, PushExhausted, RefMoved
from hyper.store.git import Git, unix_seconds
from hyper.store.names import REF, REMOTE, TRACKING_REF
from hyper.store.objects import ObjectStore
from hyper.store.tree import apply

PUSH_ATTEMPTS = 3


def holds_branch(git: Git) -> bool:
    """The clone's own ref, or the tracking ref an ordinary clone of a Store-bearing repo leaves."""
    return git.holds_ref(REF) or git.holds_ref(TRACKING_REF)


def bring_branch(git: Git) -> None:
    """Fetch into the tracking ref — shallow on arrival, incremental after — then adopt."""
    git.fetch(REMOTE, REF, TRACKING_REF, shallow=not holds_branch(git))
    adopt(git)


def adopt(git: Git) -> None:
    """Points the local branch at the fetched tip: created if absent, fast-forwarded if behind,
    and left exactly where it is when it holds commits the remote lacks."""
    tip = git.resolve(TRACKING_REF)
    if not git.holds_ref(REF):
        git.create_ref(REF, tip)
        return
    local = git.resolve(REF)
    if local != tip and git.is_ancestor(local, tip):
        git.move_ref(REF, tip, local)


RACING = ("cannot lock ref", "but expected", "unable to update local ref", "Unable to create")
"""How git says another writer in this clone held or moved a ref at the same moment —
``cannot lock ref``, ``is at X but expected Y`` — which a retry cures."""

BEHIND = ("non-fast-forward", "fetch first", "stale info")
"""How git says a push was refused for being behind the remote — never a credential or a hook.
Where the fetch after it finds this branch already holds the remote's tip, another writer in
this clone re-applied and published first, and the next attempt pushes from there."""


def git_said(fault: GitError, signs: tuple[str, ...]) -> bool:
    """Whether git's own text about ``fault`` carries one of ``signs``."""
    return any(sign in fault.stderr for sign in signs)


def push(git: Git, now: _dt.datetime) -> None:
    """Up to three pushes, each after the first preceded by a jittered wait (through the
    Process) and a refresh. After a rejection the branch is fetched: where the remote did not
    move, the push's own error stands (a credential, a hook); where it moved, every local
    commit it lacks is re-applied onto its tip, oldest first, and the push tried again. A
    ref race with another writer in this clone — in the push, the fetch or the re-apply —
    spends an attempt rather than ending the push."""
    for attempt in range(1, PUSH_ATTEMPTS + 1):
        try:
            git.push(REMOTE, REF)
            return
        except GitError as rejected:
            if attempt == PUSH_ATTEMPTS:
                raise PushExhausted(rejected) from None
            git.process.backoff(attempt)
            try:
                bring_branch(git)
                moved = not git.is_ancestor(TRACKING_REF, REF)
            except GitError as asked:
                if git_said(asked, RACING):
                    continue
                raise GitError(
                    rejected.args_run,
                    rejected.status,
                    f"{rejected.stderr}; and the fetch after it: {asked}",
                ) from None
            if not moved:
                if git_said(rejected, RACING + BEHIND):
                    continue
                raise
            try:
                reapply(git, now)
            except RefMoved:
                continue  # another writer here moved the branch: the next attempt starts from it


def reapply(git: Git, now: _dt.datetime) -> None:
    """Rebuilds every local commit the tracking tip lacks on top of it, each with its own
    message and its own path operations — not a rebase, which would need a worktree."""
    objects = ObjectStore(git)
    try:
        tip = git.resolve(TRACKING_REF)
        local = git.resolve(REF)
        for commit in git.commits_since(REF, TRACKING_REF):
            operations = git.operations_in(commit)
            tree = apply(objects, objects.commit_tree(tip), operations, append_only=False)
            tip = objects.commit(tree, [tip], git.message_of(commit), unix_seconds(now))
        objects.move(REF, tip, local)
    finally:
        objects.close()

"""The two acts that put the branch in hand or make it exist: the sync at the start of a
Run or an inspection, and ``store init``."""

from __future__ import annotations

import datetime as _dt

from hyper.core.faults import GitError, InitPushFailed, StoreAbsent
from hyper.core.namedtuple import NamedTuple
from hyper.core.process import Process
from hyper.store.branch import create
from hyper.store.exchange import PUSH_ATTEMPTS, RACING, bring_branch, git_said, holds_branch, push
from hyper.store.git import Git
from hyper.store.names import BRANCH, REF, REMOTE


def sync(git: Git) -> None:
    """Brings the Store down from ``origin`` where there is one.

    No remote configured is nothing to do: the local branch is the Store, or there is none, and
    opening the Store says which (:class:`StoreAbsent`) — asking git here too would start a
    child for an answer the opening reads anyway. With a remote, a remote that lacks a branch
    this clone holds is not a failure either — a previous ``store init`` could not push, and the
    next push will. A remote that could not be reached is an error, never read as *nothing
    recorded*.

    ``git`` is the handle the caller goes on to open the Store through, so that what it learnt
    here — which remotes there are — is not asked of git again at the Run's pushes.
    """
    if not git.has_remote(REMOTE):
        return
    local = git.holds_ref(REF)
    if not (local or holds_branch(git)) and not git.remote_holds_ref(REMOTE, REF):
        raise StoreAbsent(BRANCH)
    for attempt in range(1, PUSH_ATTEMPTS + 1):
        try:
            bring_branch(git)
            return
        except GitError as failed:
            if git_said(failed, RACING) and attempt < PUSH_ATTEMPTS:
                # Another Run in this clone fetched or adopted at the same moment.
                git.process.backoff(attempt)
                continue
            if local and not git.remote_holds_ref(REMOTE, REF):
                return
            raise


def sync_for_reading(git: Git) -> GitError | None:
    """:func:`sync` for a command that only reads: where ``origin`` cannot be read but this clone
    holds the branch, the fault is answered rather than raised — the local branch is evidence,
    only possibly stale, and the caller says so. With no branch here the fault stands."""
    try:
        sync(git)
    except GitError as fault:
        if not git.holds_ref(REF):
            raise
        return fault
    return None


def publish(root: str, process: Process, now: _dt.datetime) -> None:
    """Sends the branch to ``origin``; with no remote configured, does nothing at all."""
    git = Git.open(root, process, now)
    if git.has_remote(REMOTE):
        push(git, now)


class Initialised(NamedTuple):
    """What ``init`` did: created the branch here, and/or pushed it to ``origin``."""

    created: bool = False
    pushed: bool = False


def init(root: str, process: Process, now: _dt.datetime) -> Initialised:
    """Creates the Store where neither side holds it, and makes sure ``origin`` has it.

    It looks before it creates — the local ref, then ``origin``'s — because two clones that
    each minted a root would hold two histories that never fast-forward into one another.
    """
    git = Git.open(root, process, now)
    local = git.holds_ref(REF)
    if not git.has_remote(REMOTE):
        if local:
            return Initialised()
        create(git, now)
        return Initialised(created=True)
    held = git.remote_holds_ref(REMOTE, REF)
    if local and held:
        return Initialised()
    if local:
        git.push(REMOTE, REF)
        return Initialised(pushed=True)
    if held:
        bring_branch(git)
        return Initialised()
    create(git, now)
    try:
        git.push(REMOTE, REF)
    except GitError as failed:
        raise InitPushFailed(failed) from None
    return Initialised(created=True, pushed=True)

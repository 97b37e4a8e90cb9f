"""Reliability, each case bounded in time: concurrent publishers both land, a kill between the
objects and the ref leaves the branch where it was."""

from __future__ import annotations

import pathlib
import signal
import subprocess
import sys

import pytest

from hyper.store.branch import Store, Write
from hyper.store.git import Git
from hyper.store.names import REF
from hyper.store.paths import JournalEntry
from hyper.store.sync import init, sync

from .support import NOW, bare, environ, git, process, repository

pytestmark = pytest.mark.serial  # processes racing on one remote, and a kill mid-write: run alone (ADR 0029)

WORKER = pathlib.Path(__file__).with_name("worker.py")
RUNS = ("01984f1a-3c9f-7b04-9c2e-4f0b8d61a3e7", "01984f2b-1d7a-7c31-8d41-6b2f7ae05c19")
STEPS = 4


def test_two_processes_publishing_to_one_remote_both_land(tmp_path: pathlib.Path) -> None:
    origin = bare(tmp_path / "origin.git")
    seedling = repository(tmp_path / "seedling")
    git(seedling, "remote", "add", "origin", str(origin))
    init(str(seedling), process(seedling), NOW)
    clones = []
    for name in ("laptop", "runner"):
        root = repository(tmp_path / name, commit=False)
        git(root, "remote", "add", "origin", str(origin))
        sync(Git.open(str(root), process(root), NOW))
        clones.append(root)
    children = [
        subprocess.Popen(
            [sys.executable, str(WORKER), "publish", str(root), run, str(STEPS)],
            env=environ(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for root, run in zip(clones, RUNS, strict=True)
    ]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err.decode()
    landed = git(origin, "ls-tree", "-r", "--name-only", "hyper-store").splitlines()
    for run in RUNS:
        for step in range(1, STEPS + 1):
            assert JournalEntry(run, NOW).step_path(step) in landed
    git(origin, "fsck", "--strict", "--no-dangling")


def test_a_kill_between_objects_and_ref_leaves_the_branch_where_it_was(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    init(str(root), process(root), NOW)
    child = subprocess.run(
        [sys.executable, str(WORKER), "killed", str(root), RUNS[0]],
        env=environ(),
        capture_output=True,
        timeout=120,
    )
    assert child.returncode == -signal.SIGKILL
    assert git(root, "log", "-1", "--format=%s", "hyper-store") == "before the kill"
    git(root, "fsck", "--strict")
    assert not list((root / ".git").rglob("*.lock"))
    with Store.open(str(root), process(root), NOW) as store:
        store.append([Write(JournalEntry(RUNS[0], NOW).outcome_path, b"after\n")], "after the kill")
    assert git(root, "log", "-1", "--format=%s", REF) == "after the kill"

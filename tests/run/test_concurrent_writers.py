"""Concurrent writers on one remote (issue #12 §5): four effectful Runs from four clones and
two read Runs from one clone, all at once, against real git.

No Run exits 1 on a ref race; a Run may answer 75 once its three pushes are spent, which is
the reference's contract, and what it wrote stays on its clone's branch. After one further
Run in each clone that answered 75, every Record every Run wrote is on origin.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hyper.core.version import installed
from tests.run.support import ECHO, build, git_env, read_step, scripts

pytestmark = pytest.mark.serial  # six processes racing on one remote: run alone (ADR 0029)

CHANGE = (
    "kind: procedure\nprocedure: change\ntargets: [local]\nsteps:\n"
    "  - id: change\n    definition: host-changes\n    operation: mutate\n    target: local\n"
    "    args:\n      command: [stamp]\n"
)
STAMP = '#!/bin/sh\necho "changed by $$"\n'
"""Each Run's effect answers differently, so each mints a Record version of its own."""
LOOK = "kind: procedure\nprocedure: look\ntargets: [local]\nsteps:\n" + read_step("look", "echo", "looked")


def run_git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=git_env(), check=True, capture_output=True, text=True)
    return done.stdout


def records_on(repo: Path, ref: str) -> set[str]:
    listed = run_git(repo, "ls-tree", "-r", "--name-only", ref, "--", "records/")
    return set(listed.split())


def _hyper(clone: Path, env: dict[str, str], procedure: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "hyper", "run", "--repo-dir", str(clone), procedure],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def with_origin(tmp_path: Path) -> tuple[Path, Path]:
    """The fixture repository with ``change`` and ``look``, pushed to a bare origin: (root, origin)."""
    root = build(
        tmp_path, {"procedures/change.yaml": CHANGE, "procedures/look.yaml": LOOK}, version=installed().version
    )
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], env=git_env(), check=True)
    run_git(root, "remote", "add", "origin", str(origin))
    run_git(root, "push", "-q", "origin", "main", "hyper-store")
    return root, origin


def test_concurrent_runs_never_fail_on_a_ref_race_and_lose_no_record(tmp_path: Path) -> None:
    _, origin = with_origin(tmp_path)
    clones = []
    for n in range(5):
        clone = tmp_path / f"clone-{n}"
        subprocess.run(["git", "clone", "-q", str(origin), str(clone)], env=git_env(), check=True)
        clones.append(clone)
    bin_dir = scripts(tmp_path, echo=ECHO, stamp=STAMP)
    env = {**git_env(), "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', os.defpath)}"}
    env.pop("HYPER_REPO_DIR", None)

    started = [(clone, _hyper(clone, env, "change")) for clone in clones[:4]]
    started += [(clones[4], _hyper(clones[4], env, "look")) for _ in range(2)]
    answered = []
    for clone, child in started:
        _, err = child.communicate(timeout=120)
        answered.append((clone, child.returncode, err.decode()))
    neither = [(code, err) for _, code, err in answered if code not in (0, 75)]
    assert neither == [], neither

    for clone in {clone for clone, code, _ in answered if code == 75}:
        again = _hyper(clone, env, "look")
        _, err = again.communicate(timeout=120)
        assert again.returncode == 0, err

    run_git(clones[0], "fetch", "-q", "origin")
    published = records_on(origin, "hyper-store")
    written = set().union(*(records_on(clone, "hyper-store") for clone in clones))
    assert written <= published
    changed = [name for name in published if "/host-changes/" in name]
    # Every Run that answered 0 performed its effect; one answering 75 may have stopped before it.
    assert len([code for _, code, _ in answered[:4] if code == 0]) <= len(changed) <= 4, answered

"""A Run that acted and then lost its three pushes (issue #12 §5): 75, as the reference answers,
with its Records kept on this clone's branch, the page saying they are not yet published, and
the next Run publishing them.

The effect itself arms origin's refusing hook — the corpus's ``reject-pushes``, another writer
advancing the Store at every push — so the Run's first push (its sync) lands and every push
after the effect is refused: the order is fixed by the Run, not by timing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from harness.fixture import install_rejecting_hook
from tests.run.support import ECHO, git_env, scripts
from tests.run.test_concurrent_writers import records_on, with_origin

ARMED = Path("hooks") / "pre-receive"


def _hyper(root: Path, env: dict[str, str], procedure: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hyper", "run", "--repo-dir", str(root), procedure],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_run_whose_pushes_ran_out_after_its_effect_keeps_its_records_for_the_next_run(tmp_path: Path) -> None:
    root, origin = with_origin(tmp_path)
    install_rejecting_hook(origin)
    hook = origin / ARMED
    shutil.move(hook, tmp_path / "armed")
    arm = f"#!/bin/sh\ncp '{tmp_path / 'armed'}' '{hook}'\necho changed\n"
    bin_dir = scripts(tmp_path, echo=ECHO, stamp=arm)
    env = {**git_env(), "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', os.defpath)}"}
    env.pop("HYPER_REPO_DIR", None)

    lost = _hyper(root, env, "change")
    assert lost.returncode == 75, lost.stderr
    said = (
        "the Records this Run's Steps reached, and its entry, are committed to hyper-store here,"
        " not yet published, and the next Run's push publishes them"
    )
    assert said in lost.stdout and said in lost.stderr
    changed = {name for name in records_on(root, "hyper-store") if "/host-changes/" in name}
    assert len(changed) == 1
    assert not changed & records_on(origin, "hyper-store")

    hook.unlink()
    after = _hyper(root, env, "look")
    assert after.returncode == 0, after.stderr
    assert changed <= records_on(origin, "hyper-store")
    assert "not yet published" not in after.stdout

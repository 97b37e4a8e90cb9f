"""The commits a fixed Run writes are pinned by id: how the Store computes trees may change
(issue #13 made it incremental), what it computes may not. A fixed clock, a fixed Run id and a
fixed repository make every byte of every commit reproducible, so a changed id here is a
changed commit — its tree, its parent, its message or its date."""

from __future__ import annotations

import datetime as _dt
import io
import os
import shutil
import subprocess
from pathlib import Path

from hyper.cli.main import main
from hyper.core.process import Process
from hyper.store.sync import init
from tests.run.support import FACTS, REPO_SHELL, procedure, read_step, scripts

NOW = _dt.datetime(2026, 4, 2, 9, 41, 14, tzinfo=_dt.UTC)
RUN_ID = "01991ea6-b118-7c93-8d41-6b2f7ae05c19"
STEPS = 12


def _fixed(root: Path, bin_dir: Path) -> Process:
    from harness.drive import launcher

    return Process(
        environ={"PATH": os.environ.get("PATH", os.defpath)},
        getwd=lambda: str(root),
        now=lambda: NOW,
        mint=lambda _at: RUN_ID,
        user=lambda: "igor",
        hostname=lambda: "thinkpad",
        launch=launcher(bin_dir),
    )


def _git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t.invalid",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_DATE": "1775122874 +0000",
        "GIT_COMMITTER_DATE": "1775122874 +0000",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True).stdout


def test_a_fixed_run_writes_the_same_commits(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(REPO_SHELL, root)
    steps = [read_step(f"s{n:02d}", "echo", f"step-{n:02d}") for n in range(1, STEPS + 1)]
    (root / "procedures" / "many.yaml").write_text(procedure("many", *steps))
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "fixture"]):
        _git(root, *args)
    bin_dir = scripts(tmp_path, echo="#!/bin/sh\nprintf '%s\\n' \"$*\"\n")
    init(str(root), _fixed(root, bin_dir), NOW)
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["run", "--repo-dir", str(root), "many"], out, err, _fixed(root, bin_dir), FACTS)
    assert code == 0, err.getvalue().decode()
    commits = _git(root, "rev-list", "hyper-store").split()
    assert len(commits) == 2 + 2 * STEPS + 1
    assert commits == [
        "28b64524305fef66561c4448cd72b4daeed82cd6",
        "b66cc4041a412e8f175105eb1cc50d425b66f3bb",
        "8f2261c5ead4eb44ad45a4b3dd8e1a370d75d7fe",
        "d5c183f551e8af1f5cd20294c65278cdbcd4a467",
        "29c37d501d07337e3728586910aab3acf3bd08de",
        "3c1ec0e5de5fc769fee4c0352765c074e59e5eff",
        "765bedbaa1fa1f0ad92c43f35cce7da48aee747d",
        "83ff3bf409cc77658b1f5960615463a59315a823",
        "56516ebd40a06b20aa76dc3a1f0779bdafe8f4eb",
        "83bcae971a06179f7d81279d90c517d25e851281",
        "e53dadfe006d299cb4469851c593ca646f758993",
        "4c0ac3b55dab96c50ad05d15502051973d15dc46",
        "46dfa00e363e2d2b5204033c5e623344fcc842fd",
        "130e2ee99f5dd2b0c6e31f60130014c0925e8ad9",
        "76e63f1c691777cf2b063c54749088c94f36a4f8",
        "fc7a45a62990a18d0f1b09e0196308679bee20d1",
        "103bb92680a59dc74967f4ca968be34af9d44f35",
        "f08eb288231f998bca55ddbfae9d7dcafa5e93a2",
        "861b8bfc4adbd3c1b5021ad34a1c18a7be6ee771",
        "a32ba17fc615ed2526b5cea9ef75c78325111e62",
        "149f55604516c6ecd5ae3ca96a08db992cf99913",
        "e2c224976d4e4c0c687a13bdde2e5166bf5e04c8",
        "7a2cc8130184e8cb559a3847c306c780a2c03b2f",
        "c3f9b83db7af9069440ef1317f7b9386c1d6b04f",
        "3e522583346632b66ecce45445b87e2762657b52",
        "ffb1ddc4475bed30fed4f75b45b2895e7c1503af",
        "368968de4fdf8323e90004311ed1ab37200a6450",
    ]

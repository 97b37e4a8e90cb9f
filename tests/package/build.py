"""Builds the wheel the way a release would, from a copy of the checkout's files.

A copy (the files git tracks or would track, nothing it ignores) keeps the build's
``build/`` and ``.egg-info`` scratch out of the checkout, and two copies at two paths
prove the wheel depends on neither the path nor the scratch a previous build left.
``SOURCE_DATE_EPOCH`` is the commit's time, as a release build would set it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def source_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted(name for name in listed.split("\0") if name and (ROOT / name).is_file())


def source_date_epoch() -> str:
    return subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def build_wheel(scratch: Path) -> Path:
    """One wheel built from a fresh copy under ``scratch``; its path."""
    tree = scratch / "src"
    for name in source_files():
        target = tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    out = scratch / "dist"
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(scratch), "SOURCE_DATE_EPOCH": source_date_epoch()}
    subprocess.run([*pip, "-w", str(out), str(tree)], check=True, env=env)
    (wheel,) = out.glob("*.whl")
    return wheel

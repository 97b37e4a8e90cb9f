"""Builds the wheel the way a release would, from a copy of the checkout's files.

A copy (the files git tracks or would track, nothing it ignores) keeps the build's
``build/`` and ``.egg-info`` scratch out of the checkout, and two copies at two paths
prove the wheel depends on neither the path nor the scratch a previous build left.
``SOURCE_DATE_EPOCH`` is the commit's time, as a release build would set it. The pair is
built once per checkout and content and kept under ``.cache/`` (tests/built.py): every test
that needs the release wheel, on every pytest-xdist worker, reads the same two files.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
from pathlib import Path

from tests.built import built

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


def release_wheels() -> tuple[Path, Path]:
    """Two wheels of this checkout, each built from its own copy at its own path."""
    names = source_files()
    epoch = source_date_epoch()
    tools = f"{sys.version} setuptools {importlib.metadata.version('setuptools')}"
    contents = (part for name in names for part in (name.encode(), (ROOT / name).read_bytes()))
    inputs = [tools.encode(), epoch.encode(), *contents]
    place = built("release-wheels", inputs, lambda scratch: _build_two(scratch, names, epoch))
    return _wheel_in(place / "one"), _wheel_in(place / "two")


def _build_two(scratch: Path, names: list[str], epoch: str) -> None:
    for copy in ("one", "two"):
        _build_wheel(scratch / copy, names, epoch)


def _build_wheel(scratch: Path, names: list[str], epoch: str) -> None:
    """One wheel built from a fresh copy of ``names`` under ``scratch``, into ``scratch``; the copy goes."""
    tree = scratch / "src"
    for name in names:
        target = tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(scratch), "SOURCE_DATE_EPOCH": epoch}
    subprocess.run([*pip, "-w", str(scratch), str(tree)], check=True, env=env)
    shutil.rmtree(tree)
    shutil.rmtree(scratch / ".cache", ignore_errors=True)


def _wheel_in(folder: Path) -> Path:
    (wheel,) = folder.glob("*.whl")
    return wheel

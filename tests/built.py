"""Artefacts the end-to-end tests need, built once per checkout and kept under ``.cache/``.

A wheel, the locked dependencies downloaded for the workflow's index, and the node tools of
``scripts/`` each cost seconds to tens of seconds. Each is kept in a folder named for the
digest of everything it was built from, so a change to any input builds a new one and a
stale one is never read. The build runs under an exclusive lock and lands by a rename, so
two pytest-xdist workers asking at once build it once, and neither sees half of it (ADR 0029).
``.cache/`` is ignored by git; deleting it is always safe.
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
CACHE: Final = ROOT / ".cache"


def digest_of(parts: Iterable[bytes]) -> str:
    """One digest over a sequence of inputs, each length-prefixed so no two sequences collide."""
    summed = hashlib.sha256()
    for part in parts:
        summed.update(len(part).to_bytes(8, "big"))
        summed.update(part)
    return summed.hexdigest()[:20]


def built(name: str, inputs: Iterable[bytes], build: Callable[[Path], None]) -> Path:
    """The folder ``build`` filled for these inputs: made now if no earlier run made it.

    ``build`` fills an empty folder it is given, or raises; what it raised reaches the caller,
    and nothing is kept.
    """
    CACHE.mkdir(exist_ok=True)
    done = CACHE / f"{name}-{digest_of(inputs)}"
    with (CACHE / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_dir():
            scratch = done.with_name(done.name + ".partial")
            shutil.rmtree(scratch, ignore_errors=True)
            scratch.mkdir()
            try:
                build(scratch)
            except BaseException:
                shutil.rmtree(scratch, ignore_errors=True)
                raise
            scratch.rename(done)
    return done


NODE_FILES: Final = (
    "package.json",
    "package-lock.json",
    "actionlint.mjs",
    "mcp-official-client.mjs",
    "mcp-run-progress.mjs",
)
"""The node side of ``scripts/``: the lock, and the scripts that import what it installs."""


def node_scripts() -> Path:
    """A folder holding ``scripts/``'s node scripts and, beside them, the dependencies its lock pins.

    Raises what ``npm ci`` raised where the install cannot be had; the caller skips on it.
    """
    sources = [ROOT / "scripts" / name for name in NODE_FILES]
    inputs = (part for path in sources for part in (path.name.encode(), path.read_bytes()))
    return built("node-scripts", inputs, _npm_ci)


def _npm_ci(into: Path) -> None:
    for name in NODE_FILES:
        shutil.copy(ROOT / "scripts" / name, into / name)
    npm = ["npm", "ci", "--prefix", str(into), "--no-audit", "--no-fund", "--ignore-scripts"]
    subprocess.run(npm, capture_output=True, timeout=300, check=True)

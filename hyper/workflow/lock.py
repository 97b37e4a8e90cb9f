"""The dependency lock ``project`` writes beside the workflows: a file of the build, copied whole.

The generated workflow installs hyper's dependencies with ``pip install --require-hashes``
from it, so none of them is taken on the index's word. It is resolved when the build is
made (``scripts/lock``), not when ``project`` runs: the same build writes the same bytes on
every machine, offline, and the lock moves exactly when the pin does.
"""

from __future__ import annotations

from pathlib import Path

from hyper.artefact.repository import LOCK

__all__ = ["LOCK", "lock"]


def lock() -> bytes:
    """The lock's bytes, as this build ships them."""
    return Path(__file__).with_name("requirements.txt").read_bytes()

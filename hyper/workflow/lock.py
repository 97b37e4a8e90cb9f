"""The dependency lock ``project`` writes beside the workflows: a file of the build, copied whole.

The generated workflow installs hyper's dependencies with ``pip install --require-hashes``
from it, so none of them is taken on the index's word. It is resolved when the build is
made (``scripts/lock``), not when ``project`` runs: the same build writes the same bytes on
every machine, offline, and the lock moves exactly when the pin does.
"""

from __future__ import annotations

import os

from hyper.artefact.repository import LOCK

__all__ = ["LOCK", "lock"]


def lock() -> bytes:
    """The lock's bytes, as this build ships them (read through ``os.path``: ``check`` imports this
    module, and pathlib would cost it start-up time — on 3.13 it brings glob and contextlib)."""
    with open(os.path.join(os.path.dirname(__file__), "requirements.txt"), "rb") as shipped:
        return shipped.read()

"""A Process whose every reading is fixed: the one the command-level tests share.

Nothing here reads the machine — no real environment, clock, user or host — so a test that
passes here passes anywhere; each test names the environment it means.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from hyper.core.process import Process

NOW = dt.datetime(2026, 4, 2, 9, 41, 14, tzinfo=dt.UTC)


def fixed_process(wd: str, env: Mapping[str, str], now: dt.datetime = NOW) -> Process:
    return Process(
        environ=dict(env),
        getwd=lambda: wd,
        now=lambda: now,
        mint=lambda at: "01991ea6-b118-7c93-8d41-6b2f7ae05c19",
        user=lambda: "igor",
        hostname=lambda: "thinkpad",
    )

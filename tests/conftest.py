"""Wiring shared by every test module; keep it small, since all of it is global.

``--update`` is the corpus's one regeneration switch: ``pytest --update`` rewrites
every golden under ``corpus/`` (and ``corpus/mcp/tools.golden``) from what hyper
produces now, instead of comparing against them. Read the diff before committing it.

``HYPOTHESIS_PROFILE`` names the Hypothesis profile to load over the one Hypothesis chose
(``default``, or ``ci`` where ``CI`` is set). ``shallow`` draws a tenth of the examples, and a
tenth of every count asked through ``tests.depth.examples``; ``./scripts/test-versions`` sets
it, so the deep search runs once, on the interpreter ``./scripts/test`` uses (ADR 0041).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("shallow", max_examples=10)
if "HYPOTHESIS_PROFILE" in os.environ:
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update",
        action="store_true",
        default=False,
        help="regenerate every golden under corpus/ instead of comparing with it",
    )


@pytest.fixture
def update(request: pytest.FixtureRequest) -> bool:
    """Whether this run regenerates goldens rather than checking them."""
    return bool(request.config.getoption("--update"))

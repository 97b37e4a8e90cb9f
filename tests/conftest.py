"""Wiring shared by every test module; keep it small, since all of it is global.

``--update`` is the corpus's one regeneration switch: ``pytest --update`` rewrites
every golden under ``corpus/`` (and ``corpus/mcp/tools.golden``) from what hyper
produces now, instead of comparing against them. Read the diff before committing it.
"""

from __future__ import annotations

import pytest


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

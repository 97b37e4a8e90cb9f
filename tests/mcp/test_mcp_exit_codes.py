"""hyper_mcp names no exit code hyper lacks, and answers an outcome for each of hyper's but usage.

hyper_mcp cannot import ``hyper.core.exit`` (it imports nothing from hyper), so it spells the
codes as numbers; this test, which may import both, holds the two sets together until the
mapping becomes hyper_mcp's own configuration (the MCP adapter's issue).
"""

from __future__ import annotations

from hyper.core import exit as codes
from hyper_mcp import envelope


def test_every_named_exit_code_but_usage_has_an_outcome() -> None:
    # Usage (2) is no envelope at all: a protocol error carrying the usage sentence.
    assert set(envelope._OUTCOME_OF_EXIT) == codes.ALL - {codes.USAGE}
    assert envelope._OUTCOME_OF_EXIT[codes.REFUSED] == "refused"
    assert envelope._OUTCOME_OF_EXIT[codes.CLEAN] == "completed"

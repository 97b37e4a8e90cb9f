"""``docs/check-rules.md`` lists exactly the codes ``check`` answers, in the code table's order."""

from __future__ import annotations

import re
from pathlib import Path

from hyper.check import codes

DOC = Path(__file__).resolve().parents[2] / "docs" / "check-rules.md"
ROW = re.compile(r"^\| `([a-z-]+)` \|(.+)\|$")


def test_the_rules_page_lists_every_code_once_in_table_order() -> None:
    rows = [ROW.match(line) for line in DOC.read_text(encoding="utf-8").splitlines()]
    listed = [match.group(1) for match in rows if match]
    assert listed == list(codes.RULES)


def test_every_row_states_a_trigger_a_citation_and_an_example() -> None:
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            cells = [cell.strip() for cell in match.group(2).split(" | ")]
            assert len(cells) == 3 and all(cells), line

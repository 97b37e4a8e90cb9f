"""Every error_code has a corpus case that triggers it alone, in both forms, and the
corpus names no code the code does not have."""

from __future__ import annotations

import json
from pathlib import Path

from hyper.check import codes

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def _codes_in(golden: Path) -> set[str]:
    found: set[str] = set()
    for line in golden.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("type") == "problem":
            found.add(row["error_code"])
    return found


def test_each_code_has_a_page_case_and_a_json_twin_that_trigger_it_alone() -> None:
    missing = []
    for code in sorted(codes.CODES):
        page, twin = CORPUS / "check" / code, CORPUS / "check" / f"{code}-json"
        if not (page / "argv").is_file() or not (twin / "argv").is_file():
            missing.append(code)
            continue
        assert _codes_in(twin / "stdout.golden") == {code}, code
        assert (page / "exit.golden").read_text() == "1\n", code
        assert code in (page / "stdout.golden").read_text(encoding="utf-8"), code
    assert missing == []


def test_no_golden_names_a_code_the_code_does_not_have() -> None:
    named: set[str] = set()
    for golden in CORPUS.rglob("*.golden"):
        text = golden.read_text(encoding="utf-8", errors="replace")
        for line in text.splitlines():
            line = line.strip().rstrip(",")
            if line.startswith('{"type":"problem"'):
                named.add(json.loads(line)["error_code"])
    assert named - codes.CODES == set()

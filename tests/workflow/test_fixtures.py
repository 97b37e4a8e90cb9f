"""Every workflow fixture in the corpus is what the current template writes for the facts it states.

``python -m harness workflows corpus`` regenerates them; this holds that nobody forgot to.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from harness.__main__ import main
from harness.fault import CaseFault
from harness.workflows import HAND_EDITS, facts_of, fixtures, regenerate, regenerated
from hyper.workflow import WorkflowFacts, generate

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
FACTS = WorkflowFacts("nightly", "0 3 * * 1", True, ("B_TOKEN", "A_TOKEN"), "1.3.0", "sha256:" + "1" * 64)


def test_every_fixture_is_current() -> None:
    assert list(fixtures(CORPUS)) != []
    assert regenerate(CORPUS, check=True) == []


def test_every_hand_edit_names_a_fixture_that_keeps_it() -> None:
    for relative, edits in HAND_EDITS.items():
        text = (CORPUS / relative).read_text(encoding="utf-8")
        assert all(edited in text for _, edited in edits), relative


def test_the_facts_read_back_are_the_facts_written(tmp_path: Path) -> None:
    path = tmp_path / "hyper-nightly.yml"
    text = generate(FACTS).decode()
    assert facts_of(path, text) == FACTS._replace(variables=("A_TOKEN", "B_TOKEN"))
    assert facts_of(path, generate(FACTS._replace(effects=False, variables=())).decode()).effects is False


def test_a_file_that_is_not_generated_is_a_fault(tmp_path: Path) -> None:
    path = tmp_path / "repo" / ".github" / "workflows" / "hyper-nightly.yml"
    path.parent.mkdir(parents=True)
    path.write_text("name: nightly\n")
    with pytest.raises(CaseFault, match="does not read as a generated workflow"):
        regenerated(tmp_path, path)


def test_the_command_rewrites_and_the_check_lists(tmp_path: Path) -> None:
    path = tmp_path / "case" / "repo" / ".github" / "workflows" / "hyper-nightly.yml"
    path.parent.mkdir(parents=True)
    path.write_bytes(generate(FACTS).replace(b"if: always()", b"if: failure()"))
    out = io.StringIO()
    assert main(["workflows", str(tmp_path), "--check"], out) == 1
    assert out.getvalue() == f"{path}\n"
    assert main(["workflows", str(tmp_path)], io.StringIO()) == 0
    assert path.read_bytes() == generate(FACTS._replace(variables=("A_TOKEN", "B_TOKEN")))
    assert main(["workflows", str(tmp_path), "--check"], io.StringIO()) == 0


def test_every_lock_fixture_is_the_builds_unless_its_edit_is_named() -> None:
    from harness.workflows import locks
    from hyper.workflow.lock import lock

    found = locks(CORPUS)
    assert found != []
    edited = {CORPUS / relative for relative in HAND_EDITS if relative.endswith(".txt")}
    assert all(path.read_bytes() == lock() for path in found if path not in edited)
    assert all(path.read_bytes() != lock() for path in edited)

"""``show``'s rows and page over entries read from the corpus's shared Journal — and every
``--json`` stream the corpus holds for it, read against the ``run_show`` tool's output schema."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # the SDK brings it; no stubs are installed
import orjson
import pytest

from hyper.inspect.show import (
    Members,
    Shown,
    answered_value,
    entry_row,
    page,
    resolved,
    rows,
    step_row,
)
from hyper.store.canonical import Value
from hyper.store.journal import RefusalMember
from hyper.store.provenance import StepProvenance
from hyper.store.step import HTTPAnswer, MemberAnswer, Selector, ShellAnswer, StepCode, StepFile
from tests.inspect.test_runs import ROOT, read_entry, tool_schema

REAPED = "04/019fcc0b-56b8-7d55-8e3a-1b4c9d70e6a2"
REFUSED = "05/019fd382-ea00-7e33-8b47-5c91d2e04f6a"
STARTED = dt.datetime(2026, 8, 6, 11, 3, 18, tzinfo=dt.UTC)


def destroy(answered: tuple[MemberAnswer, ...] = (), selector: Selector | None = None) -> StepFile:
    return StepFile(
        step=1,
        code=StepCode("retire", "servers", "delete_server", "hetzner", "staging", "destroy"),
        disposition="ran",
        started_at=STARTED,
        ended_at=STARTED,
        provenance=StepProvenance("c3a17b09", "sha256:2b7e"),
        selector=selector,
        answered=answered,
    )


def test_a_reaped_entry_carries_its_closer_and_no_owners_outcome() -> None:
    row = entry_row(read_entry(REAPED))
    assert "outcome" not in row.fields and "ended_at" not in row.fields
    assert row.get("closed_by") == [
        {
            "run_id": "019fd6bd-e8f0-7c30-9b8a-52d9ea01f7b4",
            "outcome": "failed",
            "step": 3,
            "ended_at": "2026-08-06T11:03:18.000Z",
        }
    ]
    assert row.get("dry_run") is False
    assert row.get("trigger") == {"cause": "manual", "executor": "local", "actor": "igor", "host": "thinkpad"}


def test_rows_come_entry_refusals_run_provenance_then_steps() -> None:
    entry = read_entry(REFUSED)
    assert entry.owner is not None and entry.owner.refusal
    assert [r.type for r in rows(Shown(entry, (), {}), expansion=False)] == [
        "entry",
        "refusal",
        "remediation",
        "provenance",
    ]


def test_selector_and_resolved_come_only_with_expansion() -> None:
    declared: Value = {"assets": [{"field": "created_at", "older_than": "14d"}]}
    step = destroy(selector=Selector(declared, ("b", "a"), 5))
    plain = step_row(step, Members(("a", "b")), expansion=False, started=STARTED)
    assert "selector" not in plain.fields and "resolved" not in plain.fields
    expanded = step_row(step, Members(("a", "b")), expansion=True, started=STARTED)
    assert expanded.get("selector") == {"declared": declared, "expanded_to": ["b", "a"], "bound": 5}
    assert expanded.get("resolved") == {"14d": "2026-07-23T11:03:18Z"}  # to the second, as the reference writes it
    assert expanded.get("records") == ["a", "b"]


def test_a_relative_operand_resolves_from_the_runs_start_and_nothing_else_does() -> None:
    declared: Value = {"all": [{"newer_than": "1h"}, {"older_than": "2026-01-01T00:00:00Z"}, {"equals": "14d"}]}
    assert resolved(declared, STARTED) == {"1h": "2026-08-06T10:03:18Z"}


def test_the_wire_carries_every_answer_each_led_by_its_member() -> None:
    answers = (
        MemberAnswer(HTTPAnswer("api.hetzner.cloud", 404), "preview-1"),
        MemberAnswer(HTTPAnswer("api.hetzner.cloud", 500), "preview-2"),
    )
    published = answered_value(answers)
    assert published == [
        {"member": "preview-1", "host": "api.hetzner.cloud", "status": 404},
        {"member": "preview-2", "host": "api.hetzner.cloud", "status": 500},  # the 500 that halted it
    ]
    assert isinstance(published[0], dict) and list(published[0]) == ["member", "host", "status"]
    assert answered_value((MemberAnswer(ShellAnswer('["rm"]')),)) == [{"command": '["rm"]'}]
    assert answered_value(()) is None


def test_the_page_shows_every_answer_with_its_member() -> None:
    answers = (
        MemberAnswer(HTTPAnswer("api.hetzner.cloud", 404), "preview-1"),
        MemberAnswer(HTTPAnswer("api.hetzner.cloud"), "preview-2"),
    )
    drawn = page(Shown(read_entry(REAPED), (destroy(answers),), {}), expansion=False, root=str(ROOT))
    assert "MEMBER               preview-1\nHOST                 api.hetzner.cloud\nSTATUS               404\n" in drawn
    assert "MEMBER               preview-2\nHOST                 api.hetzner.cloud\nMEMBER" not in drawn
    assert drawn.endswith(
        "HOST                 api.hetzner.cloud\nDEFINITION REVISION  c3a17b09\nMANIFEST DIGEST      sha256:2b7e\n"
    )


def test_a_glossed_selector_keeps_its_note_under_the_value_measured_from_the_entry() -> None:
    declared: Value = {"assets": [{"field": "created_at", "older_than": "14d"}]}
    step = destroy(selector=Selector(declared, ("a",)))
    drawn = page(Shown(read_entry(REAPED), (step,), {}), expansion=True, root=str(ROOT))
    assert (
        "SELECTOR             assets · created_at older_than 14d\n"
        "                     = older_than: 14d resolved to 2026-07-21T09:12:03Z\n"  # the entry's own start
    ) in drawn


@pytest.mark.parametrize(
    ("declared", "shown"),
    [
        ({"values": ["b", "a"]}, "values · b · a"),
        ({"assets": [{"field": "n", "equals": 3}, {"field": "x", "equals": "y"}]}, "assets · n equals 3 · x equals y"),
        ({"assets": [{"field": "n", "equals": 3, "also": 1}]}, '{"assets":[{"field":"n","equals":3,"also":1}]}'),
        ({"values": "not-a-list"}, '{"values":"not-a-list"}'),
    ],
)
def test_a_selector_reads_as_authored_and_a_shape_unknown_falls_back_to_its_json(declared: Value, shown: str) -> None:
    step = destroy(selector=Selector(declared, ("a",)))
    drawn = page(Shown(read_entry(REAPED), (step,), {}), expansion=True, root=str(ROOT))
    assert f"SELECTOR             {shown}\n" in drawn


def test_a_cited_file_outside_the_repository_is_never_read(tmp_path: Path) -> None:
    entry = read_entry(REFUSED)
    assert entry.owner is not None
    escaping = RefusalMember("unknown-key", "../../etc/passwd", "a key no position takes", line=1)
    shown = Shown(entry._replace(owner=entry.owner._replace(refusal=(escaping,))), (), {})
    drawn = page(shown, expansion=False, root=str(tmp_path))
    assert "file: ../../etc/passwd" in drawn and "│" not in drawn


@pytest.mark.parametrize(
    "stream",
    sorted((ROOT / "corpus/show").glob("*-json/stdout.golden")),
    ids=lambda path: path.parent.name,
)
def test_every_json_stream_meets_the_published_schema(stream: Path) -> None:
    lines = [orjson.loads(line) for line in stream.read_bytes().splitlines()]
    terminal = lines.pop()
    assert terminal == {"type": "result", "truncated": False}
    jsonschema.validate({"rows": lines, "truncated": False}, tool_schema("run_show"))

"""``runs``' filter, cut, rows and page over entries read from the corpus's shared Journal —
and every ``--json`` stream the corpus holds for it, read against the ``runs`` tool's output
schema."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # the SDK brings it; no stubs are installed
import orjson
import pytest

from hyper.core.row import Row
from hyper.inspect.runs import (
    NO_ENTRY,
    NOTHING_MATCHED,
    RECORD_LOCATION,
    Filter,
    abbreviated,
    cut,
    page,
    run_row,
)
from hyper.render.terminal import Marker
from hyper.store.journal import OutcomeFile, RunFile
from hyper.store.reading import Closer, Entry, summarise
from hyper.store.step import ClosedBy
from hyper.store.summaries import Summary

ROOT = Path(__file__).resolve().parents[2]
JOURNAL = ROOT / "corpus/runs/fixtures/journal/journal/2026/08"
TOOLS = ROOT / "hyper_mcp/tools.json"
CONTESTED = "03/019fc6a3-0400-7f22-b47d-2c8e10395fa1"
OPEN = "05/019fd24b-a280-7a11-9c2e-4f0b8d61a3e7"
CLOSER = "019fd6bd-e8f0-7c30-9b8a-52d9ea01f7b4"


def read_entry(where: str) -> Entry:
    held = JOURNAL / where
    owner = held / "outcome.json"
    closers = sorted((held / "closed-by").glob("*.json")) if (held / "closed-by").is_dir() else []
    return Entry(
        RunFile.decode((held / "run.json").read_bytes()),
        OutcomeFile.decode(owner.read_bytes()) if owner.is_file() else None,
        tuple(Closer(ClosedBy.decode(path.read_bytes()), path.stem) for path in closers),
    )


def bound(where: str, targets: tuple[str, ...]) -> Summary:
    """An entry as ``runs`` lists it: its summary, with the Targets its records bound."""
    return summarise(read_entry(where), "", 0)._replace(targets=targets)


def tool_schema(name: str) -> dict[str, object]:
    tools = orjson.loads(TOOLS.read_bytes())
    listed = tools if isinstance(tools, list) else tools["tools"]
    schema: dict[str, object] = next(tool for tool in listed if tool["name"] == name)["outputSchema"]
    return schema


def test_a_contested_entry_keeps_its_owners_outcome_and_carries_the_marker() -> None:
    row = run_row(bound(CONTESTED, ("local",)))
    assert list(row.fields) == [
        "id",
        "started",
        "trigger",
        "outcome",
        "contested",
        "procedure",
        "targets",
        "hyper_version",
    ]
    assert row.get("outcome") == "completed"
    assert row.get("contested") is True


def test_an_open_entry_has_no_outcome_and_a_run_that_bound_nothing_says_so() -> None:
    row = run_row(bound(OPEN, ()))
    assert "outcome" not in row.fields
    assert "contested" not in row.fields
    assert row.get("targets") == []


def test_outcome_never_selects_an_open_entry_and_since_includes_its_instant() -> None:
    open_entry = summarise(read_entry(OPEN), "", 0)
    started = open_entry.started_at
    assert not Filter(outcome="completed").keeps(open_entry)
    assert Filter(since=started).keeps(open_entry)
    assert not Filter(since=started + dt.timedelta(microseconds=1)).keeps(open_entry)
    assert Filter(outcome="completed").keeps(summarise(read_entry(CONTESTED), "", 0))
    assert not Filter(procedure="Say-hello").keeps(summarise(read_entry(CONTESTED), "", 0))


def test_target_is_judged_on_what_the_step_records_bound() -> None:
    listed = bound(CONTESTED, ("local",))
    assert Filter(target="local").bound(listed)
    assert not Filter(target="loc").bound(listed)
    assert Filter().bound(listed) and not Filter().narrows and Filter(target="x").narrows
    assert not Filter(target="local").bound(summarise(read_entry(CONTESTED), "", 0))


def _rows(n: int) -> list[Row]:
    return [Row("run", {"id": str(i)}) for i in range(n)]


def test_a_cut_names_the_time_axis_and_what_to_narrow_by() -> None:
    kept, marker, line = cut(_rows(7), 2, named=True, total=7)
    assert len(kept) == 2
    assert marker == Marker("time", 2, 5, "narrow with --since or --target")
    assert line == "returned 2 of 7 Runs; 5 dropped by --limit 2 — narrow with --since or --target"
    _, _, default = cut(_rows(51), 50, named=False, total=51)
    assert "the default limit of 50" in default and default.endswith("or name a larger --limit")


def test_nothing_cut_is_false_and_says_nothing() -> None:
    assert cut(_rows(3), 3, named=True, total=3) == (_rows(3), False, "")


def test_the_two_empty_pages_say_different_things_under_the_location_line() -> None:
    assert page([], filtered_out=False) == f"{RECORD_LOCATION}\n\n{NO_ENTRY}\n"
    assert page([], filtered_out=True) == f"{RECORD_LOCATION}\n\n{NOTHING_MATCHED}\n"
    assert NO_ENTRY != NOTHING_MATCHED


def test_the_page_abbreviates_the_id_and_the_wire_does_not() -> None:
    assert abbreviated(CLOSER) == "019fd6bd-e8f0…"
    row = run_row(bound(CONTESTED, ("local", "staging")))
    drawn = page([row], filtered_out=False)
    assert "019fc6a3-0400…" in drawn and "local · staging" in drawn and "yes" in drawn
    assert row.get("id") == "019fc6a3-0400-7f22-b47d-2c8e10395fa1"


@pytest.mark.parametrize(
    "stream", sorted((ROOT / "corpus/runs").glob("*-json/stdout.golden")), ids=lambda path: path.parent.name
)
def test_every_json_stream_meets_the_published_schema(stream: Path) -> None:
    lines = [orjson.loads(line) for line in stream.read_bytes().splitlines()]
    if not lines:
        pytest.skip("a Refusal writes no stream")
    terminal = lines.pop()
    assert terminal["type"] == "result"
    jsonschema.validate({"rows": lines, "truncated": terminal["truncated"]}, tool_schema("runs"))

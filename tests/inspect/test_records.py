"""``records``' selection, cut, rows and page, over series built in memory — and every
``--json`` stream the corpus holds for it, read against the ``records`` tool's output schema."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # the SDK brings it; no stubs are installed
import orjson
import pytest

from hyper.cli.invocation import parse
from hyper.cli.tree import COMMANDS
from hyper.core.faults import UsageFault
from hyper.inspect.records import (
    VERSIONS_PER_SERIES,
    Cut,
    Narrowing,
    cap_line,
    cells,
    cut,
    limit_line,
    page,
    rows_of,
    select,
    truncated,
)
from hyper.render.terminal import Marker
from hyper.store.paths import Identity
from hyper.store.provenance import Provenance, RunProvenance, StepProvenance
from hyper.store.reading import Series, order
from hyper.store.record import Metadata, RecordType

REPOSITORY = Path(__file__).resolve().parents[2]
START = dt.datetime(2026, 3, 1, 6, 0, tzinfo=dt.UTC)
PROVENANCE = Provenance(
    RunProvenance("1.4.0", "a" * 40, "b" * 40),
    StepProvenance("c" * 40, "sha256:" + "d" * 64),
)


def run_id(n: int) -> str:
    return f"019ca7fb-7300-7{n:03x}-8000-{n:012x}"


def series(identity: Identity, count: int, kind: RecordType = "observation", tombstone_last: bool = False) -> Series:
    held = []
    for n in range(count):
        meta = Metadata(
            identity=identity,
            record_type=kind,
            run_id=run_id(n + 1),
            step=1,
            operation="op",
            written_at=START + dt.timedelta(hours=n),
            provenance=PROVENANCE,
            tombstone=tombstone_last and n == count - 1,
        )
        held.append((meta, f"records/x/{run_id(n + 1)}-0001.json"))
    return Series(identity, order(held))


GONE = Identity("prod", "legacy", "a")
DESTROYED = Identity("prod", "legacy", "b")
KEPT = Identity("prod", "web", "c")
READ = Identity("stage", "legacy", "d")
STORE = [
    series(GONE, 2, "asset"),
    series(DESTROYED, 2, "asset", tombstone_last=True),
    series(KEPT, 3, "asset"),
    series(READ, 1),
]
DECLARED = {"web"}


def test_without_a_history_each_record_is_its_head_alone() -> None:
    chosen = select(STORE, Narrowing(), False, DECLARED)
    assert [(s.versions[0].ordinal, s.found) for s in chosen] == [(2, 1), (2, 1), (3, 1), (1, 1)]


def test_orphaned_is_a_standing_asset_whose_definition_is_gone() -> None:
    chosen = select(STORE, Narrowing(), False, DECLARED)
    states = [(s.orphaned, s.tombstoned) for s in chosen]
    assert states == [(True, False), (False, True), (False, False), (False, False)]


def test_a_history_is_the_series_order_reversed_and_the_state_is_on_every_row() -> None:
    (destroyed,) = select(STORE, Narrowing(name="b"), True, DECLARED)
    assert [v.ordinal for v in destroyed.versions] == [2, 1]
    rows = rows_of([destroyed], [(), ()], {})
    assert [r.get("tombstoned") for r in rows] == [True, True]


def test_the_window_is_inclusive_and_a_series_it_empties_drops_out() -> None:
    since = START + dt.timedelta(hours=1)
    chosen = select(STORE, Narrowing(since=since), True, DECLARED)
    assert [(s.versions[0].metadata.identity, [v.ordinal for v in s.versions]) for s in chosen] == [
        (GONE, [2]),
        (DESTROYED, [2]),
        (KEPT, [3, 2]),
    ]


def test_each_identity_part_narrows_byte_exact() -> None:
    assert [s.versions[0].metadata.identity for s in select(STORE, Narrowing(target="prod"), False, DECLARED)] == [
        GONE,
        DESTROYED,
        KEPT,
    ]
    assert select(STORE, Narrowing(definition="Legacy"), False, DECLARED) == []
    assert Narrowing().narrowed is False and Narrowing(name="x").narrowed is True


def test_the_cap_keeps_the_newest_and_counts_what_it_dropped() -> None:
    long = series(Identity("t", "d", "n"), VERSIONS_PER_SERIES + 3)
    kept, done = cut(select([long], Narrowing(), True, DECLARED), 50)
    assert [v.ordinal for v in kept[0].versions] == list(range(23, 3, -1))
    assert done == Cut(1, 0, 20, 3)
    assert truncated(done) == Marker("time", 20, 3, "narrow with --since")
    assert cap_line(done).startswith("returned 20 of 23 versions across 1 series; 3 dropped")


def test_the_limit_counts_identities_and_the_cap_only_survivors() -> None:
    long = series(Identity("z", "d", "n"), VERSIONS_PER_SERIES + 5)
    kept, done = cut(select([*STORE, long], Narrowing(), True, DECLARED), 2)
    assert [len(s.versions) for s in kept] == [2, 2]
    assert done == Cut(2, 3, 4, 0)
    assert truncated(done) == Marker("identity", 2, 3, "narrow with --target, --definition or --name")
    assert limit_line(done, 2, True) == (
        "returned 2 of 5 Records; 3 dropped by --limit 2 — narrow with --target, --definition or --name"
    )
    assert "the default limit of 50" in limit_line(done, 50, False)


def test_the_identity_axis_is_named_first_when_both_cut() -> None:
    long = series(Identity("a", "d", "n"), VERSIONS_PER_SERIES + 1)
    _, done = cut(select([long, *STORE], Narrowing(), True, DECLARED), 1)
    assert done == Cut(1, 4, 20, 1)
    marker = truncated(done)
    assert isinstance(marker, Marker) and marker.axis == "identity"
    assert truncated(Cut(3, 0, 3, 0)) is False


def test_a_run_without_an_entry_writes_no_dry_run_and_false_is_written() -> None:
    chosen = select(STORE[:1], Narrowing(), True, DECLARED)
    rows = rows_of(chosen, [("api_key",), ()], {run_id(2): False})
    assert rows[0].get("dry_run") is False and "dry_run" not in rows[1].fields
    assert rows[0].get("secret_fields") == ["api_key"] and "secret_fields" not in rows[1].fields
    assert list(rows[0].fields) == [
        "key",
        "ordinal",
        "run_id",
        "step",
        "dry_run",
        "record_kind",
        "orphaned",
        "secret_fields",
        "provenance",
    ]


def test_the_page_cells_read_the_row() -> None:
    chosen = select(STORE[2:3], Narrowing(), False, DECLARED)
    (record,) = rows_of(chosen, [("a", "b")], {run_id(3): True})
    assert cells(record) == [
        "prod",
        "web",
        "c",
        "3",
        "019ca7fb-7300…",
        "1",
        "yes",
        "asset",
        "",
        "",
        "a · b",
        "1.4.0",
    ]


def test_the_page_says_where_the_record_is_even_when_empty() -> None:
    assert page([], narrowed=False).startswith("the record is the hyper-store branch")
    assert page([], narrowed=False) != page([], narrowed=True)


def test_since_is_legal_only_with_history_and_a_positional_names_the_flag() -> None:
    records = COMMANDS["records"]
    with pytest.raises(UsageFault) as caught:
        parse(records, ["--since", "2026-03-01T00:00:00Z"], False)
    assert caught.value.text.startswith("hyper records: --since is legal only with --history")
    assert parse(records, ["--history", "--since=2026-03-01T00:00:00Z"], False).since is not None
    with pytest.raises(UsageFault) as caught:
        parse(records, ["status.example.org"], False)
    assert caught.value.text.startswith("hyper records: takes no positional argument, got status.example.org")
    assert "--name status.example.org" in caught.value.text


STREAMS = sorted(
    case
    for case in (REPOSITORY / "corpus" / "records").iterdir()
    if (case / "argv").is_file()
    and "--json" in (case / "argv").read_text().split()
    and (case / "exit.golden").read_text().strip() == "0"
)


def _schema() -> dict[str, object]:
    tools = orjson.loads((REPOSITORY / "hyper_mcp" / "tools.json").read_bytes())
    listed = tools if isinstance(tools, list) else tools["tools"]
    schema: dict[str, object] = next(tool["outputSchema"] for tool in listed if tool["name"] == "records")
    return schema


@pytest.mark.parametrize("case", STREAMS, ids=[case.name for case in STREAMS])
def test_a_records_stream_is_the_records_tool_s_structured_content(case: Path) -> None:
    rows = [orjson.loads(line) for line in (case / "stdout.golden").read_bytes().splitlines()]
    terminal = rows.pop()
    assert terminal["type"] == "result"
    jsonschema.validate({"rows": rows, "truncated": terminal["truncated"]}, _schema())
    order = [
        "type",
        "key",
        "ordinal",
        "run_id",
        "step",
        "dry_run",
        "record_kind",
        "tombstoned",
        "orphaned",
        "secret_fields",
        "provenance",
    ]
    provenance = [
        "hyper_version",
        "procedure_revision",
        "repo_revision",
        "repo_dirty",
        "definition_revision",
        "manifest_digest",
        "origin_digest",
    ]
    for row in rows:
        assert [key for key in order if key in row] == list(row)
        assert list(row["key"]) == ["target", "definition", "name"]
        assert [key for key in provenance if key in row["provenance"]] == list(row["provenance"])


def test_there_are_streams_to_judge() -> None:
    assert len(STREAMS) >= 5

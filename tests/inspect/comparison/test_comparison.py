"""The Comparison over the reference's own Store files: which entries a window may stand on,
the header's accounts, and the row forms of the two Record tables."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator

import pytest

from hyper.core.faults import WindowFault
from hyper.inspect.comparison import page
from hyper.inspect.comparison.records import changes
from hyper.inspect.comparison.rows import change_row, window_row
from hyper.inspect.comparison.sight import Sight
from hyper.inspect.comparison.window import between, latest, procedures
from hyper.store import reading
from hyper.store.branch import Store
from hyper.store.paths import Identity

from ...store.support import (
    CLOSER,
    CONTESTED,
    FAILED,
    OPEN,
    REAPED,
    REFUSED,
    REHEARSAL,
    reference_handle,
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from reference_handle(tmp_path_factory, "comparison")


@pytest.fixture(scope="module")
def held(store: Store) -> reading.Journal:
    return reading.Journal(store)


def test_the_rule_passes_over_rehearsals_and_open_entries(held: reading.Journal) -> None:
    assert procedures(held) == ["publish-preview", "retire-preview-envs"]
    window = latest(held, "retire-preview-envs", None)
    assert window is not None and window.baseline is not None
    assert (window.subject.run_id, window.baseline.run_id) == (FAILED, REFUSED)
    first = latest(held, "publish-preview", None)
    assert first is not None and first.subject.run_id == CONTESTED and first.baseline is None
    assert latest(held, "nothing-ran", None) is None


def test_since_includes_its_instant_and_takes_the_run_before_it(held: reading.Journal) -> None:
    at = _dt.datetime(2026, 8, 5, 20, 0, tzinfo=_dt.UTC)
    window = latest(held, "retire-preview-envs", at)
    assert window is not None and window.baseline is not None
    assert (window.subject.run_id, window.baseline.run_id) == (FAILED, REAPED)
    assert latest(held, "retire-preview-envs", _dt.datetime(2026, 9, 1, tzinfo=_dt.UTC)) is None


@pytest.mark.parametrize(
    ("ends", "positional", "says"),
    [
        ((REFUSED, REFUSED), None, "twice"),
        ((REHEARSAL, FAILED), None, "is a rehearsal"),
        ((OPEN, CONTESTED), None, "holds no account"),
        ((FAILED, REFUSED), None, "started after"),
        ((REFUSED, "01991ea6-0000-7000-8000-000000000000"), None, "no Journal entry"),
        ((CONTESTED, FAILED), None, "a Run of publish-preview"),
        ((REFUSED, FAILED), "publish-preview", "the positional names publish-preview"),
    ],
)
def test_between_refuses_what_cannot_be_a_window(
    held: reading.Journal, ends: tuple[str, str], positional: str | None, says: str
) -> None:
    with pytest.raises(WindowFault) as fault:
        between(held, ends, positional)
    assert says in fault.value.text


def test_a_rehearsal_may_be_the_named_subject(held: reading.Journal) -> None:
    window = between(held, (FAILED, REHEARSAL), None)
    assert window.subject.run_file.dry_run
    assert "rehearsal — the SUBJECT entry" in page.header(window_row(window), True)


def test_a_reaped_side_has_no_end_of_its_own_and_states_its_closer(held: reading.Journal) -> None:
    window = between(held, (REAPED, FAILED), None)
    wire = window_row(window)
    baseline = wire.get("baseline")
    assert "ended" not in baseline and baseline["outcome"] == "failed"
    assert [closer["run"] for closer in baseline["closed_by"]] == [CLOSER]
    header = page.header(wire, False)
    assert "  failed  reaped  procedure rev a91f0c2\n" in header
    assert f"\n  Run {CLOSER} closed the BASELINE entry as failed at " in header


def test_a_contested_side_keeps_its_owners_account(held: reading.Journal) -> None:
    window = latest(held, "publish-preview", None)
    assert window is not None
    wire = window_row(window)
    assert "baseline" not in wire.fields and "ended" in wire.get("subject")
    header = page.header(wire, False)
    assert "  BASELINE  no baseline — this is publish-preview's first Run\n" in header
    assert f"  contested — Run {REAPED} closed the SUBJECT entry as failed at " in header


def _sight(entry: reading.Entry, at: _dt.datetime, *names: Identity) -> Sight:
    return Sight(entry, at, frozenset(names), frozenset(), reading.Dispositions(entry, ()))


def test_the_asset_row_forms(store: Store, held: reading.Journal) -> None:
    entry = reading.entries(store)[0]
    kept = Identity("staging", "hetzner-staging", "preview-8901")
    ended = Identity("staging", "hetzner-staging", "preview-8999")
    base = _sight(entry, _dt.datetime(2026, 8, 4, tzinfo=_dt.UTC), kept)
    subject = _sight(entry, _dt.datetime(2026, 8, 6, 12, tzinfo=_dt.UTC), kept, ended)
    rows = [change_row(change) for change in changes(store, base, subject, None)]
    assert [row.encode() for row in rows][1] == (
        b'{"type":"asset","change":"destroyed","target":"staging","definition":"hetzner-staging",'
        b'"name":"preview-8999","to_ordinal":1,"confirmed_at":"2026-08-06T11:05:09.000Z","fields":{}}'
    )
    changed = rows[0]
    assert (changed.get("change"), changed.get("from_ordinal"), changed.get("to_ordinal")) == ("changed", 1, 2)
    assert changed.get("fields")["region"] == ["fsn1", "nbg1"]
    text = page.record_table("YOU DID THIS", "asset", rows)
    assert (
        "  changed    staging  hetzner-staging  preview-8901  1 → 2    region: fsn1 → nbg1 · user_data: changed\n"
    ) in text
    assert "  destroyed  staging  hetzner-staging  preview-8999  – → 1    † confirmed 11:05\n" in text
    assert changes(store, base, subject, "cloudflare-prod") == []


def test_vanished_and_appeared_come_from_the_sets(store: Store, held: reading.Journal) -> None:
    entry = reading.entries(store)[0]
    status = Identity("local", "uptime", "status.hyper.dev")
    zurich = Identity("local", "uptime", "zurich.example.com")
    at = _dt.datetime(2026, 8, 2, tzinfo=_dt.UTC)
    found = changes(store, _sight(entry, at, status), _sight(entry, at, zurich), None)
    assert [(change.change, change.identity.name, change.from_ordinal, change.to_ordinal) for change in found] == [
        ("vanished", "status.hyper.dev", 3, None),
        ("appeared", "zurich.example.com", None, 1),
    ]
    blind = Sight(entry, at, frozenset({zurich}), frozenset({("local", "uptime")}), reading.Dispositions(entry, ()))
    assert [change.change for change in changes(store, _sight(entry, at, status), blind, None)] == ["appeared"]


def test_page_cells() -> None:
    spelled = [page.duration_cell(seconds) for seconds in (0, 48, 60, 108, 7205)]
    assert spelled == ["0s", "48s", "1m0s", "1m48s", "2h0m5s"]
    assert page.started_cell("2026-08-04T09:12:03.000Z") == "Tue 4 Aug 09:12"
    assert page.fields_cell("appeared", {"body": "a\nb", "nested": {"k": 1}, "ok": True, "n": 3}, None) == (
        "body · nested · ok: true · n: 3"
    )
    assert page.plural(1, "fact") == "1 fact" and page.plural(0, "fact") == "0 facts"


def test_digest_cells_are_cut_behind_their_algorithm() -> None:
    from hyper.core.row import row

    rows = [
        row("code", subject_kind="definition", subject="servers", fact="definition revision", **{"from": "c3a17b0e"}),
        row("code", subject_kind="manifest", subject="hetzner", fact="manifest digest", **{"from": "sha256:2b7e5c8f"}),
    ]
    text, _ = page.code_table(rows)
    assert "  definition servers  definition revision  c3a17b0         –\n" in text
    assert "  manifest hetzner    manifest digest      sha256:2b7e5c8  –\n" in text

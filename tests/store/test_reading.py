"""The reader over a Store assembled from the reference's own files: every account, the
Journal order, Dispositions, the backward scan, series, Heads, ordinals and Tombstones."""

from __future__ import annotations

import datetime as _dt
import pathlib
from collections.abc import Iterator, Sequence

import pytest

from hyper.core.faults import Misfiled
from hyper.store import reading
from hyper.store.branch import Store, Write
from hyper.store.paths import Identity
from hyper.store.sync import init

from .support import (
    CLOSER,
    CONTESTED,
    FAILED,
    FIXTURES,
    NOW,
    OPEN,
    REAPED,
    REFUSED,
    REHEARSAL,
    git,
    process,
    reference_handle,
    reference_store,
    repository,
    seed,
)
from .test_shapes import shape_of


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from reference_handle(tmp_path_factory, "reference")


def test_every_entry_in_journal_order_with_its_account(store: Store) -> None:
    listed = [(entry.run_id, entry.account, entry.outcome) for entry in reading.entries(store)]
    assert listed == [
        (REHEARSAL, "own", "completed"),
        (FAILED, "own", "failed"),
        (REFUSED, "own", "refused"),
        (OPEN, "open", None),
        (REAPED, "reaped", "failed"),
        (CONTESTED, "contested", "completed"),
    ]


def test_the_journal_is_walked_asking_git_for_each_tree_once(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing the Journal asks for each tree of its walk once — the Journal's own by its path,
    the rest by id — each in a round trip of the walk's levels, and never the same tree twice."""
    asked: list[list[str]] = []
    lookup = store.objects.lookup

    def recording(names: Sequence[str]) -> list[tuple[str, bytes, bytes] | None]:
        asked.append(list(names))
        return lookup(names)

    store.objects.trees.clear()
    monkeypatch.setattr(store.objects, "lookup", recording)
    groups = [group for partition in reading.partitions(store) for group in partition]
    monkeypatch.undo()
    assert {group.run for group in groups} == {entry.run_id for entry in reading.entries(store)}
    assert asked[0] == [f"{store.commit}:journal/"]
    journal = store.objects.resolve(f"{store.commit}:journal/")
    flat = [name for names in asked for name in names]
    assert journal not in flat and len(flat) == len(set(flat))


def test_an_entrys_end_and_duration(store: Store) -> None:
    by_run = {entry.run_id: entry for entry in reading.entries(store)}
    assert by_run[FAILED].duration == _dt.timedelta(seconds=150, milliseconds=811)
    assert by_run[REAPED].duration is None
    assert by_run[REAPED].ended == _dt.datetime(2026, 8, 6, 11, 3, 19, tzinfo=_dt.UTC)
    assert [closer.run for closer in by_run[REAPED].closers] == [CLOSER]
    assert by_run[OPEN].ended is None and by_run[OPEN].outcome is None
    refused = by_run[REFUSED].owner
    assert refused is not None and refused.head == "target-not-declared"
    assert by_run[CONTESTED].contested and by_run[CONTESTED].duration == _dt.timedelta(minutes=4, seconds=11)


def test_the_listing_alone_classifies_every_entry(store: Store) -> None:
    listed = {item.run: (item.account, item.steps) for item in reading.journal_listing(store)}
    assert listed[OPEN] == ("open", 1)
    assert listed[REAPED] == ("reaped", 1)
    assert listed[CONTESTED] == ("contested", 1)
    assert reading.journal_listing(store)[0].run == REHEARSAL


def test_the_runs_listing_carries_the_targets_bound(store: Store) -> None:
    targets = {item.run_id: item.targets for item in reading.Journal(store).listing()}
    assert targets[REAPED] == ("cloudflare-prod", "local")
    assert targets[REFUSED] == ()
    assert targets[OPEN] == ("staging",)
    kept = reading.Journal(store).listing(lambda entry: entry.procedure == "publish-preview")
    assert [item.run_id for item in kept] == [OPEN, CONTESTED]


def test_dispositions_read_a_closer_beside_the_step_files(store: Store) -> None:
    reaped = reading.Journal(store).entry(REAPED)
    assert reaped is not None
    held = reading.dispositions(store, reaped)
    assert [(step.step, step.code.id, step.disposition) for step in held.steps] == [
        (1, "probe", "ran"),
        (2, "retire", "attempted-outcome-unknown"),
    ]
    assert held.of("retire") == "attempted-outcome-unknown"
    assert held.of("label") == "never-reached"
    contested = reading.Journal(store).entry(CONTESTED)
    assert contested is not None
    assert [step.disposition for step in reading.dispositions(store, contested).steps] == ["ran"]
    opened = reading.Journal(store).entry(OPEN)
    assert opened is not None and reading.dispositions(store, opened).of("label") is None


def test_an_unknown_or_partial_id_finds_nothing(store: Store) -> None:
    assert reading.Journal(store).entry("0199206d-0000-7000-8000-000000000000") is None
    assert reading.Journal(store).entry(OPEN[:13]) is None


def test_the_backward_scan_and_its_filter(store: Store) -> None:
    found = [(evidence.entry.run_id, evidence.step.step) for evidence in reading.Journal(store).scan("probe")]
    assert found == [(REHEARSAL, 1), (REAPED, 1)]
    kept = [
        evidence for evidence in reading.Journal(store).scan("probe") if evidence.comparable("retire-preview-envs", "")
    ]
    assert [evidence.entry.run_id for evidence in kept] == [REAPED]
    assert list(reading.Journal(store).scan("")) == []


def test_open_entries_and_rehearsals(store: Store) -> None:
    assert [(item.run_file.run_id, item.last) for item in reading.open_entries(store)] == [(OPEN, 1)]
    assert reading.rehearsals(store, [REHEARSAL, FAILED, CLOSER]) == {REHEARSAL: True, FAILED: False}
    assert reading.rehearsals(store, []) == {}


def test_series_are_ordered_by_written_at_with_one_based_ordinals(store: Store) -> None:
    status = reading.series(store, Identity("local", "uptime", "status.hyper.dev"))
    assert [(version.metadata.run_id[:8], version.ordinal) for version in status.versions] == [
        ("01991a00", 1),
        ("01991a01", 2),
        ("01991a02", 3),
    ]
    head = status.head
    assert head is not None and head.metadata.run_id.startswith("01991a02")
    assert reading.suppressed(store, list(status.versions)) == [("api_key",), (), ()]
    assert reading.series(store, Identity("local", "uptime", "never")).head is None


def test_a_tombstone_head_and_a_series_it_opened(store: Store) -> None:
    head = reading.head(store, Identity("staging", "hetzner-staging", "preview-8999"))
    assert head is not None and head.metadata.tombstone and head.ordinal == 1
    assert reading.read(store, head).fields is None
    standing = reading.head(store, Identity("staging", "hetzner-staging", "preview-8901"))
    assert standing is not None and standing.metadata.operation == "label_server" and standing.ordinal == 2


def test_records_are_in_identity_order_not_path_order(store: Store) -> None:
    names = [(series.identity.target, series.identity.name) for series in reading.records(store)]
    assert names == [
        ("cloudflare-prod", "preview-8.example.com"),
        ("local", "status.hyper.dev"),
        ("local", "zurich.example.com"),
        ("local", "émile.example.com"),
        ("staging", "preview-8901"),
        ("staging", "preview-8999"),
    ]


def test_collisions_under_the_fold(store: Store) -> None:
    asked = [
        Identity("local", "uptime", "Status.Hyper.Dev"),
        Identity("local", "uptime", "status.hyper.dev"),
        Identity("LOCAL", "Uptime", "ÉMILE.example.com"),
        Identity("local", "uptime", "new.example.com"),
    ]
    assert reading.collisions(store, asked) == {
        asked[0]: Identity("local", "uptime", "status.hyper.dev"),
        asked[2]: Identity("local", "uptime", "émile.example.com"),
    }
    assert reading.folded(Identity("K", "\u212a", "ß")) == reading.folded(Identity("k", "K", "ß"))
    ascii_ = "".join(map(chr, range(128)))
    assert reading.folded(Identity(ascii_, ascii_, ascii_)) == Identity(
        *(["".join(map(reading._fold_char, ascii_))] * 3)
    )


def test_the_schema_gate_names_the_first_file_above_the_ceiling(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    files = reference_store()
    path = f"journal/2026/08/06/{CLOSER}/steps/0002.json"
    files[path] = (FIXTURES / "unsupported" / "a-journal-file-this-binary-cannot-read.steps-0002.json").read_bytes()
    seed(root, files)
    with Store.open(str(root), process(root), NOW) as opened:
        assert reading.readable(opened, [("local", "uptime")]) == reading.Unreadable(path, 2, 1)
    clean = repository(tmp_path / "clean")
    seed(clean, reference_store())
    with Store.open(str(clean), process(clean), NOW) as opened:
        assert reading.readable(opened, [("local", "uptime"), ("staging", "hetzner-staging")]) is None


def test_a_misfiled_entry_is_a_fault(tmp_path: pathlib.Path) -> None:
    root = repository(tmp_path / "repo")
    files = reference_store()
    moved = {path.replace("2026/08/05/01991c3a", "2026/08/04/01991c3a"): data for path, data in files.items()}
    seed(root, moved)
    with Store.open(str(root), process(root), NOW) as opened, pytest.raises(Misfiled):
        reading.entries(opened)


def test_writing_the_same_values_gives_the_same_branch(tmp_path: pathlib.Path) -> None:
    seeded = repository(tmp_path / "seeded")
    seed(seeded, reference_store())
    written = repository(tmp_path / "written")
    init(str(written), process(written), NOW)
    with Store.open(str(written), process(written), NOW) as opened:
        for path, data in reference_store().items():
            rewritten = shape_of(pathlib.Path(path)).decode(data).encode()
            opened.append([Write(path, rewritten)], f"write {path}")
    listing = git(seeded, "ls-tree", "-r", "hyper-store")
    assert git(written, "ls-tree", "-r", "hyper-store", "--", "journal", "records") == listing

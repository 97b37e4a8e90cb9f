"""The Journal's summaries memo (adr/0031) changes what a reader decodes, never what it answers:
every reading over a warm, a missing, a corrupted or another code's memo is the reading over
none, a memo file is rebuilt where it is unusable, and a file spoiled on the branch after the
memo was written is met by the next reader as it would be with no memo at all."""

from __future__ import annotations

import pathlib

import pytest

from hyper.core.faults import JournalFileUnreadable
from hyper.inspect.comparison.window import latest, procedures
from hyper.store import reading
from hyper.store.branch import Store
from hyper.store.git import PathOperation

from .support import NOW, process, reference_store, repository, seed


def _store(tmp_path: pathlib.Path) -> pathlib.Path:
    root = repository(tmp_path / "repo")
    seed(root, reference_store())
    return root


def _memo(root: pathlib.Path) -> pathlib.Path:
    return root / ".git" / "hyper" / "journal"


def _answers(root: pathlib.Path) -> tuple[object, ...]:
    """What every reader standing on the summaries answers, each on a fresh handle."""
    with Store.open(str(root), process(root), NOW) as store:
        journal = reading.Journal(store)
        window = latest(journal, "retire-preview-envs", None)
        return (
            [(item.entry, item.targets) for item in reading.listing(store)],
            [item.entry.run_id for item in reading.listing(store, enough=2)],
            [item.entry.run_id for item in reading.listing(store, lambda entry: entry.outcome == "failed")],
            reading.entry_count(store),
            reading.open_entries(store),
            procedures(reading.Journal(store)),
            window,
        )


def test_a_warm_memo_answers_what_no_memo_answers(tmp_path: pathlib.Path) -> None:
    root = _store(tmp_path)
    cold = _answers(root)
    files = sorted(_memo(root).iterdir())
    assert len(files) > 1  # the reference fixture spans several date partitions
    assert _answers(root) == cold


@pytest.mark.parametrize("spoil", ["delete", "garbage", "other-code", "truncated"])
def test_an_unusable_memo_is_no_memo_and_is_rebuilt(tmp_path: pathlib.Path, spoil: str) -> None:
    root = _store(tmp_path)
    cold = _answers(root)
    memo = sorted(_memo(root).iterdir())
    written = {path: path.read_bytes() for path in memo}
    for path in memo:
        if spoil == "delete":
            path.unlink()
        elif spoil == "garbage":
            path.write_bytes(b"\xff\x00 not a memo\n1 2 3")
        elif spoil == "other-code":
            path.write_bytes(b"another-key" + path.read_bytes()[64:])
        else:
            path.write_bytes(path.read_bytes()[:-7])
    assert _answers(root) == cold
    assert {path: path.read_bytes() for path in sorted(_memo(root).iterdir())} == written


def test_a_file_spoiled_after_the_memo_was_written_is_still_met(tmp_path: pathlib.Path) -> None:
    root = _store(tmp_path)
    _answers(root)
    with Store.open(str(root), process(root), NOW) as store:
        oldest = sorted(file.path for file in store.files("journal/") if file.path.endswith("/run.json"))[0]
        (data,) = store.contents([f"{store.commit}:{oldest}"])
        spoiled = data.replace(b'{\n  "', b'{\n    "', 1)
        assert spoiled != data
        store.apply([PathOperation(oldest, store.objects.blob(spoiled))], "tamper")
    with Store.open(str(root), process(root), NOW) as store, pytest.raises(JournalFileUnreadable) as met:
        procedures(reading.Journal(store))
    assert met.value.path == oldest

"""The Run-start schema gate's memo (adr/0013) and the Journal's summaries (adr/0031) change
what a Run reads, never what it answers: a file made unreadable after a check had passed over
it is found by the next Run, and a memo written by other code is no memo."""

from __future__ import annotations

import datetime as _dt
import shutil
import subprocess
from pathlib import Path

import pytest

from hyper.core.faults import JournalFileUnreadable
from hyper.store import reading
from hyper.store.branch import Store
from hyper.store.checked import Checked
from hyper.store.git import PathOperation
from tests.run.support import build, process, run, scripts
from tests.store.support import process as process_of
from tests.store.support import reference_store, repository, seed

NOW = _dt.datetime(2026, 4, 2, 9, 41, 14, tzinfo=_dt.UTC)


def _memo(root: Path) -> Path:
    return root / ".git" / "hyper" / "checked"


def _summaries(root: Path) -> Path:
    return root / ".git" / "hyper" / "journal"


def _spoil_first_run_file(root: Path, tmp: Path) -> str:
    """Rewrites the oldest entry's run.json with bytes that decode but are not canonical."""
    with Store.open(str(root), process(root, tmp), NOW) as store:
        path = sorted(file.path for file in store.files("journal/") if file.path.endswith("/run.json"))[0]
        (data,) = store.contents([f"{store.commit}:{path}"])
        spoiled = data.replace(b'{\n  "dry_run"', b'{\n    "dry_run"')
        assert spoiled != data
        store.apply([PathOperation(path, store.objects.blob(spoiled))], "tamper")
    return path


def test_a_file_spoiled_after_a_check_still_fails_the_next_run(tmp_path: Path) -> None:
    root = build(tmp_path)
    bin_dir = scripts(tmp_path, echo="#!/bin/sh\nprintf '%s\\n' \"$*\"\n")
    for _ in range(2):
        assert run(root, bin_dir, "say-hello").code == 0
    assert _memo(root).exists()
    assert any(_summaries(root).iterdir())
    spoiled = _spoil_first_run_file(root, tmp_path)
    unmemoised = tmp_path / "unmemoised"
    shutil.copytree(root, unmemoised)
    _memo(unmemoised).unlink()
    shutil.rmtree(_summaries(unmemoised))  # the Journal's summaries (adr/0031) too: a fresh read

    remembered, fresh = run(root, bin_dir, "say-hello"), run(unmemoised, bin_dir, "say-hello")
    assert remembered.code == fresh.code != 0
    assert spoiled in remembered.stderr + remembered.stdout
    assert remembered.stdout == fresh.stdout.replace(str(unmemoised), str(root))


def test_a_memo_written_by_other_code_is_ignored(tmp_path: Path) -> None:
    root = build(tmp_path)
    bin_dir = scripts(tmp_path, echo="#!/bin/sh\nprintf '%s\\n' \"$*\"\n")
    assert run(root, bin_dir, "say-hello").code == 0
    spoiled = _spoil_first_run_file(root, tmp_path)
    journal = subprocess.run(
        ["git", "rev-parse", "hyper-store:journal/"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()
    _memo(root).write_text(f"another hyper's key\n{journal} journal/")
    answered = run(root, bin_dir, "say-hello")
    assert answered.code != 0 and spoiled in answered.stderr + answered.stdout


def _parent(path: str) -> str:
    return path[: path.rstrip("/").rindex("/") + 1]


def test_a_first_check_keeps_the_newest_path_and_still_meets_an_older_fault(tmp_path: Path) -> None:
    """The memo a whole reading leaves is the newest path's frontier, not the branch: an older
    partition is one line, and a file spoiled under it is met as with no memo at all."""
    root = repository(tmp_path / "repo")
    seed(root, reference_store())
    with Store.open(str(root), process_of(root), NOW) as store:
        listed = store.files("journal/")
        assert reading.readable(store, [], Checked.load(store.objects.git_dir)) is None
        oldest = min(file.path for file in listed if file.path.endswith("/run.json"))
    newest = max("/".join(file.path.split("/")[:5]) + "/" for file in listed)
    kept = [line.split(" ", 1)[1] for line in _memo(root).read_text().split("\n")[1:]]
    on_newest = [newest.startswith(_parent(path)) or path.startswith(newest) for path in kept if path != "journal/"]
    assert on_newest and all(on_newest)
    assert len(kept) < len(listed)
    assert not oldest.startswith(_parent(newest))  # the spoiled file sits in an older partition

    with Store.open(str(root), process_of(root), NOW) as store:
        (data,) = store.contents([f"{store.commit}:{oldest}"])
        store.apply([PathOperation(oldest, store.objects.blob(data.replace(b'{\n  "', b'{\n    "', 1)))], "tamper")
    for memo in (True, False):
        with Store.open(str(root), process_of(root), NOW) as store, pytest.raises(JournalFileUnreadable) as met:
            reading.readable(store, [], Checked.load(store.objects.git_dir) if memo else None)
        assert met.value.path == oldest

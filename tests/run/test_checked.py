"""The Run-start schema gate's memo (adr/0013) and the Journal's summaries (adr/0031) change
what a Run reads, never what it answers: a file made unreadable after a check had passed over
it is found by the next Run, and a memo written by other code is no memo."""

from __future__ import annotations

import datetime as _dt
import shutil
import subprocess
from pathlib import Path

from hyper.store.branch import Store
from hyper.store.git import PathOperation
from tests.run.support import build, process, run, scripts

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
    journal = subprocess.run(["git", "rev-parse", "hyper-store:journal/"], cwd=root, check=True,
                             capture_output=True, text=True).stdout.strip()
    _memo(root).write_text(f"another hyper's key\n{journal} journal/")
    answered = run(root, bin_dir, "say-hello")
    assert answered.code != 0 and spoiled in answered.stderr + answered.stdout

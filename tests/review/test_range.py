"""The range is read from the newest entry that supplies it: a review opens the same few files
whatever the Journal's length, and an unreadable entry anywhere in the Journal still makes the
range ``no-store``, as a reading of every entry does (adr/0031, 2026-12-02 session 7)."""

from __future__ import annotations

import datetime as _dt
import io
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from hyper.cli.main import main
from hyper.core.ids import mint_v7
from hyper.core.version import BuildFacts, installed
from hyper.store.branch import Store, Write
from hyper.store.git import PathOperation
from hyper.store.journal import OutcomeFile, RunFile, Trigger
from hyper.store.objects import ObjectStore
from hyper.store.provenance import RunProvenance
from hyper.store.sync import init

from ..store.support import git, process

FIXTURE = Path(__file__).resolve().parents[2] / "corpus" / "review" / "fixtures" / "worked-example" / "repo"
PROCEDURE = "procedures/retire-preview-envs.yaml"
NOW = _dt.datetime(2026, 8, 6, 9, 41, 14, tzinfo=_dt.UTC)
EVERY = _dt.timedelta(hours=2)
"""Forty Runs two hours apart span four date partitions, all in one month."""


def _repository(tmp_path: Path, runs: int) -> Path:
    """The worked example, committed, with a Store of ``runs`` Runs of its Procedure, the newest
    at ``NOW``; every Run read the committed Procedure."""
    root = tmp_path / f"repo-{runs}"
    shutil.copytree(FIXTURE, root)
    declaration = root / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", f"version: {installed().version}"))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "--all")
    git(root, "commit", "-q", "-m", "code")
    blob, head = git(root, "rev-parse", f"HEAD:{PROCEDURE}"), git(root, "rev-parse", "HEAD")
    init(str(root), process(root, NOW), NOW)
    writes = []
    for back in range(runs):
        started = NOW - EVERY * back - _dt.timedelta(minutes=5)
        run = RunFile(
            mint_v7(started),
            "retire-preview-envs",
            Trigger("cron", "local", "igor", "thinkpad"),
            started,
            False,
            RunProvenance(installed().version, blob, head),
        )
        outcome = OutcomeFile("completed", started + _dt.timedelta(minutes=2))
        writes += [Write(run.at.run_path, run.encode()), Write(run.at.outcome_path, outcome.encode())]
    with Store.open(str(root), process(root, NOW), NOW) as store:
        store.append(writes, "Runs")
    return root


def _review(root: Path) -> tuple[int, str]:
    out, err = io.BytesIO(), io.BytesIO()
    code = main(
        ["review", "--repo-dir", str(root), PROCEDURE], out, err, process(root, NOW), BuildFacts(installed().version)
    )
    return code, out.getvalue().decode() + err.getvalue().decode()


def _asked(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str], str]:
    """What one review asks ``git cat-file`` for, and which of those are files' contents."""
    asked: list[str] = []
    opened: list[str] = []
    lookup = ObjectStore.lookup
    contents = Store.contents

    def counted(objects: ObjectStore, names: Sequence[str]) -> list[tuple[str, bytes, bytes] | None]:
        asked.extend(names)
        return lookup(objects, names)

    def read(store: Store, names: Sequence[str]) -> list[bytes]:
        opened.extend(names)
        return contents(store, names)

    with monkeypatch.context() as patched:
        patched.setattr(ObjectStore, "lookup", counted)
        patched.setattr(Store, "contents", read)
        code, page = _review(root)
    assert code == 0, page
    return asked, opened, page


def test_a_review_opens_as_many_files_whatever_the_journals_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answered = {}
    for runs in (2, 40):
        root = _repository(tmp_path, runs)
        _review(root)  # as a user's second command finds it: the summaries memo written
        answered[runs] = _asked(root, monkeypatch)
    (few, few_opened, few_page), (many, many_opened, many_page) = answered[2], answered[40]
    assert "no baseline" not in many_page
    assert few_page.replace("repo-2", "repo-40") == many_page
    assert len(many) == len(few)
    assert len(many_opened) == len(few_opened) <= 2  # the newest entry's run.json and outcome


def test_an_unreadable_older_entry_still_makes_the_range_no_store(tmp_path: Path) -> None:
    root = _repository(tmp_path, 40)
    code, page = _review(root)
    assert code == 0 and "no baseline" not in page
    with Store.open(str(root), process(root, NOW), NOW) as store:
        oldest = sorted(file.path for file in store.files("journal/") if file.path.endswith("/run.json"))[0]
        (data,) = store.contents([f"{store.commit}:{oldest}"])
        spoiled = data.replace(b'{\n  "', b'{\n    "', 1)
        assert spoiled != data
        store.apply([PathOperation(oldest, store.objects.blob(spoiled))], "tamper")
    for _ in range(2):  # over the memo the first review left, and over the one the second finds
        code, page = _review(root)
        assert code == 0, page
        assert "no baseline — this clone holds no Store" in page

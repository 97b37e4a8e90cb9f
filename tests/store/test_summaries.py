"""The Journal's summaries memo (adr/0031) changes what a reader decodes, never what it answers:
every reading over a warm, a missing, a corrupted or another code's memo is the reading over
none, a memo file is rebuilt where it is unusable, and a file spoiled on the branch after the
memo was written is met by the next reader as it would be with no memo at all."""

from __future__ import annotations

import io
import pathlib
import subprocess
import sys
from collections.abc import Sequence

import orjson
import pytest

from hyper.cli.main import main
from hyper.core.faults import JournalFileUnreadable
from hyper.core.version import BuildFacts
from hyper.inspect.comparison.window import latest, procedures
from hyper.inspect.runs import Filter, listed
from hyper.store import reading
from hyper.store.branch import Store
from hyper.store.git import PathOperation
from hyper.store.identities import Identities, concluded
from hyper.store.objects import ObjectStore
from hyper.store.step import StepFile
from hyper.store.summaries import Summary

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
            reading.Journal(store).listing(),
            [item.run_id for item in reading.Journal(store).listing(enough=2)],
            [item.run_id for item in reading.Journal(store).listing(lambda entry: entry.outcome == "failed")],
            reading.Journal(store).count(),
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


def test_a_step_file_spoiled_after_its_targets_were_remembered_is_still_met(tmp_path: pathlib.Path) -> None:
    root = _store(tmp_path)
    _answers(root)
    with Store.open(str(root), process(root), NOW) as store:
        newest = sorted(file.path for file in store.files("journal/") if "/steps/" in file.path)[-1]
        (data,) = store.contents([f"{store.commit}:{newest}"])
        store.apply([PathOperation(newest, store.objects.blob(data.replace(b'{\n  "', b'{\n    "', 1)))], "tamper")
    with Store.open(str(root), process(root), NOW) as store, pytest.raises(JournalFileUnreadable) as met:
        reading.Journal(store).listing()
    assert met.value.path == newest


def test_a_listing_over_a_warm_memo_opens_no_file(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _store(tmp_path)
    cold = _answers(root)
    opened: list[str] = []
    contents = Store.contents

    def counted(store: Store, names: Sequence[str]) -> list[bytes]:
        opened.extend(names)
        return contents(store, names)

    monkeypatch.setattr(Store, "contents", counted)
    with Store.open(str(root), process(root), NOW) as store:
        assert reading.Journal(store).listing() == cold[0]
    assert opened == []


@pytest.mark.parametrize("warm", [False, True], ids=["cold-memo", "warm-memo"])
def test_runs_lists_the_date_partitions_once_to_list_and_count(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, warm: bool
) -> None:
    root = _store(tmp_path)
    if warm:
        _answers(root)
    asked = _counting(monkeypatch)
    with Store.open(str(root), process(root), NOW) as store:
        rows, total = listed(store, Filter(), 2)
        # The Journal's top tree, from which every date partition is listed: asked once.
        assert asked.count(f"{store.commit}:journal/") == 1
        every = reading.Journal(store).listing()
    assert [item.run_id for item in rows] == [item.run_id for item in every][:2]
    assert total == len(every) > 2


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every name asked of cat-file from now on, in order, as the list this answers."""
    asked: list[str] = []
    lookup = ObjectStore.lookup

    def counted(objects: ObjectStore, names: Sequence[str]) -> list[tuple[str, bytes, bytes] | None]:
        asked.extend(names)
        return lookup(objects, names)

    monkeypatch.setattr(ObjectStore, "lookup", counted)
    return asked


def _digest_only_store(tmp_path: pathlib.Path) -> tuple[pathlib.Path, str]:
    """The reference Store with one entry whose two Steps stored only their sets' digests: one
    whose members an entry two date partitions older wrote out, one whose no entry holds. Each
    is scanned for across every partition; the Run's id is returned with the repository."""
    files = reference_store()
    older = "journal/2026/08/04/019917f2-2c81-7d55-8e3a-1b4c9d70e6a2/steps/0001.json"
    newest = "journal/2026/08/06/01991ea6-b118-7c93-8d41-6b2f7ae05c19"
    written = concluded(["preview-8901", "preview-8999"], "")
    probe = StepFile.decode(files[older])
    files[older] = probe._replace(identities=written).encode()
    retire = StepFile.decode(files[f"{newest}/steps/0001.json"])
    files[f"{newest}/steps/0002.json"] = probe._replace(step=2, identities=Identities(written.digest)).encode()
    files[f"{newest}/steps/0003.json"] = retire._replace(step=3, identities=Identities("sha256:unwritten")).encode()
    root = repository(tmp_path / "repo")
    (root / "hyper.yaml").write_text("kind: repository-declaration\nversion: 1.4.0\n")
    seed(root, files)
    return root, newest.rsplit("/", 1)[1]


def _journal_asked(root: pathlib.Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[int, bytes]:
    """How often one command asks cat-file for the Journal's top tree, from which every date
    partition is listed, and what it printed."""
    asked = _counting(monkeypatch)
    out, err = io.BytesIO(), io.BytesIO()
    code = main([*argv, "--json", "--repo-dir", str(root)], out, err, process(root), BuildFacts("1.4.0"))
    monkeypatch.undo()
    assert code == 0, err.getvalue()
    commit = subprocess.run(["git", "rev-parse", "hyper-store"], cwd=root, capture_output=True, check=True, text=True)
    return asked.count(f"{commit.stdout.strip()}:journal/"), out.getvalue()


@pytest.mark.parametrize("warm", [False, True], ids=["cold-memo", "warm-memo"])
def test_show_and_changes_list_the_date_partitions_once_however_many_steps_scan(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, warm: bool
) -> None:
    root, run = _digest_only_store(tmp_path)
    if warm:
        _answers(root)
    # The entry found, and two Steps scanning every partition for their members: one listing.
    asked, shown = _journal_asked(root, monkeypatch, ["show", run])
    assert asked == 1
    steps = [orjson.loads(line) for line in shown.splitlines() if b'"type":"step"' in line]
    assert [step.get("unchanged_since") for step in steps][1:] == ["019917f2-2c81-7d55-8e3a-1b4c9d70e6a2", None]
    # Both Procedures' windows chosen, and the SUBJECT's two Steps scanned, on one handle.
    assert _journal_asked(root, monkeypatch, ["changes"])[0] == 1


@pytest.mark.parametrize("targets", [None, (), ("local",), ("cloudflare-prod", "local")])
def test_a_summary_line_reads_back_as_written(targets: tuple[str, ...] | None) -> None:
    summary = Summary("r", "t", 1, "say hello", False, "own", "completed", 2, "cron", "0.1.0", targets)
    line = summary.line()
    assert line is not None and Summary.parse(line) == summary


def test_targets_that_cannot_sit_on_a_line_are_kept_unread_and_nothing_else_is_lost() -> None:
    summary = Summary("r", "t", 1, "p", True, "open", None, 0, "a@b", "0.1.0", ("lo\tcal",))
    line = summary.line()
    assert line is not None and Summary.parse(line) == summary._replace(targets=None)
    assert summary._replace(trigger="a\nb").line() is None


def test_the_memos_key_is_the_same_whatever_a_command_imported() -> None:
    """A command that never loads a decider (a review never loads the Record reader) reaches
    the key one that loads them all does; a key read off ``sys.modules`` was ``None`` there,
    and ``changes`` then rebuilt its memo on every call."""
    probe = "from hyper.store.checked import source_key\n{imports}\nprint(source_key('hyper-journal-summaries 2'))"
    loaded = "import hyper.store.reading, hyper.store.record, hyper.store.summaries"

    def key(imports: str) -> str:
        answer = subprocess.run(
            [sys.executable, "-c", probe.format(imports=imports)], capture_output=True, text=True, check=True
        )
        return answer.stdout.strip()

    assert key("") == key(loaded) != "None"

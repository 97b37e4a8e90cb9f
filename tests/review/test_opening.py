"""A review starts git before it parses the artefact, where it will need git at all.

git's start-up is waited for only where nothing else is left to do: a positional that
is a path is a file, never the built-in, so its range will be looked for and git is
started before the artefact is read. A name is known to need a range only once it has
resolved, and the built-in never does, so its review starts no child. What is checked
is the order of events, never a time.
"""

from __future__ import annotations

import datetime as _dt
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import hyper.artefact.repository as repository
from hyper.cli.main import main
from hyper.core.process import Process
from hyper.core.version import BuildFacts, installed
from hyper.store.sync import init

FIXTURE = Path(__file__).resolve().parents[2] / "corpus" / "review" / "fixtures" / "worked-example" / "repo"
NOW = _dt.datetime(2026, 8, 6, 9, 41, 14, tzinfo=_dt.UTC)
ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The worked example committed, with a Store that holds no Run yet."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    declaration = root / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", f"version: {installed().version}"))
    commit = ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qm", "t"]
    for argv in (["init", "-q"], ["add", "--all"], commit):
        subprocess.run(["git", *argv], cwd=root, env=ENV, check=True)
    init(str(root), _process(root, []), NOW)
    return root


def _process(root: Path, events: list[str], children: list[subprocess.Popen[bytes]] | None = None) -> Process:
    def launch(args: list[str], *rest: object, **options: object) -> subprocess.Popen[bytes]:
        events.append(" ".join(args))
        child: subprocess.Popen[bytes] = subprocess.Popen(args, *rest, **options)  # type: ignore[call-overload]
        if children is not None:
            children.append(child)
        return child

    return Process(
        environ=ENV,
        getwd=lambda: str(root),
        now=lambda: NOW,
        mint=lambda _: "",
        user=lambda: "t",
        hostname=lambda: "t",
        launch=launch,
    )


def _review(
    root: Path, named: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list[str], list[subprocess.Popen[bytes]], str]:
    events: list[str] = []
    children: list[subprocess.Popen[bytes]] = []
    load = repository.load_repository

    def loading(at: str, declared: bytes | None = None) -> repository.Repository | repository.Unreadable:
        events.append("load")
        return load(at, declared)

    monkeypatch.setattr(repository, "load_repository", loading)
    out, err = io.BytesIO(), io.BytesIO()
    code = main(
        ["review", "--repo-dir", str(root), named],
        out,
        err,
        _process(root, events, children),
        BuildFacts(version=installed().version),
    )
    return code, events, children, out.getvalue().decode()


def test_a_path_starts_git_before_the_artefact_is_read(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, events, children, page = _review(repo, "procedures/retire-preview-envs.yaml", monkeypatch)
    assert code == 0
    assert events == ["git cat-file --batch", "load"]
    assert [child.returncode for child in children] == [0]
    assert "no Run of retire-preview-envs yet" in page


def test_a_name_starts_git_once_it_has_resolved(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, events, _, page = _review(repo, "retire-preview-envs", monkeypatch)
    assert code == 0
    assert events == ["load", "git cat-file --batch"]
    assert "no Run of retire-preview-envs yet" in page


def test_a_review_that_stops_short_of_its_range_ends_the_git_it_started(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, events, children, _ = _review(repo, "procedures/absent.yaml", monkeypatch)
    assert code == 2
    assert events == ["git cat-file --batch", "load"]
    assert [child.returncode for child in children] == [0]  # waited for, not left behind


def test_the_built_in_starts_no_git(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, events, _, page = _review(repo, "shell", monkeypatch)
    assert code == 0
    assert events == ["load"]
    assert "compiled into hyper itself" in page

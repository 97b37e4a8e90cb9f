"""What the Store tests share: throwaway repositories, a fixed clock and a Process to run in."""

from __future__ import annotations

import datetime as _dt
import os
import pathlib
import subprocess
from collections.abc import Iterator

import pytest
from hypothesis import strategies as st

from hyper.core.ids import mint_v7
from hyper.core.process import Process
from hyper.store.branch import Store

NOW = _dt.datetime(2026, 8, 6, 9, 41, 12, 508000, tzinfo=_dt.UTC)
FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "reference"
RUN_ID = "01984f1a-3c9f-7b04-9c2e-4f0b8d61a3e7"

_QUIET_GIT = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "someone",
    "GIT_AUTHOR_EMAIL": "someone@example.invalid",
    "GIT_COMMITTER_NAME": "someone",
    "GIT_COMMITTER_EMAIL": "someone@example.invalid",
}


def environ() -> dict[str, str]:
    return {**os.environ, **_QUIET_GIT}


def process(root: pathlib.Path, now: _dt.datetime = NOW) -> Process:
    return Process(
        environ=environ(),
        getwd=lambda: str(root),
        now=lambda: now,
        mint=mint_v7,
        user=lambda: "igor",
        hostname=lambda: "thinkpad",
    )


def git(cwd: pathlib.Path, *args: str, stdin: bytes | None = None) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=environ(), input=stdin, capture_output=True, check=True)
    return done.stdout.decode("utf-8").strip()


def repository(path: pathlib.Path, *, commit: bool = True) -> pathlib.Path:
    """A working repository with one ordinary commit on ``main``."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    if commit:
        (path / "README").write_text("code\n")
        git(path, "add", "README")
        git(path, "commit", "-q", "-m", "code")
    return path


def bare(path: pathlib.Path) -> pathlib.Path:
    git(path.parent, "init", "-q", "--bare", "-b", "main", str(path))
    return path


def seed(root: pathlib.Path, files: dict[str, bytes], message: str = "seed") -> None:
    """Writes ``files`` as the whole of a fresh hyper-store branch, with ordinary git
    commands — the fixture is then read by hyper exactly as a clone the reference wrote."""
    entries = []
    for path, content in sorted(files.items()):
        blob = git(root, "hash-object", "-w", "--stdin", stdin=content)
        entries.append(f"100644 blob {blob}\t{path}")
    index = root / ".git" / "seed-index"
    env = {**environ(), "GIT_INDEX_FILE": str(index)}
    subprocess.run(
        ["git", "update-index", "--add", "--index-info"],
        cwd=root,
        env=env,
        input=("\n".join(entries) + "\n").encode(),
        check=True,
    )
    tree = subprocess.run(["git", "write-tree"], cwd=root, env=env, capture_output=True, check=True)
    index.unlink()
    commit = git(root, "commit-tree", tree.stdout.decode().strip(), "-m", message)
    git(root, "update-ref", "refs/heads/hyper-store", commit)


def reference_store() -> dict[str, bytes]:
    """The reference's own store files, as a Store branch's whole content."""
    base = FIXTURES / "store"
    return {str(path.relative_to(base)): path.read_bytes() for path in sorted(base.rglob("*")) if path.is_file()}


def worktree_state(root: pathlib.Path) -> tuple[str, str, str, str]:
    """HEAD, the index's tree, the working tree's status and the checked-out branch's commit."""
    return (
        git(root, "symbolic-ref", "HEAD"),
        git(root, "ls-files", "--stage"),
        git(root, "status", "--porcelain", "--untracked-files=all"),
        git(root, "rev-parse", "HEAD"),
    )


# The Runs of the reference Store fixture (reference_store()), by what happened to each.
REAPED = "019917f2-2c81-7d55-8e3a-1b4c9d70e6a2"
CONTESTED = "019912ab-5e60-7f22-b47d-2c8e10395fa1"
OPEN = "01991c3a-7d40-7a11-9c2e-4f0b8d61a3e7"
REFUSED = "01991d70-6a2f-7e33-8b47-5c91d2e04f6a"
FAILED = "01991ea6-b118-7c93-8d41-6b2f7ae05c19"
REHEARSAL = "0199206d-36a5-7f18-9c04-3ea7d1b05c62"
CLOSER = "0199206d-4e15-7c30-9b8a-52d9ea01f7b4"


def reference_handle(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Store]:
    """A Store handle on a fresh repository seeded with the reference fixture, for a module-scoped fixture."""
    root = repository(tmp_path_factory.mktemp(name) / "repo")
    seed(root, reference_store())
    with Store.open(str(root), process(root), NOW) as opened:
        yield opened


def near_shape(template: str, alphabet: str) -> st.SearchStrategy[str]:
    """Texts of ``template``'s length and near its shape: each character the template's own,
    one drawn from ``alphabet``, or any character at all; sometimes one more or one fewer."""
    chars = [st.sampled_from([c, *alphabet]) | st.characters() for c in template]
    shaped = st.tuples(*chars).map("".join)
    return shaped | shaped.map(lambda text: text[:-1]) | shaped.map(lambda text: text + "0") | st.text(max_size=40)

"""The measurement behind adr/0004-store-git-mechanism.md: the same Run appended three ways.

- ``git CLI``: one git process per object and per ref move, trees rebuilt from a full
  ``ls-tree -r`` with one ``mktree`` per directory — the reference implementation's calls.
- ``in-process``: hyper's :mod:`hyper.store.objects` (objects written in-process, one
  long-lived ``update-ref --stdin``).
- ``dulwich``: the pure-Python git library, where it can be imported (it is not a dependency;
  pass its install directory as the first argument to include it).

Each is timed for the whole Run as one commit, and for the first commits of the one-commit-
per-write grouping (per commit). ``git fast-import`` writing the same objects is the yardstick.
Run: ``.venv/bin/python benchmarks/store_mechanisms.py [dulwich-site-dir]``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.store_bench import NOW, fast_import_stream, fresh_store, git, one_run, process
from hyper.core.ids import mint_v7
from hyper.store.branch import Store, Write
from hyper.store.git import unix_seconds

PER_WRITE_SAMPLE = 20


def cli_append(root: Path, writes: list[Write], message: str) -> None:
    """The reference's sequence: hash-object per file, ls-tree -r of the tip, mktree per
    directory, commit-tree, update-ref with the old value."""
    env_date = f"{unix_seconds(NOW)} +0000"
    tip = git(root, "rev-parse", "hyper-store").decode().strip()
    held = {}
    for line in git(root, "ls-tree", "-r", "-z", tip).decode().split("\0"):
        if line:
            head, _, path = line.partition("\t")
            held[path] = head.split()[2]
    for write in writes:
        held[write.path] = git(root, "hash-object", "-w", "--stdin", stdin=write.content).decode().strip()

    def tree(entries: dict[str, str]) -> str:
        files: list[str] = []
        dirs: dict[str, dict[str, str]] = {}
        for path, blob in entries.items():
            first, _, rest = path.partition("/")
            if rest:
                dirs.setdefault(first, {})[rest] = blob
            else:
                files.append(f"100644 blob {blob}\t{first}")
        lines = files + [f"040000 tree {tree(nested)}\t{name}" for name, nested in dirs.items()]
        made: str = git(root, "mktree", stdin=("\n".join(lines) + "\n").encode()).decode().strip()
        return made

    root_tree = tree(held)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "hyper",
        "GIT_AUTHOR_EMAIL": "hyper@hyper.invalid",
        "GIT_COMMITTER_NAME": "hyper",
        "GIT_COMMITTER_EMAIL": "hyper@hyper.invalid",
        "GIT_AUTHOR_DATE": env_date,
        "GIT_COMMITTER_DATE": env_date,
    }
    commit = (
        subprocess.run(
            ["git", "commit-tree", root_tree, "-p", tip, "-m", message],
            cwd=root,
            env=env,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    git(root, "update-ref", "refs/heads/hyper-store", commit, tip)


def ours_append(root: Path, grouped: list[tuple[str, list[Write]]]) -> None:
    with Store.open(str(root), process(root), NOW) as store:
        for message, writes in grouped:
            store.append(writes, message)


def cli_run(root: Path, grouped: list[tuple[str, list[Write]]]) -> None:
    for message, writes in grouped:
        cli_append(root, writes, message)


def dulwich_append(root: Path, grouped: list[tuple[str, list[Write]]]) -> None:
    objects_module: Any = importlib.import_module("dulwich.objects")
    repo: Any = importlib.import_module("dulwich.repo").Repo(str(root))
    for message, writes in grouped:
        tip = repo.refs[b"refs/heads/hyper-store"]
        written: list[Any] = []
        trees: dict[bytes, Any] = {}

        def subtree(path: bytes, sha: bytes | None, held: dict[bytes, Any] = trees) -> Any:
            if path not in held:
                held[path] = repo[sha].copy() if sha is not None else objects_module.Tree()
            return held[path]

        root_tree = subtree(b"", repo[tip].tree)
        for write in writes:
            blob = objects_module.Blob.from_string(write.content)
            written.append(blob)
            parts = write.path.encode().split(b"/")
            node, prefix = root_tree, b""
            for part in parts[:-1]:
                prefix += part + b"/"
                try:
                    standing = node[part][1]
                except KeyError:
                    standing = None
                node = subtree(prefix, standing)
            node.add(parts[-1], 0o100644, blob.id)
        for path in sorted(trees, key=len, reverse=True):
            if path:
                parent_path = path[: path[:-1].rfind(b"/") + 1]
                trees[parent_path].add(path[:-1].split(b"/")[-1], 0o040000, trees[path].id)
        written.extend(trees.values())
        commit = objects_module.Commit()
        commit.tree = root_tree.id
        commit.parents = [tip]
        commit.author = commit.committer = b"hyper <hyper@hyper.invalid>"
        commit.author_time = commit.commit_time = unix_seconds(NOW)
        commit.author_timezone = commit.commit_timezone = 0
        commit.message = (message + "\n").encode()
        written.append(commit)
        for item in written:
            repo.object_store.add_object(item)
        assert repo.refs.set_if_equals(b"refs/heads/hyper-store", tip, commit.id)


def main() -> None:
    if len(sys.argv) > 1:
        sys.path.insert(0, sys.argv[1])
    mechanisms: dict[str, Callable[[Path, list[tuple[str, list[Write]]]], None]] = {
        "git CLI": cli_run,
        "in-process": ours_append,
    }
    if importlib.util.find_spec("dulwich") is not None:
        mechanisms["dulwich"] = dulwich_append
    work = Path(tempfile.mkdtemp(prefix="hyper-store-mechanisms-"))
    try:
        template = work / "template"
        fresh_store(template)
        parent = git(template, "rev-parse", "hyper-store").decode().strip()
        per_write = one_run(mint_v7(NOW))
        whole = [("one Run", [write for _, writes in per_write for write in writes])]
        sample = per_write[:PER_WRITE_SAMPLE]
        cases = (
            ("whole Run as one commit", whole, 1),
            (f"first {PER_WRITE_SAMPLE} one-write commits, per commit", sample, PER_WRITE_SAMPLE),
        )
        for number, (label, grouped, unit) in enumerate(cases):
            target = work / f"fast-import-{number}"
            shutil.copytree(template, target)
            stream = fast_import_stream(grouped, parent)
            start = time.perf_counter()
            git(target, "fast-import", "--quiet", stdin=stream)
            yardstick = (time.perf_counter() - start) / unit
            print(label + ":")
            print(f"  {'git fast-import':16} {yardstick * 1000:8.1f} ms")
            for name, append in mechanisms.items():
                target = work / f"{name.replace(' ', '-')}-{number}"
                shutil.copytree(template, target)
                start = time.perf_counter()
                append(target, grouped)
                seconds = (time.perf_counter() - start) / unit
                print(f"  {name:16} {seconds * 1000:8.1f} ms  ({seconds / yardstick:.1f}x fast-import)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""``core.fsync`` read as git reads it: what hyper's own object writes flush before a ref moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyper.store.durability import DEFAULT, flushed
from hyper.store.git import Git
from tests.store.support import NOW, git, process, repository


@pytest.mark.parametrize(
    ("settings", "wanted"),
    [
        ([], DEFAULT),
        ([("core.fsync", "none")], frozenset()),
        ([("core.fsync", "-pack")], DEFAULT - {"pack"}),
        ([("core.fsync", "none,loose-object")], frozenset({"loose-object"})),
        ([("core.fsync", "objects")], DEFAULT | {"loose-object"}),
        ([("core.fsyncObjectFiles", "true")], DEFAULT | {"loose-object"}),
    ],
)
def test_core_fsync_is_read_as_git_reads_it(
    tmp_path: Path, settings: list[tuple[str, str]], wanted: frozenset[str]
) -> None:
    root = repository(tmp_path / "repo")
    for key, value in settings:
        git(root, "config", key, value)
    assert flushed(Git.open(str(root), process(root), NOW)) == wanted

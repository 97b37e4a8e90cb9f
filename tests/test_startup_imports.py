"""The start-up budget, held as what a command loads rather than how long it takes (ADR 0006).

Timings belong to ``benchmarks/``; what a test can hold without ever flaking is the
list of modules a command pulls in. Each module named here cost a measured share of
``hyper providers``'s whole budget when it was last on the path, and none of them is
needed to read a repository and state facts about it.
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hyper.core.ids import mint_v7
from hyper.core.process import Process
from hyper.store.branch import Store, Write
from hyper.store.journal import RunFile, Trigger
from hyper.store.provenance import RunProvenance
from hyper.store.sync import init
from tests.loaded import ROOT, modules_loaded_by

HEAVY = (
    "yaml",  # PyYAML: hyper.yaml.parse reads the subset; PyYAML is the tests' oracle only
    "attr",  # attrs: values on the start-up path are NamedTuples
    "hashlib",  # binds OpenSSL; hyper.core.digest uses CPython's own SHA-256
    "_hashlib",
    "fractions",  # only a Cadence's rate needs it, and check never renders one
    "datetime",  # only a clock reading, --since or a timestamp position needs it
    "importlib.metadata",  # the version is read off the .dist-info directly
    "typing",  # annotations are the checker's: a start-up module imports typing only under TYPE_CHECKING
    "collections.abc",  # the same: its abstract types appear in annotations only
    "contextlib",  # no discovery command or check holds a context manager of its own
    "threading",  # nothing is spawned; the parse table's lock is _thread's, which threading.Lock is
)

BARE = ("re", "enum", "collections", "functools")
"""What ``version`` alone leaves out: it reads the .dist-info and prints, and parses no YAML."""


@pytest.mark.parametrize(
    "argv",
    [
        ["version"],
        ["providers"],
        ["provider", "shell"],
        ["operation", "shell", "read"],
        ["targets"],
        ["check"],
    ],
)
def test_a_discovery_command_loads_nothing_heavy(argv: list[str]) -> None:
    repository = [] if argv == ["version"] else ["--repo-dir", "examples/quickstart"]
    code, modules, stderr = modules_loaded_by([*argv, *repository])
    assert code == 0, stderr
    assert sorted(set(HEAVY) & modules) == []


def test_version_loads_no_regular_expression_engine() -> None:
    code, modules, stderr = modules_loaded_by(["version"])
    assert code == 0, stderr
    assert sorted((set(BARE) | set(HEAVY)) & modules) == []


def test_a_review_reads_its_range_without_binding_openssl(tmp_path: Path) -> None:
    """A review opens its range off the Store, but checks and digests nothing there: the
    Run-start memo's key (the only digest on that path) is not computed by a reader."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "corpus" / "review" / "fixtures" / "worked-example" / "repo", root)
    declaration = root / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", "version: 0.1.0"))  # the child's build
    for argv in (
        ["init", "-q"],
        ["add", "--all"],
        ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qm", "t"],
    ):
        subprocess.run(["git", *argv], cwd=root, env=env, check=True)
    now = _dt.datetime(2026, 8, 6, 9, 41, 14, tzinfo=_dt.UTC)
    process = Process(
        environ=env, getwd=lambda: str(root), now=lambda: now, mint=mint_v7, user=lambda: "t", hostname=lambda: "t"
    )
    init(str(root), process, now)
    run = RunFile(
        mint_v7(now),
        "retire-preview-envs",
        Trigger("cron", "local", "t", "t"),
        now,
        False,
        RunProvenance("0.1.0", "0" * 40, "0" * 40),
    )
    with Store.open(str(root), process, now) as store:
        store.append([Write(run.at.run_path, run.encode())], "a Run")
    code, modules, stderr = modules_loaded_by(
        ["review", "--repo-dir", str(root), "procedures/retire-preview-envs.yaml"]
    )
    assert code == 0, stderr
    assert "hyper.store.reading" in modules  # the range was looked for on the Store
    assert sorted({"hashlib", "_hashlib", "typing"} & modules) == []

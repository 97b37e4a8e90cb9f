"""The start-up budget, held as what a command loads rather than how long it takes (ADR 0006).

Timings belong to ``benchmarks/``; what a test can hold without ever flaking is the
list of modules a command pulls in. Each module named here cost a measured share of
``hyper providers``'s whole budget when it was last on the path, and none of them is
needed to read a repository and state facts about it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HEAVY = (
    "yaml",  # PyYAML: hyper.yamlparse reads the subset; PyYAML is the tests' oracle only
    "attr",  # attrs: values on the start-up path are NamedTuples
    "hashlib",  # binds OpenSSL; hyper.digest uses CPython's own SHA-256
    "_hashlib",
    "fractions",  # only a Cadence's rate needs it, and check never renders one
    "datetime",  # only a clock reading, --since or a timestamp position needs it
    "importlib.metadata",  # the version is read off the .dist-info directly
)

LOADED = (
    "import sys, io\n"
    "from hyper.cli.main import main\n"
    "from hyper.process import real\n"
    "from hyper.version import BuildFacts\n"
    "out, err = io.BytesIO(), io.BytesIO()\n"
    "code = main(sys.argv[1:], out, err, real(), BuildFacts(version='0.1.0'))\n"
    "print(code, *sorted(sys.modules), sep='\\n')\n"
)


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
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *argv, *repository],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    code, *modules = done.stdout.splitlines()
    assert code == "0", done.stderr
    assert sorted(set(HEAVY) & set(modules)) == []

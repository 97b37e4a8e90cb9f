"""The start-up budget, held as what a command loads rather than how long it takes (ADR 0006).

Timings belong to ``benchmarks/``; what a test can hold without ever flaking is the
list of modules a command pulls in. Each module named here cost a measured share of
``hyper providers``'s whole budget when it was last on the path, and none of them is
needed to read a repository and state facts about it.
"""

from __future__ import annotations

import pytest

from tests.loaded import modules_loaded_by

HEAVY = (
    "yaml",  # PyYAML: hyper.yaml.parse reads the subset; PyYAML is the tests' oracle only
    "attr",  # attrs: values on the start-up path are NamedTuples
    "hashlib",  # binds OpenSSL; hyper.core.digest uses CPython's own SHA-256
    "_hashlib",
    "fractions",  # only a Cadence's rate needs it, and check never renders one
    "datetime",  # only a clock reading, --since or a timestamp position needs it
    "importlib.metadata",  # the version is read off the .dist-info directly
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
    code, modules, stderr = modules_loaded_by([*argv, *repository])
    assert code == 0, stderr
    assert sorted(set(HEAVY) & modules) == []

"""The facts about the executor and the release channel a generated workflow names, and nowhere else.

They are constants of the build rather than settings: nothing in a repository may
reach them, because a workflow is compared byte for byte against a regeneration and
a setting would make two machines regenerate two files. The artefact's name carries
the version and nothing else — the wheel is pure Python, so one file serves every
runner.

Which index pip reads at the runner is not one of them. The file names the
distribution and its version, never an index URL, so pip's own environment
(``PIP_INDEX_URL`` on the runner) decides where the bytes come from, and the frozen
digest decides whether they are accepted (ADR 0019).
"""

from __future__ import annotations

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

RUNNER: Final = "ubuntu-24.04"
"""The image the job runs on; it supplies bash, sha256sum and git."""

CHECKOUT: Final = "actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8"
"""The checkout action, pinned by commit (v5.0.0): a tag can be moved, a commit cannot."""

SETUP_PYTHON: Final = "actions/setup-python@e797f83bcb11b83ae66e0230d6156d7c80228e7c"
"""The interpreter action, pinned by commit (v6.0.0) for the same reason."""

PYTHON: Final = "3.11"
"""The Python the job installs hyper into: the one the dependency lock (``scripts/lock``) was resolved for."""

DISTRIBUTION: Final = "hyper-iac"
"""This build's name on the package index."""

INDEX_JSON: Final = "https://pypi.org/pypi/{distribution}/{version}/json"
"""The index's JSON API for one release: the file list and each file's sha256, a few kilobytes."""

ARTEFACT: Final = "hyper_iac-{version}-py3-none-any.whl"
"""The release artefact's file name: the wheel, as the wheel format spells the distribution."""


def artefact_name(version: str) -> str:
    """The wheel's file name: what the workflow fetches and what the index must list."""
    return ARTEFACT.format(version=version)


def release_url(version: str) -> str:
    """The index's JSON page for ``version`` of this build."""
    return INDEX_JSON.format(distribution=DISTRIBUTION, version=version)

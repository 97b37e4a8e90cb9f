"""The four facts about the executor a generated workflow names, and nowhere else.

They are constants of the build rather than settings: nothing in a repository may
reach them, because a workflow is compared byte for byte against a regeneration and
a setting would make two machines regenerate two files. The release URLs carry the
version and nothing else — the platform is fixed by the runner.

The values are the reference implementation's. Where this port's own build will be
published is an open question (ADR 0009); until it is answered, a pin names a release
of the reference's artefact, fetched from where the reference publishes it.
"""

from typing import Final

RUNNER: Final = "ubuntu-24.04"
"""The image the job runs on; it supplies bash, curl, tar, sha256sum and git."""

CHECKOUT: Final = "actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8"
"""The one action named, pinned by commit: a tag can be moved, a commit cannot."""

RELEASE: Final = "https://github.com/TheLoomLabs/hyper/releases/download/v{version}"
"""Where one release's files live; the tarball and the checksums file sit side by side under it."""

ARTEFACT: Final = "hyper-{version}-x86_64-linux.tar.gz"
"""The release artefact's file name, for the platform :data:`RUNNER` is."""

CHECKSUMS: Final = "checksums.txt"
"""The file under the release that ``project`` reads once to freeze the digest."""


def artefact_name(version: str) -> str:
    """The tarball's file name: what the workflow fetches and what a checksums line names."""
    return ARTEFACT.format(version=version)


def artefact_url(version: str) -> str:
    return f"{RELEASE.format(version=version)}/{artefact_name(version)}"


def checksums_url(version: str) -> str:
    return f"{RELEASE.format(version=version)}/{CHECKSUMS}"

"""What this build of hyper knows about itself, and the ``hyper version`` page.

The version is the one string the pin gate compares, the MCP server announces and
the page prints, so it is read once, into :class:`BuildFacts`, and threaded to all
three. An install that carries no distribution metadata (a bare source tree on
``sys.path``) knows no version and says ``unknown``, which no repository pins — so
it refuses the gate everywhere rather than guessing.
"""

import os
import sys

from hyper.core.namedtuple import NamedTuple

UNKNOWN = "unknown"

# The distribution is ``hyper-iac`` (ADR 0017); its metadata directory is named by the
# normalised name. Matching ``hyper-`` would read the unrelated HTTP/2 client ``hyper``.
_DIST_INFO_PREFIX = "hyper_iac-"

_GO_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64", "i386": "386", "i686": "386"}


class BuildFacts(NamedTuple):
    version: str = UNKNOWN
    commit: str | None = None
    built: str | None = None
    modified: bool = False
    toolchain: str | None = None
    os: str | None = None
    arch: str | None = None


def installed() -> BuildFacts:
    """The facts of the running interpreter and the installed distribution."""
    machine = os.uname().machine.lower() if hasattr(os, "uname") else ""
    implementation = sys.implementation
    v = implementation.version
    return BuildFacts(
        version=_distribution_version(),
        toolchain=f"{implementation.name}{v.major}.{v.minor}.{v.micro}",
        os=sys.platform if sys.platform != "win32" else "windows",
        arch=_GO_ARCH.get(machine, machine or None),
    )


def _distribution_version() -> str:
    """The installed ``hyper-iac`` distribution's version, read off its metadata directory.

    ``importlib.metadata`` would answer the same and costs more than the rest of
    ``hyper version`` together, so the ``.dist-info`` directory is found directly. It is
    looked for first beside the ``hyper`` package this process imported, where an install
    leaves it — sparing a listing of the whole standard library on every start (ADR 0006) —
    and then along ``sys.path``, where an editable install keeps it.
    """
    beside = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
    for entry in (beside, *sys.path):
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(_DIST_INFO_PREFIX) and name.endswith(".dist-info"):
                try:
                    with open(os.path.join(entry, name, "METADATA"), encoding="utf-8") as handle:
                        for line in handle:
                            if line.startswith("Version:"):
                                return line.split(":", 1)[1].strip()
                            if not line.strip():
                                break
                except OSError:
                    continue
    return UNKNOWN


def page(facts: BuildFacts) -> str:
    """Five lines; every fact this build was not told renders ``unknown``.

    ``-dirty`` rides on a known commit only: an unknown commit has no tree to have
    been modified.
    """
    commit = facts.commit or UNKNOWN
    if facts.commit and facts.modified:
        commit += "-dirty"
    platform_ = f"{facts.os}/{facts.arch}" if facts.os and facts.arch else UNKNOWN
    return (
        f"hyper {facts.version or UNKNOWN}\n"
        f"commit  {commit}\n"
        f"built   {facts.built or UNKNOWN}\n"
        f"python  {facts.toolchain or UNKNOWN}\n"
        f"os/arch {platform_}\n"
    )

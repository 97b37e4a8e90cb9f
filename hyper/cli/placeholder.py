"""One stderr sentence where ``hyper.yaml``'s digest is the all-zero placeholder.

The placeholder checks: it is well formed, and the reference's examples and fixtures
carry it without comment. But no generated workflow can install hyper against it —
the install step compares the wheel with it and fails — so ``check`` and ``review``,
the two commands an author reads before a Cadence ships, say so once. It is a note,
not a problem: the check schema has no row for a note, and the repository is as
valid as it was (ADR 0019). MCP callers read the same rows and no sentence.
"""

from __future__ import annotations

from hyper.artefact.declaration import PATH
from hyper.artefact.repository import Repository
from hyper.cli.destination import Destination

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

PLACEHOLDER: Final = "sha256:" + "0" * 64


def sentence(command: str) -> str:
    """The one line ``command`` narrates over the placeholder."""
    return (
        f"hyper {command}: {PATH} pins the all-zero placeholder digest, which no released wheel has — "
        "a generated workflow will refuse to install hyper until `hyper project` pins a release\n"
    )


def note(repo: Repository, command: str, to: Destination) -> None:
    """Narrate :func:`sentence` on ``to`` where the declaration holds the placeholder; nothing otherwise."""
    declaration = repo.declaration
    if declaration is None or declaration.digest is None or declaration.digest.value != PLACEHOLDER:
        return
    to.narrate(sentence(command))

"""The five artefact kinds, each in the four spellings a review needs.

The wire carries the authoring format's own ``kind:`` value; the page heads the
marker column with a word; a message calls the artefact by a noun; and four of the
five declare their name under a key. Which kind a file is comes from where it was
loaded from, never from its own ``kind:`` key — a review must still say what it is
reading when that key is the thing wrong with the file.
"""

from __future__ import annotations

from hyper.artefact.manifest import BUILTIN_PATH
from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final


class Kind(NamedTuple):
    wire: str
    word: str
    """The marker column's heading."""
    noun: str
    name_key: str
    """The top-level key the artefact declares its name under; ``""`` for ``hyper.yaml``."""
    location: str
    """The directory (with its slash) an artefact of this kind is read from, or the file itself."""


DEFINITION: Final = Kind("definition", "DEFINITION", "Definition", "definition", "definitions/")
PROCEDURE: Final = Kind("procedure", "PROCEDURE", "Procedure", "procedure", "procedures/")
MANIFEST: Final = Kind("provider", "MANIFEST", "Manifest", "provider", "providers/")
TARGET: Final = Kind("target-declaration", "TARGET", "Target declaration", "target", "targets/")
REPOSITORY: Final = Kind("repository-declaration", "REPOSITORY", "Repository declaration", "", "hyper.yaml")

KINDS: Final = (DEFINITION, PROCEDURE, MANIFEST, TARGET, REPOSITORY)


def kind_of(path: str) -> Kind | None:
    """What a loaded path is read as; the built-in's pseudo-path is a Manifest."""
    if path == BUILTIN_PATH:
        return MANIFEST
    for kind in KINDS:
        if kind.location.endswith("/"):
            if path.startswith(kind.location):
                return kind
        elif path == kind.location:
            return kind
    return None


def artefact_file(kind: Kind, name: str) -> str:
    """Where an artefact of ``kind`` declaring ``name`` would be written."""
    return f"{kind.location}{name}.yaml"

"""The Repository declaration, ``hyper.yaml``: the version pin, its digest, and retention.

It is the one artefact keyed by its filename rather than a directory, and it names
nothing: one repository has one declaration.
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple
from hyper.yaml.access import fields, scalar
from hyper.yaml.subset import Node, Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

PATH: Final = "hyper.yaml"
KIND: Final = "repository-declaration"


class RepositoryDeclaration(NamedTuple):
    root: Node | None
    kind: Scalar | None
    version: Scalar | None
    digest: Scalar | None
    retention: Scalar | None
    """How long interior Record versions are kept; ``None`` keeps every version."""


def read_declaration(root: Node | None) -> RepositoryDeclaration:
    parts = fields(root, "kind", "version", "digest", "retention")
    return RepositoryDeclaration(
        root=root,
        kind=scalar(parts.get("kind")),
        version=scalar(parts.get("version")),
        digest=scalar(parts.get("digest")),
        retention=scalar(parts.get("retention")),
    )

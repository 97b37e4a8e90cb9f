"""What the positional names: a file, or a name some artefact declares.

The form is decided by the text alone — a ``/`` or a ``.yaml`` ending makes it a
repository-relative path, anything else a name — and neither form ever falls back
to the other, or which artefact ``hyper review deploy`` shows would depend on what
else happens to be in the repository. The two forms are both needed: the built-in
Manifest has no file, so only its name reaches it, and ``hyper.yaml`` declares no
name, so only its path does.

Names match byte for byte against what artefacts declare, across the Definition,
Procedure, Provider and Target namespaces at once, and nothing near a miss is
suggested: a reviewer who accepted a suggestion would be approving something they
did not name. A file that does not parse declares nothing, so only its path reaches
it — and reaching it is what shows ``check``'s problems for it.
"""

from __future__ import annotations

import posixpath

from hyper.artefact.manifest import BUILTIN_PATH
from hyper.artefact.repository import LoadedFile, Repository, declared_name
from hyper.core.namedtuple import NamedTuple
from hyper.core.quote import go_quote
from hyper.review.kinds import Kind, kind_of
from hyper.review.opening import is_path as is_path  # run.py tells a path from a name by it too


class Found(NamedTuple):
    loaded: LoadedFile
    kind: Kind

    @property
    def path(self) -> str:
        """The file's path; ``""`` for the built-in, which has none."""
        return "" if self.loaded.path == BUILTIN_PATH else self.loaded.path

    @property
    def name(self) -> str:
        key = self.kind.name_key
        return declared_name(self.loaded.root, key) if key else ""


class Unresolved(NamedTuple):
    """The positional named nothing (or too much): the whole usage text for stderr."""

    text: str


def resolve(named: str, repo: Repository) -> Found | Unresolved:
    return _by_path(named, repo) if is_path(named) else _by_name(named, repo)


def _by_path(named: str, repo: Repository) -> Found | Unresolved:
    wanted = posixpath.normpath(named)
    for loaded in repo.files:
        if loaded.path == BUILTIN_PATH or loaded.path != wanted:
            continue
        kind = kind_of(loaded.path)
        if kind is not None:
            return Found(loaded, kind)
    return Unresolved(
        f"hyper review: this repository holds no artefact at {go_quote(named)}\n"
        "  artefacts are the files in definitions/, procedures/, providers/ and targets/, and hyper.yaml\n"
    )


def _by_name(named: str, repo: Repository) -> Found | Unresolved:
    matched: list[Found] = []
    for loaded in repo.files if named else ():  # an artefact that declares no name is not named ""
        kind = kind_of(loaded.path)
        if kind is None or not kind.name_key:
            continue
        if declared_name(loaded.root, kind.name_key) == named:
            matched.append(Found(loaded, kind))
    if not matched:
        return Unresolved(
            f"hyper review: no Definition, Procedure, Provider or Target in this repository declares the name "
            f"{go_quote(named)}\n"
            "  hyper providers and hyper targets list two of those four namespaces\n"
            "  any artefact with a file is reached by its repository-relative path (one with a / or ending .yaml)\n"
        )
    if len(matched) > 1:
        nouns = " and ".join(f"a {found.kind.noun}" for found in matched)
        return Unresolved(
            f"hyper review: more than one artefact here declares {go_quote(named)}: {nouns}\n"
            "  name its file instead — a positional with a / or ending .yaml is a repository-relative path\n"
        )
    return matched[0]

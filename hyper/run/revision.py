"""The code branch, read once per Run: the commit it stands at, whether the artefacts the
Run read differ from it, and the blob id of any artefact's bytes.

A revision is a bare git blob id computed in-process over the exact bytes the Run read,
so ``procedure_revision`` names what ran even where the working tree is ahead of the
commit; ``repo_dirty`` is then what tells a reader that the revision beside it is not
the whole story.
"""

from __future__ import annotations

import hashlib

from hyper.core.faults import GitError, RevisionUnread
from hyper.core.namedtuple import NamedTuple
from hyper.store.git import Git

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping


class CodeFacts(NamedTuple):
    head: str
    dirty: bool


def blob_id(data: bytes, object_format: str = "sha1") -> str:
    digest = hashlib.new(object_format)
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def read(git: Git, object_format: str, files: Mapping[str, bytes]) -> CodeFacts:
    """HEAD's commit, and whether any of ``files`` (path → the bytes read) is untracked at
    HEAD or holds other bytes than HEAD's blob."""
    try:
        head = git.text("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    except GitError:
        raise RevisionUnread("the repository has no commit at HEAD, so no revision names what this Run read") from None
    if not head:
        raise RevisionUnread("the repository has no commit at HEAD, so no revision names what this Run read")
    committed: dict[str, str] = {}
    if files:
        try:
            listing = git.run("ls-tree", "-z", "--full-tree", head, "--", *sorted(files))
        except GitError as failed:
            raise RevisionUnread(f"the commit's tree could not be listed: {failed}") from None
        for entry in listing.decode("utf-8").split("\0"):
            if not entry:
                continue
            header, _, path = entry.partition("\t")
            parts = header.split()
            if len(parts) == 3 and parts[1] == "blob":
                committed[path] = parts[2]
    dirty = any(committed.get(path) != blob_id(data, object_format) for path, data in files.items())
    return CodeFacts(head, dirty)

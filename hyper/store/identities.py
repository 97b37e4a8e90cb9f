"""The identity set a Step concluded about: a digest always, the sorted members only where the
digest moved — so an unchanged listing of five hundred Records costs one line.

Reading a set back is total because every entry either holds the members or, holding a digest,
names a set an earlier entry holds in full; Compaction never removes a Journal entry.
"""

from __future__ import annotations

from hyper.core.faults import IdentitySetError
from hyper.core.namedtuple import NamedTuple
from hyper.store.canonical import Always, identity_digest
from hyper.store.schema import Members

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable


class Identities(NamedTuple):
    """``members`` is ``None`` where the digest did not move; an empty tuple is a set that moved
    to empty and is written ``[]`` — absence already means *did not move*."""

    digest: str
    members: tuple[str, ...] | None = None

    def write(self, members: Members) -> None:
        if self.members is not None and not self.digest:
            raise ValueError(f"store: an identity set of {len(self.members)} members carries no digest")
        members.text("digest", self.digest)
        if self.members is not None:
            members.mapping["members"] = Always(list(self.members))


def concluded(names: Iterable[str], previous: str) -> Identities:
    """The set a Step carries, given its names and the digest its last comparable Run carried
    (``""`` where there is none: a first Run, or a Step whose id moved)."""
    ordered = tuple(sorted(set(names)))
    digest = identity_digest(ordered)
    if digest == previous:
        return Identities(digest)
    return Identities(digest, ordered)


def read_identity_set(step_id: str, steps: Iterable[Identities]) -> tuple[str, ...]:
    """The members the newest of ``steps`` names, walking older ones until an entry holds them.

    ``steps`` are the identity sets of one Step's comparable evidence, newest first; sets that
    carry no digest are the caller's to leave out.
    """
    digest = ""
    for identities in steps:
        if not identities.digest:
            continue
        if not digest:
            digest = identities.digest
        if identities.digest != digest:
            raise IdentitySetError(
                f"the entry in hand carries {digest} and an earlier one {identities.digest},"
                " with no Run between them that wrote the members"
            )
        if identities.members is None:
            continue
        held = identity_digest(identities.members)
        if held != digest:
            raise IdentitySetError(f"the entry holding the members carries {digest} over a set whose digest is {held}")
        return identities.members
    if not digest:
        raise IdentitySetError(f"no entry the walk reached carries an identity set for step {step_id!r}")
    raise IdentitySetError(f"the walk ended before the Run that wrote the members of {digest}")

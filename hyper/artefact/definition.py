"""A Definition: a named, authority-scoped use of one Provider.

It claims Kinds (``read`` or ``mutate`` at Kind level, ``destroy`` Operation by
Operation, granularity following severity) and the Targets it may bind, named
literally. It carries no argument values — those are a Step's.

The value here is read leniently from the parsed tree and keeps every name with
its position, so a rule can cite the exact member at fault. What is wrong with the
file's shape is the schema's to say (:data:`hyper.check.definition.SCHEMA`); reading never judges.
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple
from hyper.yaml.access import fields, scalars
from hyper.yaml.subset import Node, Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

KIND: Final = "definition"
NAME_KEY: Final = "definition"
CLAIMABLE_KINDS: Final = ("read", "mutate")
"""The Kinds claimed at Kind level; ``destroy`` is claimed by naming Operations in ``destroy:``."""

Member = tuple[int, Scalar]
"""A list member that is a scalar, with its index in the list (``targets[2]``)."""


class Definition(NamedTuple):
    file: str
    name: Scalar | None
    provider: Scalar | None
    kinds: tuple[Member, ...]
    destroy: tuple[Member, ...]
    targets: tuple[Member, ...]

    def claims(self, kind: str) -> bool:
        """Whether the claim covers ``kind``: membership in kinds:, or any destroy: Operation."""
        if kind == "destroy":
            return bool(self.destroy)
        return any(item.value == kind for _, item in self.kinds)

    @property
    def destroy_names(self) -> frozenset[str]:
        return frozenset([item.value for _, item in self.destroy])


def read(file: str, root: Node | None) -> Definition:
    parts = fields(root, "definition", "provider", "kinds", "destroy", "targets")
    name, provider = parts.get("definition"), parts.get("provider")
    return Definition(
        file=file,
        name=name if isinstance(name, Scalar) else None,
        provider=provider if isinstance(provider, Scalar) else None,
        kinds=scalars(parts.get("kinds")),
        destroy=scalars(parts.get("destroy")),
        targets=scalars(parts.get("targets")),
    )

"""A Target declaration: the reviewed half of a Target, which holds no secret.

It grants Kinds and Capabilities, enumerates the hosts an ``http`` grant reaches,
may opt into opaque destroys, and names — for each credential slot — the
environment variable the credential is read from. The variable's *name* is an
artefact fact; its value is never read here, nor anywhere a surface renders.

``withhold:`` names further variables a ``shell`` child must not inherit. They are
bare names, not slots: a name to strip from an environment resolves nothing and
grants nothing, so it carries no ``env:`` mapping and no authority.
"""

from __future__ import annotations

from hyper.artefact.manifest import Member, listed
from hyper.core.namedtuple import NamedTuple
from hyper.yaml.access import fields, scalar
from hyper.yaml.subset import Map, Node, Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

KIND: Final = "target-declaration"
NAME_KEY: Final = "target"
LOCAL: Final = "local"
"""The conventional credential-free Target (and class) the repository authors; hyper ships none."""
ENV_KEY: Final = "env"


class CredentialSlot(NamedTuple):
    """One member of ``auth:``: the slot, and the variable its ``env:`` names, where legible."""

    key: Scalar
    value: Node
    env: Scalar | None
    """The ``env:`` scalar; ``None`` where the slot is not a mapping carrying one."""

    @property
    def slot(self) -> str:
        return self.key.value

    @property
    def env_name(self) -> str:
        """The variable's name, ``""`` where the slot names none."""
        return self.env.value if self.env is not None else ""


class TargetDeclaration(NamedTuple):
    file: str
    root: Node | None
    kind: Scalar | None
    name: Scalar | None
    class_: Scalar | None
    kinds: tuple[Member, ...] | None
    capabilities: tuple[Member, ...] | None
    hosts: tuple[Member, ...] | None
    """``None`` where no ``hosts:`` list is written: a Target granting no http has none."""
    opaque_destroy: Scalar | None
    auth: Node | None
    credentials: tuple[CredentialSlot, ...]
    """Every slot of a legible ``auth:`` mapping, in the declaration's own order."""
    withhold: tuple[Member, ...] | None
    """``None`` where no ``withhold:`` list is written."""

    @property
    def declared_name(self) -> str:
        return self.name.value if self.name is not None else ""

    @property
    def host_values(self) -> tuple[str, ...]:
        return tuple([item.value for _, item in self.hosts or ()])

    @property
    def kind_values(self) -> tuple[str, ...]:
        return tuple([item.value for _, item in self.kinds or ()])

    @property
    def capability_values(self) -> tuple[str, ...]:
        return tuple([item.value for _, item in self.capabilities or ()])

    @property
    def grants_opaque_destroy(self) -> bool:
        return self.opaque_destroy is not None and self.opaque_destroy.value == "true"


def _env(slot: Node) -> Scalar | None:
    """The first ``env:`` key of a slot mapping whose value is a scalar."""
    if not isinstance(slot, Map):
        return None
    for key, value in slot.entries:
        if key.value == ENV_KEY and isinstance(value, Scalar):
            return value
    return None


def read_target(file: str, root: Node | None) -> TargetDeclaration:
    """The declaration ``root`` states; never judges, never raises."""
    parts = fields(
        root, "kind", "target", "class", "kinds", "capabilities", "hosts", "opaque-destroy", "auth", "withhold"
    )
    auth = parts.get("auth")
    return TargetDeclaration(
        file=file,
        root=root,
        kind=scalar(parts.get("kind")),
        name=scalar(parts.get("target")),
        class_=scalar(parts.get("class")),
        kinds=listed(parts.get("kinds")),
        capabilities=listed(parts.get("capabilities")),
        hosts=listed(parts.get("hosts")),
        opaque_destroy=scalar(parts.get("opaque-destroy")),
        auth=auth,
        credentials=tuple([CredentialSlot(key, value, _env(value)) for key, value in auth.entries])
        if isinstance(auth, Map)
        else (),
        withhold=listed(parts.get("withhold")),
    )

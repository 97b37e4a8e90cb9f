"""The ``AUTHORITY`` table: the one relation the page assembles from more than one file.

A Definition claims Kinds and the Targets it may bind; a Target declaration accepts
Kinds. What a Step bound through the pair may reach is the intersection, and neither
file shows it alone. The artefact under review supplies one end of the relation and
that decides which pairs are rows: a Definition's own Targets, the Definitions that
name a Target, or the pairs a Procedure's Steps bind. A Manifest and ``hyper.yaml``
are in no pair, so the table is absent there rather than empty.

A cell's supply being absent and being empty are different facts: a member a Definition
that resolved does not name is ``[]`` (``—`` on the page), where a Definition that
resolved to nothing leaves the member off the row (``unresolved`` on the page).
"""

from __future__ import annotations

from hyper.artefact.repository import Repository
from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, row
from hyper.render.table import table
from hyper.review import kinds
from hyper.review.kinds import Kind
from hyper.review.nodes import named, scalar_list
from hyper.yaml.access import fields
from hyper.yaml.subset import Node, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Final

CAPTION: Final = "AUTHORITY   read from definitions/ and targets/"
COLUMNS: Final = ("DEFINITION", "TARGET", "DEFINITION KINDS", "TARGET KINDS", "EFFECTIVE", "DESTROY OPS")
NOTHING: Final = "—"
EMPTY_STATES: Final = {
    kinds.DEFINITION.wire: "this Definition names no Target",
    kinds.TARGET.wire: "no Definition names this Target",
    kinds.PROCEDURE.wire: "no Step pairs a Definition with a Target",
}


class Claim(NamedTuple):
    """What a Definition states: its Kinds, its ``destroy:`` Operations, its Targets, as written."""

    kinds: tuple[str, ...]
    destroy: tuple[str, ...]
    targets: tuple[str, ...]

    @property
    def claimed(self) -> list[str]:
        """``kinds:`` as written, with ``destroy`` added where ``destroy:`` names any Operation."""
        claimed = list(self.kinds)
        if self.destroy and "destroy" not in claimed:
            claimed.append("destroy")
        return claimed


def read_claim(root: Node | None) -> Claim:
    parts = fields(root, "kinds", "destroy", "targets")
    return Claim(*(scalar_list(parts.get(key)) or () for key in ("kinds", "destroy", "targets")))


def read_accepted(root: Node | None) -> tuple[str, ...]:
    return scalar_list(fields(root, "kinds").get("kinds")) or ()


class Pairing(NamedTuple):
    definition: str
    target: str
    definition_kinds: list[str] | None
    target_kinds: list[str] | None
    effective: list[str] | None
    destroy_operations: list[str] | None

    def to_row(self) -> Row:
        return row(
            "authority",
            definition=self.definition,
            target=self.target,
            definition_kinds=self.definition_kinds,
            target_kinds=self.target_kinds,
            effective=self.effective,
            destroy_operations=self.destroy_operations,
        )

    def cells(self) -> list[str]:
        effective = None if self.effective is None else [kind[:1] for kind in self.effective]
        return [
            self.definition,
            self.target,
            _cell(self.definition_kinds),
            _cell(self.target_kinds),
            _cell(effective),
            _cell(self.destroy_operations),
        ]


def _cell(members: Sequence[str] | None) -> str:
    if members is None:
        return "unresolved"
    return " ".join(members) if members else NOTHING


class Table(NamedTuple):
    renders: bool
    pairings: tuple[Pairing, ...] = ()
    not_loaded: int = 0
    """Definitions whose file would not load: rows a Target's table cannot discover."""


def authority_of(kind: Kind, root: Node | None, name: str, repo: Repository) -> Table:
    claims = {named: read_claim(loaded.root) for named, loaded in repo.definitions.items()}
    accepted = {named: declaration.kind_values for named, declaration in repo.targets.items()}
    if kind is kinds.DEFINITION:
        claim = read_claim(root)
        claims[name] = claim
        return Table(True, _rows([(name, target) for target in claim.targets], claims, accepted))
    if kind is kinds.TARGET:
        accepted[name] = read_accepted(root)
        pairs = [(definition, name) for definition, claim in claims.items() if name and name in claim.targets]
        broken = sum(1 for loaded in repo.files if not loaded.ok and loaded.directory == "definitions")
        return Table(True, _rows(pairs, claims, accepted), broken)
    if kind is kinds.PROCEDURE:
        return Table(True, _rows(_bound_pairs(root), claims, accepted))
    return Table(False)


def _bound_pairs(root: Node | None) -> list[tuple[str, str]]:
    steps = fields(root, "steps").get("steps")
    pairs: list[tuple[str, str]] = []
    for entry in steps.items if isinstance(steps, Seq) else ():
        parts = fields(entry, "definition", "target")
        definition, target = named(parts.get("definition")), named(parts.get("target"))
        if definition is not None and target is not None:
            pairs.append((definition, target))
    return pairs


def _rows(
    pairs: Sequence[tuple[str, str]], claims: Mapping[str, Claim], accepted: Mapping[str, tuple[str, ...]]
) -> tuple[Pairing, ...]:
    rows = [_pairing(definition, target, claims, accepted) for definition, target in dict.fromkeys(pairs)]
    return tuple(sorted(rows, key=lambda pairing: (pairing.target, pairing.definition)))


def _pairing(
    definition: str, target: str, claims: Mapping[str, Claim], accepted: Mapping[str, tuple[str, ...]]
) -> Pairing:
    claim = claims.get(definition)
    grant = accepted.get(target)
    claimed = claim.claimed if claim is not None else None
    granted = list(grant) if grant is not None else None
    effective = None
    if claimed is not None and granted is not None:
        effective = list(dict.fromkeys(kind for kind in claimed if kind in granted))
    return Pairing(
        definition,
        target,
        claimed,
        granted,
        effective,
        list(claim.destroy) if claim is not None else None,
    )


def block(kind: Kind, authority: Table) -> list[str]:
    """The table's lines on the page, each indented into the screen; none where it does not render."""
    if not authority.renders:
        return []
    lines = ["", f"  {CAPTION}"]
    if authority.pairings:
        rendered = table([list(COLUMNS), *(pairing.cells() for pairing in authority.pairings)], indent="  ")
        lines.extend(rendered.rstrip("\n").split("\n"))
    else:
        lines.append(f"  {EMPTY_STATES[kind.wire]}")
    if authority.not_loaded:
        noun = "definition" if authority.not_loaded == 1 else "definitions"
        lines.append(f"  {authority.not_loaded} {noun} would not load · hyper check")
    return lines

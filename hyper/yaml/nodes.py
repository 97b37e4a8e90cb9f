"""The tree an artefact file is read into: scalars, sequences and mappings with their positions.

Every value is a string with the style it was written in — the authoring format reads
meaning off the schema at a node's position, never off YAML's implicit typing — and
every node carries the 1-based line and column of its first character, so a problem
can always cite where it is.

These are NamedTuples (:mod:`hyper.core.namedtuple`) rather than attrs classes because reading YAML sits
on the start-up path of every command that loads an artefact (ADR 0006). One caveat
comes with tuples: two nodes of different kinds with equal members compare equal as
tuples (an empty flow ``Seq`` and an empty flow ``Map`` at one position), so code that
tells nodes apart uses ``isinstance``, never ``==`` alone.
"""

from typing import Literal, TypeAlias

from hyper.core.namedtuple import NamedTuple
from hyper.core.problem import Problem

ERROR_CODE = "strict-yaml-violation"
"""The one error code a YAML fault is reported under."""

Style = Literal["plain", "single", "double", "literal", "folded"]


class Scalar(NamedTuple):
    value: str
    style: Style
    line: int
    column: int

    @property
    def plain(self) -> bool:
        return self.style == "plain"


class Seq(NamedTuple):
    items: tuple["Node", ...]
    line: int
    column: int
    flow: bool


class Map(NamedTuple):
    entries: tuple[tuple[Scalar, "Node"], ...]
    line: int
    column: int
    flow: bool

    def get(self, key: str) -> "tuple[Scalar, Node] | None":
        """The entry named ``key``; where a (refused) duplicate names it twice, the later one."""
        found: tuple[Scalar, Node] | None = None
        for entry in self.entries:
            if entry[0].value == key:
                found = entry
        return found

    def value(self, key: str) -> "Node | None":
        entry = self.get(key)
        return None if entry is None else entry[1]

    def scalar(self, key: str) -> Scalar | None:
        """The value under ``key`` where it is a scalar, else ``None``."""
        node = self.value(key)
        return node if isinstance(node, Scalar) else None

    def keys(self) -> tuple[str, ...]:
        return tuple(key.value for key, _ in self.entries)


Node: TypeAlias = Scalar | Seq | Map


class YamlFault(NamedTuple):
    """One construct outside the subset, or a file that is not YAML at all."""

    file: str
    line: int
    column: int
    message: str
    field: str = ""
    """The dotted/indexed path to the node, where the fault sits inside the tree."""

    def to_problem(self) -> Problem:
        return Problem(
            file=self.file,
            line=self.line,
            column=self.column,
            field=self.field,
            error_code=ERROR_CODE,
            message=self.message,
        )


class Parsed(NamedTuple):
    """A file read in full: its tree where it parsed, and every fault found on the way.

    ``ok`` is false only where the file is not YAML at all: then ``root`` is ``None``
    and ``faults`` holds that one fault, and no later check should read the file.
    Where ``ok`` is true, ``root`` is ``None`` for an empty file (zero documents is
    valid YAML — whether it is a valid artefact is the schema's question).
    """

    root: Node | None
    faults: tuple[YamlFault, ...]
    ok: bool

"""The tree an artefact file is read into: scalars, sequences and mappings with their positions.

Every value is a string with the style it was written in — the authoring format reads
meaning off the schema at a node's position, never off YAML's implicit typing — and
every node carries the 1-based line and column of its first character, so a problem
can always cite where it is.

They are tuples with named fields rather than attrs classes because reading YAML sits
on the start-up path of every command that loads an artefact (ADR 0006), and rather than
NamedTuples because the reader builds one for every key and value it reads: a tuple
subclass built by tuple's own constructor, ``Scalar((value, style, line, column))``, costs
less than half of a NamedTuple's Python-level ``__new__`` (ADR 0027). One caveat comes
with tuples: two nodes of different kinds with equal members compare equal as
tuples (an empty flow ``Seq`` and an empty flow ``Map`` at one position), so code that
tells nodes apart uses ``isinstance``, never ``==`` alone.
"""

from __future__ import annotations

from operator import itemgetter

from hyper.core.namedtuple import FAST, NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Any, Literal, TypeAlias, TypeVar

    from hyper.core.problem import Problem

if FAST:  # the getter collections.namedtuple uses, on the CPythons hyper.core.namedtuple gates
    from _collections import _tuplegetter  # type: ignore[import-not-found]
else:

    def _tuplegetter(index: int, doc: str | None) -> Any:
        """The standard form of a field getter, wherever CPython's own is not trusted."""
        return property(itemgetter(index), doc=doc)


ERROR_CODE = "strict-yaml-violation"
"""The one error code a YAML fault is reported under."""

Style: TypeAlias = 'Literal["plain", "single", "double", "literal", "folded"]'

if TYPE_CHECKING:
    _T = TypeVar("_T", bound=type)


def named(cls: _T) -> _T:
    """Name a tuple subclass's fields after its annotations, in order, each read by index,
    and show it as a NamedTuple shows itself."""
    fields = tuple(cls.__annotations__)
    for index, name in enumerate(fields):
        setattr(cls, name, _tuplegetter(index, f"Field {index}: {name}"))

    def __repr__(self: tuple[Any, ...]) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(fields, self, strict=True))
        return f"{cls.__name__}({shown})"

    cls.__repr__ = __repr__  # type: ignore[assignment]
    return cls


@named
class Scalar(tuple[str, Style, int, int]):
    __slots__ = ()
    value: str
    style: Style
    line: int
    column: int

    @property
    def plain(self) -> bool:
        return self.style == "plain"


@named
class Seq(tuple[tuple["Node", ...], int, int, bool]):
    __slots__ = ()
    items: tuple[Node, ...]
    line: int
    column: int
    flow: bool


@named
class Map(tuple[tuple[tuple[Scalar, "Node"], ...], int, int, bool]):
    __slots__ = ()
    entries: tuple[tuple[Scalar, Node], ...]
    line: int
    column: int
    flow: bool

    def get(self, key: str) -> tuple[Scalar, Node] | None:
        """The entry named ``key``; where a (refused) duplicate names it twice, the later one."""
        for entry in reversed(self.entries):  # the later first, so the search stops there
            if entry[0].value == key:
                return entry
        return None

    def value(self, key: str) -> Node | None:
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
        from hyper.core.problem import Problem  # deferred: a file inside the subset never makes one

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

"""A Procedure: an ordered list of ``steps:`` plus an authored Target envelope.

A ``steps:`` entry is one of three shapes, told apart by the keys it carries:

* a **Step** — ``id``, ``definition``, ``operation``, ``target``, and optionally
  ``args``, ``over``, ``bound``, ``when``: one Operation through one Definition
  against one Target;
* a nested **Invocation** — ``id`` and ``procedure``: composition is by invoking,
  and an invoked Procedure's Steps are not referenceable from its caller;
* a **Requirement** — ``id`` and ``require``: a predicate over an earlier Step's
  Record that halts the Run where it does not hold, binding and invoking nothing.

An entry mixing the shapes is none of them (a shape fault, reported once), and reads
as :class:`Conflicted` so no later rule guesses which one was meant.

Values inside a Step are typed where the format closes them — the three ``over:``
forms, the eleven predicate operators, the two reference forms — and every value
keeps its node so a rule cites the exact line.
"""

from __future__ import annotations

from hyper.artefact.operators import OPERATOR_NAMES
from hyper.artefact.operators import OPERATORS as OPERATORS
from hyper.core.namedtuple import NamedTuple
from hyper.yaml.access import fields, member, scalar, scalars
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final, Literal

KIND: Final = "procedure"
NAME_KEY: Final = "procedure"

BINDING_KEYS: Final = ("definition", "operation", "target")

OVER_FORMS: Final = ("assets", "observations", "values")
"""The closed ``over:`` selector forms."""


class Step(NamedTuple):
    # Shadows tuple.index, which nothing calls on an entry; the name is the entry's API.
    index: int  # type: ignore[assignment]
    entry: Map
    id: Scalar | None
    definition: Scalar | None
    operation: Scalar | None
    target: Scalar | None
    args: Node | None
    over: Node | None
    bound: Node | None
    when: Node | None
    field: str
    """``steps[i]``, spelled once as the Step is read: nearly every rule over it cites it."""
    values: Seq | None
    """The ``over: values:`` list where both are present and well-shaped; found once, as
    ``field`` is, for the several rules that ask."""

    def arg(self, name: str) -> Node | None:
        return member(self.args, name)

    @property
    def bound_value(self) -> int | None:
        """The Bound where it reads as an integer; ``None`` where absent or illegible."""
        if not isinstance(self.bound, Scalar):
            return None
        try:
            return int(self.bound.value)
        except ValueError:
            return None


class Invocation(NamedTuple):
    index: int  # type: ignore[assignment]
    entry: Map
    id: Scalar | None
    procedure: Node

    @property
    def field(self) -> str:
        return f"steps[{self.index}]"

    @property
    def callee(self) -> Scalar | None:
        return self.procedure if isinstance(self.procedure, Scalar) else None


class Requirement(NamedTuple):
    index: int  # type: ignore[assignment]
    entry: Map
    id: Scalar | None
    require: Node

    @property
    def field(self) -> str:
        return f"steps[{self.index}]"


class Conflicted(NamedTuple):
    """An entry carrying keys of two shapes; it is reported and read no further."""

    index: int  # type: ignore[assignment]
    entry: Map
    with_: Literal["procedure", "require"]
    """The key that clashes with the rest: an invocation's or a requirement's."""

    @property
    def field(self) -> str:
        return f"steps[{self.index}]"


Entry = Step | Invocation | Requirement | Conflicted


class Procedure(NamedTuple):
    file: str
    name: Scalar | None
    targets: tuple[tuple[int, Scalar], ...]
    cadence: Node | None
    entries: tuple[Entry, ...]
    target_names: frozenset[str]
    """The declared envelope as written, whether or not each name resolves: made once as the
    Procedure is read, for its own rules and the graph's."""

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple([e for e in self.entries if isinstance(e, Step)])


def read_entry(index: int, entry: Map) -> Entry:
    # Every key by name, the later where one is written twice (as :func:`fields` reads them): an
    # entry holds about as many keys as the shapes name, so one pass over them all is cheaper than
    # asking which of the ten names each one is, and a key no shape names is never looked up.
    parts = {key.value: value for key, value in entry.entries}
    binds = any(key in parts for key in BINDING_KEYS)
    if "require" in parts:
        if binds or "procedure" in parts:
            return Conflicted(index, entry, "require")
        return Requirement(index, entry, scalar(parts.get("id")), parts["require"])
    if "procedure" in parts:
        if binds:
            return Conflicted(index, entry, "procedure")
        return Invocation(index, entry, scalar(parts.get("id")), parts["procedure"])
    over = parts.get("over")
    values = member(over, "values")
    return Step(
        index=index,
        entry=entry,
        id=scalar(parts.get("id")),
        definition=scalar(parts.get("definition")),
        operation=scalar(parts.get("operation")),
        target=scalar(parts.get("target")),
        args=parts.get("args"),
        over=over,
        bound=parts.get("bound"),
        when=parts.get("when"),
        field=f"steps[{index}]",
        values=values if isinstance(values, Seq) else None,
    )


def read(file: str, root: Node | None) -> Procedure:
    parts = fields(root, "procedure", "targets", "cadence", "steps")
    steps = parts.get("steps")
    entries: list[Entry] = []
    if isinstance(steps, Seq):
        entries = [read_entry(i, item) for i, item in enumerate(steps.items) if isinstance(item, Map)]
    targets = scalars(parts.get("targets"))
    return Procedure(
        file=file,
        name=scalar(parts.get("procedure")),
        targets=targets,
        cadence=parts.get("cadence"),
        entries=tuple(entries),
        target_names=frozenset([item.value for _, item in targets]),
    )


class Reference(NamedTuple):
    """A value-position mapping read as one of the two reference forms.

    ``{step: <earlier id>, path: <path>}`` reads one field of an earlier Step's Record;
    ``{item: <path>}`` reads the Expansion member in hand. Any other mapping written
    where a value goes is ``malformed`` — a reference attempted and not achieved.
    """

    node: Map
    form: Literal["step", "item", "malformed"]
    step: str = ""
    path: str = ""


def read_reference(node: Node | None) -> Reference | None:
    """The reference ``node`` spells; ``None`` where it is a literal (no mapping at all)."""
    if not isinstance(node, Map):
        return None
    parts = fields(node, "step", "path", "item")
    step, path, item = parts.get("step"), parts.get("path"), parts.get("item")
    if isinstance(step, Scalar) and isinstance(path, Scalar) and item is None and len(node.entries) == 2:
        return Reference(node, "step", step.value, path.value)
    if isinstance(item, Scalar) and step is None and path is None and len(node.entries) == 1:
        return Reference(node, "item", path=item.value)
    return Reference(node, "malformed")


def holds_item_reference(node: Node | None) -> bool:
    """Whether an ``{item:}`` reference stands in an args: value, or in any member of a list."""
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, Seq):
            pending.extend(current.items)
            continue
        reference = read_reference(current)
        if reference is not None and reference.form == "item":
            return True
    return False


class Predicate(NamedTuple):
    """One predicate: ``field:``, exactly one operator, and ``step:`` at a condition root."""

    node: Map
    field: Scalar | None
    step: Scalar | None
    operators: tuple[tuple[Scalar, Node], ...]
    """Every operator key written, in order — more than one is itself a fault."""


def read_predicate(node: Node | None) -> Predicate | None:
    if not isinstance(node, Map):
        return None
    parts = fields(node, "field", "step")
    return Predicate(
        node=node,
        field=scalar(parts.get("field")),
        step=scalar(parts.get("step")),
        operators=tuple([(key, value) for key, value in node.entries if key.value in OPERATOR_NAMES]),
    )

"""The facts a direction is read off: what each artefact states, subject by subject, with its lines.

They are the facts an artefact writes in its own lines and nothing resolved elsewhere,
because the baseline is the same file at an earlier revision: a Procedure's envelope,
Cadence and, per Step, the Target, selector and Bound; a Definition's Kinds, Targets
and ``destroy:`` Operations; a Target declaration's Kinds and each credential slot's
variable (the name, never a value); a Manifest's Capabilities and the Operations it
exposes. ``hyper.yaml`` states none: its pin and retention move lines, not facts.

A fact the artefact does not write has no lines and the empty value — an absent
``bound:`` is unbounded, an absent ``cadence:`` no recurrence — which a row renders
as ``–``. Sets are compared and shown sorted by code point, so a reordered list moves
no fact; a ``values:`` selector keeps its written order, which is the fact.
"""

from __future__ import annotations

from hyper.artefact.operators import OPERATORS  # the closed set, in its own order
from hyper.core.namedtuple import NamedTuple
from hyper.review import kinds
from hyper.review.kinds import Kind
from hyper.review.nodes import env_variable, key_line, root_line, scalar_list, scalar_text
from hyper.yaml.access import fields
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Literal, TypeAlias

Shape: TypeAlias = 'Literal["set", "bound", "scalar", "cadence", "selector"]'
"""How a fact is compared. ``set`` by inclusion: a direction where one side contains the other;
``bound`` as a number, absence reading as unbounded; the rest as written. Strings the checker
holds to these five, not an ``enum.Enum``: defining one cost a review's start-up about 0.9M
instructions (ADR 0006), and mypy's strict equality and exhaustiveness hold a literal the same way."""


class Fact(NamedTuple):
    key: str
    """The key it is written at, or ``credential <slot>``."""
    step: str
    """The Step it belongs to; ``""`` where the subject is the artefact."""
    subject_line: int
    lines: tuple[int, ...]
    shape: Shape
    members: tuple[str, ...] = ()
    value: str = ""
    node: Node | None = None
    """A selector's ``over:`` value as authored, for a surface that carries its shape whole."""

    @property
    def written(self) -> bool:
        return bool(self.lines)

    def same(self, other: Fact) -> bool:
        return self.value == other.value and self.members == other.members


def facts_of(kind: Kind, root: Node | None) -> list[Fact]:
    if not isinstance(root, Map):
        return []
    opens = root_line(root)
    if kind is kinds.PROCEDURE:
        return _procedure(root, opens)
    if kind is kinds.DEFINITION:
        return _keyed_sets(root, opens, "kinds", "targets", "destroy")
    if kind is kinds.TARGET:
        return [*_keyed_sets(root, opens, "kinds"), *_credentials(root, opens)]
    if kind is kinds.MANIFEST:
        return [*_keyed_sets(root, opens, "capabilities"), _operations(root, opens)]
    return []


def _sorted_set(members: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(set(members)))


def _keyed_sets(root: Map, opens: int, *keys: str) -> list[Fact]:
    parts = fields(root, *keys)
    facts: list[Fact] = []
    for key in keys:
        line = key_line(root, key)
        if not line:
            facts.append(Fact(key, "", opens, (), "set"))
            continue
        value = parts.get(key)
        facts.append(Fact(key, "", opens, _member_lines(line, value), "set", _sorted_set(scalar_list(value) or ())))
    return facts


def _member_lines(key: int, value: Node | None) -> tuple[int, ...]:
    lines = {key}
    lines.update(child.line for child in _children(value))
    return tuple(sorted(lines))


def _children(node: Node | None) -> Iterator[Node]:
    """A node's direct content as the YAML tree holds it: a mapping's keys and values alike."""
    if isinstance(node, Seq):
        yield from node.items
    elif isinstance(node, Map):
        for key, value in node.entries:
            yield key
            yield value


def _subtree_lines(key: int, value: Node | None) -> tuple[int, ...]:
    lines = {key}
    pending = [] if value is None else [value]
    while pending:
        node = pending.pop()
        lines.add(node.line)
        pending.extend(_children(node))
    return tuple(sorted(lines))


def _scalar_lines(key: int, value: Node | None) -> tuple[int, ...]:
    if value is None or value.line == key:
        return (key,)
    return tuple(sorted({key, value.line}))


def _procedure(root: Map, opens: int) -> list[Fact]:
    facts = _keyed_sets(root, opens, "targets")
    line = key_line(root, "cadence")
    declared = fields(root, "cadence").get("cadence")
    if line:
        facts.append(Fact("cadence", "", opens, _scalar_lines(line, declared), "cadence", (), scalar_text(declared)))
    else:
        facts.append(Fact("cadence", "", opens, (), "cadence"))
    steps = fields(root, "steps").get("steps")
    for entry in steps.items if isinstance(steps, Seq) else ():
        if not isinstance(entry, Map):
            continue
        step_id = scalar_text(fields(entry, "id").get("id"))
        if not step_id or entry.get("procedure") is not None:
            continue
        facts.append(_step_scalar(entry, step_id, "target", "scalar"))
        facts.append(_step_scalar(entry, step_id, "bound", "bound"))
        facts.append(_selector(entry, step_id))
    return facts


def _first(entry: Map, name: str) -> tuple[Scalar, Node] | None:
    for key, value in entry.entries:
        if key.value == name:
            return key, value
    return None


def _step_scalar(entry: Map, step_id: str, key: str, shape: Shape) -> Fact:
    written = _first(entry, key)
    if written is None:
        return Fact(key, step_id, entry.line, (), shape)
    return Fact(
        key, step_id, entry.line, _scalar_lines(written[0].line, written[1]), shape, (), scalar_text(written[1])
    )


def _selector(entry: Map, step_id: str) -> Fact:
    written = _first(entry, "over")
    if written is None:
        return Fact("over", step_id, entry.line, (), "selector")
    key, over = written
    form, members = read_selector(over)
    return Fact("over", step_id, entry.line, _subtree_lines(key.line, over), "selector", members, form, over)


def read_selector(over: Node | None) -> tuple[str, tuple[str, ...]]:
    """The selector's form, and its members: ``values:`` as authored, predicates one line each, sorted."""
    forms = fields(over, "assets", "observations", "values")
    if "values" in forms:
        return "values", scalar_list(forms["values"]) or ()
    for form in ("assets", "observations"):
        if form in forms:
            return form, tuple(_predicate(conjunct) for conjunct in conjuncts(over))
    return "", ()


def conjuncts(over: Node | None) -> tuple[Node, ...]:
    """A predicate selector's readable conjuncts, ordered by their one-line rendering — the
    order its members take, so a reordering alone moves nothing."""
    forms = fields(over, "assets", "observations")
    for form in ("assets", "observations"):
        if form in forms:
            readable = [conjunct for conjunct in _children(forms[form]) if _predicate(conjunct)]
            return tuple(sorted(readable, key=_predicate))
    return ()


def _predicate(conjunct: Node) -> str:
    """One conjunct as ``field operator operand``; nothing where it cannot be read whole."""
    if not isinstance(conjunct, Map):
        return ""

    parts = fields(conjunct, "field", *OPERATORS)
    field = scalar_text(parts.get("field"))
    if not field:
        return ""
    for operator in OPERATORS:
        if operator not in parts:
            continue
        if operator in ("exists", "absent"):
            return f"{field} {operator}"
        operand = parts[operator]
        written = f"[{', '.join(scalar_list(operand) or ())}]" if isinstance(operand, Seq) else scalar_text(operand)
        return f"{field} {operator} {written}".rstrip(" ")
    return ""


def _credentials(root: Map, opens: int) -> list[Fact]:
    auth = fields(root, "auth").get("auth")
    if not isinstance(auth, Map):
        return []
    return [
        Fact(
            f"credential {slot.value}",
            "",
            opens,
            _subtree_lines(slot.line, value),
            "scalar",
            (),
            env_variable(value),
        )
        for slot, value in auth.entries
    ]


def _operations(root: Map, opens: int) -> Fact:
    line = key_line(root, "operations")
    if not line:
        return Fact("operations", "", opens, (), "set")
    operations = fields(root, "operations").get("operations")
    keys = [key for key, _ in operations.entries] if isinstance(operations, Map) else []
    lines = tuple(sorted({line, *(key.line for key in keys)}))
    return Fact("operations", "", opens, lines, "set", _sorted_set(tuple(key.value for key in keys)))

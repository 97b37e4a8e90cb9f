"""A Step's Expansion: ``over:`` resolved to the members it will act on, and the checks that
decide before the first call goes out — which is what makes every decline here a Refusal
rather than a halt.

The order is one a reviewer can predict: a ``values:`` list top-first as authored; an
``assets:`` or ``observations:`` selector by Record name in code-point order (the name
the Store holds, never its escaped path segment). A selector reads Heads only, a
Tombstone Head stands for nothing, and the predicate list is an AND evaluated whole —
no conjunct short-circuits another, so whether a Run Refuses never depends on the order
two conjuncts were written in.

A Step with no ``over:`` makes one call: an Expansion of one member with no name.
"""

from __future__ import annotations

import datetime as _dt

from hyper.capability.predicate import exact, read_test
from hyper.core.namedtuple import NamedTuple
from hyper.run.arguments import Member
from hyper.store import reading
from hyper.store.branch import Store
from hyper.store.canonical import Value
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Any


FORMS = ("values", "assets", "observations")


class Selector(NamedTuple):
    form: str
    """``values``, ``assets`` or ``observations``; ``""`` where the Step carries no ``over:``."""
    node: Node | None
    body: Node | None


class Mismatch(NamedTuple):
    """A predicate handed a stored value it cannot compare, on one candidate series."""

    message: str
    line: int
    field: str


def read_selector(over: Node | None) -> Selector:
    if not isinstance(over, Map):
        return Selector("", over, None)
    for key, value in over.entries:
        if key.value in FORMS:
            return Selector(key.value, over, value)
    return Selector("", over, None)


def as_stored(node: Node) -> Value:
    """An authored node as the canonical value a Step file holds it in: a plain scalar by the
    type YAML 1.2's core schema gives its spelling, so ``bound: 5`` is a number in the entry
    and ``starts_with: preview-`` a string."""
    if isinstance(node, Map):
        return {key.value: as_stored(value) for key, value in node.entries}
    if isinstance(node, Seq):
        return [as_stored(item) for item in node.items]
    if node.plain:
        if node.value in ("true", "True", "TRUE", "false", "False", "FALSE"):
            return node.value.lower() == "true"
        number = exact(node.value)
        if number is not None and node.value.lstrip("+-")[:1].isdigit():
            return number.numerator if number.denominator == 1 and "." not in node.value else float(node.value)
    return node.value


def members(
    store: Store, selector: Selector, target: str, definition: str, instant: _dt.datetime, field: str
) -> tuple[list[Member], list[Mismatch]]:
    if selector.form == "":
        return [Member("")], []
    if selector.form == "values":
        items = selector.body.items if isinstance(selector.body, Seq) else ()
        return [Member(item.value, item=item.value) for item in items if isinstance(item, Scalar)], []
    wanted = "asset" if selector.form == "assets" else "observation"
    tests = []
    if isinstance(selector.body, Seq):
        for index, entry in enumerate(selector.body.items):
            test = read_test(entry)
            if test is not None:
                tests.append((index, test))
    found: list[Member] = []
    declined: list[Mismatch] = []
    for series in reading.records(store):
        identity = series.identity
        head = series.head
        if identity.target != target or identity.definition != definition or head is None:
            continue
        if head.metadata.record_type != wanted or head.metadata.tombstone:
            continue
        fields: dict[str, Any] = dict(reading.read(store, head).fields or {})
        holds = True
        for index, test in tests:
            held, mismatch = test.holds(fields, instant)
            if mismatch:
                declined.append(
                    Mismatch(
                        f"on {identity.name}, {mismatch}",
                        test.line,
                        f"{field}.over.{selector.form}[{index}].{test.operator}",
                    )
                )
            holds = holds and held
        if holds:
            found.append(Member(identity.name, head=fields))
    if declined:
        return [], declined  # a predicate that could not compare resolved no set
    found.sort(key=lambda member: member.name)
    return found, []

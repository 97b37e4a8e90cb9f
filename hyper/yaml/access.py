"""Reading parsed YAML nodes the way every rule does: leniently, and citing positions.

A rule reads only the keys it is about and treats anything absent or misshapen as
"nothing here" — the shape fault is the schema's to report, once, so a rule that
tripped over it too would put two rows on one line for one cause.
"""

from __future__ import annotations

from hyper.core.quote import quote as quote  # the rules quote values through this module
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterator

    from hyper.core.problem import Problem


def fields(node: Node | None, *names: str) -> dict[str, Node]:
    """The values of ``names`` among a mapping's own keys; empty where ``node`` is no mapping.

    A key written twice (itself a ``strict-yaml-violation``) reads as its later value,
    as :meth:`Map.get` reads it, so every reader agrees on which one counts.
    """
    if not isinstance(node, Map):
        return {}
    found: dict[str, Node] = {}
    for key, value in node.entries:
        name = key.value
        if name in names:  # a few names: a tuple is searched faster than a set is built
            found[name] = value
    return found


def member(node: Node | None, name: str) -> Node | None:
    """The value of one key of a mapping (the later, where it is written twice); ``None`` otherwise."""
    if not isinstance(node, Map):
        return None
    for key, value in reversed(node.entries):  # the later first, so the search stops there
        if key.value == name:
            return value
    return None


def scalar(node: Node | None) -> Scalar | None:
    return node if isinstance(node, Scalar) else None


def text(node: Node | None) -> str | None:
    """A scalar's text, ``None`` where the node is absent or not a scalar."""
    return node.value if isinstance(node, Scalar) else None


def scalars(node: Node | None) -> tuple[tuple[int, Scalar], ...]:
    """A sequence's scalar members with their indices; empty where ``node`` is no sequence."""
    if not isinstance(node, Seq):
        return ()
    return tuple([(i, item) for i, item in enumerate(node.items) if isinstance(item, Scalar)])


def descend(node: Node | None, field: str = "") -> Iterator[tuple[str, Node]]:
    """Every node under ``node`` (itself first) with its field path, depth-first in document order.

    Iterative, so a file nested as deep as the YAML parser admits is walked without
    exhausting the interpreter's stack.
    """
    stack: list[tuple[str, Node]] = [] if node is None else [(field, node)]
    while stack:
        here, current = stack.pop()
        yield here, current
        if isinstance(current, Map):
            stack.extend((join(here, key.value), value) for key, value in reversed(current.entries))
        elif isinstance(current, Seq):
            stack.extend((f"{here}[{i}]", item) for i, item in reversed(list(enumerate(current.items))))


def position(node: Node | None) -> tuple[int, int]:
    """Where a row about ``node`` points; the file itself (1:1) when there is no node."""
    if node is None:
        return 1, 1
    return node.line, node.column


def join(field: str, name: str) -> str:
    return name if not field else f"{field}.{name}"


def at(file: str, node: Node | None, field: str, code: str, message: str) -> Problem:
    line, column = position(node)
    from hyper.core.problem import Problem  # deferred: a file that breaks no rule never makes one

    return Problem(file=file, line=line, column=column, field=field, error_code=code, message=message)

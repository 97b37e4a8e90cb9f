"""The predicate rules every root shares: a selector, a condition, a requirement, a polling ``until:``.

A predicate is ``field:`` plus exactly one of eleven operators, each taking a closed
set of operand types. The faults here are the ones an author writes and no Store is
needed to see: an operand of the wrong type, and a predicate whose truth cannot
depend on the value at all (``exists: false``, an empty ``starts_with:``, an ``in:``
of fewer than two members) — the second kind matters most on a ``destroy``
selector, where it reads like a filter and filters nothing.

What ``field:`` may name differs by root and is each root's own rule; this module
answers the ``field:`` and ``step:`` nodes so the caller can apply it.
"""

from __future__ import annotations

from hyper.artefact.operators import OPERATOR_NAMES
from hyper.artefact.procedure import OPERATORS, Predicate, read_predicate
from hyper.check import codes
from hyper.check.schema import Type, reads_as
from hyper.core.problem import Problem
from hyper.yaml.access import at, join, quote
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

_ORDERED: Final[tuple[Type, ...]] = ("integer", "number", "duration")
_TEMPORAL: Final[tuple[Type, ...]] = ("duration", "timestamp")
_CATEGORIES: Final[tuple[Type, ...]] = ("boolean", "timestamp", "duration")


def exactly_one_of(file: str, field: str, node: Node | None, keys: tuple[str, ...]) -> list[Problem]:
    """``schema-mismatch`` where ``node`` carries none, or more than one, of ``keys``."""
    present = sum(1 for key, _ in node.entries if key.value in keys) if isinstance(node, Map) else 0
    if present == 1:
        return []
    written = "none" if present == 0 else f"{present}"
    return [
        at(
            file,
            node,
            field,
            codes.SCHEMA_MISMATCH,
            f"{field} takes exactly one of {', '.join(keys)}, and {written} are written here",
        )
    ]


def one_form(file: str, field: str, node: Map, forms: tuple[str, ...], noun: str) -> list[Problem]:
    """A mapping told apart by the one key of ``forms`` it writes: exactly one, and nothing beside it.

    ``auth:`` (its schemes) and ``over:`` (its selector forms) are both such unions, and
    an author who writes a key outside the set is told the whole set, so the sentence
    is built from ``forms`` rather than written at each union.
    """
    problems = exactly_one_of(file, field, node, forms)
    strays = [key for key, _ in node.entries if key.value not in forms]
    if not strays:
        return problems  # the sentence is built only where some key needs it
    name = field.rsplit(".", 1)[-1]
    listed = ", ".join(f"{form}:" for form in forms[:-1]) + f" or {forms[-1]}:"
    return problems + [
        at(
            file,
            key,
            join(field, key.value),
            codes.UNKNOWN_KEY,
            f"{quote(key.value)} is not {noun} — {name}: takes {listed}",
        )
        for key in strays
    ]


def core(file: str, field: str, node: Node | None, allow_step: bool) -> tuple[list[Problem], Predicate | None]:
    """The shape and operand rules of one predicate, whatever its root."""
    predicate = read_predicate(node)
    if predicate is None:
        return [at(file, node, field, codes.SCHEMA_MISMATCH, "a predicate is a mapping: field: and one operator")], None
    problems: list[Problem] = []
    for key, _ in predicate.node.entries:
        if key.value == "field" or key.value in OPERATOR_NAMES or (allow_step and key.value == "step"):
            continue
        if key.value == "step":
            message = "step: belongs to a condition or a requirement; this predicate roots elsewhere"
        else:
            message = f"{quote(key.value)} is not a key of a predicate — field:, one operator, and no disjunction"
        problems.append(at(file, key, join(field, key.value), codes.UNKNOWN_KEY, message))
    if predicate.field is None:
        problems.append(
            at(
                file,
                predicate.node,
                join(field, "field"),
                codes.SCHEMA_MISMATCH,
                '"field" is required at this position and is not written',
            )
        )
    if len(predicate.operators) != 1:  # the operators are the keys exactly_one_of would count
        problems.extend(exactly_one_of(file, field, predicate.node, OPERATORS))
    for key, value in predicate.operators:
        problems.extend(_operand(file, join(field, key.value), key.value, value))
    return problems, predicate


def _operand(file: str, field: str, operator: str, value: Node) -> list[Problem]:
    if operator in ("equals", "not_equals"):
        return _scalar_operand(file, field, operator, value, ())
    if operator == "in":
        return _in_operand(file, field, value)
    if operator in ("exists", "absent"):
        if isinstance(value, Scalar) and value.value == "true":
            return []
        return _mistyped(
            file, value, field, f"{operator}: takes true and nothing else — the negation is the other operator's name"
        )
    if operator in ("starts_with", "ends_with"):
        if isinstance(value, Scalar) and value.value != "":
            return []
        return _mistyped(
            file,
            value,
            field,
            f"{operator}: takes a non-empty string — an empty one matches every value and filters nothing",
        )
    if operator in ("greater_than", "less_than"):
        return _scalar_operand(file, field, operator, value, _ORDERED)
    return _scalar_operand(file, field, operator, value, _TEMPORAL)


def _scalar_operand(file: str, field: str, operator: str, value: Node, allowed: tuple[Type, ...]) -> list[Problem]:
    """A literal scalar readable as one of ``allowed`` (any scalar where ``allowed`` is empty)."""
    if not isinstance(value, Scalar):
        return _mistyped(
            file, value, field, f"{operator}: takes one literal scalar — a list, a mapping or a reference is no operand"
        )
    if not allowed or any(reads_as(t, value.value) for t in allowed):
        return []
    return _mistyped(
        file, value, field, f"{quote(value.value)} is not a {' or '.join(allowed)}, which {operator}: compares against"
    )


def _mistyped(file: str, node: Node, field: str, message: str) -> list[Problem]:
    """The one row an operand earns: every operand fault is a ``predicate-type-mismatch`` at the operand."""
    return [at(file, node, field, codes.PREDICATE_TYPE_MISMATCH, message)]


def category(value: str) -> str:
    """The one type a literal reads as when nothing else decides it; integer and number are one."""
    for type_ in _CATEGORIES:
        if reads_as(type_, value):
            return type_
    if reads_as("number", value):
        return "number"
    return "string"


def _in_operand(file: str, field: str, value: Node) -> list[Problem]:
    if not isinstance(value, Seq):
        return _mistyped(file, value, field, "in: takes a list of two or more literals of one type")
    if not value.items:
        return _mistyped(file, value, field, "in: [] holds no member, so its answer is fixed before any value is read")
    if len(value.items) == 1:
        return _mistyped(
            file,
            value.items[0],
            f"{field}[0]",
            "in: with one member is equals: written a second way — name two or more, or use equals:",
        )
    problems: list[Problem] = []
    first: str | None = None
    for i, item in enumerate(value.items):
        if not isinstance(item, Scalar):
            problems += _mistyped(file, item, f"{field}[{i}]", "an in: member is a bare literal")
            continue
        kind = category(item.value)
        if first is None:
            first = kind
        elif kind != first:
            problems += _mistyped(
                file,
                item,
                f"{field}[{i}]",
                f"in: mixes types — this member reads as a {kind} where the first reads as a {first}",
            )
    return problems

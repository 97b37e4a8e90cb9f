"""A Step's ``args:`` for one member of its Expansion: every declared input filled.

A literal is read against the type its input declares, exactly as ``check`` read it at
load. A reference is resolved at the member's turn — ``{item:}`` against the member in
hand, ``{step:, path:}`` against the one Record an earlier Step of *this Run* acted on —
and the value it finds meets the declared type the same way: by its characters, so a
stored ``"2592000"`` fills an ``integer`` and a stored ``"thirty"`` does not, whichever
JSON type the remote API answered in. One that will not read, or resolves to nothing,
is ``schema-mismatch`` — the code ``check`` fires where the value is on the page.

The shell Capability's ``command`` is a list of words: each word a literal or a
reference, the head always literal (``command-malformed`` at ``check`` otherwise).
"""

from __future__ import annotations

from hyper.artefact.procedure import Reference, read_reference
from hyper.capability import projection
from hyper.capability.predicate import describe
from hyper.check.facts import SHELL_COMMAND_INPUT, Input
from hyper.check.schema import reads_as
from hyper.core.namedtuple import NamedTuple
from hyper.store.canonical import number_text
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, TypeAlias


SCHEMA_MISMATCH = "schema-mismatch"


class Member(NamedTuple):
    """One member of an Expansion: one Record identity each."""

    name: str
    """What ``expanded_to`` holds for it: a ``values:`` literal, or a series' Record name."""
    item: Any = None
    """What ``{item: $}`` names for a ``values:`` member (the literal itself)."""
    head: dict[str, Any] | None = None
    """The head version's fields, for a member a selector found in the Store."""


class Declined(NamedTuple):
    """Why one member's arguments could not be read: a sentence and where to point."""

    message: str
    line: int
    field: str


Acted: TypeAlias = "Mapping[tuple[int, str], list[dict[str, Any]]]"
"""What each earlier Step of this Run acted on, by (id namespace, Step id)."""


def scalar_text(value: Any) -> str | None:
    """A stored value as the characters a declared type is read against; ``None`` where it is
    not a scalar (an object or a list fills no scalar position)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return number_text(value)
    return None


def typed(type_: str, text: str) -> Any:
    """Characters that already read as ``type_``, as the value a Capability is handed."""
    if type_ == "integer":
        return int(text)
    if type_ == "number":
        return int(text) if text.lstrip("+-").isdigit() else float(text)
    if type_ == "boolean":
        return text == "true"
    return text


def literal(node: Node) -> Any:
    """An authored node as plain data, every scalar as its text (an ``object`` input's literal)."""
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Seq):
        return [literal(item) for item in node.items]
    return {key.value: literal(value) for key, value in node.entries}


def resolve_reference(reference: Reference, member: Member, acted: Acted, namespace: int) -> tuple[bool, Any]:
    if reference.form == "step":
        records = acted.get((namespace, reference.step), [])
        if len(records) != 1:
            return False, None  # skipped, never reached, or a population: no one Record to name
        return projection.resolve(reference.path, records[0])
    if reference.form == "item":
        if reference.path == "$":
            if member.item is not None:
                return True, member.item
            return member.head is not None, member.head
        if member.head is None:
            return False, None
        return projection.resolve(reference.path, member.head)
    return False, None


def reference_text(node: Map) -> str:
    return "{" + ", ".join(f"{key.value}: {literal(value)}" for key, value in node.entries) + "}"


def arguments(
    args: Node | None,
    inputs: Mapping[str, Input],
    shell: bool,
    member: Member,
    acted: Acted,
    namespace: int,
    field: str,
) -> dict[str, Any] | Declined:
    """Every declared input, read for this member; or the first that would not read."""
    read: dict[str, Any] = {}
    supplied = {key.value: value for key, value in args.entries} if isinstance(args, Map) else {}
    for name in sorted(inputs):
        node = supplied.get(name)
        if node is None:
            continue  # check's schema-mismatch: every declared input is supplied
        at = f"{field}.args.{name}"
        if shell and name == SHELL_COMMAND_INPUT:
            words = _command(node, member, acted, namespace, at)
            if isinstance(words, Declined):
                return words
            read[name] = words
            continue
        value = _value(node, inputs[name], member, acted, namespace, at)
        if isinstance(value, Declined):
            return value
        read[name] = value
    return read


def _command(node: Node, member: Member, acted: Acted, namespace: int, field: str) -> list[str] | Declined:
    if not isinstance(node, Seq):
        return []  # check's command-malformed
    words: list[str] = []
    for index, item in enumerate(node.items):
        word = _value(item, Input("string", ()), member, acted, namespace, f"{field}[{index}]")
        if isinstance(word, Declined):
            return word
        words.append(str(word))
    return words


def _value(node: Node, input_: Input, member: Member, acted: Acted, namespace: int, field: str) -> Any:
    reference = read_reference(node)
    if reference is None:
        if isinstance(node, Scalar):
            return typed(input_.type, node.value) if reads_as(input_.type, node.value) else node.value  # type: ignore[arg-type]
        return literal(node)
    if reference.form == "malformed":
        return literal(node)  # an object input's literal mapping
    on = f" on {member.name}" if member.name else ""
    found, value = resolve_reference(reference, member, acted, namespace)
    if not found or value is None:
        return Declined(
            f"{reference_text(reference.node)} resolves to nothing{on}, and every input is supplied",
            reference.node.line,
            field,
        )
    text = scalar_text(value)
    if text is None:
        return Declined(
            f"{reference_text(reference.node)} resolves to {describe(value)}{on}, and this position"
            f" takes {_a(input_.type)}",
            reference.node.line,
            field,
        )
    if not reads_as(input_.type, text):  # type: ignore[arg-type]
        return Declined(
            f'{reference_text(reference.node)} resolves to "{text}"{on}, which does not read as {_a(input_.type)}',
            reference.node.line,
            field,
        )
    return typed(input_.type, text)


def _a(type_: str) -> str:
    return f"an {type_}" if type_ and type_[0] in "aeiou" else f"a {type_ or 'value'}"

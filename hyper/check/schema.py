"""hyper's own schema for its artefacts, and the one reading rule behind it.

A scalar's meaning comes from the schema at its position and never from YAML's
implicit typing: ``"30"`` and ``30`` are one integer, ``yes`` is no boolean, and a
quoted value is the same value as an unquoted one. Every object is closed — a key
the schema does not name is ``unknown-key`` — because the author of an artefact is
an agent, and an ignored typo is a silent change of meaning.

``open`` objects stop at "is this a mapping": their members are keyed by names the
author chooses (operations, credential slots, args) and a dedicated rule reads them.
"""

from __future__ import annotations

import re

from hyper.check import codes
from hyper.core.namedtuple import NamedTuple
from hyper.core.problem import Problem
from hyper.yaml.access import at, join, quote
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Collection
    from typing import Final, Literal, TypeAlias

Type: TypeAlias = 'Literal["string", "integer", "number", "boolean", "object", "array", "duration", "timestamp"]'


class Schema(NamedTuple):
    type: Type
    enum: tuple[str, ...] = ()
    properties: tuple[Property, ...] = ()
    items: Schema | None = None
    open: bool = False


class Property(NamedTuple):
    name: str
    schema: Schema
    required: bool = False


def prop(name: str, schema: Schema, required: bool = False) -> Property:
    return Property(name, schema, required)


STRING: Final = Schema("string")
INTEGER: Final = Schema("integer")
BOOLEAN: Final = Schema("boolean")
DURATION: Final = Schema("duration")
OPEN_OBJECT: Final = Schema("object", open=True)
STRINGS: Final = Schema("array", items=STRING)


def obj(*properties: Property) -> Schema:
    return Schema("object", properties=properties)


def array_of(items: Schema) -> Schema:
    return Schema("array", items=items)


def one_of(*values: str) -> Schema:
    return Schema("string", enum=values)


_INTEGER = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_BOOLEAN = re.compile(r"true|false")
_DURATION = re.compile(r"[0-9]+[smhd]")
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?Z")


def reads_as(type_: Type, value: str) -> bool:
    """Whether ``value``'s characters read as ``type_`` in the text form the format fixes."""
    if type_ == "string":
        return True
    if type_ == "integer":
        return _INTEGER.fullmatch(value) is not None
    if type_ == "number":
        return _NUMBER.fullmatch(value) is not None
    if type_ == "boolean":
        return _BOOLEAN.fullmatch(value) is not None
    if type_ == "duration":
        return _DURATION.fullmatch(value) is not None
    if type_ == "timestamp":
        return _reads_as_timestamp(value)
    return False


def _reads_as_timestamp(value: str) -> bool:
    """RFC 3339 in UTC with the ``Z`` written: an offset is refused even where it parses."""
    if _TIMESTAMP.fullmatch(value) is None:
        return False
    import datetime as _dt  # only a timestamp position reads one; most checks never meet it

    try:
        _dt.datetime.fromisoformat(value[:-1] + "+00:00")
    except ValueError:
        return False
    return True


def _unquoted_hole(node: Node | None) -> str:
    """The text an author most likely meant where a flow mapping holds only keys with no value
    (``path: {id}``): template holes YAML read as a mapping; ``""`` for any other node. Said on
    the schema row, the first of the rows the one slip makes, so the remedy leads."""
    if not isinstance(node, Map) or not node.flow or not node.entries:
        return ""
    if not all(isinstance(value, Scalar) and value.plain and value.value == "" for _, value in node.entries):
        return ""
    return "{" + ", ".join(key.value for key, _ in node.entries) + "}"


def _article(type_: Type) -> str:
    return f"an {type_}" if type_ in ("object", "integer", "array") else f"a {type_}"


def check(node: Node | None, schema: Schema, file: str, field: str = "") -> list[Problem]:
    """Every position under ``node`` that does not fit ``schema``.

    ``node`` is ``None`` where nothing was supplied at all (an empty file, a missing
    key): a required key beneath it is then reported at the parent's position, or at
    1:1 when there is no parent.
    """
    problems: list[Problem] = []
    _read(node, schema, file, field, problems)
    return problems


def _read(node: Node | None, schema: Schema, file: str, field: str, out: list[Problem]) -> None:
    _reader(schema)(node, schema, file, field, out)


def _reader(schema: Schema) -> _Reader:
    """The reading of a schema's type: a collection's own, or a scalar's."""
    if schema.type == "object":
        return _read_object
    if schema.type == "array":
        return _read_array
    return _read_scalar


def _read_object(node: Node | None, schema: Schema, file: str, field: str, out: list[Problem]) -> None:
    if node is not None and not isinstance(node, Map):
        out.append(at(file, node, field, codes.SCHEMA_MISMATCH, "this position takes an object"))
        return
    if schema.open:
        return
    cached = _PROPERTIES.get(id(schema))
    by_name, plain, required = cached[1] if cached is not None else _properties(schema)
    written: Collection[str] = ()
    if node is not None:
        for key, value in node.entries:
            name = key.value
            if name in plain and isinstance(value, Scalar):
                continue  # the commonest entry of all: text where any text fits
            child = by_name.get(name)
            if child is None:
                out.append(
                    at(
                        file,
                        key,
                        join(field, name),
                        codes.UNKNOWN_KEY,
                        f"{quote(name)} is not a key this position takes",
                    )
                )
            elif not (isinstance(value, Scalar) and _fits(value.value, child[0])):
                # A child's field is spelled only where something under it may be at fault.
                child[1](value, child[0], file, join(field, name), out)
        if required:
            written = {key.value for key, _ in node.entries}
    for name in required:
        if name not in written:
            out.append(
                at(
                    file,
                    node,
                    join(field, name),
                    codes.SCHEMA_MISMATCH,
                    f"{quote(name)} is required at this position and is not written",
                )
            )


def _fits(value: str, schema: Schema) -> bool:
    """Whether a scalar's text fits a scalar position; a collection position never fits one."""
    type_ = schema.type
    if type_ == "object" or type_ == "array":
        return False
    return (type_ == "string" or reads_as(type_, value)) and (not schema.enum or value in schema.enum)


_Reader: TypeAlias = "Callable[[Node | None, Schema, str, str, list[Problem]], None]"
_Properties: TypeAlias = "tuple[dict[str, tuple[Schema, _Reader]], frozenset[str], tuple[str, ...]]"
"""An object schema's children by name with the reading of each, the names any scalar fits (an
open string), the required names."""

_PROPERTIES: dict[int, tuple[Schema, _Properties]] = {}
"""Keyed by identity, holding the schema itself so that identity is never reused while cached."""


def _properties(schema: Schema) -> _Properties:
    """An object schema's properties as :func:`_read_object` reads them, worked out once per schema.

    Schemas are long-lived constants and every mapping an artefact holds is read
    against one, so this is done once per process rather than once per mapping.
    """
    read: _Properties = (
        {p.name: (p.schema, _reader(p.schema)) for p in schema.properties},
        frozenset(p.name for p in schema.properties if p.schema.type == "string" and not p.schema.enum),
        tuple(p.name for p in schema.properties if p.required),
    )
    _PROPERTIES[id(schema)] = (schema, read)
    return read


def _read_array(node: Node | None, schema: Schema, file: str, field: str, out: list[Problem]) -> None:
    if not isinstance(node, Seq):
        out.append(at(file, node, field, codes.SCHEMA_MISMATCH, "this position takes an array"))
        return
    items = schema.items
    if items is None:
        return
    read = _reader(items)
    for i, item in enumerate(node.items):
        if not (isinstance(item, Scalar) and _fits(item.value, items)):
            read(item, items, file, f"{field}[{i}]", out)


def _read_scalar(node: Node | None, schema: Schema, file: str, field: str, out: list[Problem]) -> None:
    if not isinstance(node, Scalar):
        said = f"this position takes {_article(schema.type)}"
        hole = _unquoted_hole(node)
        if hole and schema.type == "string":
            said += (f", and {hole} unquoted is a YAML mapping of keys with no value — quote a value that"
                     f' starts with {{: "{hole}"')
        out.append(at(file, node, field, codes.SCHEMA_MISMATCH, said))
        return
    if not reads_as(schema.type, node.value):
        out.append(
            at(
                file,
                node,
                field,
                codes.SCHEMA_MISMATCH,
                f"{quote(node.value)} does not read as {_article(schema.type)}, which this position takes",
            )
        )
        return
    if schema.enum and node.value not in schema.enum:
        out.append(
            at(
                file,
                node,
                field,
                codes.SCHEMA_MISMATCH,
                f"{quote(node.value)} is not one of {', '.join(schema.enum)}, the values this position takes",
            )
        )

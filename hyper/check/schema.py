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
from hyper.core.pattern import compiled
from hyper.core.problem import Problem
from hyper.yaml.access import at, join, quote
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable
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
_DURATION = re.compile(r"[0-9]+[smhd]")
_NUMBER = r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?"
_TIMESTAMP = r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?Z"
"""Compiled on first use (:func:`hyper.core.pattern.compiled`): few schemas hold a number or a
timestamp position, and compiling both on import cost every ``check`` about as much as the two
above, which most schemas meet."""


def reads_as(type_: Type, value: str) -> bool:
    """Whether ``value``'s characters read as ``type_`` in the text form the format fixes."""
    if type_ == "string":
        return True
    if type_ == "integer":
        return _INTEGER.fullmatch(value) is not None
    if type_ == "number":
        return compiled(_NUMBER).fullmatch(value) is not None
    if type_ == "boolean":
        return value in ("true", "false")
    if type_ == "duration":
        return _DURATION.fullmatch(value) is not None
    if type_ == "timestamp":
        return _reads_as_timestamp(value)
    return False


def _reads_as_timestamp(value: str) -> bool:
    """RFC 3339 in UTC with the ``Z`` written: an offset is refused even where it parses."""
    if compiled(_TIMESTAMP).fullmatch(value) is None:
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
    _reader(schema)(node, file, field, problems)
    return problems


_Reader: TypeAlias = "Callable[[Node | None, str, str, list[Problem]], None]"
"""A schema made into a function: it reads a node at a field of a file, appending what does not fit."""
_Fits: TypeAlias = "Callable[[str], bool]"

_READERS: dict[int, tuple[Schema, _Reader]] = {}
"""Keyed by identity, holding the schema itself so that identity is never reused while cached."""


def _reader(schema: Schema) -> _Reader:
    """``schema`` as the function that reads a node against it, made once per schema.

    Schemas are long-lived constants and every mapping an artefact holds is read against
    one, so what a schema decides — its children and their readings, which names any
    scalar fits, which are required, what test a scalar must pass — is worked out once per
    process, and reading a node is then one call with nothing left to look up.
    """
    cached = _READERS.get(id(schema))
    if cached is not None:
        return cached[1]
    if schema.type == "object":
        read = _object_reader(schema)
    elif schema.type == "array":
        read = _array_reader(schema)
    else:
        read = _scalar_reader(schema)
    _READERS[id(schema)] = (schema, read)
    return read


def _object_reader(schema: Schema) -> _Reader:
    open_ = schema.open
    children = {p.name: (_fits(p.schema), _reader(p.schema)) for p in schema.properties}
    # The names any scalar fits: text where any text fits, the commonest entry of all.
    plain = frozenset(p.name for p in schema.properties if p.schema.type == "string" and not p.schema.enum)
    # The names any mapping fits: an open object's whole reading, done in place.
    mappings = frozenset(p.name for p in schema.properties if _open(p.schema))
    required = tuple(p.name for p in schema.properties if p.required)
    required_names = frozenset(required)

    def read(node: Node | None, file: str, field: str, out: list[Problem]) -> None:
        if node is not None and not isinstance(node, Map):
            out.append(at(file, node, field, codes.SCHEMA_MISMATCH, "this position takes an object"))
            return
        if open_:
            return
        written: set[str] = set()  # the required names among the keys, found in the one pass over them
        if node is not None:
            for key, value in node.entries:
                name = key.value
                if name in required_names:
                    written.add(name)
                if name in plain and isinstance(value, Scalar):
                    continue
                if name in mappings and isinstance(value, Map):
                    continue
                child = children.get(name)
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
                elif not (isinstance(value, Scalar) and child[0](value.value)):
                    # A child's field is spelled only where something under it may be at fault.
                    child[1](value, file, join(field, name), out)
        if len(written) == len(required):
            return  # ``written`` holds required names only, so every one of them is there
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

    return read


def _open(schema: Schema) -> bool:
    return schema.type == "object" and schema.open


def _never(value: str) -> bool:
    return False


def _always(value: str) -> bool:
    return True


def _fits(schema: Schema) -> _Fits:
    """Whether a scalar's text fits a position, as one test: a collection position never fits one."""
    type_ = schema.type
    if type_ == "object" or type_ == "array":
        return _never
    enum = frozenset(schema.enum)
    if type_ == "string":
        return enum.__contains__ if enum else _always
    if enum:
        return lambda value: reads_as(type_, value) and value in enum
    return lambda value: reads_as(type_, value)


def _array_reader(schema: Schema) -> _Reader:
    items = schema.items
    fits = _fits(items) if items is not None else _always
    read_item = _reader(items) if items is not None else None
    mappings = items is not None and _open(items)

    def read(node: Node | None, file: str, field: str, out: list[Problem]) -> None:
        if not isinstance(node, Seq):
            out.append(at(file, node, field, codes.SCHEMA_MISMATCH, "this position takes an array"))
            return
        if read_item is None:
            return
        for i, item in enumerate(node.items):
            if mappings and isinstance(item, Map):
                continue  # an open object's whole reading
            if not (isinstance(item, Scalar) and fits(item.value)):
                read_item(item, file, f"{field}[{i}]", out)

    return read


def _scalar_reader(schema: Schema) -> _Reader:
    type_, enum = schema.type, schema.enum
    article = _article(type_)

    def read(node: Node | None, file: str, field: str, out: list[Problem]) -> None:
        if not isinstance(node, Scalar):
            said = f"this position takes {article}"
            hole = _unquoted_hole(node)
            if hole and type_ == "string":
                said += (
                    f", and {hole} unquoted is a YAML mapping of keys with no value — quote a value that"
                    f' starts with {{: "{hole}"'
                )
            out.append(at(file, node, field, codes.SCHEMA_MISMATCH, said))
            return
        if not reads_as(type_, node.value):
            said = f"{quote(node.value)} does not read as {article}, which this position takes"
        elif enum and node.value not in enum:
            said = f"{quote(node.value)} is not one of {', '.join(enum)}, the values this position takes"
        else:
            return
        out.append(at(file, node, field, codes.SCHEMA_MISMATCH, said))

    return read

"""Schema versions, and the two halves every Store shape is written and read through.

Five independent integers, one per shape, so a shape that moves says *that* shape moved: one
number across the Store would make an older binary refuse a Record it reads perfectly because
the Step file changed. ``STORE.md`` carries none.

The write half (:class:`Members`) states the absence rule once — an empty string, a zero
count, an unset instant and a false marker are not written. The read half (:class:`Fields`)
holds a file to its shape: the version first, then the required members, closed key sets and
closed enums, and last, the canonical check — the decoded value must re-encode to the very
bytes it was read from.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.ids import parse_run_id
from hyper.core.readfaults import SchemaUnsupported, StoreFileError
from hyper.store.canonical import Value, encode, parse, parse_instant

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TypeVar

RECORD_SCHEMA_VERSION = 1
RUN_SCHEMA_VERSION = 1
STEP_SCHEMA_VERSION = 1
OUTCOME_SCHEMA_VERSION = 1
CLOSED_BY_SCHEMA_VERSION = 1

SCHEMA_UNSUPPORTED_CODE = "store-schema-unsupported"


class Members:
    """One file's mapping under construction; every setter drops what the file does not carry."""

    def __init__(self) -> None:
        self.mapping: dict[str, Value] = {}

    def text(self, key: str, value: str) -> None:
        if value:
            self.mapping[key] = value

    def count(self, key: str, value: int) -> None:
        if value:
            self.mapping[key] = value

    def at(self, key: str, value: _dt.datetime | None) -> None:
        if value is not None:
            self.mapping[key] = value

    def mark(self, key: str, value: bool) -> None:
        if value:
            self.mapping[key] = True

    def value(self, key: str, value: Value | None) -> None:
        if value is not None:
            self.mapping[key] = value

    def block(self, key: str, fill: Callable[[Members], None]) -> None:
        nested = Members()
        fill(nested)
        if nested.mapping:
            self.mapping[key] = nested.mapping

    def require(self, subject: str, keys: Iterable[str]) -> None:
        """The encoder's half of the required-member rule the decoder states over the same list."""
        for key in keys:
            if key not in self.mapping or self.mapping[key] in ({}, []):
                raise ValueError(f"store: {subject} carries no {key!r}, which every one of them carries")


def write_file(version: int, subject: str, required: Iterable[str], fill: Callable[[Members], None]) -> bytes:
    """One of the five shapes: its members and the schema version beside them."""
    members = Members()
    members.mapping["schema_version"] = version
    fill(members)
    members.require(subject, required)
    return encode(members.mapping)


if TYPE_CHECKING:
    T = TypeVar("T")
    E = TypeVar("E", bound=str)


class Fields:
    """One mapping being read back into a shape: remembers what was asked for, so a member
    nobody asked for is a member this shape does not have."""

    def __init__(self, mapping: dict[str, Any], where: str = "") -> None:
        self.mapping = mapping
        self.taken: set[str] = set()
        self.where = where

    def fault(self, message: str) -> StoreFileError:
        return StoreFileError(f"in {self.where!r}: {message}" if self.where else message)

    def require(self, *keys: str) -> None:
        for key in keys:
            if key not in self.mapping:
                raise self.fault(f"the file carries no {key!r}")

    def carries(self, key: str) -> bool:
        return key in self.mapping

    def _take(self, key: str, kind: type[T], what: str) -> T | None:
        self.taken.add(key)
        if key not in self.mapping:
            return None
        value = self.mapping[key]
        if kind is int and isinstance(value, bool):
            raise self.fault(f"{key!r} is not {what}")
        if not isinstance(value, kind):
            raise self.fault(f"{key!r} is not {what}")
        return value

    def text(self, key: str) -> str:
        return self._take(key, str, "a string") or ""

    def count(self, key: str) -> int:
        number = self._take(key, int, "a whole number")
        return 0 if number is None else number

    def position(self, key: str) -> int:
        """A 1-indexed member: zero is its absence, and below one is not a position."""
        number = self.count(key)
        if self.carries(key) and number < 1:
            raise self.fault(f"{key!r} is {number}, and a position starts at 1")
        return number

    def answer(self, key: str) -> int | None:
        """An integer that may not have arrived: 0 is an exit code a command really gives."""
        number = self._take(key, int, "a whole number")
        return number

    def at(self, key: str) -> _dt.datetime | None:
        text = self.text(key)
        if not text:
            return None
        try:
            return parse_instant(text)
        except ValueError as fault:
            raise self.fault(str(fault)) from None

    def mark(self, key: str) -> bool:
        return bool(self._take(key, bool, "a boolean"))

    def value(self, key: str) -> Value | None:
        self.taken.add(key)
        return self.mapping.get(key)

    def nested(self, key: str) -> dict[str, Value] | None:
        return self._take(key, dict, "a mapping")

    def names(self, key: str) -> list[str] | None:
        items = self._take(key, list, "a list")
        if items is None:
            return None
        if not all(isinstance(item, str) for item in items):
            raise self.fault(f"{key!r} holds something that is not a string")
        return list(items)

    def block(self, key: str) -> Fields | None:
        mapping = self.nested(key)
        return None if mapping is None else Fields(mapping, key)

    def blocks(self, key: str) -> list[Fields]:
        items = self._take(key, list, "a list")
        if items is None:
            return []
        readers = []
        for position, item in enumerate(items):
            if not isinstance(item, dict):
                raise self.fault(f"{key!r} holds something that is not a mapping at position {position}")
            readers.append(Fields(item, f"{key}[{position}]"))
        return readers

    def one_of(self, key: str, values: tuple[E, ...]) -> E:
        text = self.text(key)
        if not text:
            return ""  # type: ignore[return-value]
        for value in values:
            if value == text:
                return value
        raise self.fault(f"{key!r} is {text!r}, which is outside the closed set")

    def run(self, key: str) -> str:
        text = self.text(key)
        if not text:
            return ""
        try:
            return parse_run_id(text)
        except ValueError as fault:
            raise self.fault(f"{key!r}: {fault}") from None

    def closed(self) -> None:
        unknown = sorted(set(self.mapping) - self.taken)
        if unknown:
            raise self.fault(f"the file carries {unknown[0]!r}, which this shape does not have")


if TYPE_CHECKING:
    S = TypeVar("S")


def read_file(data: bytes, known: int, read: Callable[[Fields], S], encode_shape: Callable[[S], bytes]) -> S:
    """Parse, check the version against the ceiling, read the shape, close it, and hold the
    result against the bytes it came from — the canonical check catches a duplicated key, an
    escaped umlaut or a number spelled another way, which no key-by-key read can."""
    try:
        value = parse(data)
    except ValueError as fault:
        raise StoreFileError(str(fault)) from None
    if not isinstance(value, dict):
        raise StoreFileError("a Store file is a JSON object")
    fields = Fields(value)
    version = fields.count("schema_version")
    fields.require("schema_version")
    if version < 1:
        raise StoreFileError(f"{version} is not a schema version: every shape's integer starts at 1")
    if version > known:
        raise SchemaUnsupported(version, known)
    shape = read(fields)
    fields.closed()
    written = encode_shape(shape)
    if written != data:
        raise StoreFileError(
            f"the file is not in the canonical encoding: it re-encodes to {len(written)} bytes"
            f" and was read from {len(data)}"
        )
    return shape


def join(block: Fields | None) -> None:
    """A nested block's members are closed exactly as the file's own are."""
    if block is not None:
        block.closed()

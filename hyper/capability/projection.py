"""Reading a response object by ``$.`` paths: the one resolver a Run and a Probe share.

A Manifest's ``record:`` block names, in the closed path grammar (``$`` then ``.member``
or ``["member"]`` segments and nothing else), where in a Capability's response object
each recorded value lives. This module is where those paths meet a response. It never
sees bytes, a socket or a child: a Capability hands it the response object
(:mod:`hyper.capability`), a plain ``dict`` in the Capability's member order whose
absent members are simply not keys.

The distinction everything above reads is **resolved to nothing** versus **resolved to
null**. A body carrying ``{"error": null}`` answers ``$.body.error`` with a value
(``None``); a body carrying ``{}`` answers it with no value at all. So :func:`resolve`
answers a pair ``(found, value)`` and never uses ``None`` as a sentinel.

Two roots. Under ``one`` cardinality every path roots at the response. Under
``series`` the ``over:`` path roots at the response and names a collection, and the
``identity:`` and every ``fields:`` path root at *one member* of it. The grammar is
the same at both; only what ``$`` names moves, and the position decides which.

The API, for the Run engine and ``probe`` alike:

* :func:`segments`, :func:`resolve` — the grammar and one path against one root;
* :func:`collection` — a ``series``' members (``None`` where ``over:`` resolved to
  nothing, which halts a Run; ``[]`` where it landed on something that is not a list,
  which is an empty collection and not a fault);
* :func:`identity` — a Record's name from an ``identity:`` path or template hole;
* :func:`fields` — the recorded fields that resolved, in the Manifest's order;
* :class:`Projection` / :func:`read` / :meth:`Projection.against` — a whole
  ``record:`` block read against one response: the Records it would produce and the
  positions that resolved to nothing (what a Probe renders);
* :func:`text` — a projected value as a page shows it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping  # a path steps into any mapping (isinstance), not only a dict

from hyper.core.namedtuple import NamedTuple
from hyper.yaml.subset import Map, Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, Final

    from hyper.artefact.manifest import Record

_SEGMENT: Final = re.compile(r'\.([A-Za-z_][A-Za-z0-9_-]*)|\["([^"]*)"\]')

POSITION_IDENTITY: Final = "identity:"
"""How an unresolved ``identity:`` is named: with its colon, because it is a key of the
``record:`` block and a Manifest may also declare a *field* called ``identity``."""
POSITION_OVER: Final = "over:"


def segments(path: str) -> tuple[str, ...] | None:
    """The member names ``path`` walks, in order; ``None`` where it is not in the grammar.

    ``$`` alone walks none: it names the root itself.
    """
    if not path.startswith("$"):
        return None
    names: list[str] = []
    at = 1
    while at < len(path):
        found = _SEGMENT.match(path, at)
        if found is None:
            return None
        names.append(found.group(1) if found.group(1) is not None else found.group(2))
        at = found.end()
    return tuple(names)


def resolve(path: str, root: Any) -> tuple[bool, Any]:
    """``(True, value)`` where ``path`` reaches a value in ``root``, ``(False, None)`` where not.

    A JSON ``null`` that is there resolves, to ``None``. A scalar has no members, so a
    path reaching past one resolves to nothing — the grammar reaches no further inside
    a string here than anywhere else. A path outside the grammar resolves to nothing
    rather than raising: ``check`` refuses it where it is written, and a second opinion
    here would be one about an artefact nobody reviewed.
    """
    names = segments(path)
    if names is None:
        return False, None
    current = root
    for name in names:
        if not isinstance(current, Mapping) or name not in current:
            return False, None
        current = current[name]
    return True, current


def collection(path: str, response: Any) -> list[Any] | None:
    """The members a ``series`` projects its Records from.

    ``None`` where ``over:`` resolved to nothing: hyper cannot then tell an empty
    collection from a wrong path, which is why a Run halts there. Where it resolved to
    something that is not a list the collection is empty — a member is a member of a
    list — and that is an answer, not a fault (:attr:`Reading.over_is_list` keeps the
    difference for an author).
    """
    found, value = resolve(path, response)
    if not found:
        return None
    return list(value) if isinstance(value, list) else []


def text(value: Any) -> str:
    """A value as a page shows it: a string as itself, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    from hyper.core.deepjson import compact  # deferred: start-up cost

    return compact(value).decode("utf-8")


def identity(declared: str, inputs: Mapping[str, Any], root: Any) -> str | None:
    """The Record name ``declared`` resolves to against ``root``; ``None`` where it names none.

    A ``$`` path reads the response (or, under ``series``, one member); anything else is
    a template whose holes fill from the Operation's inputs before any call — which is
    why such an Operation knows every Record's name before it asks. A value that is not
    a string is named by its JSON text; an empty name is no name.
    """
    if not declared:
        return None
    if not declared.startswith("$"):
        from hyper.capability.template import fill
        from hyper.core.faults import TemplateFault

        try:
            filled = fill("identity:", declared, inputs)
        except TemplateFault:
            return None
        return filled or None
    found, value = resolve(declared, root)
    if not found:
        return None
    name = text(value)
    return name or None


class FieldPath(NamedTuple):
    name: str
    path: str


def fields(paths: Sequence[FieldPath], root: Any) -> dict[str, Any]:
    """Every field whose path resolved, by name, in the Manifest's own order.

    A field that resolved to nothing is not a key at all: absence is the answer, and it
    is what a Record version leaves out.
    """
    projected: dict[str, Any] = {}
    for field in paths:
        found, value = resolve(field.path, root)
        if found:
            projected[field.name] = value
    return projected


class Position(NamedTuple):
    """One authored path that resolved to nothing: where it is written, and what it says."""

    position: str
    path: str


class ProjectedRecord(NamedTuple):
    """One Record a response would produce: its name where it resolved, and its fields."""

    name: str | None
    fields: dict[str, Any]


class Reading(NamedTuple):
    records: tuple[ProjectedRecord, ...]
    unresolved: tuple[Position, ...]
    over_is_list: bool
    """``over:`` landed on a list. False under ``one`` cardinality, where ``over:`` resolved to
    nothing, and where it landed on an object or a scalar — the case an author needs told
    apart from an empty list, the two being different edits."""


class Projection(NamedTuple):
    """A ``record:`` block as the resolver reads it; empty strings where a key is not written."""

    identity: str
    fields: tuple[FieldPath, ...]
    over: str

    @property
    def empty(self) -> bool:
        """Declares nothing to project (a ``destroy`` carries no ``record:`` at all)."""
        return not self.identity and not self.fields and not self.over

    def against(self, inputs: Mapping[str, Any], response: Any) -> Reading:
        """Every Record the response would produce, and every position that resolved to nothing.

        A position is named unresolved where it failed against **any** root, and once
        however many it failed against: an author edits one line, not one line per
        member. A collection with no members leaves every position unresolved, since
        nothing was read. ``identity:`` comes first, then the fields in authored order.
        """
        if not self.over:
            roots: list[Any] = [response]
            over_is_list = False
        else:
            found, value = resolve(self.over, response)
            if not found:
                return Reading((), (Position(POSITION_OVER, self.over),), False)
            over_is_list = isinstance(value, list)
            roots = list(value) if over_is_list else []
        records = tuple(
            ProjectedRecord(identity(self.identity, inputs, root), fields(self.fields, root)) for root in roots
        )
        return Reading(records, self._unresolved(inputs, roots), over_is_list)

    def _unresolved(self, inputs: Mapping[str, Any], roots: Sequence[Any]) -> tuple[Position, ...]:
        missed: list[Position] = []
        if self.identity and not (roots and all(identity(self.identity, inputs, r) is not None for r in roots)):
            missed.append(Position(POSITION_IDENTITY, self.identity))
        missed.extend(
            Position(field.name, field.path)
            for field in self.fields
            if not (roots and all(resolve(field.path, r)[0] for r in roots))
        )
        return tuple(missed)


def read(record: Record | None) -> Projection:
    """An Operation's ``record:`` block; what is not a legible scalar reads as not written.

    Reading judges nothing: a malformed block is ``check``'s to report.
    """
    if record is None:
        return Projection("", (), "")

    paths: list[FieldPath] = []
    if isinstance(record.fields, Map):
        paths = [FieldPath(key.value, value.value) for key, value in record.fields.entries if isinstance(value, Scalar)]
    return Projection(
        identity=record.identity.value if record.identity is not None else "",
        fields=tuple(paths),
        over=record.over.value if isinstance(record.over, Scalar) else "",
    )

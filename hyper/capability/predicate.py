"""The eleven predicate operators, evaluated against values the Store holds.

``check`` reads a predicate's *operand* — what an author wrote — but a projected field has
no declared type, so what it holds is only discovered here. Two rules follow:

* **A value this cannot compare is a mismatch, never a non-match.** The caller Refuses
  with ``predicate-type-mismatch``: a Record that quietly failed to compare would look
  exactly like one that compared and did not match, and an API changing a field's type
  would silently change what a selector reaches.
* **Nothing coerces.** A value is compared as the type it is; a timestamp arrives as a
  string, so ``starts_with: "2026-"`` on one does what it looks like. Integers and
  floats are one domain and compare exactly (never through a float).
* **Absence is not a mismatch.** ``exists`` and ``absent`` state presence; every other
  operator is simply false on a field the version does not carry.
"""

from __future__ import annotations

import datetime as _dt
import re

from hyper.artefact import scalars
from hyper.artefact.procedure import Predicate, read_predicate
from hyper.core.namedtuple import NamedTuple
from hyper.store.canonical import number_text
from hyper.yaml.subset import Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Any


_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})")


class Test(NamedTuple):
    """One predicate as authored: its field, its one operator and the operand node."""

    field: str
    operator: str
    operand: Node | None
    line: int
    """Where the operator is written: what a Refusal's caret points at."""
    step: str = ""
    """``step:`` beside the field, at a condition's root; ``""`` in a selector."""

    def holds(self, fields: dict[str, Any] | None, instant: _dt.datetime) -> tuple[bool, str]:
        """Whether this holds of a version's fields, and the mismatch sentence where the
        operator cannot compare what the field holds (``""`` where it compared)."""
        carried = fields is not None and self.field in fields
        return self.decides(fields[self.field] if fields is not None and carried else None, carried, instant)

    def decides(self, value: Any, carried: bool, instant: _dt.datetime) -> tuple[bool, str]:
        if self.operator == "exists":
            return carried, ""
        if self.operator == "absent":
            return not carried, ""
        if not carried:
            return False, ""
        operand = self.operand.value if isinstance(self.operand, Scalar) else ""
        if self.operator == "equals":
            return self._equal(value, operand)
        if self.operator == "not_equals":
            equal, mismatch = self._equal(value, operand)
            return (not equal and not mismatch), mismatch
        if self.operator == "in":
            return self._within(value)
        if self.operator in ("starts_with", "ends_with"):
            if not isinstance(value, str):
                return False, self._cannot(value, "a string")
            return (value.startswith(operand) if self.operator == "starts_with" else value.endswith(operand)), ""
        if self.operator in ("greater_than", "less_than"):
            return self._ordered(value, operand, 1 if self.operator == "greater_than" else -1)
        if self.operator in ("older_than", "newer_than"):
            return self._timed(value, operand, instant, -1 if self.operator == "older_than" else 1)
        return False, ""  # an operator outside the closed set: check has refused it

    def _equal(self, value: Any, operand: str) -> tuple[bool, str]:
        if isinstance(value, bool):
            if operand not in ("true", "false"):
                return False, self._cannot(value, "a boolean")
            return value == (operand == "true"), ""
        if isinstance(value, str):
            return value == operand, ""
        if isinstance(value, int | float):
            wanted = exact(operand)
            if wanted is None:
                return False, self._cannot(value, "a number")
            return _number(value) == wanted, ""
        return False, self._cannot(value, "a scalar")

    def _within(self, value: Any) -> tuple[bool, str]:
        if not isinstance(self.operand, Seq):
            return False, ""
        held = False
        for item in self.operand.items:
            if not isinstance(item, Scalar):
                continue
            equal, mismatch = self._equal(value, item.value)
            if mismatch:
                return False, mismatch
            held = held or equal
        return held, ""

    def _ordered(self, value: Any, operand: str, side: int) -> tuple[bool, str]:
        wanted_seconds = scalars.duration_seconds(operand)
        if wanted_seconds is not None:
            found = scalars.duration_seconds(value) if isinstance(value, str) else None
            if found is None:
                return False, self._cannot(value, "a duration")
            return _side(found, wanted_seconds) == side, ""
        wanted = exact(operand)
        if wanted is None:
            return False, ""  # an operand check has refused
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False, self._cannot(value, "a number")
        return _side(_number(value), wanted) == side, ""

    def _timed(self, value: Any, operand: str, instant: _dt.datetime, side: int) -> tuple[bool, str]:
        threshold = named_instant(operand, instant)
        if threshold is None:
            return False, ""  # an operand check has refused
        found = timestamp(value) if isinstance(value, str) else None
        if found is None:
            return False, self._cannot(value, "a timestamp")
        return _side(found, threshold) == side, ""

    def _cannot(self, value: Any, takes: str) -> str:
        return f"{self.field} holds {describe(value)}, which {self.operator}: cannot compare — it takes {takes}"


def read_test(node: Node | None) -> Test | None:
    """A predicate node as a :class:`Test`; ``None`` where it carries no operator (check's fault)."""
    read: Predicate | None = read_predicate(node)
    if read is None or not read.operators:
        return None
    key, operand = read.operators[0]
    return Test(
        field=read.field.value if read.field is not None else "",
        operator=key.value,
        operand=operand,
        line=key.line,
        step=read.step.value if read.step is not None else "",
    )


def exact(text: str) -> Fraction | None:
    """A number's text read exactly; ``None`` where it is not a number.

    ``decimal`` and ``fractions`` are imported by the first number compared: about 9M
    instructions that a Run whose Steps compare no number never spends (ADR 0006)."""
    if _NUMBER.fullmatch(text) is None:
        return None
    from decimal import Decimal, InvalidOperation  # deferred: start-up cost
    from fractions import Fraction

    try:
        return Fraction(Decimal(text))
    except (InvalidOperation, ValueError):
        return None


def _number(value: int | float) -> Fraction:
    """A stored number read exactly as the Store writes it — by its shortest decimal text, so
    a stored ``0.1`` equals an authored ``0.1``, and no integer passes through a float."""
    read = exact(number_text(value))
    assert read is not None
    return read


def timestamp(text: str) -> _dt.datetime | None:
    """Any RFC 3339 instant, offset included, in UTC: an API's answer has no author to hold to ``Z``."""
    if _STAMP.fullmatch(text) is None:
        return None
    try:
        read = _dt.datetime.fromisoformat(text.replace("z", "Z").replace("t", "T"))
    except ValueError:
        return None
    return read.astimezone(_dt.UTC)


def named_instant(operand: str, instant: _dt.datetime) -> _dt.datetime | None:
    """The instant an ``older_than``/``newer_than`` operand names: a duration before the Run's
    start, or a timestamp itself."""
    seconds = scalars.duration_seconds(operand)
    if seconds is not None:
        return instant - _dt.timedelta(seconds=seconds)
    return timestamp(operand)


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, str):
        import orjson  # deferred: start-up cost

        return "the string " + orjson.dumps(value).decode()
    if isinstance(value, int | float):
        return f"the number {number_text(value)}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "a value no comparison reads"


def _side(found: Any, wanted: Any) -> int:
    return int(found > wanted) - int(found < wanted)

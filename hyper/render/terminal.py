"""Terminal rows: the last row of every stream, and what it says about the cut.

A stream without its terminal row was cut off in transit; a stream with one says
whether the command itself cut it. ``truncated`` has exactly three shapes — the bare
``false``, the bare ``true`` of a namespace listing with nothing to narrow by, and
the marker object naming the axis of a listing that can be narrowed — and the
marker is checked when it is built, so no surface ever carries a malformed one.
"""

from __future__ import annotations

from hyper.core.basefaults import MarkerFault
from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, Value

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal, TypeAlias

Axis: TypeAlias = 'Literal["identity", "time"]'


class Marker(NamedTuple):
    axis: Axis
    returned: int
    dropped: int
    hint: str

    def checked(self) -> Marker:
        """This marker, or the :class:`MarkerFault` naming the member that breaks a rule."""
        if self.axis not in ("identity", "time"):
            raise MarkerFault(f"axis: {self.axis!r} is neither identity nor time")
        if self.returned < 1:
            raise MarkerFault(f"returned: {self.returned} is below 1")
        if self.dropped < 1:
            raise MarkerFault(f"dropped: {self.dropped} is below 1")
        if not self.hint:
            raise MarkerFault("hint: empty")
        return self

    def value(self) -> dict[str, Value]:
        return {"axis": self.axis, "returned": self.returned, "dropped": self.dropped, "hint": self.hint}


Truncated = bool | Marker


def result(truncated: Truncated = False) -> Row:
    value: Value = truncated.checked().value() if isinstance(truncated, Marker) else truncated
    return Row("result", {"truncated": value})


def narrowing(names: Sequence[str]) -> str:
    """``narrow with X``, ``narrow with X or Y``, ``narrow with X, Y or Z``."""
    if not names:
        return ""
    if len(names) == 1:
        return f"narrow with {names[0]}"
    return f"narrow with {', '.join(names[:-1])} or {names[-1]}"

"""``hyper.core.namedtuple.NamedTuple`` behaves as ``typing.NamedTuple`` does, wherever hyper could tell.

Each case defines the same class twice, once on each base, and holds the two to the same
answers: construction (positional, keyword, defaults, every error), the accessors, the
underscore methods, equality and hashing as tuples, pickling, pattern matching and the
parameters ``inspect`` reads (annotations are kept as
written, never evaluated: that is the saving).
"""

from __future__ import annotations

import inspect
import pickle
import typing
from collections.abc import Callable
from typing import Any

import pytest

from hyper.core import namedtuple


def _pair(body: str) -> tuple[Any, Any]:
    made = []
    for base in (namedtuple.NamedTuple, typing.NamedTuple):
        scope: dict[str, Any] = {"Base": base, "__name__": __name__}
        exec(f"class Point(Base):\n{body}", scope)
        made.append(scope["Point"])
    return made[0], made[1]


POINT = '''    """A point."""

    x: int
    y: int = 0
    label: str = "origin"

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, by: int) -> "Point":
        return self._replace(x=self.x + by)
'''


def _outcome(action: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "value", action()
    except Exception as fault:
        return type(fault).__name__, str(fault).replace("Point.__new__()", "Point()")


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((1,), {}),
        ((1, 2), {}),
        ((1, 2, "p"), {}),
        ((), {"x": 3}),
        ((1,), {"label": "q"}),
        ((), {}),
        ((1, 2, "p", 4), {}),
        ((1,), {"x": 2}),
        ((1,), {"z": 2}),
    ],
)
def test_construction_answers_alike(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    ours, theirs = _pair(POINT)
    mine, standard = _outcome(lambda: ours(*args, **kwargs)), _outcome(lambda: theirs(*args, **kwargs))
    assert mine[0] == standard[0]
    if mine[0] == "value":
        assert tuple(mine[1]) == tuple(standard[1])
        assert repr(mine[1]) == repr(standard[1])


def test_members_and_methods_answer_alike() -> None:
    ours, theirs = _pair(POINT)
    for cls in (ours, theirs):
        point = cls(3, -4)
        assert (point.x, point.y, point.label, point.norm) == (3, -4, "origin", 7)
        assert point.moved(2) == cls(5, -4)
        assert point._asdict() == {"x": 3, "y": -4, "label": "origin"}
        assert cls._make([1, 2, "m"]) == (1, 2, "m")
        assert point == (3, -4, "origin") and hash(point) == hash((3, -4, "origin"))
        assert cls._fields == ("x", "y", "label")
        assert cls._field_defaults == {"y": 0, "label": "origin"}
        assert cls.__doc__ == "A point."
        assert not hasattr(point, "__dict__")
        with pytest.raises(AttributeError):
            point.x = 9
        match point:
            case cls(a, b, c):
                assert (a, b, c) == (3, -4, "origin")

    # Names, kinds and defaults; the standard one also carries the annotations, evaluated.
    def shape(cls: Any) -> list[tuple[str, Any, Any]]:
        return [(p.name, p.kind, p.default) for p in inspect.signature(cls).parameters.values()]

    assert shape(ours) == shape(theirs)
    assert _outcome(lambda: ours(1)._replace(z=1))[0] == _outcome(lambda: theirs(1)._replace(z=1))[0]
    assert _outcome(lambda: ours._make([1]))[0] == _outcome(lambda: theirs._make([1]))[0]


def test_a_value_survives_pickling() -> None:
    point = Pickled(1, "a")
    assert pickle.loads(pickle.dumps(point)) == point
    assert type(pickle.loads(pickle.dumps(point))) is Pickled


class Pickled(namedtuple.NamedTuple):
    number: int
    text: str


@pytest.mark.parametrize(
    "body",
    [
        "    x: int = 0\n    y: int\n",  # a field without a default after one with
        "    _x: int\n",  # an underscore name
        "    x: int\n    def _replace(self) -> None: ...\n",  # a reserved member
    ],
)
def test_what_typing_refuses_is_refused(body: str) -> None:
    faults = []
    for base in (namedtuple.NamedTuple, typing.NamedTuple):
        with pytest.raises(Exception) as caught:
            exec(f"class Bad(Base):\n{body}", {"Base": base, "__name__": __name__})
        faults.append(type(caught.value))
    assert faults[0] is faults[1]


def test_a_class_with_no_fields_and_one_with_one() -> None:
    empty, standard_empty = _pair("    pass\n")
    assert empty() == standard_empty() == ()
    one, standard_one = _pair("    only: str\n")
    assert one("a") == standard_one("a") == ("a",)
    assert repr(one("a")) == repr(standard_one("a"))


@pytest.mark.parametrize("arity", [2, 13, 24, 25, 30])
def test_every_arity_builds_and_names_its_fields_alike(arity: int) -> None:
    """Up to 24 fields ``__new__`` comes from the module's spelled templates, past them from one
    compiled per arity: both answer as the standard one does, keywords and missing fields too."""
    ours, theirs = _pair("".join(f"    f{at}: int\n" for at in range(arity)))
    values = tuple(range(arity))
    for cls in (ours, theirs):
        assert cls(*values) == values
        assert cls(**{f"f{at}": at for at in values}) == values
    assert repr(ours(*values)) == repr(theirs(*values))
    assert [p.name for p in inspect.signature(ours).parameters.values()] == list(ours._fields)
    mine, standard = _outcome(lambda: ours(*values[1:])), _outcome(lambda: theirs(*values[1:]))
    assert mine == standard

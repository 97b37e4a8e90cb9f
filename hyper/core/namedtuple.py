"""``NamedTuple`` as the type checker knows it, defined at a fraction of the standard one's cost.

Every value on a start-up path is a NamedTuple (ADR 0006), and a review defines about a hundred
of them before it reads a byte. ``typing.NamedTuple`` spends most of a class's cost compiling:
``collections.namedtuple`` builds each ``__new__`` from source text, and under postponed
annotations every field's annotation string is compiled once more to be checked. Together that
was a quarter of a review's time in its own process.

Here a class is made without compiling per class: ``__new__`` is a copy of one compiled
function per arity with the fields' names written into its code object (so keywords, defaults,
error messages and ``inspect.signature`` are exactly namedtuple's), the accessors are the same
C getters namedtuple uses, and the shared methods are defined once and put in every class.
Annotations are kept as written and never evaluated. To mypy this module re-exports
``typing.NamedTuple``, so the classes are checked as NamedTuples; the tests in
``tests/test_namedtuple.py`` hold the two to the same behaviour.

The fast form leans on CPython internals (``_collections._tuplegetter``, ``code.replace`` and a
class namespace's ``__annotations__``, which PEP 749 replaces with ``__annotate__`` on 3.14), so
it is used only on the versions the suite runs on (``TESTED``); anywhere else this module is
``typing.NamedTuple`` itself, slower to define and otherwise the same (ADR 0023).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

TESTED = ((3, 11), (3, 12), (3, 13))
"""The CPython versions whose internals the fast form was tested against."""

FAST = sys.implementation.name == "cpython" and tuple(sys.version_info[:2]) in TESTED

if TYPE_CHECKING or not FAST:
    from typing import NamedTuple as NamedTuple
else:
    from _collections import _tuplegetter
    from types import FunctionType

    _tuple_new = tuple.__new__
    _GLOBALS = {"_tuple_new": _tuple_new}
    """``__new__``'s globals, shared by every class: its code reads nothing else."""
    # 3.13 made an unknown field in ``_replace`` a TypeError; before it was a ValueError.
    _UNEXPECTED_FIELD = TypeError if sys.version_info >= (3, 13) else ValueError
    _templates: dict[int, Any] = {}
    _RESERVED = frozenset(
        (
            "__new__",
            "__init__",
            "__slots__",
            "__getnewargs__",
            "_fields",
            "_field_defaults",
            "_make",
            "_replace",
            "_asdict",
        )
    )

    _SPELLED = (
        lambda _cls: _tuple_new(_cls, ()),
        lambda _cls, a: _tuple_new(_cls, (a,)),
        lambda _cls, a, b: _tuple_new(_cls, (a, b)),
        lambda _cls, a, b, c: _tuple_new(_cls, (a, b, c)),
        lambda _cls, a, b, c, d: _tuple_new(_cls, (a, b, c, d)),
        lambda _cls, a, b, c, d, e: _tuple_new(_cls, (a, b, c, d, e)),
        lambda _cls, a, b, c, d, e, f: _tuple_new(_cls, (a, b, c, d, e, f)),
        lambda _cls, a, b, c, d, e, f, g: _tuple_new(_cls, (a, b, c, d, e, f, g)),
        lambda _cls, a, b, c, d, e, f, g, h: _tuple_new(_cls, (a, b, c, d, e, f, g, h)),
        lambda _cls, a, b, c, d, e, f, g, h, i: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k, m)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k, m, n)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x)
        ),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x, y: _tuple_new(
            _cls, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x, y)
        ),
    )
    """``__new__``'s code for up to 24 fields (no ``l``: it reads as ``1``), spelled here so that
    it comes compiled in this module's bytecode. Compiling it from text once per arity cost about
    0.35M instructions an arity, and a review defines fourteen (ADR 0006). The names are
    placeholders: :func:`_build` writes the fields' own into the code."""

    def _template(arity: int) -> Any:
        """The code of ``__new__`` for ``arity`` fields: :data:`_SPELLED`'s, or compiled once
        per arity per process past it."""
        if arity < len(_SPELLED):
            return _SPELLED[arity].__code__
        code = _templates.get(arity)
        if code is None:
            names = ", ".join(f"_{at}" for at in range(arity))
            comma = "," if arity == 1 else ""
            source = f"lambda _cls, {names}: _tuple_new(_cls, ({names}{comma}))"
            built = eval(source, {"_tuple_new": _tuple_new})  # our own text, never input
            code = _templates[arity] = built.__code__
        return code

    class _Shared(tuple):
        """What every such class holds, defined once here and placed in each class's own
        namespace (:data:`_SHARED`), as namedtuple places its methods. Inherited from a common
        base instead, it cost every class one more dictionary in each of the ninety-odd slot
        lookups that making it does: about 8k instructions a class (ADR 0006)."""

        @classmethod
        def _make(cls, iterable: Iterable[Any]) -> Any:
            made = _tuple_new(cls, iterable)
            if len(made) != len(cls._fields):
                raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(made)}")
            return made

        def _replace(self, /, **changes: Any) -> Any:
            made = self._make(map(changes.pop, self._fields, self))
            if changes:
                raise _UNEXPECTED_FIELD(f"Got unexpected field names: {list(changes)!r}")
            return made

        def __repr__(self) -> str:
            shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
            return f"{self.__class__.__name__}({shown})"

        def _asdict(self) -> dict[str, Any]:
            return dict(zip(self._fields, self, strict=True))

        def __getnewargs__(self) -> tuple[Any, ...]:
            return tuple(self)

    _SHARED = {name: vars(_Shared)[name] for name in ("_make", "_replace", "__repr__", "_asdict", "__getnewargs__")}

    def _build(name: str, namespace: dict[str, Any]) -> type:
        fields = tuple(namespace.get("__annotations__", ()))
        listed = ", ".join(fields)
        defaulted = [field for field in fields if field in namespace]
        # What typing refuses, told apart at a cost every class can pay: the defaulted fields are
        # the last ones, no member is reserved, and no name begins with an underscore (it would
        # begin the list or follow a comma in it).
        if (
            fields[len(fields) - len(defaulted) :] != tuple(defaulted)
            or not _RESERVED.isdisjoint(namespace)
            or listed.startswith("_")
            or ", _" in listed
        ):
            _refuse(fields, namespace)
        defaults = tuple([namespace[field] for field in defaulted])
        qualname = namespace.get("__qualname__", name)
        code = _template(len(fields)).replace(
            co_varnames=("_cls", *fields), co_name="__new__", co_qualname=f"{qualname}.__new__"
        )
        # The shared methods, then the namespace as written (a ``__repr__`` of its own wins), each
        # field then replaced by its getter: a field's default lives in ``__new__`` and
        # ``_field_defaults``, as namedtuple keeps it.
        body: dict[str, Any] = {
            "__doc__": f"{name}({listed})",
            **_SHARED,
            **namespace,
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": dict(zip(fields[len(fields) - len(defaults) :], defaults, strict=True)),
            "__new__": FunctionType(code, _GLOBALS, "__new__", defaults or None),
            "__match_args__": fields,
        }
        for at, field in enumerate(fields):
            body[field] = _tuplegetter(at, None)
        return type(name, (tuple,), body)

    def _refuse(fields: tuple[str, ...], namespace: dict[str, Any]) -> None:
        """Raise what ``typing.NamedTuple`` raises for a class it refuses, in its order: a field's
        name or a default's place first, field by field, then a reserved member. :func:`_build`
        calls it only where one of them is wrong, which it tells by cheaper means: every class
        pays for that test, only a wrong one for this."""
        defaulted = False
        for field in fields:
            if field.startswith("_"):
                raise ValueError(f"Field names cannot start with an underscore: {field!r}")
            if field in namespace:
                defaulted = True
            elif defaulted:
                raise TypeError(f"Non-default namedtuple field {field} cannot follow default field(s)")
        for key in namespace:
            if key in _RESERVED:
                raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")

    class _Maker(type):
        def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> type:
            if namespace.get("__module__") == __name__ and name == "NamedTuple":
                return super().__new__(mcls, name, bases, namespace)
            if bases != (NamedTuple,):
                raise TypeError("a NamedTuple has no base but NamedTuple itself")
            return _build(name, namespace)

    class NamedTuple(metaclass=_Maker):
        """Subclass me as ``typing.NamedTuple`` is subclassed."""

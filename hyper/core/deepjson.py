"""JSON read and written to a stated depth, with no Python recursion past what the stack holds.

The one JSON reader hyper decodes with — the Store's files, an HTTP response's body, a
response sample a Probe is handed — and the one writer every deep value leaves through.

The standard library's scanner recurses once per level and stops at the interpreter's
recursion limit, about a thousand levels down; the reference, written in Go, reads what
``encoding/json`` admits, ten thousand. So a document is read by ``json.loads`` first —
the fast path, and every real document — and only one too deep for it is read again by
the loop here, which keeps its levels on a list, and refuses past ``depth`` with a
sentence (:class:`TooDeep`, a ``ValueError`` as every other fault of the text is).
:func:`dumps` writes any value :func:`loads` answers the same way, a list of open levels
in place of the call stack, so what was read can be written back (ADR 0012, ADR 0030).
"""

from __future__ import annotations

import json
import math
import re
from json.decoder import scanstring  # type: ignore[attr-defined]

from hyper.core.pattern import compiled
from hyper.core.readfaults import TooDeep

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any, Final

GO_DEPTH: Final = 10_000
"""Go's ``encoding/json`` nesting limit: what a Store the reference wrote may hold."""

_SPACE: Final = r"[ \t\n\r]*"
_NUMBER: Final = r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?"
"""The loop's two patterns, read only past the standard decoder's depth: compiled on first use."""
_WORDS: Final = {"true": True, "false": False, "null": None}
_CONSTANTS: Final = ("NaN", "Infinity", "-Infinity")


def refuse_constant(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity`` are no JSON: a ``ValueError`` naming the one met."""
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str, constant: Callable[[str], Any] = refuse_constant, depth: int = GO_DEPTH) -> Any:
    """``text`` as one JSON value; ``constant`` answers (or refuses) ``NaN`` and its kin.

    ``ValueError`` (``json.JSONDecodeError`` or :class:`TooDeep`) for anything else."""
    try:
        return json.loads(text, parse_constant=constant)
    except RecursionError:
        return _loop(text, constant, depth)


def _loop(s: str, constant: Callable[[str], Any], depth: int) -> Any:
    open_: list[list[Any] | dict[str, Any]] = []
    keys: list[str] = []
    i = compiled(_SPACE).match(s, 0).end()  # type: ignore[union-attr]
    while True:
        c = s[i : i + 1]
        value: Any
        if c in ("[", "{"):
            if len(open_) >= depth:
                raise TooDeep(depth)
            i = compiled(_SPACE).match(s, i + 1).end()  # type: ignore[union-attr]
            closer = "]" if c == "[" else "}"
            if s[i : i + 1] == closer:
                value, i = ([] if c == "[" else {}), i + 1
            else:
                open_.append([] if c == "[" else {})
                if c == "{":
                    i = _key(s, i, keys)
                continue
        elif c == '"':
            value, i = scanstring(s, i + 1)
        else:
            value, i = _scalar(s, i, constant)
        while True:
            if not open_:
                i = compiled(_SPACE).match(s, i).end()  # type: ignore[union-attr]
                if i != len(s):
                    raise json.JSONDecodeError("Extra data", s, i)
                return value
            top = open_[-1]
            if isinstance(top, list):
                top.append(value)
            else:
                top[keys.pop()] = value
            i = compiled(_SPACE).match(s, i).end()  # type: ignore[union-attr]
            c = s[i : i + 1]
            if c == ",":
                i = compiled(_SPACE).match(s, i + 1).end()  # type: ignore[union-attr]
                if isinstance(top, dict):
                    i = _key(s, i, keys)
                break
            if c != ("]" if isinstance(top, list) else "}"):
                raise json.JSONDecodeError("Expecting ',' delimiter", s, i)
            value, i = open_.pop(), i + 1


def _key(s: str, i: int, keys: list[str]) -> int:
    """An object's key and its colon at ``i``: where its value starts."""
    if s[i : i + 1] != '"':
        raise json.JSONDecodeError("Expecting property name enclosed in double quotes", s, i)
    key, i = scanstring(s, i + 1)
    i = compiled(_SPACE).match(s, i).end()  # type: ignore[union-attr]
    if s[i : i + 1] != ":":
        raise json.JSONDecodeError("Expecting ':' delimiter", s, i)
    keys.append(key)
    return compiled(_SPACE).match(s, i + 1).end()  # type: ignore[union-attr]


def _scalar(s: str, i: int, constant: Callable[[str], Any]) -> tuple[Any, int]:
    for word, meant in _WORDS.items():
        if s.startswith(word, i):
            return meant, i + len(word)
    for word in _CONSTANTS:
        if s.startswith(word, i):
            return constant(word), i + len(word)
    match = compiled(_NUMBER).match(s, i)
    if match is None or match.end() == i:
        raise json.JSONDecodeError("Expecting value", s, i)
    whole, fraction, exponent = match.groups()
    if fraction or exponent:
        return float(whole + (fraction or "") + (exponent or "")), match.end()
    return int(whole), match.end()


_SHORT: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE: Final = r'["\\\x00-\x1f]'
"""What :func:`quote` escapes; compiled on first use, by the first string that holds one."""


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    return _SHORT.get(char) or f"\\u{ord(char):04x}"


def quote(text: str) -> str:
    """The minimum JSON needs: the quote, the backslash and the controls; all else as itself.

    Most strings hold none of them, and are told so without the pattern: printable ASCII
    holds no control, so what is left to look for is the quote and the backslash. Compiling
    the pattern cost a review, which writes only to check that a file is canonical, more than
    every string it writes (ADR 0006)."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return '"' + compiled(_NEEDS_ESCAPE).sub(_escape, text) + '"'


def dumps(value: Any, number: Callable[[int | float], str], indent: str = "", sort_keys: bool = False) -> str:
    """``value`` — mappings with string keys, lists, strings, numbers, booleans, ``None`` — as
    JSON text: compact where ``indent`` is empty, else one member a line, ``indent`` a level;
    ``number`` spells every number. ``TypeError`` for anything else.

    Each open level is an iterator on a list, so ten thousand levels cost a list of ten
    thousand, not ten thousand frames."""
    parts: list[str] = []
    levels: list[tuple[Iterator[tuple[str | None, Any]], str]] = []
    written: list[bool] = []
    colon = ": " if indent else ":"
    pending: Any = value
    while True:
        if isinstance(pending, dict) and pending:
            levels.append((iter(sorted(pending.items()) if sort_keys else pending.items()), "}"))
            written.append(False)
            parts.append("{")
        elif isinstance(pending, list) and pending:
            levels.append((((None, item) for item in pending), "]"))
            written.append(False)
            parts.append("[")
        else:
            parts.append(_spelled(pending, number))
        while levels:
            children, closer = levels[-1]
            child = next(children, None)
            if child is None:
                levels.pop()
                written.pop()
                if indent:
                    parts.append("\n" + indent * len(levels))
                parts.append(closer)
                continue
            if written[-1]:
                parts.append(",")
            written[-1] = True
            if indent:
                parts.append("\n" + indent * len(levels))
            key, pending = child
            if key is not None:
                if not isinstance(key, str):
                    raise TypeError(f"a mapping key is a string, not {key!r}")
                parts.append(quote(key) + colon)
            break
        else:
            return "".join(parts)


def compact(value: Any) -> bytes:
    """Compact JSON, no HTML escaping, non-ASCII raw: orjson's, and where orjson declines — an
    integer wider than 64 bits, a value deeper than its 255 levels — :func:`dumps`'s, which
    spells numbers as ``json.dumps`` does."""
    import orjson  # deferred: start-up cost

    try:
        return orjson.dumps(value)
    except TypeError:
        return dumps(value, _json_number).encode("utf-8")


def _json_number(number: int | float) -> str:
    if isinstance(number, float) and (math.isnan(number) or math.isinf(number)):
        raise ValueError(f"{number!r} has no JSON spelling")
    return repr(number)


DROP: Final = object()
"""What a ``leaf`` of :func:`rebuild` answers for a value its holder is to be built without."""


def _as_is(value: Any) -> Any:
    return value


def rebuild(value: Any, leaf: Callable[[Any], Any] = _as_is, sort_keys: bool = False) -> Any:
    """``value`` built again mapping by mapping and list by list, each other value through
    ``leaf`` (:data:`DROP` leaves it out), each mapping's keys sorted where ``sort_keys``.

    The levels still to build wait on a list, so a value as deep as :func:`loads` admits
    costs no frame a level."""
    if not isinstance(value, dict | list):
        return leaf(value)
    whole: dict[Any, Any] | list[Any] = {} if isinstance(value, dict) else []
    waiting: list[tuple[Any, dict[Any, Any] | list[Any]]] = [(value, whole)]
    while waiting:
        source, built = waiting.pop()
        if isinstance(source, list):
            members: Iterable[tuple[Any, Any]] = enumerate(source)
        else:
            members = sorted(source.items()) if sort_keys else source.items()
        for key, item in members:
            child: Any
            if isinstance(item, dict | list):
                child = {} if isinstance(item, dict) else []
                waiting.append((item, child))
            else:
                child = leaf(item)
                if child is DROP:
                    continue
            if isinstance(built, dict):
                built[key] = child
            else:
                built.append(child)
    return whole


def _spelled(value: Any, number: Callable[[int | float], str]) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    raise TypeError(f"{type(value).__name__} is not a JSON value")

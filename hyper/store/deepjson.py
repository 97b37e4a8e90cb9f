"""JSON read to a stated depth, with no Python recursion past what the stack holds.

The standard library's scanner recurses once per level and stops at the interpreter's
recursion limit, about a thousand levels down; the reference's Store, written through Go's
``encoding/json``, may nest ten thousand. So a document is read by ``json.loads`` first —
the fast path, and every real document — and only one too deep for it is read again by
the loop here, which keeps its levels on a list, and refuses past ``depth`` with a
sentence (:class:`TooDeep`, a ``ValueError`` as every other fault of the text is).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any, Final

from hyper.core.faults import TooDeep

GO_DEPTH: Final = 10_000
"""Go's ``encoding/json`` nesting limit: what a Store the reference wrote may hold."""

_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WORDS: Final = {"true": True, "false": False, "null": None}
_CONSTANTS: Final = ("NaN", "Infinity", "-Infinity")


def loads(text: str, constant: Callable[[str], Any], depth: int = GO_DEPTH) -> Any:
    """``text`` as one JSON value; ``constant`` answers (or refuses) ``NaN`` and its kin.

    ``ValueError`` (``json.JSONDecodeError`` or :class:`TooDeep`) for anything else."""
    try:
        return json.loads(text, parse_constant=constant)
    except RecursionError:
        return _loop(text, constant, depth)


def _loop(s: str, constant: Callable[[str], Any], depth: int) -> Any:
    open_: list[list[Any] | dict[str, Any]] = []
    keys: list[str] = []
    i = _SPACE.match(s, 0).end()  # type: ignore[union-attr]
    while True:
        c = s[i : i + 1]
        value: Any
        if c in ("[", "{"):
            if len(open_) >= depth:
                raise TooDeep(depth)
            i = _SPACE.match(s, i + 1).end()  # type: ignore[union-attr]
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
                i = _SPACE.match(s, i).end()  # type: ignore[union-attr]
                if i != len(s):
                    raise json.JSONDecodeError("Extra data", s, i)
                return value
            top = open_[-1]
            if isinstance(top, list):
                top.append(value)
            else:
                top[keys.pop()] = value
            i = _SPACE.match(s, i).end()  # type: ignore[union-attr]
            c = s[i : i + 1]
            if c == ",":
                i = _SPACE.match(s, i + 1).end()  # type: ignore[union-attr]
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
    i = _SPACE.match(s, i).end()  # type: ignore[union-attr]
    if s[i : i + 1] != ":":
        raise json.JSONDecodeError("Expecting ':' delimiter", s, i)
    keys.append(key)
    return _SPACE.match(s, i + 1).end()  # type: ignore[union-attr]


def _scalar(s: str, i: int, constant: Callable[[str], Any]) -> tuple[Any, int]:
    for word, meant in _WORDS.items():
        if s.startswith(word, i):
            return meant, i + len(word)
    for word in _CONSTANTS:
        if s.startswith(word, i):
            return constant(word), i + len(word)
    match = _NUMBER.match(s, i)
    if match is None or match.end() == i:
        raise json.JSONDecodeError("Expecting value", s, i)
    whole, fraction, exponent = match.groups()
    if fraction or exponent:
        return float(whole + (fraction or "") + (exponent or "")), match.end()
    return int(whole), match.end()

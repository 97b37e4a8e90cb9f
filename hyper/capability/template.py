"""Filling template holes: the one way an input reaches a request or a Record's name.

There is one hole syntax in every artefact, ``{name}``, so there is one filler. Every
request position but ``body:`` is text on the wire, where a hole renders its input's
text form whether it stands alone or beside other characters. ``body:`` is the one
sink with types, and there the boundary is on the line a reviewer reads:

* a hole that is the **whole** value carries its input's own JSON type
  (``{minutes}`` declared ``integer`` reaches the wire as a number);
* a hole beside other characters is a composition, which can only mean a string;
* a literal carries its YAML 1.2 core type — ``false`` a boolean, ``2592000`` a
  number, ``"2592000"`` (quoted) a string — so the Norway problem never arises.

A hole nothing fills is a fault rather than the empty string: an input left out is a
request no artefact describes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from hyper.core.deepjson import compact
from hyper.core.faults import TemplateFault
from hyper.yaml.subset import Map, Node, Scalar, Seq

HOLE: Final = re.compile(r"\{([^{}]+)\}")

_CORE_INT: Final = re.compile(r"[-+]?[0-9]+")
_CORE_OCT: Final = re.compile(r"0o([0-7]+)")
_CORE_HEX: Final = re.compile(r"0x([0-9a-fA-F]+)")
_CORE_FLOAT: Final = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_CORE_SPECIAL: Final = re.compile(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")
_CORE_BOOL: Final = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})


def text_form(value: Any) -> str:
    """An input as text on the wire: a string as itself, a number or boolean as JSON spells it."""
    if isinstance(value, str):
        return value

    return compact(value).decode("utf-8")


def fill(position: str, template: str, inputs: Mapping[str, Any]) -> str:
    """``template`` with every hole replaced by its input's text form."""
    unfilled: list[str] = []

    def one(hole: re.Match[str]) -> str:
        name = hole.group(1)
        if name not in inputs:
            unfilled.append(name)
            return hole.group(0)
        return text_form(inputs[name])

    filled = HOLE.sub(one, template)
    if unfilled:
        raise TemplateFault(f'{position} names an input "{unfilled[0]}" that nothing supplied')
    return filled


def body(node: Node, inputs: Mapping[str, Any]) -> bytes:
    """A ``body:`` tree as compact JSON: keys in authored order, each scalar typed as above."""
    out: list[str] = []

    def write(current: Node) -> None:
        if isinstance(current, Map):
            out.append("{")
            for index, (key, value) in enumerate(current.entries):
                out.append(("," if index else "") + compact(key.value).decode("utf-8") + ":")
                write(value)
            out.append("}")
        elif isinstance(current, Seq):
            out.append("[")
            for index, item in enumerate(current.items):
                if index:
                    out.append(",")
                write(item)
            out.append("]")
        else:
            out.append(_scalar(current, inputs))

    write(node)
    return "".join(out).encode("utf-8")


def _scalar(node: Scalar, inputs: Mapping[str, Any]) -> str:
    from hyper.store.canonical import number_text  # deferred: start-up cost

    whole = HOLE.fullmatch(node.value)
    if whole is not None:
        name = whole.group(1)
        if name not in inputs:
            raise TemplateFault(f'body: names an input "{name}" that nothing supplied')
        return compact(inputs[name]).decode("utf-8")
    if "{" in node.value:
        return compact(fill("body:", node.value, inputs)).decode("utf-8")
    if not node.plain:
        return compact(node.value).decode("utf-8")
    spelled = node.value
    if spelled in _CORE_BOOL:
        return spelled.lower()
    if _CORE_INT.fullmatch(spelled):
        return str(int(spelled))
    for form, base in ((_CORE_OCT, 8), (_CORE_HEX, 16)):
        found = form.fullmatch(spelled)
        if found is not None:
            return str(int(found.group(1), base))
    if _CORE_SPECIAL.fullmatch(spelled):
        raise TemplateFault(f"body: carries {spelled}, which YAML reads as a number and JSON has no spelling for")
    if _CORE_FLOAT.fullmatch(spelled):
        return number_text(float(spelled))
    return compact(spelled).decode("utf-8")

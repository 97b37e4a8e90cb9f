"""A polling Pattern's ``until:``: the predicate operators rooted at the response in hand.

The operator set is one for every root; :mod:`hyper.capability.predicate` decides an operator
against a value, and this module only supplies what differs at the third root. A
``field:`` here is a response *path* written without its ``$`` (a response has paths,
not declared names), so the marker is put back before resolving; and a path resolving
to nothing or to a JSON ``null`` is *not carried* — the same absence a Record's missing
field is, which ``exists``/``absent`` state and every other operator is false on.

A list does not short-circuit: every entry is decided, so which mismatch is reported
never depends on the order two were written in. A mismatch (a value of a type the
operator cannot compare) is returned as a sentence; after the call went out there is no
Refusal to give, so the Run halts on it.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

from hyper.capability.predicate import read_test
from hyper.capability.projection import resolve
from hyper.yaml.subset import Node, Seq


def rooted(field: str) -> str:
    """``field`` with the response root's ``$`` written the way its first segment is spelled."""
    return "$" + field if field.startswith("[") else "$." + field


def holds(until: Node | None, response: Mapping[str, Any], instant: _dt.datetime) -> tuple[bool, str]:
    """Whether every entry holds of ``response``; ``(False, mismatch)`` where one cannot compare."""
    held, mismatch = True, ""
    for entry in until.items if isinstance(until, Seq) else ():
        test = read_test(entry)
        if test is None or not test.field:
            continue  # check refuses a malformed entry where it is written
        found, value = resolve(rooted(test.field), response)
        matched, fault = test.decides(value, found and value is not None, instant)
        mismatch = mismatch or fault
        held = held and matched
    return (False, f"the polling Pattern's until: {mismatch}") if mismatch else (held, "")

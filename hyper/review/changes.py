"""The change column's index: which facts moved across the range, and in which direction.

Facts are paired by subject (the artefact itself, or a Step's id) and key; a subject
present on one side only has no before-and-after, and what the page says about it is
the ``~`` beside its lines. A direction is claimed only where it is decidable: set
inclusion (``widened`` / ``narrowed``) and a Bound's magnitude, an absent Bound being
unbounded. A selector, a credential variable and a Cadence move by ``changed`` and
show both sides in full — predicate subsumption is not decidable, and calling one
predicate wider than another would be inventing the fact this index exists to report.

A baseline that will not parse still marks the lines that moved; it draws no flag,
having no values to compare.
"""

from __future__ import annotations

from hyper.artefact.scalars import is_integer
from hyper.review.facts import Fact, facts_of
from hyper.review.kinds import Kind
from hyper.review.marks import Flag, step_coordinate
from hyper.review.touched import Touched
from hyper.yaml import subset as yamlsubset
from hyper.yaml.subset import Node

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

SINCE_DIGITS: Final = 7
MEMBER_GAP: Final = " · "
NOTHING: Final = "–"


def change_flags(
    kind: Kind,
    path: str,
    baseline: bytes,
    root: Node | None,
    touched: Touched,
    drawn: frozenset[int],
    revision: str,
) -> list[Flag]:
    parsed = yamlsubset.parse(baseline, path)
    if not parsed.ok:
        return []
    was = {(fact.step, fact.key): fact for fact in facts_of(kind, parsed.root)}
    since = revision[:SINCE_DIGITS]
    flags: list[Flag] = []
    for fact in facts_of(kind, root):
        before = was.get((fact.step, fact.key))
        if before is None or before.same(fact):
            continue
        flags.append(_flag(before, fact, touched, drawn, since))
    return flags


def _flag(before: Fact, after: Fact, touched: Touched, drawn: frozenset[int], since: str) -> Flag:
    head, coordinate = "", after.key
    if after.step:
        head, coordinate = f"{after.key} ", step_coordinate(after.step)
    head += f"{_side(before)} → {_side(after)} since {since}"
    return Flag(
        _direction(before, after),
        _cited(before, after, touched, drawn),
        after.step,
        coordinate,
        head,
        before=_stacked(before),
        after=_stacked(after),
    )


def _direction(before: Fact, after: Fact) -> str:
    if after.shape == "set":
        if set(before.members) <= set(after.members):
            return "widened"
        if set(after.members) <= set(before.members):
            return "narrowed"
    elif after.shape == "bound":
        return _bound_direction(before, after)
    return "changed"


def _bound_direction(before: Fact, after: Fact) -> str:
    was_legible, was = _magnitude(before)
    is_legible, is_ = _magnitude(after)
    if not was_legible or not is_legible:
        return "changed"  # a Bound nobody could read as a number has no direction
    if was is None and is_ is not None:
        return "narrowed"
    if was is not None and is_ is None:
        return "widened"
    if was is not None and is_ is not None and was != is_:
        return "widened" if is_ > was else "narrowed"
    return "changed"


def _magnitude(fact: Fact) -> tuple[bool, int | None]:
    """Whether the Bound reads at all, and its number (``None`` for an absent one: unbounded)."""
    if not fact.written:
        return True, None
    text = fact.value.strip()
    if not is_integer(text):
        return False, None
    return True, int(text)


def _cited(before: Fact, after: Fact, touched: Touched, drawn: frozenset[int]) -> int:
    """The line the row cites: the first marked line of the fact, else where its deletion was
    anchored, else a line of it the gutter drew, else its subject's line."""
    for line in after.lines:
        if touched.marked(line):
            return line
    for line in before.lines:
        anchor = touched.anchors.get(line, 0)
        if anchor:
            return anchor
    for line in after.lines:
        if line in drawn:
            return line
    if after.subject_line in drawn or not after.written:
        return after.subject_line
    return after.lines[0]


def _side(fact: Fact) -> str:
    if fact.shape == "set":
        return MEMBER_GAP.join(fact.members) if fact.members else NOTHING
    return fact.value or NOTHING


def _stacked(fact: Fact) -> tuple[str, ...]:
    """What stands under the head for one side: a Cadence's gloss and executor facts, a
    selector's members; nothing where the head says it all."""
    if fact.shape == "cadence":
        from hyper.cadence import gloss  # deferred: start-up cost

        read = gloss(fact.value)
        if read is None:
            return ()
        return (f"{read.phrase} · {read.rate.text}", *read.facts)
    if fact.shape == "selector":
        if fact.value == "values":
            return (MEMBER_GAP.join(fact.members),)
        return fact.members
    return ()

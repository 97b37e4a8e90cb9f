"""The classed code facts an artefact writes in its own lines, read at the two repository
revisions the window's ends recorded, and the lines each one occupies.

The facts are the review's own (:func:`hyper.review.facts.facts_of`): one extraction, so a
``WIDENED`` flag and a ``bound`` row can never disagree about what a Bound is. A fact that did
not move makes no row however its bytes moved (a reordered set, reordered conjuncts); those lines
fall to the catch-all. Which artefacts are in view is read off the Step files — the Procedure,
and every Definition, Manifest and Target a Step of either end named — never inferred from the
working tree. An artefact present at one revision only — a Target declaration the window
created, say — draws a row per fact it writes, with the other side absent; a Step present at one
revision only within an artefact at both has no before-and-after, and its lines are the
catch-all's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hyper.artefact.repository import declared_name
from hyper.cadence import gloss
from hyper.core.namedtuple import NamedTuple
from hyper.review import kinds
from hyper.review.facts import Fact, Shape, conjuncts, facts_of
from hyper.review.kinds import Kind, kind_of
from hyper.run.expand import as_stored
from hyper.store.git import Git
from hyper.store.reading import Dispositions
from hyper.yaml import subset as yamlsubset

SUBJECT_KIND = {
    kinds.PROCEDURE: "procedure",
    kinds.DEFINITION: "definition",
    kinds.MANIFEST: "manifest",
    kinds.TARGET: "target",
    kinds.REPOSITORY: "repository",
}
"""The ``SUBJECT`` cell's word per artefact kind: the directory's noun, so kind and name make a path."""


class Moved(NamedTuple):
    """One classed fact that moved: its wire values and the lines it sits on at each revision."""

    subject_kind: str
    subject: str
    fact: str
    shape: Shape
    before: Any
    after: Any
    cadence: tuple[Any, ...] = ()
    """``(from_phrase, to_phrase, from_rate, to_rate)`` on a Cadence; empty on every other fact."""

    @property
    def sort_key(self) -> tuple[int, str, str]:
        """``(SUBJECT, FACT)`` by code point, a fact that belongs to no artefact after the rest."""
        return (0 if self.subject else 1, f"{self.subject_kind} {self.subject}", self.fact)


class Classed(NamedTuple):
    facts: tuple[Moved, ...]
    covered: dict[tuple[str, str], frozenset[int]]
    """``(side, path)`` → the lines classed rows report; ``side`` is ``"-"`` or ``"+"``."""


def in_view(procedure: str, ends: Iterable[Dispositions]) -> dict[Kind, set[str]]:
    """What the two ends read, by kind: the Procedure (and each one a Step was nested in), and
    the Definitions, Manifests and Targets their Step files name."""
    wanted: dict[Kind, set[str]] = {kind: set() for kind in SUBJECT_KIND}
    wanted[kinds.PROCEDURE].add(procedure)
    for held in ends:
        for step in held.steps:
            wanted[kinds.DEFINITION].add(step.code.definition)
            wanted[kinds.MANIFEST].add(step.code.provider)
            wanted[kinds.TARGET].add(step.code.target)
            for part in step.path.split("/"):
                if part:
                    wanted[kinds.PROCEDURE].add(part)
    return wanted


def _blob(git: Git, revision: str, path: str) -> bytes | None:
    status, out, _ = git.call("cat-file", "blob", f"{revision}:{path}")
    return out if status == 0 else None


def _value(fact: Fact) -> Any:
    """The fact as the wire carries it: a set as its sorted list, a selector under its form (a
    ``values:`` list as authored, each predicate conjunct in its authored shape, as a Step file
    declares it), a Bound as a number where it is one, anything else as written; ``None`` where
    unwritten."""
    if not fact.written:
        return None
    if fact.shape == "set":
        return list(fact.members) or None
    if fact.shape == "selector" and fact.value == "values":
        return {fact.value: list(fact.members)}
    if fact.shape == "selector":
        return {fact.value: [as_stored(conjunct) for conjunct in conjuncts(fact.node)]} if fact.value else None
    if fact.shape == "bound" and fact.value.isdigit():
        return int(fact.value)
    return fact.value or None


def _cadence(before: Fact | None, after: Fact | None) -> tuple[Any, ...]:
    was = gloss(before.value) if before is not None and before.value else None
    now = gloss(after.value) if after is not None and after.value else None
    return (
        was.phrase if was else None,
        now.phrase if now else None,
        was.rate.value if was else None,
        now.rate.value if now else None,
    )


def _label(fact: Fact) -> str:
    return f"step {fact.step} · {fact.key}" if fact.step else fact.key


def _name(kind: Kind, path: str, root: Any) -> str:
    file = path.rsplit("/", 1)[-1]
    return declared_name(root, kind.name_key) or file.removesuffix(".yaml") if kind.name_key else file


def _unpaired(kind: Kind, path: str, data: bytes, created: bool) -> tuple[list[Moved], set[int]]:
    """An artefact at one revision only: each fact it writes, the other side absent."""
    held = yamlsubset.parse(data, path)
    if not held.ok:
        return [], set()
    name = _name(kind, path, held.root)
    moved: list[Moved] = []
    lines: set[int] = set()
    for fact in facts_of(kind, held.root):
        value = _value(fact)
        if value is None:
            continue
        pair: tuple[Fact | None, Fact | None] = (None, fact) if created else (fact, None)
        cadence = _cadence(*pair) if fact.shape == "cadence" else ()
        before, after = (None, value) if created else (value, None)
        moved.append(Moved(SUBJECT_KIND[kind], name, _label(fact), fact.shape, before, after, cadence))
        lines.update(fact.lines)
    return moved, lines


def _compare(kind: Kind, path: str, old: bytes, new: bytes) -> tuple[list[Moved], set[int], set[int]]:
    was, now = yamlsubset.parse(old, path), yamlsubset.parse(new, path)
    if not (was.ok and now.ok):
        return [], set(), set()
    name = _name(kind, path, now.root)
    before = {(fact.step, fact.key): fact for fact in facts_of(kind, was.root)}
    moved: list[Moved] = []
    removed: set[int] = set()
    added: set[int] = set()
    for fact in facts_of(kind, now.root):
        earlier = before.get((fact.step, fact.key))
        if earlier is None or earlier.same(fact):
            continue
        cadence = _cadence(earlier, fact) if fact.shape == "cadence" else ()
        moved.append(Moved(SUBJECT_KIND[kind], name, _label(fact), fact.shape, _value(earlier), _value(fact), cadence))
        removed.update(earlier.lines)
        added.update(fact.lines)
    return moved, removed, added


def classed(git: Git, was: str, now: str, changed: Iterable[str], wanted: dict[Kind, set[str]]) -> Classed:
    """The moved facts of every changed artefact in view, and the lines they cover."""
    facts: list[Moved] = []
    covered: dict[tuple[str, str], frozenset[int]] = {}
    for path in changed:
        kind = kind_of(path)
        if kind is None:
            continue
        old, new = _blob(git, was, path), _blob(git, now, path)
        if old is not None and new is not None:
            moved, removed, added = _compare(kind, path, old, new)
        elif new is not None:
            (moved, added), removed = _unpaired(kind, path, new, created=True), set()
        elif old is not None:
            (moved, removed), added = _unpaired(kind, path, old, created=False), set()
        else:
            continue
        if kind is not kinds.REPOSITORY:
            moved = [fact for fact in moved if fact.subject in wanted[kind]]
        if not moved:
            continue
        facts.extend(moved)
        covered[("-", path)] = frozenset(removed)
        covered[("+", path)] = frozenset(added)
    return Classed(tuple(facts), covered)

"""``THE CODE MOVED``: the Provenance members that moved between the two ends, the classed facts
the artefacts in view write in their own lines, and the catch-all counting every other moved
line of the five reviewed artefact kinds.

The digests read off the two Journal entries alone, so they stand even where the clone lacks a
revision. Everything else reads git objects, with lazy fetching off (the Store's git
environment): where a revision is missing the classed facts cannot be read and the catch-all is
replaced by a line saying what could not be counted — never a count of zero. The count and the
classed facts are taken between the two *committed* revisions even where an end was dirty; the
command is withheld then, since it would not reproduce what that Run read.
"""

from __future__ import annotations

import re

from hyper.core.namedtuple import NamedTuple
from hyper.inspect.comparison.classed import Classed, Moved, classed, in_view
from hyper.store.branch import Store
from hyper.store.git import Git
from hyper.store.reading import Dispositions

ABBREVIATED = 7
REVIEWED = ("hyper.yaml", "definitions", "procedures", "providers", "targets")
"""What the catch-all counts over: the five reviewed kinds' homes, and never a generated workflow."""
CATCH_ALL = "other lines changed"
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class CatchAll(NamedTuple):
    """The closing row: ``lines`` is ``None`` where a revision is not in this clone;
    ``command`` is empty where either end recorded ``repo_dirty``."""

    lines: int | None
    command: str


class Code(NamedTuple):
    facts: tuple[Moved, ...]
    catch_all: CatchAll | None


def _by_member(held: Dispositions, member: str) -> dict[str, str]:
    """Per Definition (or per Provider), what its Step files recorded; a Run reads one tree, so
    every Step naming one artefact agrees."""
    answered: dict[str, str] = {}
    for step in held.steps:
        if step.provenance is None:
            continue
        if member == "definition_revision" and step.code.definition:
            answered.setdefault(step.code.definition, step.provenance.definition_revision)
        elif member == "manifest_digest" and step.code.provider:
            answered.setdefault(step.code.provider, step.provenance.manifest_digest)
        elif member == "origin_digest" and step.code.provider and step.provenance.origin_digest:
            answered.setdefault(step.code.provider, step.provenance.origin_digest)
    return answered


def _pairs(kind: str, fact: str, before: dict[str, str], after: dict[str, str]) -> list[Moved]:
    return [
        Moved(kind, name, fact, "scalar", before.get(name) or None, after.get(name) or None)
        for name in sorted(before.keys() | after.keys())
        if before.get(name, "") != after.get(name, "")
    ]


def digests(procedure: str, base: Dispositions, subject: Dispositions) -> list[Moved]:
    """The digests class: one row per Provenance member that moved, each under the artefact it
    belongs to; the repository revision belongs to none."""
    was, now = base.entry.run_file.provenance, subject.entry.run_file.provenance
    found = _pairs(
        "procedure", "procedure revision", {procedure: was.procedure_revision}, {procedure: now.procedure_revision}
    )
    found += _pairs("repository", "hyper version", {"hyper.yaml": was.hyper_version}, {"hyper.yaml": now.hyper_version})
    for kind, fact, member in (
        ("definition", "definition revision", "definition_revision"),
        ("manifest", "manifest digest", "manifest_digest"),
        ("manifest", "origin digest", "origin_digest"),
    ):
        found += _pairs(kind, fact, _by_member(base, member), _by_member(subject, member))
    if was.repo_revision != now.repo_revision:
        found.append(Moved("", "", "repository revision", "scalar", was.repo_revision, now.repo_revision))
    return found


def _in_clone(git: Git, revision: str) -> bool:
    status, _, _ = git.call("cat-file", "-e", f"{revision}^{{commit}}")
    return status == 0


def _changed(git: Git, was: str, now: str) -> list[str]:
    out = git.run("diff", "--no-ext-diff", "--no-renames", "--name-only", "-z", was, now, "--", *REVIEWED)
    return [path for path in out.decode("utf-8", "surrogateescape").split("\0") if path]


def _other_lines(git: Git, was: str, now: str, read: Classed) -> int:
    """Added plus removed lines as ``git diff`` counts them, less the lines a classed row reports."""
    out = git.run("diff", "--no-ext-diff", "--no-renames", "--no-color", "-U0", was, now, "--", *REVIEWED)
    count = 0
    path = ""
    for line in out.decode("utf-8", "surrogateescape").splitlines():
        if line.startswith("diff --git "):
            path = line.split(" b/", 1)[-1]
            continue
        hunk = _HUNK.match(line)
        if hunk is None:
            continue
        old_start, old_count, new_start, new_count = hunk.groups()
        removed = range(int(old_start), int(old_start) + int(1 if old_count is None else old_count))
        added = range(int(new_start), int(new_start) + int(1 if new_count is None else new_count))
        count += sum(1 for at in removed if at not in read.covered.get(("-", path), frozenset()))
        count += sum(1 for at in added if at not in read.covered.get(("+", path), frozenset()))
    return count


def code(store: Store, procedure: str, base: Dispositions | None, subject: Dispositions) -> Code:
    """The table; a first Run has no range, so it holds no fact and no catch-all."""
    if base is None:
        return Code((), None)
    facts = digests(procedure, base, subject)
    was, now = base.entry.run_file.provenance, subject.entry.run_file.provenance
    dirty = was.repo_dirty or now.repo_dirty
    command = "" if dirty else f"git diff {was.repo_revision[:ABBREVIATED]} {now.repo_revision[:ABBREVIATED]}"
    git = store.git
    if not (_in_clone(git, was.repo_revision) and _in_clone(git, now.repo_revision)):
        return Code(tuple(sorted(facts, key=lambda fact: fact.sort_key)), CatchAll(None, command))
    changed = _changed(git, was.repo_revision, now.repo_revision)
    read = classed(git, was.repo_revision, now.repo_revision, changed, in_view(procedure, (base, subject)))
    facts += read.facts
    lines = _other_lines(git, was.repo_revision, now.repo_revision, read)
    return Code(tuple(sorted(facts, key=lambda fact: fact.sort_key)), CatchAll(lines, command))

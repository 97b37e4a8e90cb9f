"""The rules every artefact shares: its ``kind:``, its own name, and where ``env:`` may stand.

They read one file against its own location and nothing else, so they run on every
artefact that parsed. Each says nothing where the key it reads is absent or not a
scalar: that is the schema's ``schema-mismatch`` already, and one cause earns one row.
"""

from __future__ import annotations

from hyper.check import codes
from hyper.core.problem import Problem
from hyper.yaml.access import at, descend, join, member
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable


def kind_mismatch(file: str, kind: Node | None, want: str) -> list[Problem]:
    """``kind`` is what the file writes under ``kind:`` (``None`` where nothing is), taken from the
    artefact's reading where it holds it: every artefact asks, and a scan of its keys each time
    was a visible part of ``check``."""
    if not isinstance(kind, Scalar) or kind.value == want:
        return []
    return [
        at(
            file,
            kind,
            "kind",
            codes.KIND_MISMATCH,
            f"kind: {kind.value} is not what {file} holds — a file there is kind: {want}",
        )
    ]


def basename(file: str) -> str:
    """The file's name without its extension, as :func:`posixpath.splitext` cuts it (a name's
    leading dots begin no extension), spelled out: every artefact asks it once, and the library's
    general path handling was a visible part of that."""
    name = file.rpartition("/")[2]
    dot = name.rfind(".")
    return name[:dot] if dot > 0 and name[:dot].lstrip(".") else name


def name_mismatch(file: str, named: Node | None, key: str) -> list[Problem]:
    """``named`` is what the file writes under its name ``key``, as :func:`kind_mismatch` takes its kind."""
    if not isinstance(named, Scalar) or named.value == basename(file):
        return []
    return [
        at(
            file,
            named,
            key,
            codes.NAME_MISMATCH,
            f"{key}: {named.value} differs from the file's own name — {file} declares {key}: {basename(file)}",
        )
    ]


def slot_problems(file: str, root: Node | None) -> tuple[list[Problem], set[int]]:
    """A Target declaration's credential slots, each a mapping whose one key is ``env:``.

    Answers the problems and the identities of every slot value read, so the walk for
    a stray ``env:`` key does not report the same slot a second time.
    """
    problems: list[Problem] = []
    slots: set[int] = set()
    auth = member(root, "auth")
    if not isinstance(auth, Map):
        return problems, slots
    for key, value in auth.entries:
        slots.add(id(value))
        field = f"auth.{key.value}"
        if isinstance(value, Map) and len(value.entries) == 1 and value.entries[0][0].value == "env":
            continue
        problems.append(
            at(
                file,
                value,
                field,
                codes.CREDENTIAL_SLOT_MALFORMED,
                f"{field}: a credential slot is a mapping with exactly one key, env:, naming a variable",
            )
        )
    return problems, slots


def stray_env_keys(file: str, root: Node | None, slots: Collection[int] = ()) -> list[Problem]:
    """``env:`` written anywhere but as a credential slot's one key, in any artefact."""
    if not _writes_env(root, slots):
        return []  # the common case, decided without spelling a field for every node
    return [
        at(
            file,
            key,
            join(field, key.value),
            codes.CREDENTIAL_SLOT_MALFORMED,
            "env: belongs only inside a credential slot, as its one key",
        )
        for field, node in descend(root)
        if isinstance(node, Map) and id(node) not in slots
        for key, _ in node.entries
        if key.value == "env"
    ]


def _writes_env(root: Node | None, slots: Collection[int]) -> bool:
    """Whether any mapping but a slot has an ``env:`` key: one walk, run on every artefact."""
    pending: list[Node | None] = [root]
    while pending:
        node = pending.pop()
        if isinstance(node, Map):
            counts = id(node) not in slots
            for key, value in node.entries:
                if counts and key.value == "env":
                    return True
                if not isinstance(value, Scalar):
                    pending.append(value)
        elif isinstance(node, Seq):
            pending.extend(node.items)
    return False


def without_env_unknown_keys(problems: Iterable[Problem]) -> list[Problem]:
    """Drop the schema's ``unknown-key`` for an ``env:`` key: the credential rule names that fault."""
    return [p for p in problems if not (p.error_code == codes.UNKNOWN_KEY and p.field.rsplit(".", 1)[-1] == "env")]


def env_rules(file: str, root: Node | None, problems: Iterable[Problem], data: bytes) -> list[Problem]:
    """An artefact's problems with the ``env:`` rule layered over them, for an artefact with no slots.

    A stray ``env:`` is reported once, as the credential rule, in place of the
    ``unknown-key`` any other rule gave the same key. ``data`` is the file's bytes: where
    they cannot spell an ``env`` key (:func:`could_spell_env`), no key or field is one, and
    the tree is not walked.
    """
    if not could_spell_env(data):
        return list(problems)
    return [*without_env_unknown_keys(problems), *stray_env_keys(file, root)]


def could_spell_env(data: bytes) -> bool:
    """Whether a key of this file could read ``env``: it is spelt by its own characters, or
    through an escape of a double-quoted key (``"\\x65nv"``); folding a key across lines
    only ever adds a space or a break.

    Most artefacts write no ``env`` at all, and searching their bytes costs a small fraction of
    the walk over every node that :func:`stray_env_keys` would otherwise make."""
    return b"env" in data or b"\\" in data

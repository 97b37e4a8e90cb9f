"""Reading the parsed tree the way the gutter does: a key's own line, and lists as values.

Every reader here is lenient: a key absent or written in a shape it cannot read
yields nothing, and a line with nothing derived is left unmarked rather than marked
empty. What is wrong with the shape is ``check``'s to report.
"""

from __future__ import annotations

from hyper.yaml.subset import Map, Node, Scalar, Seq


def key_line(root: Node | None, key: str) -> int:
    """The line a top-level key is written on; 0 where the artefact does not write it."""
    if not isinstance(root, Map):
        return 0
    for name, _ in root.entries:
        if name.value == key:
            return name.line
    return 0


def scalar_list(node: Node | None) -> tuple[str, ...] | None:
    """A list's scalar members in written order; ``None`` where the node is no list at all."""
    if not isinstance(node, Seq):
        return None
    return tuple(item.value for item in node.items if isinstance(item, Scalar))


def scalar_text(node: Node | None) -> str:
    return node.value if isinstance(node, Scalar) else ""


def named(node: Node | None) -> str | None:
    """A name written as a scalar; ``None`` where nothing legible is written."""
    return node.value if isinstance(node, Scalar) and node.value else None


def env_variable(slot: Node | None) -> str:
    """The variable a credential slot names under ``env:``; ``""`` where it names none."""
    if not isinstance(slot, Map):
        return ""
    for key, value in slot.entries:
        if key.value == "env" and isinstance(value, Scalar):
            return value.value
    return ""


def root_line(root: Node | None) -> int:
    """The artefact's opening line: where its first top-level key stands."""
    if not isinstance(root, Map) or not root.entries:
        return 0
    return root.entries[0][0].line

"""The built-in shell Manifest's tree, held as data so that no process parses its YAML.

Parsing ``builtin/shell.yaml`` was most of what loading a small repository cost (ADR 0006,
amended 2026-12-02): every command that loads one — ``review``, ``check``, ``provider`` —
read those same 80 lines through the full reader, before any file of the repository's own.
The bytes stay the source of truth: ``tests/artefact/test_manifest.py`` holds :data:`TREE`
equal to their parse, node for node — every value, style, line, column and flow flag — and
prints the literal to paste here when the file changes.

The literal is nested tuples, which the compiler keeps as one constant: a scalar as its four
fields, a collection as ``("map" | "seq", line, column, flow, members)``.
"""

from __future__ import annotations

from hyper.yaml.nodes import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Any, Final, TypeAlias

    Held: TypeAlias = tuple[Any, ...]


def node(held: Held) -> Node:
    """The node ``held`` spells."""
    if len(held) == 4:
        return Scalar(held)
    kind, line, column, flow, members = held
    if kind == "seq":
        return Seq((tuple([node(item) for item in members]), line, column, flow))
    return Map((tuple([(Scalar(key), node(value)) for key, value in members]), line, column, flow))


# fmt: off
TREE: Final[Held] = ("map", 1, 1, False, (
    (("kind", "plain", 1, 1), ("provider", "plain", 1, 7)),
    (("provider", "plain", 2, 1), ("shell", "plain", 2, 11)),
    (("schema-version", "plain", 3, 1), ("1", "plain", 3, 17)),
    (("class", "plain", 4, 1), ("local", "plain", 4, 8)),
    (("capabilities", "plain", 5, 1), ("seq", 5, 15, True, (
        ("shell", "plain", 5, 16),
    ))),
    (("operations", "plain", 6, 1), ("map", 7, 3, False, (
        (("read", "plain", 7, 3), ("map", 8, 5, False, (
            (("kind", "plain", 8, 5), ("read", "plain", 8, 11)),
            (("repeatability", "plain", 9, 5), ("repeatable", "plain", 9, 20)),
            (("deadline", "plain", 10, 5), ("1h", "plain", 10, 15)),
            (("shell", "plain", 11, 5), ("map", 11, 12, True, (
            ))),
            (("input", "plain", 12, 5), ("map", 13, 7, False, (
                (("type", "plain", 13, 7), ("object", "plain", 13, 13)),
                (("properties", "plain", 14, 7), ("map", 15, 9, False, (
                    (("command", "plain", 15, 9), ("map", 15, 18, True, (
                        (("type", "plain", 15, 19), ("array", "plain", 15, 25)),
                        (("items", "plain", 15, 32), ("map", 15, 39, True, (
                            (("type", "plain", 15, 40), ("string", "plain", 15, 46)),
                        ))),
                    ))),
                ))),
            ))),
            (("record", "plain", 16, 5), ("map", 17, 7, False, (
                (("identity", "plain", 17, 7), ("$.command", "plain", 17, 17)),
                (("fields", "plain", 18, 7), ("map", 19, 9, False, (
                    (("exit_code", "plain", 19, 9), ("$.exit_code", "plain", 19, 20)),
                    (("stdout", "plain", 20, 9), ("$.stdout", "plain", 20, 17)),
                    (("stderr", "plain", 21, 9), ("$.stderr", "plain", 21, 17)),
                ))),
            ))),
        ))),
        (("mutate", "plain", 22, 3), ("map", 23, 5, False, (
            (("kind", "plain", 23, 5), ("mutate", "plain", 23, 11)),
            (("repeatability", "plain", 24, 5), ("repeatable", "plain", 24, 20)),
            (("deadline", "plain", 25, 5), ("1h", "plain", 25, 15)),
            (("shell", "plain", 26, 5), ("map", 26, 12, True, (
            ))),
            (("input", "plain", 27, 5), ("map", 28, 7, False, (
                (("type", "plain", 28, 7), ("object", "plain", 28, 13)),
                (("properties", "plain", 29, 7), ("map", 30, 9, False, (
                    (("command", "plain", 30, 9), ("map", 30, 18, True, (
                        (("type", "plain", 30, 19), ("array", "plain", 30, 25)),
                        (("items", "plain", 30, 32), ("map", 30, 39, True, (
                            (("type", "plain", 30, 40), ("string", "plain", 30, 46)),
                        ))),
                    ))),
                ))),
            ))),
            (("record", "plain", 31, 5), ("map", 32, 7, False, (
                (("identity", "plain", 32, 7), ("$.command", "plain", 32, 17)),
                (("fields", "plain", 33, 7), ("map", 34, 9, False, (
                    (("exit_code", "plain", 34, 9), ("$.exit_code", "plain", 34, 20)),
                    (("stdout", "plain", 35, 9), ("$.stdout", "plain", 35, 17)),
                    (("stderr", "plain", 36, 9), ("$.stderr", "plain", 36, 17)),
                ))),
            ))),
        ))),
        (("mutate_once", "plain", 37, 3), ("map", 38, 5, False, (
            (("kind", "plain", 38, 5), ("mutate", "plain", 38, 11)),
            (("deadline", "plain", 39, 5), ("1h", "plain", 39, 15)),
            (("shell", "plain", 40, 5), ("map", 40, 12, True, (
            ))),
            (("input", "plain", 41, 5), ("map", 42, 7, False, (
                (("type", "plain", 42, 7), ("object", "plain", 42, 13)),
                (("properties", "plain", 43, 7), ("map", 44, 9, False, (
                    (("command", "plain", 44, 9), ("map", 44, 18, True, (
                        (("type", "plain", 44, 19), ("array", "plain", 44, 25)),
                        (("items", "plain", 44, 32), ("map", 44, 39, True, (
                            (("type", "plain", 44, 40), ("string", "plain", 44, 46)),
                        ))),
                    ))),
                ))),
            ))),
            (("record", "plain", 45, 5), ("map", 46, 7, False, (
                (("identity", "plain", 46, 7), ("$.command", "plain", 46, 17)),
                (("fields", "plain", 47, 7), ("map", 48, 9, False, (
                    (("exit_code", "plain", 48, 9), ("$.exit_code", "plain", 48, 20)),
                    (("stdout", "plain", 49, 9), ("$.stdout", "plain", 49, 17)),
                    (("stderr", "plain", 50, 9), ("$.stderr", "plain", 50, 17)),
                ))),
            ))),
        ))),
        (("mutate_skip_if_recorded", "plain", 51, 3), ("map", 52, 5, False, (
            (("kind", "plain", 52, 5), ("mutate", "plain", 52, 11)),
            (("repeatability", "plain", 53, 5), ("skip-if-recorded", "plain", 53, 20)),
            (("deadline", "plain", 54, 5), ("1h", "plain", 54, 15)),
            (("shell", "plain", 55, 5), ("map", 55, 12, True, (
            ))),
            (("input", "plain", 56, 5), ("map", 57, 7, False, (
                (("type", "plain", 57, 7), ("object", "plain", 57, 13)),
                (("properties", "plain", 58, 7), ("map", 59, 9, False, (
                    (("command", "plain", 59, 9), ("map", 59, 18, True, (
                        (("type", "plain", 59, 19), ("array", "plain", 59, 25)),
                        (("items", "plain", 59, 32), ("map", 59, 39, True, (
                            (("type", "plain", 59, 40), ("string", "plain", 59, 46)),
                        ))),
                    ))),
                ))),
            ))),
            (("record", "plain", 60, 5), ("map", 61, 7, False, (
                (("identity", "plain", 61, 7), ("$.command", "plain", 61, 17)),
                (("fields", "plain", 62, 7), ("map", 63, 9, False, (
                    (("exit_code", "plain", 63, 9), ("$.exit_code", "plain", 63, 20)),
                    (("stdout", "plain", 64, 9), ("$.stdout", "plain", 64, 17)),
                    (("stderr", "plain", 65, 9), ("$.stderr", "plain", 65, 17)),
                ))),
            ))),
        ))),
        (("destroy", "plain", 66, 3), ("map", 67, 5, False, (
            (("kind", "plain", 67, 5), ("destroy", "plain", 67, 11)),
            (("repeatability", "plain", 68, 5), ("repeatable", "plain", 68, 20)),
            (("deadline", "plain", 69, 5), ("1h", "plain", 69, 15)),
            (("shell", "plain", 70, 5), ("map", 70, 12, True, (
            ))),
            (("input", "plain", 71, 5), ("map", 72, 7, False, (
                (("type", "plain", 72, 7), ("object", "plain", 72, 13)),
                (("properties", "plain", 73, 7), ("map", 74, 9, False, (
                    (("command", "plain", 74, 9), ("map", 74, 18, True, (
                        (("type", "plain", 74, 19), ("array", "plain", 74, 25)),
                        (("items", "plain", 74, 32), ("map", 74, 39, True, (
                            (("type", "plain", 74, 40), ("string", "plain", 74, 46)),
                        ))),
                    ))),
                ))),
            ))),
        ))),
        (("destroy_once", "plain", 75, 3), ("map", 76, 5, False, (
            (("kind", "plain", 76, 5), ("destroy", "plain", 76, 11)),
            (("deadline", "plain", 77, 5), ("1h", "plain", 77, 15)),
            (("shell", "plain", 78, 5), ("map", 78, 12, True, (
            ))),
            (("input", "plain", 79, 5), ("map", 80, 7, False, (
                (("type", "plain", 80, 7), ("object", "plain", 80, 13)),
                (("properties", "plain", 81, 7), ("map", 82, 9, False, (
                    (("command", "plain", 82, 9), ("map", 82, 18, True, (
                        (("type", "plain", 82, 19), ("array", "plain", 82, 25)),
                        (("items", "plain", 82, 32), ("map", 82, 39, True, (
                            (("type", "plain", 82, 40), ("string", "plain", 82, 46)),
                        ))),
                    ))),
                ))),
            ))),
        ))),
    ))),
))
# fmt: on

"""The Providers hyper ships: exactly one, ``shell``, compiled in as its Manifest's bytes.

The bytes are data and a contract at once: the built-in's ``manifest_digest`` is
SHA-256 over exactly them, so they live in ``builtin/shell.yaml`` beside this module
and are read unchanged. Their tree is held as data (:mod:`hyper.artefact.builtin_tree`),
which a test holds equal to their parse, so no process parses them; the Manifest is read
from that tree through the same path as any file in ``providers/`` — the one Manifest no
repository author can open is read exactly the way every other one is.

What ``hyper providers`` lists of it is spelled here as well (:data:`SHELL_SUMMARY` and
its siblings): those facts are constants of this build, and parsing the bytes to find them
again was most of what the command did in a repository of no Extension (ADR 0006). The
Manifest model is imported where the bytes are parsed, so the constants cost nothing to reach.
"""

from __future__ import annotations

import functools
import os

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

    from hyper.artefact.manifest import Manifest
    from hyper.yaml.subset import Node

_SHELL = os.path.join(os.path.dirname(__file__), "builtin", "shell.yaml")


SHELL_SUMMARY: Final = "class local; requires shell; 1 read, 3 mutate, 2 destroy"
SHELL_OPERATION_COUNT: Final = 6
SHELL_DIGEST: Final = "sha256:2c572c3551bc4a6d424c6c5f9738657326f74b675d48b2a79e92683b4cdaa1e4"
"""What :func:`shell`'s ``summary``, Operations and ``digest`` come to; a test holds them equal."""


@functools.cache
def shell_bytes() -> bytes:
    # Read beside this module rather than through importlib.resources, whose import
    # alone costs more than every discovery command's own work.
    with open(_SHELL, "rb") as handle:
        return handle.read()


@functools.cache
def shell_root() -> Node:
    """The tree of :func:`shell_bytes`, built from the data that holds it rather than parsed."""
    from hyper.artefact import builtin_tree  # deferred: the listing needs no tree

    return builtin_tree.node(builtin_tree.TREE)


@functools.cache
def shell() -> Manifest:
    from hyper.artefact.manifest import BUILTIN_PATH, read_manifest  # deferred: the listing needs no parse

    return read_manifest(BUILTIN_PATH, shell_bytes(), shell_root())

"""The Providers hyper ships: exactly one, ``shell``, compiled in as its Manifest's bytes.

The bytes are data and a contract at once: the built-in's ``manifest_digest`` is
SHA-256 over exactly them, so they live in ``builtin/shell.yaml`` beside this module
and are read unchanged. It is parsed and read through the same path as any file in
``providers/`` — the one Manifest no repository author can open is read exactly the
way every other one is.
"""

from __future__ import annotations

import functools
import os

from hyper.artefact.manifest import BUILTIN_PATH, Manifest, read_manifest
from hyper.yaml import subset as yamlsubset

_SHELL = os.path.join(os.path.dirname(__file__), "builtin", "shell.yaml")


@functools.cache
def shell_bytes() -> bytes:
    # Read beside this module rather than through importlib.resources, whose import
    # alone costs more than every discovery command's own work.
    with open(_SHELL, "rb") as handle:
        return handle.read()


@functools.cache
def shell_root() -> yamlsubset.Node:
    parsed = yamlsubset.parse(shell_bytes(), BUILTIN_PATH)
    if parsed.root is None or parsed.faults:
        # hyper's own bytes, which no repository author touches: a fault here is a
        # defect in this build, not a problem to report about anyone's artefact.
        raise RuntimeError("the built-in shell Manifest does not read as the YAML subset")
    return parsed.root


@functools.cache
def shell() -> Manifest:
    return read_manifest(BUILTIN_PATH, shell_bytes(), shell_root())


@functools.cache
def shell_listing() -> tuple[str, str]:
    """The built-in Manifest's summary and digest, as ``hyper providers`` lists them.

    Its bytes are this build's own, read once per process, so both are constants of the
    process: a server answering ``providers`` on every call need not hash and count them
    again.
    """
    manifest = shell()
    return manifest.summary, manifest.digest

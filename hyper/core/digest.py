"""The ``sha256:<hex>`` digest of an artefact's exact bytes, without paying for OpenSSL.

``hashlib`` binds OpenSSL on import, which takes several milliseconds — more than
all of ``hyper providers``'s own work (ADR 0006) — while the artefacts hashed here
are a few kilobytes each. CPython also ships its own SHA-256, the one ``hashlib``
falls back to without OpenSSL; it is used directly where this interpreter has it.
SHA-256 is one function, so the digest is the same either way.
"""

from __future__ import annotations

import functools

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_BUILT_IN = ("_sha2", "_sha256")
"""CPython's own SHA-256 module: ``_sha2`` from 3.12, ``_sha256`` before."""


def sha256(data: bytes) -> str:
    """``sha256:`` and the lowercase hex of SHA-256 over ``data``."""
    return "sha256:" + sha256_hex(data)


def sha256_hex(data: bytes) -> str:
    """The lowercase hex of SHA-256 over ``data``, bare: what the memos are keyed by."""
    hexdigest: str = _constructor()(data).hexdigest()
    return hexdigest


@functools.cache
def _constructor() -> Callable[[bytes], Any]:
    for name in _BUILT_IN:
        try:
            built_in: Callable[[bytes], Any] = __import__(name).sha256  # the importlib package is start-up cost
        except ImportError:
            continue
        return built_in
    import hashlib  # deferred: start-up cost

    return hashlib.sha256

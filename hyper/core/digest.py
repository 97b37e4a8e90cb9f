"""The ``sha256:<hex>`` digest of an artefact's exact bytes, and the memos' keys, without paying for OpenSSL.

``hashlib`` binds OpenSSL on import, which takes several milliseconds — more than
all of ``hyper providers``'s own work (ADR 0006) — while the artefacts hashed here
are a few kilobytes each. CPython also ships its own SHA-256 and BLAKE2, the ones
``hashlib`` falls back to without OpenSSL; they are used directly where this
interpreter has them. Each is one function, so the digest is the same either way.
"""

from __future__ import annotations

import functools

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_BUILT_IN = {"sha256": ("_sha2", "_sha256"), "blake2b": ("_blake2",)}
"""CPython's own module of each algorithm: SHA-256 is ``_sha2`` from 3.12, ``_sha256`` before."""


def sha256(data: bytes) -> str:
    """``sha256:`` and the lowercase hex of SHA-256 over ``data``."""
    return "sha256:" + sha256_hex(data)


def sha256_hex(data: bytes) -> str:
    """The lowercase hex of SHA-256 over ``data``, bare: what a memo's body is checked by."""
    hexdigest: str = _constructor("sha256")(data).hexdigest()
    return hexdigest


def key_hex(data: bytes) -> str:
    """The lowercase hex of a 256-bit BLAKE2b over ``data``: what the memos are keyed by.

    A key digests the deciding modules' source, about 140 KB, in every command that opens a
    memo. CPython's own SHA-256 before 3.12 takes about 48 instructions a byte (7 M of them,
    2 ms, at a review's start-up); its BLAKE2b about 14, and is as collision-resistant
    (adr/0046). A key is only ever compared with one hyper wrote into a memo of its own, so no
    format outside hyper fixes the function, and one from another function is merely no memo.
    So an interpreter built without BLAKE2 (``--without-builtin-hashlib-hashes``, as some FIPS
    builds are, leaves ``hashlib`` no ``blake2b``) keys with SHA-256 instead."""
    try:
        blake2b = _constructor("blake2b")
    except AttributeError:
        return sha256_hex(data)
    hexdigest: str = blake2b(data, digest_size=32).hexdigest()
    return hexdigest


@functools.cache
def _constructor(algorithm: str) -> Callable[..., Any]:
    for name in _BUILT_IN[algorithm]:
        try:
            # __import__, not importlib: the importlib package is start-up cost
            built_in: Callable[..., Any] = getattr(__import__(name), algorithm)
        except ImportError:
            continue
        return built_in
    import hashlib  # deferred: start-up cost

    constructor: Callable[..., Any] = getattr(hashlib, algorithm)
    return constructor

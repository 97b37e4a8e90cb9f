"""The memos' key is BLAKE2b where the interpreter has it, and SHA-256 where it has no BLAKE2 (adr/0046)."""

from __future__ import annotations

import hashlib

import pytest

from hyper.core import digest


def test_the_key_is_a_256_bit_blake2b_and_the_artefact_digest_sha256() -> None:
    data = b"the deciders' source"
    assert digest.key_hex(data) == hashlib.blake2b(data, digest_size=32).hexdigest()
    assert digest.sha256(data) == "sha256:" + hashlib.sha256(data).hexdigest()


def test_an_interpreter_without_blake2_keys_with_sha256(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither CPython's own module nor ``hashlib`` offers BLAKE2b: the key is SHA-256's, not a
    crash, so every memo is still keyed by the code (merely with another function)."""
    monkeypatch.setitem(digest._BUILT_IN, "blake2b", ("_no_such_blake2",))
    monkeypatch.delattr(hashlib, "blake2b")
    digest._constructor.cache_clear()
    try:
        assert digest.key_hex(b"x") == hashlib.sha256(b"x").hexdigest()
    finally:
        digest._constructor.cache_clear()

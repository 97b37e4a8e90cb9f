"""The protocol's edge, read strictly: what a frame must be before the SDK is handed it.

The SDK drops what it cannot read without a word, and a client that sent it waits
forever. So the shape of every frame is judged here first, and a frame that is not a
JSON-RPC message is answered with the error JSON-RPC defines for it: -32700 for a line
that is not JSON, -32600 for JSON that is not a request. Batches are a matter of the
negotiated version: 2025-06-18 removed them.

Nothing here imports the SDK; the server applies these rulings.
"""

from __future__ import annotations

import re
from typing import Final

import orjson

MAX_FRAME: Final = 4 * 1024 * 1024
"""The longest frame read, in bytes; a longer one is refused without being parsed."""

MAX_DEPTH: Final = 512
"""The deepest a frame may nest arrays and objects. Stated, because ``json``'s own limit follows
the interpreter's stack and moved in 3.13: without it one CPython refuses a frame another reads."""

_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET: Final = re.compile(rb"[\[\]{}]")


def too_deep(line: bytes) -> bool:
    """Whether ``line`` nests past :data:`MAX_DEPTH`, counted outside its strings; a frame
    with fewer brackets than that cannot, so the ordinary frame costs two counts."""
    if line.count(b"[") + line.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b'""', line)):
        depth += 1 if bracket[0] in (b"[", b"{") else -1
        if depth > MAX_DEPTH:
            return True
    return False


PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600

BATCHES_REMOVED_IN: Final = "2025-06-18"
"""The first protocol version without JSON-RPC batches."""


def error_frame(code: int, message: str, request_id: str | int | None = None) -> bytes:
    """One JSON-RPC error response, newline included."""
    return orjson.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}) + b"\n"


def usable_id(message: object) -> str | int | None:
    """The message's id where it is one a response can carry (a string or a whole number)."""
    rid = message.get("id") if isinstance(message, dict) else None
    return rid if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)) else None


def fault_of(message: object) -> str | None:
    """Why ``message`` is no JSON-RPC message, or None where it is one."""
    if not isinstance(message, dict):
        return "a JSON-RPC message is an object"
    if message.get("jsonrpc") != "2.0":
        return 'a JSON-RPC message carries "jsonrpc": "2.0"'
    if "id" in message and usable_id(message) is None:
        return "an id is a string or a whole number"
    if "method" in message:
        if not isinstance(message["method"], str):
            return "a method is a string"
        return None
    if "id" not in message or not ("result" in message or "error" in message):
        return "a message with no method is a response, and a response has an id and a result or an error"
    return None


def batches_allowed(protocol_version: str | None) -> bool:
    """Whether the negotiated version has JSON-RPC batches."""
    return protocol_version is not None and protocol_version < BATCHES_REMOVED_IN

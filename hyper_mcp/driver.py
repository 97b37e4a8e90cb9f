"""An in-process client for the server: the door the corpus and the tests drive calls through.

The call is real and only the client is in-process. The server runs exactly as
``hyper mcp`` runs it — the same transport, the same handshake, the same frames —
over in-memory line streams instead of a pipe, and everything reported here is read
off the frames that arrived: an envelope's rows are the bytes the server wrote, in
its order, never a decoded value re-encoded.

Importing this module does not load the SDK; a session does, when it starts the
server.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, Final

import anyio
import attrs
import orjson

from hyper_mcp.adapter import Server
from hyper_mcp.envelope import Envelope, envelope_from_wire
from hyper_mcp.rawjson import array_spans, object_spans

PROTOCOL_VERSION: Final = "2025-06-18"
"""The version this client asks for at ``initialize``: a handshake-era one."""

TIMEOUT_S: Final = 60.0
"""How long a driver waits for a frame before it reports the server silent."""

_PROGRESS: Final = "notifications/progress"


@attrs.frozen
class Boundary:
    """One progress notification as it arrived."""

    token: object
    position: int | float
    of: int | float | None
    step: str | None


@attrs.frozen
class Watching:
    """What the server sent beside a call's answer.

    ``unasked`` holds the method of every message the server sent that is neither a
    response nor a progress notification, and is empty on every path: the server
    never speaks first.
    """

    progress: tuple[Boundary, ...] = ()
    unasked: tuple[str, ...] = ()


@attrs.frozen
class CallOutcome:
    """A call's answer: an envelope, or the message of the protocol error it became."""

    envelope: Envelope | None
    error: str | None
    error_code: int | None
    watching: Watching
    frame: bytes
    """The response frame, as it arrived."""


@attrs.frozen
class Declared:
    """One tool as ``tools/list`` published it, its schemas as the bytes that arrived."""

    name: str
    description: str
    input_schema: bytes
    output_schema: bytes
    title: str | None = None
    annotations: bytes | None = None
    """The annotations object as it arrived; None where the tool carried none."""


class Session:
    """A client connection to an in-process server, speaking raw frames."""

    def __init__(self, send: Any, receive: Any) -> None:
        self._send = send
        self._receive = receive
        self._next_id = 0
        self.seen: list[bytes] = []
        """Every frame the server sent, in order."""

    async def send(self, frame: bytes) -> None:
        await self._send.send(frame.rstrip(b"\n") + b"\n")

    async def receive(self) -> bytes | None:
        """The next frame the server sent, or None once it has closed its side."""
        with anyio.fail_after(TIMEOUT_S):
            try:
                frame: bytes = await self._receive.receive()
            except anyio.EndOfStream:
                return None
        self.seen.append(frame)
        return frame

    def mint(self) -> int:
        self._next_id += 1
        return self._next_id

    async def start(self, method: str, params: bytes | None = None, request_id: int | None = None) -> int:
        """Send a request without waiting for its answer, and answer its id.

        A test that cancels a request, or sends several before reading any, reads the
        frames itself; :meth:`request` is this followed by the wait.
        """
        rid = self.mint() if request_id is None else request_id
        await self.send(_message(method, params, rid))
        return rid

    async def request(self, method: str, params: bytes | None = None, request_id: int | None = None) -> bytes:
        """Send a request and answer its response frame; other frames are kept in ``seen``."""
        rid = await self.start(method, params, request_id)
        while (frame := await self.receive()) is not None:
            decoded = orjson.loads(frame)
            if "method" not in decoded and decoded.get("id") == rid:
                return frame
        raise EOFError(f"the server closed the session before answering {method}")

    async def notify(self, method: str, params: bytes | None = None) -> None:
        await self.send(_message(method, params))

    async def handshake(self, protocol_version: str = PROTOCOL_VERSION) -> bytes:
        """``initialize`` then ``notifications/initialized``; answers the initialize response."""
        params = orjson.dumps(
            {
                "protocolVersion": protocol_version,
                "capabilities": {},
                "clientInfo": {"name": "hyper-in-process-client", "version": "0"},
            }
        )
        frame = await self.request("initialize", params)
        await self.notify("notifications/initialized")
        return frame

    async def close(self) -> None:
        """End the client's side: the server answers what it was asked, then closes."""
        await self._send.aclose()

    async def rest(self) -> list[bytes]:
        """Every frame still to come, until the server closes its side."""
        frames = []
        while (frame := await self.receive()) is not None:
            frames.append(frame)
        return frames


def _message(method: str, params: bytes | None, rid: int | None = None) -> bytes:
    """One JSON-RPC message, ``params`` spliced in as written: a request with an id, else a notification."""
    body = b'{"jsonrpc":"2.0"' + (b',"id":' + orjson.dumps(rid) if rid is not None else b"")
    body += b',"method":' + orjson.dumps(method)
    return body + (b',"params":' + params if params is not None else b"") + b"}"


def tool_call_params(tool: str, arguments: bytes | None, progress_token: object = None) -> bytes:
    """``tools/call`` params with the arguments spliced in as written."""
    if arguments is not None:
        json.loads(arguments)  # a frame that is not JSON would be dropped unanswered
    params = b'{"name":' + orjson.dumps(tool)
    if arguments is not None:
        params += b',"arguments":' + arguments
    if progress_token is not None:
        params += b',"_meta":{"progressToken":' + orjson.dumps(progress_token) + b"}"
    return params + b"}"


@asynccontextmanager
async def connected(server: Server) -> AsyncIterator[Session]:
    """A session against a fresh server; leaving it closes the client side and waits."""
    from hyper_mcp.server import serve_lines  # deferred: the SDK loads only for a session

    to_server, server_reads = anyio.create_memory_object_stream[bytes](64)
    server_writes, from_server = anyio.create_memory_object_stream[bytes](64)

    async def run_server() -> None:
        async with server_reads, server_writes:
            await serve_lines(server, aiter(server_reads), server_writes.send)

    async with anyio.create_task_group() as group:
        group.start_soon(run_server)
        session = Session(to_server, from_server)
        try:
            yield session
        finally:
            await to_server.aclose()
            with anyio.fail_after(TIMEOUT_S):
                await session.rest()


def watching_in(frames: list[bytes]) -> Watching:
    """The progress notifications and unasked messages among ``frames``."""
    progress: list[Boundary] = []
    unasked: list[str] = []
    for frame in frames:
        decoded = orjson.loads(frame)
        method = decoded.get("method")
        if method is None:
            continue
        if method != _PROGRESS:
            unasked.append(method)
            continue
        params = decoded.get("params", {})
        progress.append(
            Boundary(params.get("progressToken"), params.get("progress"), params.get("total"), params.get("message"))
        )
    return Watching(tuple(progress), tuple(unasked))


def _result_span(frame: bytes) -> bytes | None:
    text = frame.decode()
    spans = dict(object_spans(text))
    if "result" not in spans:
        return None
    start, end = spans["result"]
    return text[start:end].encode()


def outcome_of(frame: bytes, watching: Watching) -> CallOutcome:
    """A ``tools/call`` response frame read as an envelope or a protocol error."""
    result = _result_span(frame)
    if result is not None:
        return CallOutcome(envelope_from_wire(result), None, None, watching, frame)
    error = orjson.loads(frame).get("error", {})
    return CallOutcome(None, str(error.get("message")), error.get("code"), watching, frame)


async def call(
    server: Server,
    tool: str,
    arguments: bytes | None = b"{}",
    progress_token: object = None,
) -> CallOutcome:
    """One tool call against a fresh server, after a real handshake.

    ``arguments`` is sent as written (None leaves the member out); a
    ``progress_token`` asks for progress notifications.
    """
    async with connected(server) as session:
        await session.handshake()
        start = len(session.seen)
        frame = await session.request("tools/call", tool_call_params(tool, arguments, progress_token))
        await session.close()
        await session.rest()
        others = [seen for seen in session.seen[start:] if seen is not frame]
    return outcome_of(frame, watching_in(others))


async def list_tools(server: Server, protocol_version: str | None = None) -> list[Declared]:
    """``tools/list`` as a client receives it, each schema as the bytes that arrived."""
    async with connected(server) as session:
        await session.handshake(protocol_version or PROTOCOL_VERSION)
        frame = await session.request("tools/list")
    result = _result_span(frame)
    if result is None:
        raise ValueError(f"tools/list was answered with an error: {frame.decode()}")
    text = result.decode()
    members = dict(object_spans(text))
    if "nextCursor" in members:
        raise ValueError("tools/list answered a cursor; the tool set arrives whole")
    declared = []
    for start, _ in array_spans(text, members["tools"][0]):
        tool = {key: text[s:e] for key, (s, e) in object_spans(text, start)}
        declared.append(
            Declared(
                name=json.loads(tool["name"]),
                description=json.loads(tool["description"]),
                input_schema=tool["inputSchema"].encode(),
                output_schema=tool["outputSchema"].encode(),
                title=json.loads(tool["title"]) if "title" in tool else None,
                annotations=tool["annotations"].encode() if "annotations" in tool else None,
            )
        )
    return declared


def call_blocking(
    server: Server,
    tool: str,
    arguments: bytes | None = b"{}",
    progress_token: object = None,
) -> CallOutcome:
    """:func:`call`, for synchronous callers."""
    return anyio.run(partial(call, server, tool, arguments, progress_token))


def list_tools_blocking(server: Server, protocol_version: str | None = None) -> list[Declared]:
    """:func:`list_tools`, for synchronous callers."""
    return anyio.run(list_tools, server, protocol_version)

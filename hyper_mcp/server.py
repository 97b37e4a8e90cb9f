"""``hyper mcp``: the MCP server over one dispatch. The only module that imports the SDK.

The SDK owns what is the protocol's — the handshake, JSON-RPC routing, cancellation
plumbing — and is never allowed to decide what an answer says. Three things are
therefore done here rather than left to it (ADR-0003):

* **Frames are written by our own transport**, encoded with orjson, so a row goes on
  the wire as the bytes the command encoded (the SDK would re-encode it): the same
  bytes the ``--json`` stream prints, HTML characters unescaped.
  A middleware swaps the SDK's result for hyper's own envelope after the SDK has
  validated the request, and the published schemas go out in their authored order.
* **Stdin reaching EOF drains rather than drops**: every request read before EOF is
  answered before the process ends, so ``printf '…' | hyper mcp`` works.
* **Only the handshake era is served** (``serve_loop``): clients negotiate a
  2025-era protocol version with ``initialize``, which is what the reference server
  speaks.

The dispatch is synchronous and each call runs in a worker thread of its own, so
calls are served concurrently (a read is not kept waiting behind a Run) and a Run's
Step boundaries can be reported as progress while it works (ADR 0015). The one
exception is a read of the local world made while no other call is in flight: it is
answered on the loop's own thread, since there is nothing it could hold up and the
hop to a thread and back cost as much as the command. A cancelled call is never interrupted:
the flag :attr:`Call.cancelled` reads turns true, the Run stops at its next Step
boundary, and no result is sent.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import select
import stat
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Any, Final

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
import attrs
import mcp_types as types
import orjson
from mcp.server import Server, ServerRequestContext
from mcp.server.context import CallNext, HandlerResult, ServerMiddleware
from mcp.server.models import InitializationOptions
from mcp.server.runner import serve_loop
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import progress_token_from_params
from mcp.shared.message import ServerMessageMetadata, SessionMessage

from hyper_mcp.adapter import Server as Adapted
from hyper_mcp.answer import Answer, Call, Dispatch, Progress
from hyper_mcp.decode import decode
from hyper_mcp.edge import (
    INVALID_REQUEST,
    MAX_FRAME,
    PARSE_ERROR,
    batches_allowed,
    error_frame,
    fault_of,
    too_deep,
    usable_id,
)
from hyper_mcp.envelope import Envelope, envelope_of
from hyper_mcp.errors import ERROR_CODE, ProtocolError
from hyper_mcp.rawjson import Members, SyntaxFault, Value, array_spans, of_python, parse
from hyper_mcp.table import Table, Tool

DRAIN_GRACE_S: Final = 30.0
"""How long, after stdin closes, in-flight calls run undisturbed.

Past it every Run still in flight is told it was cancelled, so it drains at its next
Step boundary; the process still waits for that, because a Step is never cut short.
"""

WriteLine = Callable[[bytes], Awaitable[None]]


@attrs.define
class _Arrival:
    """A ``tools/call`` as the transport read it, handed to the handler beside the SDK's copy.

    ``arguments`` keeps each number as the caller spelled it, which the SDK's parse
    does not; ``cancelled`` is the flag the Run polls at its Step boundaries.
    """

    arguments: Value
    cancelled: threading.Event = attrs.field(factory=threading.Event)


@attrs.define
class _Batch:
    """One batch's answers, held until every request in it is answered, then sent as one array."""

    waiting: set[str] = attrs.field(factory=set)
    answers: list[bytes] = attrs.field(factory=list)

    def frame(self) -> bytes:
        return b"[" + b",".join(answer.rstrip(b"\n") for answer in self.answers) + b"]\n"


def _key(request_id: object) -> str:
    return str(request_id)


class _Link:
    """The transport's account of the connection: what is asked and not yet answered."""

    def __init__(self) -> None:
        self._pending: dict[str, int] = {}
        self._arrivals: dict[str, _Arrival] = {}
        self.broken = False
        self.initialize_key: str | None = None
        self.version: str | None = None
        """The protocol version the ``initialize`` response agreed, once it has gone out."""
        self.batches: dict[str, _Batch] = {}

    def opened(self, key: str, arrival: _Arrival | None) -> None:
        self._pending[key] = self._pending.get(key, 0) + 1
        if arrival is not None:
            self._arrivals[key] = arrival

    def closed(self, key: str) -> None:
        left = self._pending.get(key, 0) - 1
        if left > 0:
            self._pending[key] = left
        else:
            self._pending.pop(key, None)
            self._arrivals.pop(key, None)

    async def unanswered(self, key: str) -> None:
        self.closed(key)

    def cancel(self, key: str) -> None:
        arrival = self._arrivals.get(key)
        if arrival is not None:
            arrival.cancelled.set()

    def cancel_all(self) -> None:
        for arrival in list(self._arrivals.values()):
            arrival.cancelled.set()

    async def drained(self) -> None:
        """Return once every request read has been answered (see ``DRAIN_GRACE_S``)."""
        with anyio.move_on_after(DRAIN_GRACE_S):
            while self._pending:
                await anyio.sleep(0.005)
        self.cancel_all()
        while self._pending:
            await anyio.sleep(0.005)


def _tool_call_arguments(line: bytes) -> Value:
    """The arguments of a ``tools/call`` frame, each number kept as written."""
    frame = parse(line)
    params = frame.last().get("params") if isinstance(frame, Members) else None
    return params.last().get("arguments") if isinstance(params, Members) else None


def _arguments_of(message: types.JSONRPCRequest, line: bytes) -> Value:
    """A ``tools/call``'s arguments as :func:`_tool_call_arguments` reads them.

    An empty object holds no number whose spelling the SDK's parse could have lost, and
    both parses let a repeated key's last value win, so the SDK's reading is taken for
    it rather than parsing the frame a second time, member by member, in Python.
    """
    arguments = (message.params or {}).get("arguments")
    if isinstance(arguments, dict) and not arguments:
        return Members(())
    return _tool_call_arguments(line)


async def _forward(line: bytes, into: Any, link: _Link, reply: WriteLine) -> str | None:
    """One message the edge has judged well formed, handed to the SDK; answers its request key."""
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:
        await reply(error_frame(INVALID_REQUEST, "the message is not a JSON-RPC request", usable_id(_loaded(line))))
        return None
    metadata = None
    key = None
    if isinstance(message, types.JSONRPCRequest):
        key = _key(message.id)
        arrival = None
        if message.method == "initialize":
            link.initialize_key = key
        if message.method == "tools/call":
            try:
                arrival = _Arrival(_arguments_of(message, line))
            except SyntaxFault:
                arrival = None
            if arrival is not None and arrival.arguments is not None and not isinstance(arrival.arguments, Members):
                # Arguments that are no object are ours to refuse, in our own sentence;
                # the SDK's copy goes without them so it does not answer first with its
                # generic -32602.
                params = {k: v for k, v in (message.params or {}).items() if k != "arguments"}
                message = message.model_copy(update={"params": params})
        link.opened(key, arrival)
        metadata = ServerMessageMetadata(request_context=arrival, on_request_unanswered=partial(link.unanswered, key))
    elif isinstance(message, types.JSONRPCNotification):
        if message.method == "notifications/initialized" and link.initialize_key is None:
            return None  # no initialize has been asked for: the gate stays shut
        if message.method == "notifications/cancelled":
            link.cancel(_key((message.params or {}).get("requestId")))
    await into.send(SessionMessage(message, metadata=metadata))
    return key


_TOO_DEEP: Final = object()
"""What :func:`_loaded` answers for a line the standard decoder cannot descend: a parse error
with its own sentence, never a traceback that ends serving."""


def _loaded(line: bytes) -> object:
    if too_deep(line):
        return _TOO_DEEP
    try:
        return json.loads(line)
    except ValueError:
        return None
    except RecursionError:
        return _TOO_DEEP


async def _batch(text: str, decoded: list[object], into: Any, link: _Link, reply: WriteLine) -> None:
    """A JSON-RPC batch: answered as one array where the version has batches, refused where not."""
    if link.version is None:
        await reply(error_frame(INVALID_REQUEST, "a batch cannot come before initialize has been answered"))
        return
    if not batches_allowed(link.version):
        await reply(error_frame(INVALID_REQUEST, f"protocol {link.version} has no batches; send one message a line"))
        return
    if not decoded:
        await reply(error_frame(INVALID_REQUEST, "an empty batch asks nothing"))
        return
    batch = _Batch()
    for (start, end), element in zip(array_spans(text, 0), decoded, strict=True):
        fault = fault_of(element)
        if fault is None and isinstance(element, dict) and element.get("method") == "initialize":
            fault = "initialize is never accepted inside a batch"
        if fault is not None:
            batch.answers.append(error_frame(INVALID_REQUEST, fault, usable_id(element)))
            continue
        key = _key(usable_id(element)) if "id" in element else None  # type: ignore[operator]
        if key is not None:
            batch.waiting.add(key)
            link.batches[key] = batch
        if await _forward(text[start:end].encode(), into, link, reply) is None and key is not None:
            batch.waiting.discard(key)
            link.batches.pop(key, None)
    if not batch.waiting and batch.answers:
        await reply(batch.frame())


async def _read(lines: AsyncIterator[bytes], into: Any, link: _Link, reply: WriteLine) -> None:
    """Frames from the client, judged at the edge and handed to the SDK; at EOF, hold the
    stream open until every request read has been answered."""
    async with into:
        async for line in lines:
            if len(line) > MAX_FRAME:
                await reply(
                    error_frame(INVALID_REQUEST, f"a frame is at most {MAX_FRAME} bytes, and this one is longer")
                )
                continue
            stripped = line.strip()
            if not stripped:
                continue
            decoded = _loaded(stripped)
            if decoded is _TOO_DEEP:
                await reply(error_frame(PARSE_ERROR, "the line nests arrays and objects deeper than this server reads"))
                continue
            if decoded is None and stripped != b"null":
                await reply(error_frame(PARSE_ERROR, "the line is not JSON"))
                continue
            if isinstance(decoded, list):
                await _batch(stripped.decode("utf-8", "replace"), decoded, into, link, reply)
                continue
            fault = fault_of(decoded)
            if fault is not None:
                await reply(error_frame(INVALID_REQUEST, fault, usable_id(decoded)))
                continue
            await _forward(stripped, into, link, reply)
        await link.drained()


def _encoded(message: types.JSONRPCMessage) -> bytes:
    payload = message.model_dump(by_alias=True, exclude_unset=True)
    try:
        encoded = orjson.dumps(payload)
    except TypeError:  # an integer wider than 64 bits, in an id the client chose
        encoded = message.model_dump_json(by_alias=True, exclude_unset=True).encode()
    return encoded + b"\n"


async def _write(outgoing: Any, write_line: WriteLine, link: _Link) -> None:
    """Frames from the SDK to the client; a client that went away drains what is left.

    An answer to a request that came in a batch waits for the rest of its batch.
    """
    async with outgoing:
        async for session_message in outgoing:
            message = session_message.message
            answered = isinstance(message, types.JSONRPCResponse | types.JSONRPCError) and message.id is not None
            key = _key(message.id) if answered else None
            if key is not None and key == link.initialize_key and isinstance(message, types.JSONRPCResponse):
                link.version = str((message.result or {}).get("protocolVersion") or "") or None
            frame = _encoded(message)
            batch = link.batches.pop(key, None) if key is not None else None
            if batch is not None:
                batch.answers.append(frame)
                batch.waiting.discard(key)
                frame = batch.frame() if not batch.waiting else b""
            if frame:
                await write_line(frame)
            if key is not None:
                link.closed(key)


# --- the tools ---

_ANSWERED: contextvars.ContextVar[list[Envelope] | None] = contextvars.ContextVar("hyper_answered", default=None)
"""Where a ``tools/call`` handler leaves hyper's envelope for the middleware to send."""


def _fault(sentence: str) -> MCPError:
    return MCPError(code=ERROR_CODE, message=f"{sentence}, which is a fault in this server")


def _dispatched(dispatch: Dispatch, call: Call) -> Answer | BaseException:
    """One command, on a worker thread of its own (or, alone and local, on the loop's).

    Calls are not made to take turns: as between two terminals, what decides between
    two Runs is the Store's lock, which refuses rather than queues (ADR 0015).
    """
    try:
        return dispatch(call)
    except Exception as fault:
        return fault


CONCURRENT_CALLS: Final = 32
"""How many calls run at once in one session; past it a call waits for a thread, never
for another call's lock. Calls have their own limiter so that a session full of long
Runs never starves the threads that write frames."""


def _progress_to(ctx: ServerRequestContext[Any, Any], cancelled: threading.Event) -> Progress | None:
    """Step boundaries as notifications — and None where the client sent no token.

    A notification that cannot be sent is dropped: narration that did not arrive must
    never be what stops a Run.
    """
    if progress_token_from_params(ctx.params) is None:
        return None

    def report(position: int, of: int, step: str) -> None:
        if cancelled.is_set():
            return
        try:
            anyio.from_thread.run(ctx.session.report_progress, position, of, step)
        except Exception:
            return

    return report


def _local_read(tool: Tool | None) -> bool:
    """A tool that only reads the local world: answered on the loop's own thread when alone.

    Such a call touches no network, takes no Step and no lock, so it waits on nothing
    but this machine (the disk, a local git read); the hop to a worker thread and back is two wake-ups, which on
    a busy machine cost as much as the command (ADR 0015).
    """
    return tool is not None and tool.annotations.read_only and not tool.annotations.open_world


def _handler(table: Table, dispatch: Dispatch) -> Callable[..., Awaitable[types.CallToolResult]]:
    calls = anyio.CapacityLimiter(CONCURRENT_CALLS)
    threaded = 0
    """Calls of this session running on worker threads now."""

    async def dispatched(tool: Tool | None, call: Call) -> Answer | BaseException:
        nonlocal threaded
        if threaded == 0 and _local_read(tool):
            # Nothing else is in flight whose progress or frames this call could hold up.
            return _dispatched(dispatch, call)
        threaded += 1
        try:
            with anyio.CancelScope(shield=True):
                answered = await anyio.to_thread.run_sync(_dispatched, dispatch, call, limiter=calls)
        finally:
            threaded -= 1
        return answered

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        arrival = ctx.request if isinstance(ctx.request, _Arrival) else _Arrival(of_python(params.arguments))
        try:
            decoded = decode(table, params.name, arrival.arguments)
        except ProtocolError as refused:
            raise MCPError(code=ERROR_CODE, message=refused.message) from None
        tool = table.named(params.name)
        assert tool is not None  # decode refused every name the table lacks
        call = Call(
            argv=decoded.argv,
            progress=_progress_to(ctx, arrival.cancelled),
            cancelled=arrival.cancelled.is_set,
            drawn=tool.reading.shows_page,
        )
        answered = await dispatched(tool, call)
        # A cancellation that arrived while the Run drained is delivered here, and the
        # call is settled with no result, as the protocol asks.
        await anyio.lowlevel.checkpoint()
        if isinstance(answered, BaseException):
            raise _fault(f"the command stopped on an unexpected {type(answered).__name__}")
        try:
            envelope = envelope_of(tool, answered, decoded.dry_run)
        except ProtocolError as declined:
            raise MCPError(code=ERROR_CODE, message=declined.message) from None
        holder = _ANSWERED.get()
        if holder is not None:
            holder.append(envelope)
        return types.CallToolResult(content=[types.TextContent(text=envelope.text)], is_error=envelope.is_error)

    async def guarded(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            return await call_tool(ctx, params)
        except MCPError:
            raise
        except Exception as fault:
            raise _fault(f"the call stopped on an unexpected {type(fault).__name__}") from None

    return guarded


def _lister(table: Table) -> Callable[..., Awaitable[types.ListToolsResult]]:
    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=tool.name,
                    description=tool.description,
                    input_schema=dict(tool.input_schema),
                    output_schema=dict(tool.output_schema),
                )
                for tool in table.tools
            ]
        )

    return list_tools


def _our_answers(table: Table) -> ServerMiddleware[Any]:
    async def answers(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        return await _answered(table, ctx, call_next)

    return answers


async def _answered(table: Table, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """After the SDK has checked a request, send our own bytes in place of its result."""
    if ctx.method == "tools/list":
        await call_next(ctx)
        return {"tools": orjson.Fragment(table.listing(ctx.protocol_version))}
    if ctx.method != "tools/call":
        return await call_next(ctx)
    holder: list[Envelope] = []
    token = _ANSWERED.set(holder)
    try:
        result = await call_next(ctx)
    finally:
        _ANSWERED.reset(token)
    if not holder:
        return result
    return {key: orjson.Fragment(value) for key, value in holder[0].members()}


def _server(adapted: Adapted, instructions: str) -> Server[Any]:
    server: Server[Any] = Server(
        adapted.name,
        version=adapted.version,
        instructions=instructions,
        on_list_tools=_lister(adapted.table),
        on_call_tool=_handler(adapted.table, adapted.dispatch),
    )
    server.middleware[:] = [_our_answers(adapted.table)]
    return server


def _initialization(adapted: Adapted, instructions: str) -> InitializationOptions:
    """Capabilities stated rather than inferred: tools, and nothing promised beside them."""
    return InitializationOptions(
        server_name=adapted.name,
        server_version=adapted.version,
        instructions=instructions,
        capabilities=types.ServerCapabilities(tools=types.ToolsCapability()),
    )


async def serve_lines(adapted: Adapted, lines: AsyncIterator[bytes], write_line: WriteLine) -> None:
    """One session over newline-delimited frames, until ``lines`` ends and every call is answered."""
    instructions = adapted.instructions()
    server = _server(adapted, instructions)
    link = _Link()
    inbound_send, inbound = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    outbound, outbound_receive = anyio.create_memory_object_stream[SessionMessage](0)
    writing = anyio.Lock()

    async def send(frame: bytes) -> None:
        """One whole frame to the client, never interleaved with another; nothing once it has gone."""
        if link.broken:
            return
        async with writing:
            try:
                await write_line(frame)
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                link.broken = True
                link.cancel_all()

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(_read, lines, inbound_send, link, send)
            group.start_soon(_write, outbound_receive, send, link)
            async with server.lifespan(server) as state:
                await serve_loop(
                    server, inbound, outbound, lifespan_state=state, init_options=_initialization(adapted, instructions)
                )
    finally:
        link.cancel_all()


# --- the process's own stdio ---


def _is_pipe(fd: int) -> bool:
    """Whether ``fd`` is a pipe or a socket: what the loop's poll can wait on, and what a
    poll that finds it readable proves a read will not wait on."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


_CHUNK: Final = 64 * 1024
"""How much one read of a piped stdin asks for."""


async def _piped_lines(fd: int) -> AsyncIterator[bytes]:
    """Lines read from a pipe or socket on the loop's own thread, each cut as :func:`_stdin_lines` cuts it.

    The loop polls ``fd`` and reads only once the poll finds it readable, so a read never
    waits and no thread has to hand each frame across: that hand-off was two thread wake-ups
    a call, as much as a small command's own work (ADR 0038). A line is passed on as at most
    ``MAX_FRAME + 1`` bytes, as soon as it is that long, and the rest of it is skipped, so no
    frame is ever held whole past the cap. The descriptor's flags are left as they are: it is
    shared with whoever else holds the pipe.
    """
    held: list[bytes] = []
    size = 0
    skipping = False
    while True:
        await anyio.wait_readable(fd)
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            break
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start) + 1
            piece = chunk[start:end] if end else chunk[start:]
            start = end or len(chunk)
            if skipping:
                skipping = not end
                continue
            held.append(piece)
            size += len(piece)
            if end or size > MAX_FRAME:
                line = b"".join(held)
                held.clear()
                size = 0
                skipping = not end
                yield line[: MAX_FRAME + 1]
    if held and not skipping:
        yield b"".join(held)


def _stdin_lines(fd: int, portal: anyio.from_thread.BlockingPortal, into: Any) -> None:
    """Read lines on a daemon thread, so a blocked read never holds the process open: for a
    stdin the loop cannot poll (a file, a terminal, ``/dev/null``).

    A line is read at most ``MAX_FRAME + 1`` bytes at a time: a longer one is passed on
    as that much (which the edge refuses by its length) and the rest of it is skipped,
    so no frame is ever held whole past the cap. Once the portal has closed nobody is
    listening, and the thread simply ends.
    """
    with contextlib.suppress(Exception), os.fdopen(fd, "rb", closefd=False) as stream:
        while line := stream.readline(MAX_FRAME + 1):
            if len(line) > MAX_FRAME and not line.endswith(b"\n"):
                while (rest := stream.readline(MAX_FRAME)) and not rest.endswith(b"\n"):
                    pass
            portal.call(into.send, line)
    with contextlib.suppress(Exception):
        portal.call(into.aclose)


def _room_on(fd: int) -> Callable[[bytes], bool]:
    """Whether ``frame`` can be written to ``fd`` now without the write waiting.

    A pipe or socket the poll finds writable takes :data:`select.PIPE_BUF` bytes at once,
    so a frame that short goes out from the loop itself; a longer frame, a full pipe, or
    any other kind of file (a terminal can be paused) goes through a worker thread, so the
    loop never waits on a client that has stopped reading.
    """
    if not _is_pipe(fd):
        return lambda frame: False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)

    def room(frame: bytes) -> bool:
        return len(frame) <= select.PIPE_BUF and any(events & select.POLLOUT for _, events in poller.poll(0))

    return room


async def _serve_stdio(adapted: Adapted) -> None:
    # Frames own the real stdout. Anything else that writes to fd 1 while the server
    # runs lands on stderr, and stdin reads as empty for anything but the transport.
    sys.stdout.flush()
    wire_out, wire_in = os.dup(1), os.dup(0)
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sink = os.fdopen(wire_out, "wb", buffering=0)
    reader: threading.Thread | None = None
    try:

        def write_all(frame: bytes) -> None:
            sink.write(frame)

        room = _room_on(wire_out)

        async def write_line(frame: bytes) -> None:
            if room(frame):
                write_all(frame)
            else:
                await anyio.to_thread.run_sync(write_all, frame)

        if _is_pipe(wire_in):
            await serve_lines(adapted, _piped_lines(wire_in), write_line)
            return
        send, receive = anyio.create_memory_object_stream[bytes](16)
        async with anyio.from_thread.BlockingPortal() as portal:
            reader = threading.Thread(target=_stdin_lines, args=(wire_in, portal, send), daemon=True)
            reader.start()
            async with receive:
                await serve_lines(adapted, aiter(receive), write_line)
    finally:
        sys.stdout.flush()
        os.dup2(wire_out, 1)
        os.dup2(wire_in, 0)
        sink.close()
        if reader is None or not reader.is_alive():
            os.close(wire_in)


def _first_fault(fault: BaseException) -> BaseException:
    while isinstance(fault, BaseExceptionGroup) and fault.exceptions:
        fault = fault.exceptions[0]
    return fault


def serve(adapted: Adapted) -> int:
    """Serve MCP on the process's stdin and stdout until the client closes stdin (:meth:`Server.serve`)."""
    try:
        anyio.run(_serve_stdio, adapted)
    except Exception as fault:
        sys.stderr.write(f"{adapted.name} mcp: {_first_fault(fault)}\n")
        return 1
    return 0

"""The protocol's edge: every frame that is not a request is answered, and serving goes on."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from hyper_mcp.driver import Session, connected, tool_call_params
from hyper_mcp.edge import MAX_DEPTH, MAX_FRAME
from tests.mcp.fake_commands import PROVIDERS, answer, answering, served

PING = b'{"jsonrpc":"2.0","id":%d,"method":"ping"}'


async def _next_answer(session: Session) -> Any:
    while (frame := await session.receive()) is not None:
        decoded = orjson.loads(frame)
        if isinstance(decoded, list) or "method" not in decoded:
            return decoded
    raise EOFError


async def _still_serving(session: Session, rid: int) -> None:
    pong = await session.request("ping", request_id=rid)
    assert orjson.loads(pong) == {"jsonrpc": "2.0", "id": rid, "result": {}}


async def test_a_line_that_is_not_json_answers_a_parse_error_and_serving_goes_on() -> None:
    async with connected(served(answering(answer())[0])) as session:
        await session.handshake()
        await session.send(b"this is not JSON")
        assert await _next_answer(session) == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32700, "message": "the line is not JSON"},
        }
        await _still_serving(session, 9)


@pytest.mark.parametrize(
    "frame",
    [
        b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
        b'{"jsonrpc":"1.0","id":4,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":4}',
        b"[1]",
        b"17",
    ],
)
async def test_an_invalid_request_answers_invalid_request(frame: bytes) -> None:
    async with connected(served(answering(answer())[0])) as session:
        await session.handshake("2025-03-26")
        await session.send(frame)
        answered = await _next_answer(session)
        error = (answered[0] if isinstance(answered, list) else answered)["error"]
        assert error["code"] == -32600
        await _still_serving(session, 9)


async def test_under_2025_03_26_a_batch_is_answered_as_one_batch() -> None:
    async with connected(served(answering(answer(PROVIDERS))[0])) as session:
        await session.handshake("2025-03-26")
        call = b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":' + tool_call_params("providers", b"{}") + b"}"
        note = b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1}}'
        await session.send(b"[" + PING % 2 + b"," + call + b"," + note + b',{"jsonrpc":"2.0","id":true}]')
        answered = await _next_answer(session)
    assert isinstance(answered, list)
    by_id = {reply["id"]: reply for reply in answered}
    assert set(by_id) == {2, 3, None}
    assert by_id[2]["result"] == {}
    assert by_id[3]["result"]["content"] == [{"type": "text", "text": "2 Providers"}]
    assert by_id[None]["error"]["code"] == -32600


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
async def test_from_2025_06_18_a_batch_is_an_invalid_request(version: str) -> None:
    async with connected(served(answering(answer())[0])) as session:
        await session.handshake(version)
        await session.send(b"[" + PING % 2 + b"]")
        answered = await _next_answer(session)
        assert answered["error"]["code"] == -32600 and answered["id"] is None
        assert version in answered["error"]["message"]
        await _still_serving(session, 9)


async def test_a_batch_before_initialize_and_initialize_inside_a_batch_are_refused() -> None:
    initialize = json.dumps(
        {"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"protocolVersion": "2025-03-26",
                                                                          "capabilities": {}, "clientInfo": {
                                                                              "name": "t", "version": "0"}}}
    ).encode()  # fmt: skip
    async with connected(served(answering(answer())[0])) as session:
        await session.send(b"[" + initialize + b"]")
        before = await _next_answer(session)
        assert before["error"]["code"] == -32600
        await session.handshake("2025-03-26")
        await session.send(b"[" + initialize + b"," + PING % 2 + b"]")
        inside = await _next_answer(session)
    assert isinstance(inside, list)
    by_id = {reply["id"]: reply for reply in inside}
    assert by_id[7]["error"] == {"code": -32600, "message": "initialize is never accepted inside a batch"}
    assert by_id[2]["result"] == {}


async def test_initialized_before_initialize_does_not_open_the_gate() -> None:
    async with connected(served(answering(answer(PROVIDERS))[0])) as session:
        await session.notify("notifications/initialized")
        listed = orjson.loads(await session.request("tools/list", request_id=2))
        await session.handshake()
        again = orjson.loads(await session.request("tools/list", request_id=3))
    assert "error" in listed and "result" not in listed
    assert len(again["result"]["tools"]) == 13


async def test_a_frame_past_four_mebibytes_is_refused_unread_and_serving_goes_on() -> None:
    async with connected(served(answering(answer())[0])) as session:
        await session.handshake()
        await session.send(b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"' + b"x" * MAX_FRAME + b'"}}')
        answered = await _next_answer(session)
        assert answered["id"] is None and answered["error"]["code"] == -32600
        await _still_serving(session, 9)


async def test_a_string_past_64_kib_is_refused_quoting_only_its_start() -> None:
    dispatch, calls = answering(answer())
    async with connected(served(dispatch)) as session:
        await session.handshake()
        name = b"n" * 1_000_000  # under the frame cap, past the string cap
        frame = await session.request("tools/call", tool_call_params("provider", b'{"name":"' + name + b'"}'))
    message = orjson.loads(frame)["error"]["message"]
    assert message == (
        'provider: arguments: name is longer than the 65536 bytes a string may hold here; it begins "' + "n" * 64 + '"'
    )
    assert calls == [], "no command ran"


async def test_a_line_nested_deeper_than_the_decoder_reads_answers_a_parse_error_and_serving_goes_on() -> None:
    async with connected(served(answering(answer())[0])) as session:
        await session.handshake()
        deep = b"[" * 5_000 + b"]" * 5_000
        await session.send(b'{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":' + deep + b"}}")
        assert await _next_answer(session) == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32700, "message": "the line nests arrays and objects deeper than this server reads"},
        }
        await _still_serving(session, 9)


async def test_the_stated_depth_is_the_limit_on_every_python() -> None:
    """At the stated depth a frame is read; one level past it is refused, whatever the stack."""
    async with connected(served(answering(answer())[0])) as session:
        await session.handshake()
        for depth, refused in ((MAX_DEPTH - 2, False), (MAX_DEPTH + 1, True)):
            nested = b"[" * depth + b"]" * depth
            await session.send(b'{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":' + nested + b"}}")
            said = await _next_answer(session)
            assert ("deeper than this server reads" in said.get("error", {}).get("message", "")) is refused, said
        await _still_serving(session, 9)

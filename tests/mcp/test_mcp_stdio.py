"""``serve`` over a real pipe: what a client that spawns the process sees."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from hyper_mcp.edge import MAX_FRAME

REPOSITORY = Path(__file__).resolve().parents[2]

SERVER = """
import sys, time
import orjson
from hyper_mcp.answer import Answer
from hyper.cli.mcp import server

PROVIDERS = (
    b'{"type":"provider","name":"shell","origin":"built-in","summary":"runs <commands>","operation_count":2,'
    b'"digest":"sha256:aa"}',
)

def dispatch(call):
    time.sleep(0.2)
    print("a stray line from a command")
    if call.argv[0] == "providers":
        return Answer(PROVIDERS, b'{"type":"result","truncated":false}', "", "", "", "", 0)
    if call.argv[0] == "provider":
        return Answer((), None, "", "", 'hyper provider: no Provider named "nope"\\n', "", 2)
    return Answer((), b'{"type":"result","truncated":false}', "", "", "", "", 0)

sys.exit(server("1.4.0", dispatch).serve())
"""


def frame(rid: int | None, method: str, params: object = None) -> bytes:
    message: dict[str, object] = {"jsonrpc": "2.0", "method": method}
    if rid is not None:
        message["id"] = rid
    if params is not None:
        message["params"] = params
    return orjson.dumps(message) + b"\n"


OPENING = (
    frame(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t",
                                                                                               "version": "0"}})
    + frame(None, "notifications/initialized")
)  # fmt: skip


def served(sent: bytes) -> subprocess.CompletedProcess[bytes]:
    """The server run over a pipe until it has answered ``sent`` and stdin has closed; it must exit 0."""
    done = subprocess.run(
        [sys.executable, "-c", SERVER], input=sent, capture_output=True, cwd=REPOSITORY, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    return done


def test_stdin_closing_drains_every_request_and_exits_zero() -> None:
    sent = (
        OPENING
        + b"this line is not JSON\n"
        + frame(2, "tools/call", {"name": "providers", "arguments": {}})
        + frame(3, "tools/call", {"name": "targets"})
        + frame(4, "tools/call", {"name": "provider", "arguments": {"name": "nope"}})
        + frame(5, "tools/list")
    )
    done = served(sent)
    frames = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert sorted(reply["id"] for reply in frames if reply["id"] is not None) == [1, 2, 3, 4, 5]
    by_id = {reply["id"]: reply for reply in frames}
    assert by_id[None]["error"] == {"code": -32700, "message": "the line is not JSON"}, "answered, and serving went on"
    assert by_id[1]["result"]["serverInfo"] == {"name": "hyper", "version": "1.4.0"}
    assert by_id[2]["result"]["content"] == [{"type": "text", "text": "1 Provider"}]
    assert by_id[4]["error"] == {"code": 0, "message": 'hyper provider: no Provider named "nope"'}
    assert b'"summary":"runs <commands>"' in done.stdout
    assert b"stray" not in done.stdout
    assert b"a stray line from a command" in done.stderr


def test_an_immediate_end_of_input_is_a_clean_session() -> None:
    assert served(b"").stdout == b""


async def test_the_sdks_own_client_can_use_the_server() -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError

    parameters = StdioServerParameters(command=sys.executable, args=["-c", SERVER], cwd=REPOSITORY)
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        initialized = await session.initialize()
        assert initialized.server_info.name == "hyper"
        assert initialized.instructions is not None and "version: 1.4.0" in initialized.instructions
        listed = await session.list_tools()
        assert len(listed.tools) == 13
        # the client checks structuredContent against the tool's published outputSchema
        result = await session.call_tool("providers", {})
        assert result.is_error is False
        assert result.structured_content is not None
        assert result.structured_content["rows"][0]["summary"] == "runs <commands>"
        with pytest.raises(MCPError) as refused:
            await session.call_tool("check", {"paths": [""]})
        assert refused.value.message == "check: paths[0] is empty, and an empty string names no path"


def test_a_line_past_the_frame_cap_is_skipped_over_the_pipe_and_serving_goes_on() -> None:
    padded = b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"' + b"x" * (5 * 1024 * 1024) + b'"}}\n'
    done = served(OPENING + padded + frame(3, "ping"))
    frames = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert [(reply["id"], "error" in reply) for reply in frames] == [(1, False), (None, True), (3, False)]
    assert frames[1]["error"]["code"] == -32600


def served_from_a_file(sent: bytes, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    """:func:`served`, with stdin a regular file: a stdin no poll can wait on, read on a thread instead."""
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(sent)
    with requests.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-c", SERVER], stdin=stdin, capture_output=True, cwd=REPOSITORY, timeout=60, check=False
        )
    assert done.returncode == 0, done.stderr.decode()
    return done


def _answers(stdout: bytes) -> list[tuple[object, object]]:
    """Each answer as (id, result or error), by id: calls are answered concurrently, in any order."""
    frames = [orjson.loads(line) for line in stdout.splitlines()]
    return sorted(((reply["id"], reply.get("result", reply.get("error"))) for reply in frames), key=repr)


@pytest.mark.parametrize("stdin", ["pipe", "file"])
def test_a_line_of_the_frame_cap_is_read_and_one_byte_more_is_refused(stdin: str, tmp_path: Path) -> None:
    def ping(rid: int, length: int) -> bytes:
        head, tail = b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"' % rid, b'"}}\n'
        return head + b"x" * (length - len(head) - len(tail)) + tail

    sent = OPENING + ping(2, MAX_FRAME) + ping(3, MAX_FRAME + 1) + frame(4, "ping")
    done = served(sent) if stdin == "pipe" else served_from_a_file(sent, tmp_path)
    answers = _answers(done.stdout)  # the edge's refusal may overtake the ping the SDK answers
    assert [rid for rid, _ in answers] == [1, 2, 4, None]
    refused = f"a frame is at most {MAX_FRAME} bytes, and this one is longer"
    assert answers[-1][1] == {"code": -32600, "message": refused}


def test_a_stdin_that_is_a_file_is_answered_as_a_pipe_is(tmp_path: Path) -> None:
    sent = (
        OPENING
        + b"this line is not JSON\n"
        + frame(2, "tools/call", {"name": "providers", "arguments": {}})
        + frame(3, "tools/call", {"name": "provider", "arguments": {"name": "nope"}})
        + frame(4, "ping").rstrip(b"\n")  # the last line need not end
    )
    over_a_pipe = _answers(served(sent).stdout)
    assert [rid for rid, _ in over_a_pipe] == [1, 2, 3, 4, None]
    assert _answers(served_from_a_file(sent, tmp_path).stdout) == over_a_pipe


def test_a_frame_arriving_in_pieces_is_read_whole_over_the_pipe() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, cwd=REPOSITORY)  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(OPENING)
        server.stdin.flush()
        assert orjson.loads(server.stdout.readline())["id"] == 1
        call = frame(2, "tools/call", {"name": "providers", "arguments": {}})
        for piece in (call[:7], call[7:40], call[40:]):
            server.stdin.write(piece)
            server.stdin.flush()
            time.sleep(0.05)  # so each piece is likely its own read; the answer is the same either way
        answered = orjson.loads(server.stdout.readline())
        assert answered["id"] == 2 and answered["result"]["content"] == [{"type": "text", "text": "1 Provider"}]
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    assert server.returncode == 0

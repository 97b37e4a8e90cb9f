"""The server driven in process over its real transport: handshake, listing, calls, progress, cancel."""

from __future__ import annotations

import threading

import anyio
import orjson
import pytest

from hyper_mcp.answer import Answer, Call, Dispatch
from hyper_mcp.driver import (
    Boundary,
    Session,
    call,
    call_blocking,
    connected,
    list_tools,
    list_tools_blocking,
    tool_call_params,
)
from hyper_mcp.instructions import instructions
from tests.mcp.fake_commands import (
    PROVIDERS,
    RUN_ID,
    RUN_STEPS,
    STORE_ABSENT,
    TABLE,
    VERSION,
    SteppingRun,
    answer,
    answering,
    outcome_row,
    raising,
    served,
)


async def test_initialize_states_the_server_and_nothing_more() -> None:
    dispatch, _ = answering(answer())
    async with connected(served(dispatch)) as session:
        frame = await session.handshake("2025-06-18")
    assert frame == (
        b'{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}},"instructions":'
        + orjson.dumps(instructions(VERSION))
        + b',"protocolVersion":"2025-06-18","serverInfo":{"name":"hyper","version":"1.4.0"}}}\n'
    )


async def test_an_unknown_protocol_version_is_answered_with_a_handshake_era_one() -> None:
    dispatch, _ = answering(answer())
    async with connected(served(dispatch)) as session:
        frame = await session.handshake("2099-01-01")
    assert orjson.loads(frame)["result"]["protocolVersion"].startswith("2025-")


def test_the_instructions_say_what_an_agent_cannot_learn_from_a_call() -> None:
    text = instructions("2.0.0")
    assert "version: 2.0.0" in text
    for claim in (
        "Manifest",
        "Target declaration",
        "Definition",
        "Procedure",
        "Repository declaration",
        "hyper.yaml",
        "`check`",
        "`review`",
        "`run`",
        "you write what is reviewed",
        "`install`",
        "`store init`",
        "`compact`",
        "may not create it, prune it, or bring anything new into the repository",
        "The same call retried refuses identically",
        "AGENTS.md",
        "offer to write one",
        "not a reviewed artefact",
    ):
        assert claim in text, claim


async def test_tools_list_is_the_thirteen_by_name_with_schemas_as_published() -> None:
    dispatch, _ = answering(answer())
    declared = await list_tools(served(dispatch))
    assert [tool.name for tool in declared] == [tool.name for tool in TABLE.published()]
    for got, tool in zip(declared, TABLE.published(), strict=True):
        assert got.description == tool.description
        assert got.input_schema == orjson.dumps(tool.input_schema)
        assert got.output_schema == orjson.dumps(tool.output_schema)


def test_the_drivers_work_from_synchronous_code() -> None:
    dispatch, calls = answering(answer(PROVIDERS))
    outcome = call_blocking(served(dispatch), "providers")
    assert outcome.envelope is not None and outcome.envelope.text == "2 Providers"
    assert [call.argv for call in calls] == [("providers",)]
    assert len(list_tools_blocking(served(dispatch))) == 13


async def test_an_answer_arrives_with_its_rows_as_the_command_encoded_them() -> None:
    dispatch, calls = answering(answer(PROVIDERS))
    outcome = await call(served(dispatch), "providers", None)
    assert outcome.error is None and outcome.envelope is not None
    assert outcome.envelope.structured is not None
    # the rows go on the wire as the --json stream prints them: <, > and & unescaped
    assert outcome.envelope.structured.rows == tuple(PROVIDERS)
    assert b'"summary":"runs <commands> & more"' in outcome.frame
    assert outcome.frame.startswith(b'{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":')
    assert outcome.frame.endswith(b'"truncated":false},"isError":false}}\n')
    assert calls[0].progress is None
    assert outcome.watching.progress == () and outcome.watching.unasked == ()


async def test_a_declining_guardrail_comes_back_as_content_and_the_bit() -> None:
    dispatch, _ = answering(answer(terminal=None, refusal=STORE_ABSENT, exit=77))
    outcome = await call(served(dispatch), "runs", b"{}")
    assert outcome.envelope is not None and outcome.envelope.structured is None
    assert outcome.envelope.is_error is True
    assert b"structuredContent" not in outcome.frame


async def test_a_run_answers_its_outcome_and_reads_the_rehearsal_off_the_call() -> None:
    dispatch, calls = answering(answer(RUN_STEPS, outcome_row("completed", 0, dry_run=True)))
    outcome = await call(served(dispatch), "run", b'{"procedure":"publish","dry_run":true}')
    assert calls[0].argv == ("run", "--dry-run", "--", "publish")
    assert outcome.envelope is not None and outcome.envelope.text == f"completed · dry-run · run {RUN_ID}"
    assert b'"structuredContent":{"outcome":"completed","run_id":"' in outcome.frame


async def test_a_malformed_call_is_a_json_rpc_error_with_code_zero() -> None:
    dispatch, calls = answering(answer())
    outcome = await call(served(dispatch), "providers", b'{"limit": 10}')
    assert outcome.envelope is None
    assert outcome.error == 'providers: arguments: this tool takes no argument named "limit"'
    assert outcome.error_code == 0
    assert calls == []


async def test_a_usage_error_carries_the_commands_sentence() -> None:
    usage = 'hyper provider: no Provider named "nope" in this repository\n  hyper providers lists them\n'
    dispatch, _ = answering(answer(terminal=None, usage=usage, exit=2))
    outcome = await call(served(dispatch), "provider", b'{"name":"nope"}')
    assert outcome.error == usage.rstrip("\n")


async def test_an_unknown_tool_names_itself() -> None:
    dispatch, _ = answering(answer())
    outcome = await call(served(dispatch), "install", b"{}")
    assert outcome.error == "install: this server has no tool by that name; tools/list names all thirteen"


async def test_a_dispatch_that_raises_is_a_fault_with_no_traceback() -> None:
    outcome = await call(served(raising(lambda: RuntimeError("secret detail at /home/x"))), "targets", b"{}")
    assert outcome.error is not None and outcome.error_code == 0
    assert "RuntimeError" in outcome.error and "secret detail" not in outcome.error
    assert "Traceback" not in outcome.error


async def test_probe_inputs_reach_the_command_as_the_caller_spelled_them() -> None:
    dispatch, calls = answering(answer())
    await call(served(dispatch), "probe", b'{"provider":"p","operation":"o","inputs":{"n":1.50,"m":1e2}}')
    assert calls[0].argv == ("probe", "--input", "m=1e2", "--input", "n=1.50", "--", "p", "o")


async def test_a_repeated_arguments_member_is_read_last_wins_whichever_is_empty() -> None:
    """Empty arguments are taken from the SDK's parse; a later non-empty one still keeps its spelling."""
    dispatch, calls = answering(answer())
    async with connected(served(dispatch)) as session:
        await session.handshake()
        await session.request("tools/call", b'{"name":"runs","arguments":{"limit":5},"arguments":{}}')
        await session.request(
            "tools/call",
            b'{"name":"probe","arguments":{},"arguments":{"provider":"p","operation":"o","inputs":{"n":1.50}}}',
        )
    assert [call.argv for call in calls] == [("runs",), ("probe", "--input", "n=1.50", "--", "p", "o")]


async def test_progress_is_one_notification_per_step_boundary_under_a_token() -> None:
    run = SteppingRun(("probe", "middle", "last"))
    run.release.set()
    outcome = await call(served(run), "run", b'{"procedure":"p"}', progress_token="t-1")
    assert run.progress_was_none is False
    assert outcome.watching.progress == (
        Boundary("t-1", 1, 3, "probe"),
        Boundary("t-1", 2, 3, "middle"),
        Boundary("t-1", 3, 3, "last"),
    )
    assert outcome.watching.unasked == ()
    async with connected(served(run)) as session:
        await session.handshake()
        await session.request("tools/call", tool_call_params("run", b'{"procedure":"p"}', 7))
    notes = [frame for frame in session.seen if b'"method"' in frame]
    assert notes == [
        b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1,'
        b'"total":3,"message":"probe"}}\n',
        b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":2,'
        b'"total":3,"message":"middle"}}\n',
        b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":3,'
        b'"total":3,"message":"last"}}\n',
    ]


async def test_without_a_token_nothing_is_sent_and_the_run_is_handed_no_progress() -> None:
    run = SteppingRun(("probe", "middle"))
    run.release.set()
    outcome = await call(served(run), "run", b'{"procedure":"p"}')
    assert run.progress_was_none is True
    assert outcome.watching.progress == () and outcome.watching.unasked == ()
    assert outcome.envelope is not None and outcome.envelope.text.startswith("completed")


async def test_a_cancelled_call_drains_at_the_next_step_and_is_never_answered() -> None:
    run = SteppingRun(("probe", "middle", "last"))
    async with connected(served(run)) as session:
        await session.handshake()
        await session.start("tools/call", tool_call_params("run", b'{"procedure":"p"}', "tok"), request_id=5)
        first = await session.receive()
        assert first is not None and b'"message":"probe"' in first
        await session.notify("notifications/cancelled", b'{"requestId":5,"reason":"the user stopped it"}')
        # a request read after the cancellation is answered only once the cancellation was seen
        await session.request("ping", request_id=6)
        run.release.set()
        with anyio.fail_after(10):
            while not any(seen.startswith("cancelled") for seen in run.seen):
                await anyio.sleep(0.01)
        pong = await session.request("ping", request_id=8)
        assert orjson.loads(pong) == {"jsonrpc": "2.0", "id": 8, "result": {}}
    assert run.seen == ["ran probe", "cancelled before middle"]
    answered = [orjson.loads(frame).get("id") for frame in session.seen if b'"method"' not in frame]
    assert 5 not in answered
    assert [frame for frame in session.seen if b'"method"' in frame and b"progress" not in frame] == []


async def test_every_request_read_before_the_client_closes_is_answered() -> None:
    run = SteppingRun(("one", "two"))
    async with connected(served(run)) as session:
        await session.handshake()
        for rid in (2, 3, 4):
            await session.start("tools/call", tool_call_params("run", b'{"procedure":"p"}'), request_id=rid)
        await session.close()
        run.release.set()
        frames = await session.rest()
    assert sorted(orjson.loads(frame)["id"] for frame in frames) == [2, 3, 4]


def _beside(run: SteppingRun, *others: tuple[str, SteppingRun]) -> Dispatch:
    """``run`` answers the Procedure ``p``; each other Run its own name; every other tool lists Providers."""
    by_name = dict(others)

    def dispatch(call: Call) -> Answer:
        if call.argv[0] != "run":
            return answer(PROVIDERS)
        return by_name.get(call.argv[-1], run)(call)

    return dispatch


async def _answer_to(session: Session, rid: int) -> bytes:
    while (frame := await session.receive()) is not None:
        if b'"method"' not in frame:
            assert orjson.loads(frame)["id"] == rid, f"{rid} was to be answered next, and {frame!r} came first"
            return frame
    raise EOFError(rid)


async def test_a_read_sent_while_a_run_is_in_flight_is_answered_before_the_run() -> None:
    run = SteppingRun(("one", "two"))
    async with connected(served(_beside(run))) as session:
        await session.handshake()
        await session.start("tools/call", tool_call_params("run", b'{"procedure":"p"}', "tok"), request_id=2)
        started = await session.receive()
        assert started is not None and b'"message":"one"' in started
        await session.start("tools/call", tool_call_params("providers", b"{}"), request_id=3)
        listed = await _answer_to(session, 3)
        run.release.set()
        ran = await _answer_to(session, 2)
    assert orjson.loads(listed)["result"]["content"] == [{"type": "text", "text": "2 Providers"}]
    assert b"completed" in ran


async def test_a_local_read_runs_on_the_session_thread_only_while_nothing_else_is_in_flight() -> None:
    """Alone, a read of the local world skips the hop to a worker; beside a Run, it takes one,
    so a Run's progress never waits behind it."""
    run = SteppingRun(("one", "two"))
    threads: dict[str, list[int]] = {"providers": [], "runs": []}
    beside = _beside(run)

    def dispatch(call: Call) -> Answer:
        threads.setdefault(call.argv[0], []).append(threading.get_ident())
        return beside(call)

    async with connected(served(dispatch)) as session:
        await session.handshake()
        await session.request("tools/call", tool_call_params("providers", b"{}"), request_id=2)
        await session.request("tools/call", tool_call_params("runs", b"{}"), request_id=3)
        await session.start("tools/call", tool_call_params("run", b'{"procedure":"p"}', "tok"), request_id=4)
        started = await session.receive()
        assert started is not None and b'"message":"one"' in started
        await session.start("tools/call", tool_call_params("providers", b"{}"), request_id=5)
        await _answer_to(session, 5)
        run.release.set()
        await _answer_to(session, 4)
    here = threading.get_ident()
    assert threads["providers"][0] == here  # alone and local: on the loop's thread
    assert threads["runs"][0] != here  # a Store read reaches beyond the machine: a worker
    assert threads["providers"][1] != here  # beside a Run in flight: a worker


async def test_cancelling_one_call_leaves_the_others_untouched() -> None:
    kept, cancelled = SteppingRun(("one", "two")), SteppingRun(("one", "two"))
    async with connected(served(_beside(kept, ("gone", cancelled)))) as session:
        await session.handshake()
        await session.start("tools/call", tool_call_params("run", b'{"procedure":"p"}', "a"), request_id=2)
        await session.start("tools/call", tool_call_params("run", b'{"procedure":"gone"}', "b"), request_id=3)
        boundaries = [await session.receive(), await session.receive()]
        assert all(frame is not None and b'"message":"one"' in frame for frame in boundaries)
        await session.notify("notifications/cancelled", b'{"requestId":3,"reason":"only this one"}')
        await session.request("ping", request_id=4)  # answered once the cancel has been read
        kept.release.set()
        cancelled.release.set()
        ran = await _answer_to(session, 2)
        pong = await session.request("ping", request_id=5)
    assert orjson.loads(pong)["result"] == {}
    assert b"completed" in ran and kept.seen == ["ran one", "ran two"]
    assert cancelled.seen == ["ran one", "cancelled before two"]
    assert 3 not in [orjson.loads(frame).get("id") for frame in session.seen if b'"method"' not in frame]


@pytest.mark.parametrize(("tool", "arguments", "drawn"), [
    ("providers", b"{}", False),
    ("check", b"{}", True),
    ("review", b'{"artefact":"say-hello"}', True),
    ("runs", b"{}", False),
])  # fmt: skip
def test_a_call_says_whether_its_tool_shows_the_page(tool: str, arguments: bytes, drawn: bool) -> None:
    """A tool whose reading shows no page tells the dispatch so, and a command may skip drawing one."""
    dispatch, calls = answering(answer(rendering="page\n"))
    call_blocking(served(dispatch), tool, arguments)
    assert [call.drawn for call in calls] == [drawn]

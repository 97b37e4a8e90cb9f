"""The ``run`` tool over the real server and the real dispatch: one progress notification per
Step exactly when the call carried a token, and a cancel that drains — the Step in flight
finishes and is recorded, no later Step starts, the Run closes its own entry ``failed``,
and the cancelled request is never answered."""

from __future__ import annotations

from pathlib import Path

import anyio
import orjson

from hyper.cli.main import dispatch
from hyper.cli.mcp import server
from hyper_mcp.driver import Boundary, call, connected, tool_call_params
from tests.run.support import (
    ECHO,
    FACTS,
    VERSION,
    WAIT_FOR,
    branch_files,
    build,
    entry_files,
    held,
    procedure,
    process,
    read_step,
    scripts,
)
from tests.run.test_effects import CHANGES

THREE = procedure(
    "three",
    read_step("probe", "echo", "one"),
    "  - id: middle\n    procedure: nested\n",
    read_step("last", "echo", "three"),
)
NESTED = procedure("nested", read_step("item", "echo", "two"))


async def test_progress_is_one_notification_per_step_and_only_under_a_token(tmp_path: Path) -> None:
    root = build(tmp_path, {"procedures/three.yaml": THREE, "procedures/nested.yaml": NESTED})
    doors = server(VERSION, dispatch(process(root, scripts(tmp_path, echo=ECHO), {"HYPER_REPO_DIR": str(root)}), FACTS))

    watched = await call(doors, "run", b'{"procedure":"three"}', progress_token="t-1")
    assert watched.envelope is not None and watched.envelope.text.startswith("completed · run ")
    assert watched.watching.progress == (
        Boundary("t-1", 1, 3, "probe"),
        Boundary("t-1", 2, 3, "nested.item"),
        Boundary("t-1", 3, 3, "last"),
    )
    assert watched.watching.unasked == ()

    unwatched = await call(doors, "run", b'{"procedure":"three"}')
    assert unwatched.envelope is not None and unwatched.envelope.text.startswith("completed · run ")
    assert unwatched.watching.progress == () and unwatched.watching.unasked == ()


async def test_a_cancel_mid_run_drains_and_the_entry_closes_failed(tmp_path: Path) -> None:
    release = tmp_path / "release"
    root = build(tmp_path, {"procedures/held.yaml": held(release, "second", "third")})
    bin_dir = scripts(tmp_path, echo=ECHO, wait_for=WAIT_FOR)
    doors = server(VERSION, dispatch(process(root, bin_dir, {"HYPER_REPO_DIR": str(root)}), FACTS))

    async with connected(doors) as session:
        await session.handshake()
        await session.start("tools/call", tool_call_params("run", b'{"procedure":"held"}', "tok"), request_id=5)
        first = await session.receive()
        assert first is not None and orjson.loads(first)["params"] == {
            "progressToken": "tok",
            "progress": 1,
            "total": 3,
            "message": "waits",
        }
        await session.notify("notifications/cancelled", b'{"requestId":5,"reason":"stopped by the test"}')
        await session.request("ping", request_id=6)  # answered once the cancel has been read
        release.touch()
        with anyio.fail_after(30):
            while "outcome.json" not in entry_files(root):
                await anyio.sleep(0.05)
        pong = await session.request("ping", request_id=8)
        assert orjson.loads(pong) == {"jsonrpc": "2.0", "id": 8, "result": {}}

    answered = [orjson.loads(frame).get("id") for frame in session.seen if b'"method"' not in frame]
    assert 5 not in answered, "a cancelled request gets no result"
    progress = [frame for frame in session.seen if b"notifications/progress" in frame]
    assert len(progress) == 1, "no later Step started, so no later boundary was reported"
    assert entry_files(root) == ["outcome.json", "run.json", "steps/0001.json"]
    outcome = next(data for name, data in branch_files(root).items() if name.endswith("outcome.json"))
    assert orjson.loads(outcome)["outcome"] == "failed"
    step = next(data for name, data in branch_files(root).items() if name.endswith("steps/0001.json"))
    assert orjson.loads(step)["disposition"] == "ran"


async def test_a_second_run_while_the_first_holds_the_lock_answers_75_and_waits_for_nothing(tmp_path: Path) -> None:
    release = tmp_path / "release"
    # the mutate Step makes the Run effectful, so it holds the lock exclusively from its start
    changes = (
        "  - id: change\n    definition: host-changes\n    operation: mutate\n    target: local\n"
        "    args:\n      command: [echo, changed]\n"
    )
    root = build(tmp_path, {**CHANGES, "procedures/held.yaml": held(release) + changes})
    bin_dir = scripts(tmp_path, echo=ECHO, wait_for=WAIT_FOR)
    doors = server(VERSION, dispatch(process(root, bin_dir, {"HYPER_REPO_DIR": str(root)}), FACTS))

    async with connected(doors) as session:
        await session.handshake()
        await session.start("tools/call", tool_call_params("run", b'{"procedure":"held"}', "tok"), request_id=5)
        first = await session.receive()  # the first Step has begun: the lock is held
        assert first is not None and b'"message":"waits"' in first
        with anyio.fail_after(20):
            second = await session.request("tools/call", tool_call_params("run", b'{"procedure":"held"}'), request_id=6)
        release.touch()
        while (frame := await session.receive()) is not None and b'"id":5' not in frame:
            pass

    result = orjson.loads(second)["result"]
    # the reference's shape for a Run that lost the Store before run.json: no run_id, no rows
    assert result["structuredContent"] == {"outcome": "failed", "dry_run": False, "rows": [], "truncated": None}
    assert result["isError"] is True
    said = result["content"][0]["text"]
    assert said.startswith("failed\n\nhyper run: ") and "lock" in said, said
    assert frame is not None and orjson.loads(frame)["result"]["structuredContent"]["outcome"] == "completed"

"""Fake dispatches for the MCP tests: answers shaped like the commands', no ``hyper`` import.

Each builds an :class:`Answer` the way the command layer does — encoded rows, the
terminal row apart, the page and the stderr halves — so the surface is tested against
the contract it is handed rather than against a running repository.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import orjson

from hyper.cli.mcp import EXITS, server
from hyper_mcp.adapter import Server
from hyper_mcp.answer import Answer, Call, Dispatch
from hyper_mcp.table import Tool
from hyper_mcp.tools import hyper_table

VERSION = "1.4.0"
TABLE = hyper_table(EXITS)
"""hyper's thirteen tools, with hyper's own exit codes."""


def tool(name: str) -> Tool:
    """One of hyper's tools by name."""
    found = TABLE.named(name)
    assert found is not None, name
    return found


def served(dispatch: Dispatch) -> Server:
    """hyper's server at :data:`VERSION` over a fake dispatch."""
    return server(VERSION, dispatch)


RESULT_COMPLETE = b'{"type":"result","truncated":false}'


def row(**members: object) -> bytes:
    return orjson.dumps(members)


def answer(
    rows: tuple[bytes, ...] = (),
    terminal: bytes | None = RESULT_COMPLETE,
    *,
    rendering: str = "",
    refusal: str = "",
    usage: str = "",
    narration: str = "",
    exit: int = 0,
) -> Answer:
    return Answer(
        rows=rows, terminal=terminal, rendering=rendering, refusal=refusal, usage=usage, narration=narration, exit=exit
    )


PROVIDERS = (
    row(
        type="provider",
        name="shell",
        origin="built-in",
        summary="runs <commands> & more",
        operation_count=2,
        digest="sha256:" + "a" * 64,
    ),
    row(
        type="provider",
        name="widget",
        origin="extension",
        summary="class widgetco",
        operation_count=1,
        digest="sha256:" + "b" * 64,
    ),
)

PROBLEMS = (
    row(
        type="problem",
        file="hyper.yaml",
        line=5,
        column=1,
        field="unexpected",
        error_code="unknown-key",
        message='"unexpected" is not a key here',
    ),
    row(
        type="problem",
        file="targets/local.yaml",
        line=8,
        column=3,
        field="auth",
        error_code="local-reserved",
        message="local carries no auth: block",
    ),
)
PROBLEM_TABLE = (
    "FILE                LINE  FIELD       ERROR_CODE      MESSAGE\n"
    'hyper.yaml          5     unexpected  unknown-key     "unexpected" is not a key here\n'
    "targets/local.yaml  8     auth        local-reserved  local carries no auth: block\n"
)

STORE_ABSENT = "refused: store-absent\n  no hyper-store branch in this repository — hyper store init\n"

RUN_ID = "01991ea6-b118-7c93-8d41-6b2f7ae05c19"
RUN_STEPS = (
    row(type="step", step=1, id="probe", kind="read", disposition="ran", records=1),
    row(type="provenance", hyper_version=VERSION, procedure_revision="5" * 40, repo_revision="b" * 40),
)


def outcome_row(outcome: str, code: int, *, dry_run: bool = False, run_id: str | None = RUN_ID) -> bytes:
    members: dict[str, object] = {"type": "outcome", "outcome": outcome, "code": code}
    if run_id is not None:
        members["run_id"] = run_id
    members["dry_run"] = dry_run
    return orjson.dumps(members)


def answering(*answers: Answer) -> tuple[Dispatch, list[Call]]:
    """A dispatch giving ``answers`` in turn (the last one again), and the calls it got."""
    calls: list[Call] = []

    def dispatch(call: Call) -> Answer:
        calls.append(call)
        return answers[min(len(calls), len(answers)) - 1]

    return dispatch, calls


class SteppingRun:
    """A Run of named Steps that reports each boundary and drains when cancelled.

    Every Step after the first waits for ``release`` so a test can act between two
    boundaries; ``seen`` records what the Run observed, in order.
    """

    def __init__(self, steps: tuple[str, ...]) -> None:
        self.steps = steps
        self.release = threading.Event()
        self.started = threading.Event()
        self.seen: list[str] = []
        self.progress_was_none: bool | None = None

    def __call__(self, call: Call) -> Answer:
        self.progress_was_none = call.progress is None
        ran: list[bytes] = []
        for position, step in enumerate(self.steps, 1):
            if position > 1:
                self.release.wait(timeout=30)
            if call.cancelled():
                self.seen.append(f"cancelled before {step}")
                return answer(tuple(ran), outcome_row("failed", 1), exit=1)
            if call.progress is not None:
                call.progress(position, len(self.steps), step)
            self.seen.append(f"ran {step}")
            ran.append(row(type="step", step=position, id=step, kind="read", disposition="ran", records=0))
            self.started.set()
        return answer(tuple(ran), outcome_row("completed", 0))


def raising(fault: Callable[[], Exception]) -> Dispatch:
    def dispatch(call: Call) -> Answer:
        raise fault()

    return dispatch

"""An MCP server for the made-up ``greet`` CLI, built on ``hyper_mcp`` and nothing of hyper's.

Run it as ``python examples/argv-mcp/serve.py``; an MCP host starts it the same way and
speaks to it over stdin and stdout. Everything the adapter needs is on this page:

* a :class:`~hyper_mcp.Table` of two tools — what each publishes, how its arguments
  become argv, which reading of the answer it takes;
* an :class:`~hyper_mcp.Exits` saying what greet's exit codes mean;
* a dispatch that runs one command line and answers an :class:`~hyper_mcp.Answer`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hyper_mcp import Annotations, Answer, Call, Exit, Exits, Read, Reading, Refused, Server, Shape, Table, Tool

GREET = Path(__file__).with_name("greet.py")

EXITS = Exits({0: Exit(Shape.ANSWER), 1: Exit(Shape.ERROR_ANSWER), 2: Exit(Shape.USAGE)})
"""greet answers 0, or 2 with a usage sentence; 1 is kept for a failure it might one day report."""

READ_ONLY = Annotations(read_only=True, destructive=False, idempotent=True, open_world=False)

GREETING = {
    "type": "object",
    "additionalProperties": False,
    "required": ["type", "language", "text"],
    "properties": {"type": {"const": "greeting"}, "language": {"type": "string"}, "text": {"type": "string"}},
}


def _output(truncated: dict[str, object]) -> dict[str, object]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["rows", "truncated"],
        "properties": {"rows": {"type": "array", "items": GREETING}, "truncated": truncated},
    }


def _list(read: Read) -> list[str]:
    limit = read["limit"]
    if limit is not None and limit < 1:
        raise Refused(f"limit must be at least 1, not {limit}")
    return ["list"] if limit is None else ["list", "--limit", str(limit)]


def _say(read: Read) -> list[str]:
    if read["language"] == "":
        raise Refused("language is empty, and an empty string names no language")
    return ["say", "--", read["language"]]


TABLE = Table(
    [
        Tool(
            name="list",
            title="List greetings",
            description="Every greeting greet knows, one row each, by language code.",
            input_schema={
                "type": "object",
                "additionalProperties": False,
                "required": [],
                "properties": {"limit": {"type": "integer", "minimum": 1, "description": "At most this many."}},
            },
            output_schema=_output({"type": "boolean"}),
            annotations=READ_ONLY,
            argv=_list,
            reading=Reading.SUMMARY,
            exits=EXITS,
        ),
        Tool(
            name="say",
            title="Say a greeting",
            description="The greeting in one language, named by its code (en, fr, ...).",
            input_schema={
                "type": "object",
                "additionalProperties": False,
                "required": ["language"],
                "properties": {"language": {"type": "string", "minLength": 1}},
            },
            output_schema=_output({"type": "boolean"}),
            annotations=READ_ONLY,
            argv=_say,
            reading=Reading.SUMMARY,
            exits=EXITS,
        ),
    ]
)


def dispatch(call: Call) -> Answer:
    """One greet command line, run as its own process: rows from stdout, sentences from stderr."""
    done = subprocess.run([sys.executable, str(GREET), *call.argv], capture_output=True, check=False)
    lines = tuple(line for line in done.stdout.splitlines() if line)
    said = done.stderr.decode()
    return Answer(
        rows=lines[:-1],
        terminal=lines[-1] if lines else None,
        rendering="",
        refusal="",
        usage=said if done.returncode == 2 else "",
        narration="" if done.returncode == 2 else said,
        exit=done.returncode,
    )


SERVER = Server(
    name="greet",
    version="0.1.0",
    instructions=lambda: "greet knows a greeting per language: `list` them, or `say` one by its code.",
    table=TABLE,
    dispatch=dispatch,
)

if __name__ == "__main__":
    sys.exit(SERVER.serve())

"""MCP per-call overhead: a ``providers`` round trip to ``hyper mcp`` against an ``echo`` round
trip to a bare server written on the same SDK's low-level ``Server``, in the same run.

Both servers are started once and spoken to over stdio with the same newline-delimited
JSON-RPC frames, so what differs is what answering costs: for hyper, reading the repository
and building the Envelope; for the echo tool, nothing. The repository is a copy of
``examples/quickstart`` made a git repository of its own outside this checkout: run inside the
checkout, ``hyper mcp`` would take the checkout's root for the repository's and answer every
call with the version-pin Refusal, which is what this benchmark measured until #13 said so.
The first answer is checked to be the Providers listing, so a Refusal can never be timed again. Rounds are
interleaved — a batch of calls to one, then the other — medians of at least 5 rounds, the
minimum beside them. Target (issue #13): <= 1.5x.

Then the cost an agent meets when it loops on ``check``: a ``check`` call over a repository of
1,000 artefacts (:func:`benchmarks.check_scaling.generate`'s, clean) through one long-lived
``hyper mcp`` — which keeps its parse table warm across calls (ADR 0032) — against the CLI's
cold ``hyper check`` of the same repository, a fresh process each time, as a CI run on a fresh
clone meets it. The first answer is checked to be the clean check's empty rows. Interleaved as
above: a batch of calls, then one CLI process, per round. No target: the ratio is printed.

Run: ``.venv/bin/python -m benchmarks.mcp_bench [--rounds 7] [--calls 20] [--check-calls 5]``.
It prints; it asserts nothing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

from benchmarks.check_scaling import generate
from benchmarks.measure import HYPER, ROOT, compile_bytecode, exit_code, wall

TARGET = 1.5
CHECK_ARTEFACTS = 1000
EXAMPLE = ROOT / "examples" / "quickstart"
ECHO = """
import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(name="echo", input_schema={"type": "object"})])


async def call_tool(ctx, params):
    return types.CallToolResult(content=[types.TextContent(type="text", text="echo")])


async def main():
    server = Server("echo", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
"""


class Session:
    """One server process and the next request id."""

    def __init__(self, argv: list[str], cwd: str) -> None:
        self.child = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        self.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
        )
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message: dict[str, object]) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write(orjson.dumps(message) + b"\n")
        self.child.stdin.flush()

    def request(self, method: str, params: object) -> object:
        assert self.child.stdout is not None
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        answer = orjson.loads(self.child.stdout.readline())
        if "result" not in answer:
            raise SystemExit(f"{method} was answered with {answer}")
        return answer["result"]

    def call(self, tool: str) -> dict[str, object]:
        answer = self.request("tools/call", {"name": tool, "arguments": {}})
        assert isinstance(answer, dict)
        return answer

    def close(self) -> None:
        assert self.child.stdin is not None
        self.child.stdin.close()
        self.child.wait(timeout=30)


def per_call(session: Session, tool: str, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        session.call(tool)
    return (time.perf_counter() - start) / calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--check-calls", type=int, default=5)
    arguments = parser.parse_args()
    rounds = max(arguments.rounds, 5)
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="hyper-mcp-bench-") as scratch:
        repository = Path(scratch) / "repo"
        shutil.copytree(EXAMPLE, repository)
        subprocess.run(["git", "init", "-q"], cwd=repository, check=True)
        failed = measure(str(repository), rounds, arguments.calls)
        fleet = Path(scratch) / "fleet"
        fleet.mkdir()
        return failed or measure_check(fleet, rounds, max(arguments.check_calls, 1))


def measure(repository: str, rounds: int, calls: int) -> int:
    hyper = Session([sys.executable, "-m", "hyper", "mcp"], repository)
    echo = Session([sys.executable, "-c", ECHO], repository)
    try:
        answer = hyper.call("providers")
        if answer.get("isError") or not answer.get("structuredContent"):
            print(f"hyper mcp did not list the Providers: {answer}")
            return 1
        per_call(hyper, "providers", 3)  # warm: imports, and the first reading of the repository
        per_call(echo, "echo", 3)
        ours, theirs = [], []
        for _ in range(rounds):
            ours.append(per_call(hyper, "providers", calls))
            theirs.append(per_call(echo, "echo", calls))
    finally:
        hyper.close()
        echo.close()
    ratio = statistics.median(ours) / statistics.median(theirs)
    verdict = "within" if ratio <= TARGET else "OVER"
    print(
        f"hyper mcp providers: {statistics.median(ours) * 1000:.2f} ms a call; bare SDK echo:"
        f" {statistics.median(theirs) * 1000:.2f} ms a call (medians of {rounds} rounds of {calls})"
    )
    print(f"ratio {ratio:.2f}x median, {min(ours) / min(theirs):.2f}x min ({verdict} the {TARGET}x target)")
    return 0


def measure_check(fleet: Path, rounds: int, calls: int) -> int:
    """A ``check`` call through a warm ``hyper mcp`` against a cold ``hyper check``, on ``fleet``."""
    from hyper.core.version import installed

    generate(fleet, CHECK_ARTEFACTS, installed().version)
    subprocess.run(["git", "init", "-q"], cwd=fleet, check=True)
    cli = [*HYPER, "check", "--repo-dir", str(fleet)]
    if exit_code(cli) != 0:  # also warms the page cache
        print(f"the generated repository of {CHECK_ARTEFACTS} artefacts does not check clean")
        return 1
    hyper = Session([sys.executable, "-m", "hyper", "mcp"], str(fleet))
    try:
        answer = hyper.call("check")
        if answer.get("isError") or answer.get("structuredContent") != {"rows": [], "truncated": False}:
            print(f"hyper mcp's check did not answer the clean repository's empty rows: {answer}")
            return 1
        per_call(hyper, "check", 2)  # warm: every parse is in the table from here on
        served, cold = [], []
        for _ in range(rounds):
            served.append(per_call(hyper, "check", calls))
            cold.append(wall(cli))
    finally:
        hyper.close()
    ratio = statistics.median(served) / statistics.median(cold)
    print(
        f"hyper mcp check, {CHECK_ARTEFACTS} artefacts: {statistics.median(served) * 1000:.1f} ms a call;"
        f" cold hyper check: {statistics.median(cold) * 1000:.1f} ms"
        f" (medians of {rounds} rounds, {calls} calls a round)"
    )
    print(f"ratio {ratio:.2f}x median, {min(served) / min(cold):.2f}x min (no target: what an agent's loop meets)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A fixed fuzz budget over the two decoders hostile bytes reach first (issue #12 §8): the
artefact loader and the MCP argument decoder.

2,000 mutations of the corpus's own artefacts and tool calls, from a fixed seed so a failure
reproduces: byte flips, truncation, tabs, invalid UTF-8, NUL bytes, deep nesting, huge
scalars, anchors, tags and duplicate keys. Any exception is a failure (the loader and the
decoder promise never to raise), as is one input taking over 5 s or the process growing
past 1 GB. About 20 s on a loaded 2-core machine.
"""

from __future__ import annotations

import contextlib
import random
import resource
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from hyper.artefact.repository import Unreadable, load_repository
from hyper.check.repository import check_repository
from hyper_mcp.decode import decode
from hyper_mcp.errors import ProtocolError
from tests.mcp.fake_commands import TABLE

pytestmark = pytest.mark.serial  # a per-input time limit and the process's peak memory: run alone (ADR 0029)

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
MUTATIONS = 2000
SEED = 20261201
SLOWEST = 5.0
LARGEST_RSS_KB = 1 << 20  # 1 GB, as ru_maxrss counts on Linux

Mutator = Callable[[random.Random, bytes], bytes]


def _flip(rng: random.Random, data: bytes) -> bytes:
    body = bytearray(data or b"x")
    for _ in range(rng.randint(1, 8)):
        body[rng.randrange(len(body))] ^= 1 << rng.randrange(8)
    return bytes(body)


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _insert(piece: bytes) -> Mutator:
    def mutate(rng: random.Random, data: bytes) -> bytes:
        at = rng.randrange(len(data) + 1)
        return data[:at] + piece + data[at:]

    return mutate


def _deep(rng: random.Random, data: bytes) -> bytes:
    n = rng.choice((50, 199, 201, 999, 1001, 20000))
    return data + b"\nx: " + b"[" * n + b"]" * n + b"\n"


def _huge(rng: random.Random, data: bytes) -> bytes:
    return data + b'\nhuge: "' + b"\\n" * rng.choice((1000, 100_000)) + b'"\n'


def _duplicate(rng: random.Random, data: bytes) -> bytes:
    lines = data.splitlines(keepends=True)
    if not lines:
        return data
    line = rng.choice(lines)
    return data + line


MUTATORS: tuple[Mutator, ...] = (
    _flip,
    _truncate,
    _insert(b"\t"),
    _insert(b"\xff\xfe"),
    _insert(b"\xc3"),
    _insert(b"\0"),
    _deep,
    _huge,
    _insert(b" &a "),
    _insert(b" *a "),
    _insert(b" !tag "),
    _insert(b" !!str "),
    _duplicate,
    _insert(b"{"),
    _insert(b"- "),
    _insert(b"\n  "),
    _insert(b"'"),
    _insert(b'"'),
    _insert(b"\r"),
)


def _artefacts() -> list[tuple[str, bytes]]:
    """Every corpus artefact as its path below its repository and its bytes."""
    found = []
    for path in sorted(p for p in CORPUS.rglob("*.yaml") if p.is_file()):
        parts = path.parts
        for kind in ("providers", "targets", "definitions", "procedures"):
            if kind in parts:
                found.append((f"{kind}/{path.name}", path.read_bytes()))
                break
        else:
            if path.name == "hyper.yaml":
                found.append(("hyper.yaml", path.read_bytes()))
    return found


def _calls() -> list[tuple[str, bytes]]:
    calls = []
    for path in sorted(CORPUS.glob("mcp/*/*/call")):
        call = orjson.loads(path.read_bytes())
        calls.append((call["tool"], orjson.dumps(call.get("arguments", {}))))
    return calls


def _timed(what: str, act: Callable[[], object]) -> None:
    started = time.monotonic()
    act()
    took = time.monotonic() - started
    assert took < SLOWEST, f"{what} took {took:.1f} s"


def test_two_thousand_mutations_raise_nothing_hang_nothing_and_stay_small(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    artefacts, calls = _artefacts(), _calls()
    assert artefacts and calls
    for n in range(MUTATIONS):
        mutate = rng.choice(MUTATORS)
        if n % 4 == 3:
            tool, arguments = rng.choice(calls)
            mutated = mutate(rng, arguments)

            def call(tool: str = tool, mutated: bytes = mutated) -> None:
                with contextlib.suppress(ProtocolError):  # a refusal is the decoder's answer
                    decode(TABLE, tool, mutated)

            _timed(f"mutation {n}: {tool} {mutated[:80]!r}", call)
            continue
        relative, data = rng.choice(artefacts)
        mutated = mutate(rng, data)
        root = tmp_path / f"m{n}"
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(mutated)

        def load(root: Path = root) -> None:
            repo = load_repository(str(root))
            if not isinstance(repo, Unreadable):
                check_repository(repo)

        _timed(f"mutation {n}: {relative} {mutated[:80]!r}", load)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < LARGEST_RSS_KB

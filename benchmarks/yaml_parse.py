"""Per-file cost of reading an artefact: hyper's own YAML reader against PyYAML's C reader.

Run: ``.venv/bin/python -m benchmarks.yaml_parse [--rounds N] [FILE ...]``. Without files
it reads every ``.yaml`` under ``examples/`` and ``corpus/`` plus one typical 30-line
artefact held below. For each file it reports the best time per read, over N rounds
interleaved so that load on the machine hits every reader alike, of:

* ``yamlparse`` — :func:`hyper.yaml.parse.parse`, bytes in, tree and faults out;
* ``full`` — the same read with no fast path (:func:`hyper.yaml.parse.read_fully` after
  the decode): the scanner and the parser, which every document took before ADR 0035;
* ``C events`` — PyYAML's ``CSafeLoader`` (libyaml) producing the event stream alone,
  with no tree built: the floor any PyYAML-based reader stands on.

It ends with the totals and what 4,000 files of the typical kind would cost. Numbers
depend on the machine; the ratio is the reading that travels.

``--generated N`` times instead the N artefacts :func:`benchmarks.check_scaling.generate`
writes, read in one process with the collector off, as ``hyper check`` reads them: the
whole set per round, ``yamlparse`` and ``full`` taken in turn, at least five rounds,
median and minimum, against the target of issue #13 (a third of the full read).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from benchmarks import check_scaling
from hyper.yaml import parse as yamlparse

GENERATED_TARGET = 3.0
"""Issue #13: the generated set read at least this many times faster than by the full path."""

ROOT = Path(__file__).resolve().parent.parent

TYPICAL = b"""\
# A procedure that rolls the web tier forward, one host at a time.
kind: procedure
procedure: roll-web
description: >
  Drain each web host, deploy the new build,
  and put it back behind the balancer.
targets: [web-1, web-2, web-3]
bound: {timeout: 10m, retries: 2}
steps:
  - id: drain
    definition: balancer-ops
    operation: drain
    target: lb
    args:
      host: "{{ target }}"
      grace: 30s
  - id: deploy
    definition: host-ops
    operation: write
    target: web-1
    args:
      command: [systemctl, restart, web]
      env: {RELEASE: '2026.05.1', MODE: blue}
  - id: check
    definition: host-ops
    operation: read
    target: web-1
    args:
      command: |
        curl -fsS http://localhost:8080/healthz
        echo ok
"""


def readers(data: bytes) -> dict[str, Callable[[], object]]:
    text = data.decode("utf-8", "replace")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def c_events() -> object:
        events = 0
        try:
            for _ in yaml.parse(text, Loader=loader):
                events += 1
        except yaml.YAMLError:
            pass
        return events

    return {
        "yamlparse": lambda: yamlparse.parse(data, "f.yaml"),
        "full": lambda: yamlparse.read_fully(data.decode("utf-8", "replace"), "f.yaml"),
        "C events": c_events,
    }


def best_times(data: bytes, rounds: int, per_round: int) -> dict[str, float]:
    """Best seconds per read for each reader, rounds interleaved across the readers."""
    chosen = readers(data)
    best = dict.fromkeys(chosen, float("inf"))
    for _ in range(rounds):
        for name, read in chosen.items():
            start = time.perf_counter()
            for _ in range(per_round):
                read()
            best[name] = min(best[name], (time.perf_counter() - start) / per_round)
    return best


def generated(artefacts: int, rounds: int) -> None:
    """The check_scaling set read whole per round by each reader in turn, as ``check`` reads it."""
    from hyper.core.version import installed

    with tempfile.TemporaryDirectory(prefix="hyper-yaml-parse-") as scratch:
        check_scaling.generate(Path(scratch), artefacts, installed().version)
        datas = [path.read_bytes() for path in sorted(Path(scratch).rglob("*.yaml"))]
    chosen: dict[str, Callable[[bytes], object]] = {
        "yamlparse": lambda data: yamlparse.parse(data, "f.yaml"),
        "full": lambda data: yamlparse.read_fully(data.decode(), "f.yaml"),
    }
    taken: dict[str, list[float]] = {name: [] for name in chosen}
    gc.disable()  # as hyper check runs
    try:
        for _ in range(max(rounds, 5)):
            for name, read in chosen.items():
                start = time.perf_counter()
                for data in datas:
                    read(data)
                taken[name].append(time.perf_counter() - start)
    finally:
        gc.enable()
    lines = sum(data.count(b"\n") for data in datas)
    print(f"{len(datas)} generated artefacts, {lines} lines, {sum(map(len, datas))} bytes, {len(taken['full'])} rounds")
    for name, times in taken.items():
        print(f"{name:10} median {statistics.median(times) * 1e3:7.1f} ms, min {min(times) * 1e3:7.1f} ms")
    ratio = statistics.median(taken["full"]) / statistics.median(taken["yamlparse"])
    best = min(taken["full"]) / min(taken["yamlparse"])
    verdict = "within" if ratio >= GENERATED_TARGET else "SHORT OF"
    print(f"full / yamlparse: {ratio:.2f}x median, {best:.2f}x min ({verdict} the {GENERATED_TARGET}x target)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=20)
    parser.add_argument("--generated", type=int, metavar="N", help="time the N artefacts check_scaling generates")
    parser.add_argument("files", nargs="*", type=Path)
    options = parser.parse_args()
    if options.generated:
        generated(options.generated, options.rounds)
        return 0
    samples: list[tuple[str, bytes]] = [("typical 30-line artefact", TYPICAL)]
    found = [*ROOT.glob("examples/**/*.yaml"), *ROOT.glob("corpus/**/*.yaml")]
    paths = options.files or sorted(path for path in found if path.is_file())  # a directory may be named *.yaml
    samples += [
        (str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path), path.read_bytes()) for path in paths
    ]
    totals: dict[str, float] = {}
    typical: dict[str, float] = {}
    print(f"{'file':60} {'lines':>5} {'yamlparse':>10} {'full':>10} {'C events':>10} {'ratio':>6}")
    for name, data in samples:
        times = best_times(data, options.rounds, options.per_round)
        for reader, seconds in times.items():
            totals[reader] = totals.get(reader, 0.0) + seconds
        if not typical:
            typical = times
        ratio = times["yamlparse"] / times["C events"]
        lines = data.count(b"\n")
        print(
            f"{name[-60:]:60} {lines:5} {times['yamlparse'] * 1e6:8.1f}us {times['full'] * 1e6:8.1f}us "
            f"{times['C events'] * 1e6:8.1f}us {ratio:6.2f}"
        )
    print(
        f"\nall {len(samples)} files: yamlparse {totals['yamlparse'] * 1e3:.2f} ms, "
        f"full {totals['full'] * 1e3:.2f} ms, C events {totals['C events'] * 1e3:.2f} ms "
        f"(ratio {totals['yamlparse'] / totals['C events']:.2f})"
    )
    print(
        f"4,000 typical artefacts: yamlparse {typical['yamlparse'] * 4000:.2f} s, "
        f"C events {typical['C events'] * 4000:.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

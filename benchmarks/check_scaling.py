"""How ``hyper check`` grows with a repository: 250, 1,000 and 10,000 artefacts.

Run: ``.venv/bin/python -m benchmarks.check_scaling [--runs N] [--sizes 250,1000,10000]``.
Each repository is generated into a temporary directory from artefacts shaped like
real ones — http Manifests with inputs, records, auth and patterns; Targets with
hosts and credential slots; reader and writer Definitions; Procedures with
Expansions over values and Assets, references, predicates, Bounds, nested
invocations and Cadences — and checks clean, so the time is the rules' and not the
error table's. Every number is the median wall time of N rounds of the real console
path (see :mod:`benchmarks.measure`), reported as a ratio to ``python -c pass``
measured in the same rounds.

Rounds are interleaved (one of each command per round), at least 5; the median and
the minimum are both printed, and each run's peak RSS.

Targets (issue #13): 1,000 artefacts within 8× ``python -c pass``, 10,000 within 75×;
memory at most 15 KB per further artefact; and growth no worse than linear, judged on the
marginal cost of one more artefact (the fixed start-up cost would hide growth in totals):
the cost per artefact between the two largest sizes within 1.25× of that between the two
smallest.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.measure import HYPER, PASS, compile_bytecode, exit_code, wall

TARGETS = {1000: 8.0, 10000: 75.0}
MEMORY_KB = 15.0
GROWTH = 1.25

PROVIDER = """\
kind: provider
provider: dns-{g}
schema-version: 1
class: dns
capabilities: [http]
auth:
  header: {{name: Authorization, prefix: "Bearer "}}
enumerations:
  record_types: [A, AAAA, CNAME, TXT]
operations:
  create_record:
    kind: mutate
    repeatability: skip-if-recorded
    deadline: 30s
    http:
      method: POST
      host: "{{from-target}}"
      path: /v4/zones/{{zone_id}}/records
      body: {{name: "{{name}}", type: "{{type}}", content: "{{content}}"}}
    input:
      type: object
      properties:
        zone_id: {{type: string}}
        name: {{type: string}}
        type: {{type: string, enum: [A, AAAA, CNAME, TXT]}}
        content: {{type: string}}
    record:
      identity: "{{name}}"
      fields:
        id: $.body.result.id
        name: $.body.result.name
        created_on: $.body.result.created_on
  list_records:
    kind: read
    repeatability: repeatable
    deadline: 30s
    concurrency: 4
    http:
      method: GET
      host: "{{from-target}}"
      path: /v4/zones/{{zone_id}}/records
      query: {{per_page: "100"}}
    input:
      type: object
      properties:
        zone_id: {{type: string}}
    patterns:
      pagination:
        cursor: {{from: $.body.result_info.cursor, into: {{query: cursor}}}}
      retry: {{attempts: 3}}
    record:
      over: $.body.result
      identity: $.id
      fields: {{id: $.id, name: $.name, created_on: $.created_on}}
  get_record:
    kind: read
    deadline: 10s
    http: {{method: GET, host: "{{from-target}}", path: "/v4/zones/{{zone_id}}/records/{{record_id}}"}}
    input:
      type: object
      properties:
        zone_id: {{type: string}}
        record_id: {{type: string}}
    record: {{identity: $.body.result.id, fields: {{id: $.body.result.id, name: $.body.result.name}}}}
  delete_record:
    kind: destroy
    repeatability: repeatable
    deadline: 30s
    http:
      method: DELETE
      host: "{{from-target}}"
      path: /v4/zones/{{zone_id}}/records/{{record_id}}
    input:
      type: object
      properties:
        zone_id: {{type: string}}
        record_id: {{type: string}}
"""

TARGET = """\
kind: target-declaration
target: dns-prod-{g}
class: dns
kinds: [read, mutate, destroy]
capabilities: [http]
hosts: [api-{g}.example.com]
auth:
  token: {{env: DNS_API_TOKEN_{g}}}
"""

OBSERVER = """\
kind: definition
definition: dns-observed-{g}
provider: dns-{g}
kinds: [read]
targets: [dns-prod-{g}]
"""

WRITER = """\
kind: definition
definition: dns-writer-{g}
provider: dns-{g}
kinds: [mutate]
destroy: [delete_record]
targets: [dns-prod-{g}]
"""

PUBLISH = """\
kind: procedure
procedure: publish-{g}
targets: [dns-prod-{g}]
steps:
  - id: publish
    definition: dns-writer-{g}
    operation: create_record
    target: dns-prod-{g}
    args: {{zone_id: 023e105f4ecef8ad9ca3, name: preview-{g}.example.com, type: A, content: 203.0.113.10}}
  - id: aliases
    definition: dns-writer-{g}
    operation: create_record
    target: dns-prod-{g}
    over:
      values: [docs.preview-{g}.example.com, api.preview-{g}.example.com, cdn.preview-{g}.example.com]
    args: {{zone_id: 023e105f4ecef8ad9ca3, name: {{item: $}}, type: CNAME, content: preview-{g}.example.com}}
    bound: 3
  - id: confirm
    require: {{step: publish, field: name, equals: preview-{g}.example.com}}
"""

RETIRE = """\
kind: procedure
procedure: retire-{g}
targets: [dns-prod-{g}]
steps:
  - id: retire
    definition: dns-writer-{g}
    operation: delete_record
    target: dns-prod-{g}
    over:
      assets:
        - field: name
          starts_with: preview-
        - field: created_on
          older_than: 14d
    args: {{zone_id: 023e105f4ecef8ad9ca3, record_id: {{item: $.id}}}}
    bound: 5
"""

AUDIT = """\
kind: procedure
procedure: audit-{g}
targets: [dns-prod-{g}]
cadence: "0 3 * * 1"
steps:
  - id: records
    definition: dns-observed-{g}
    operation: list_records
    target: dns-prod-{g}
    args: {{zone_id: 023e105f4ecef8ad9ca3}}
  - id: apex
    definition: dns-observed-{g}
    operation: get_record
    target: dns-prod-{g}
    args: {{zone_id: 023e105f4ecef8ad9ca3, record_id: 372e67954025e0ba6aaa6d586b9e0b59}}
  - id: apex-again
    definition: dns-observed-{g}
    operation: get_record
    target: dns-prod-{g}
    args: {{zone_id: 023e105f4ecef8ad9ca3, record_id: {{step: apex, path: $.id}}}}
    when: {{step: apex, field: name, starts_with: preview-}}
"""

ROTATE = """\
kind: procedure
procedure: rotate-{g}
targets: [dns-prod-{g}]
steps:
  - id: publish
    procedure: publish-{g}
  - id: retire
    procedure: retire-{g}
"""

GROUP = (
    ("providers/dns-{g}.yaml", PROVIDER),
    ("targets/dns-prod-{g}.yaml", TARGET),
    ("definitions/dns-observed-{g}.yaml", OBSERVER),
    ("definitions/dns-writer-{g}.yaml", WRITER),
    ("procedures/publish-{g}.yaml", PUBLISH),
    ("procedures/retire-{g}.yaml", RETIRE),
    ("procedures/audit-{g}.yaml", AUDIT),
    ("procedures/rotate-{g}.yaml", ROTATE),
)

DECLARATION = """\
kind: repository-declaration
version: {version}
digest: sha256:{digest}
retention: 90d
"""


def generate(root: Path, artefacts: int, version: str) -> None:
    """``artefacts`` files in all (``hyper.yaml`` among them), then the workflows that keep it clean.

    Groups of eight — a Manifest, a Target, two Definitions, four Procedures — are
    written until the count is reached, so every size has the same mix.
    """
    (root / "hyper.yaml").write_text(DECLARATION.format(version=version, digest="0" * 64))
    written = 1
    g = 0
    while written < artefacts:
        for path, template in GROUP:
            if written == artefacts:
                break
            target = root / path.format(g=g)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(template.format(g=g))
            written += 1
        g += 1
    project_workflows(root)


def project_workflows(root: Path) -> None:
    """The workflows ``hyper project`` would write, and the lock beside them, so ``projection-stale`` finds nothing."""
    from hyper.artefact.repository import LOCK, Repository, load_repository
    from hyper.check.projection import wanted
    from hyper.workflow import generate
    from hyper.workflow.lock import lock

    repo = load_repository(str(root))
    assert isinstance(repo, Repository), repo
    declaration = repo.declaration
    assert declaration is not None and declaration.version is not None and declaration.digest is not None
    for workflow in wanted(repo, declaration.version.value, declaration.digest.value):
        path = root / workflow.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(generate(workflow.facts))
        (root / LOCK).write_bytes(lock())


PEAK = (
    "import atexit, sys\n"
    "def _peak():\n"
    "    with open('/proc/self/status') as status:\n"
    "        sys.stderr.write(next(line for line in status if line.startswith('VmHWM:')))\n"
    "atexit.register(_peak)\n"
    "from hyper.cli.main import entry\n"
    "entry()\n"
)
"""The console path reporting its own peak RSS as it exits. Read from ``/proc`` rather than
``wait4``'s rusage, which on Linux counts the parent's pages a vfork-started child shared
before its exec — this benchmark's own, swollen by the generated repositories."""


def _peak_kib(argv: list[str]) -> int:
    done = subprocess.run([sys.executable, "-c", PEAK, *argv], capture_output=True, text=True, check=False)
    return int(done.stderr.strip().splitlines()[-1].split()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--sizes", default="250,1000,10000")
    args = parser.parse_args()
    runs = max(args.runs, 5)
    sizes = [int(size) for size in args.sizes.split(",")]
    from hyper.core.version import installed

    version = installed().version
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="hyper-check-scaling-") as scratch:
        commands: dict[str, list[str]] = {"pass": PASS}
        for size in sizes:
            root = Path(scratch) / str(size)
            root.mkdir()
            generate(root, size, version)
            commands[str(size)] = [*HYPER, "check", "--repo-dir", str(root)]
            if exit_code(commands[str(size)]) != 0:  # also warms the page cache
                print(f"the generated repository of {size} artefacts does not check clean", file=sys.stderr)
                return 1
        walls: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):  # interleaved: one of each per round
            for name, argv in commands.items():
                walls[name].append(wall(argv))
        peaks = {str(size): [_peak_kib(commands[str(size)][3:]) for _ in range(3)] for size in sizes}
    median = {name: statistics.median(taken) for name, taken in walls.items()}
    least = {name: min(taken) for name, taken in walls.items()}
    print(f"python -c pass: {median['pass'] * 1000:.1f} ms (median of {runs}), {least['pass'] * 1000:.1f} ms min")
    for size in sizes:
        name = str(size)
        ratio, best = median[name] / median["pass"], least[name] / least["pass"]
        target = TARGETS.get(size)
        verdict = "" if target is None else f" ({'within' if ratio <= target else 'OVER'} the {target}x target)"
        print(
            f"hyper check, {size} artefacts: {median[name] * 1000:.1f} ms = {ratio:.2f}x median, {best:.2f}x min"
            f"{verdict}; peak RSS {statistics.median(peaks[name]) / 1024:.1f} MB"
        )
    for smaller, larger in itertools.pairwise(sizes):
        extra = larger - smaller
        cost = (median[str(larger)] - median[str(smaller)]) / extra
        memory = (statistics.median(peaks[str(larger)]) - statistics.median(peaks[str(smaller)])) / extra
        print(
            f"{smaller} -> {larger}: {cost * 1e6:.0f} us and {memory:.1f} KB per further artefact"
            f" ({'within' if memory <= MEMORY_KB else 'OVER'} the {MEMORY_KB} KB target)"
        )
    if len(sizes) >= 3:
        first = (median[str(sizes[1])] - median[str(sizes[0])]) / (sizes[1] - sizes[0])
        last = (median[str(sizes[-1])] - median[str(sizes[-2])]) / (sizes[-1] - sizes[-2])
        growth = last / first
        print(
            f"marginal cost per artefact, {sizes[-2]}+ against {sizes[0]}+: {growth:.2f}x"
            f" ({'within' if growth <= GROWTH else 'OVER'} the {GROWTH}x of linear growth)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

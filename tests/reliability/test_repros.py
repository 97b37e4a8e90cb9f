"""Issue #12's repros, held in the normal suite. Each was reproduced on main acting as an
attacker or a flaky machine would; each is now a test. The ones needing their own fixtures
live beside the code they hold, and are named here so the list is whole:

* §1 links, FIFOs, devices, the cap, atomic writes, the sink — tests/fs/test_held.py and
  tests/probe/test_probe.py (``--response``);
* §2 non-dumpable — tests/cli/test_undumpable.py;
* §3 the drip-fed request and IPv6 literal grants — tests/capability/test_deadline.py;
* §4 signals — tests/run/test_signals.py;
* §5 concurrent writers — tests/run/test_concurrent_writers.py;
* §6 deep JSON in the Store — tests/store/test_deepjson.py; YAML depth —
  tests/test_yamlparse.py;
* §7 core.fsync — tests/store/test_durability.py.

What is here: the end-to-end ``hyper check`` over a hostile tree in a real process, the
linear escape scan, and no raised recursion limit anywhere in the source. A few seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hyper.core.version import installed
from hyper.yaml.parse import parse
from tests.check.repos import write
from tests.check.test_command import QUICKSTART

pytestmark = pytest.mark.serial  # a ratio of two CPU times: run alone (ADR 0029)

ROOT = Path(__file__).resolve().parents[2]


def test_check_over_a_device_a_fifo_and_links_out_answers_and_does_not_hang(tmp_path: Path) -> None:
    pin = str(QUICKSTART["hyper.yaml"]).replace("0.0.1-alpha", installed().version)
    root = write(tmp_path / "repo", {**QUICKSTART, "hyper.yaml": pin})
    (root / "providers").mkdir()
    (root / "providers" / "z.yaml").symlink_to("/dev/zero")
    os.mkfifo(root / "providers" / "f.yaml")
    (root / "targets" / "passwd.yaml").symlink_to("/etc/passwd")
    (root / "targets" / "etclink").symlink_to("/etc")
    env = {**os.environ, "HYPER_REPO_DIR": str(root)}
    whole = subprocess.run([sys.executable, "-m", "hyper", "check"], env=env, capture_output=True, timeout=60)
    assert b"Traceback" not in whole.stderr and b"MemoryError" not in whole.stderr
    assert whole.stdout.count(b"strict-yaml-violation") == 3, whole.stdout
    named = subprocess.run(
        [sys.executable, "-m", "hyper", "check", "targets/etclink/passwd"], env=env, capture_output=True, timeout=60
    )
    assert (named.returncode, named.stderr) == (2, b"hyper check: targets/etclink/passwd: outside the repository\n")


def _cpu_seconds(data: bytes) -> float:
    started = time.process_time()
    assert parse(data, "f.yaml").ok
    return time.process_time() - started


def test_eight_times_the_escapes_costs_at_most_ten_times_the_time() -> None:
    """Linear, not quadratic: eight times the escapes may cost at most ten times the CPU time
    (quadratic, the ratio was about 64). The two sizes alternate within each of seven rounds,
    so a busy spell lands inside one pair, and the quietest pair's ratio is the one held: the
    fastest of each size taken apart could pair a quiet small run with a large one that no
    round ever ran quietly. No plausible load turns 64 into 10."""
    small = b'k: "' + b"\\t" * 100_000 + b'"\n'
    large = b'k: "' + b"\\t" * 800_000 + b'"\n'
    _cpu_seconds(small)
    ratios = []
    for _ in range(7):
        base = _cpu_seconds(small)
        ratios.append(_cpu_seconds(large) / base)
    assert min(ratios) <= 10, ratios


def test_no_module_raises_the_recursion_limit() -> None:
    raised = [
        str(path.relative_to(ROOT))
        for folder in ("hyper", "hyper_mcp")
        for path in (ROOT / folder).rglob("*.py")
        if "setrecursionlimit" in path.read_text(encoding="utf-8")
    ]
    assert raised == []

"""Running every case under a directory and printing one line per case.

Kept apart from the command-line parsing so a test can drive it with any corpus
and read what it printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from harness.case import discover
from harness.drive import Surfaces
from harness.golden import Mode, Verdict, judge, summary


def run_directory(directory: Path, out: TextIO, write_actual: bool = False, surfaces: Surfaces | None = None) -> int:
    """Judge every case leniently; print ``pass``/``fail`` per case, then the tally."""
    cases = discover(directory)
    mode = Mode.WRITE_ACTUAL if write_actual else Mode.CHECK
    verdicts: list[Verdict] = []
    for case in cases:
        verdict = judge(case, mode, strict=False, surfaces=surfaces)
        verdicts.append(verdict)
        out.write(_line(verdict))
        out.flush()
    out.write(summary(verdicts) + "\n")
    return 0 if verdicts and all(v.passed for v in verdicts) else 1


def _line(verdict: Verdict) -> str:
    status = "pass" if verdict.passed else "fail"
    head = f"{status}  {verdict.case}"
    if verdict.unchecked:
        head += f"  (unchecked: {', '.join(verdict.unchecked)})"
    body = verdict.report()
    if not body:
        return head + "\n"
    return head + "\n" + "".join(f"      {line}\n" for line in body.split("\n"))

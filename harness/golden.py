"""Holding what a run produced against the goldens a case holds, or rewriting them.

Three ways to meet a case:

* **check** — every produced golden is compared byte for byte. ``strict`` (our own
  corpus) counts a golden the case lacks as a failure; lenient (a foreign corpus
  that is only partly copied) counts it as unchecked.
* **update** — every produced golden is rewritten in place, and a golden the run
  says the case must not hold (an ``error.golden`` beside an envelope that came
  back) is removed, so a case that changed sides leaves nothing stale behind.
* **write-actual** — a check that also writes ``<golden>.actual`` beside each
  golden that differed or that the case does not hold (so a partly copied case
  shows what hyper answered), and clears a stale one beside a golden that now
  matches.
"""

from __future__ import annotations

import difflib
import enum
import traceback
from collections.abc import Sequence
from pathlib import Path

import attrs

from harness import case as case_module
from harness.case import Case
from harness.drive import Produced, Surfaces, drive
from harness.fault import CaseFault


class Mode(enum.Enum):
    CHECK = "check"
    UPDATE = "update"
    WRITE_ACTUAL = "write-actual"


@attrs.frozen
class Mismatch:
    golden: str
    expected: bytes | None
    """What the case holds; ``None`` where it holds no such file."""
    actual: bytes | None
    """What the run produced; ``None`` where the case must not hold the file at all."""

    def describe(self, context_lines: int = 40) -> str:
        if self.actual is None:
            return f"{self.golden}: held, and this case answers the other golden; it is stale"
        if self.expected is None:
            return f"{self.golden}: missing; the run produced {len(self.actual)} bytes"
        diff = list(
            difflib.unified_diff(
                _lines(self.expected),
                _lines(self.actual),
                fromfile=f"{self.golden} (held)",
                tofile=f"{self.golden} (produced)",
                lineterm="",
            )
        )
        shown = diff[:context_lines]
        if len(diff) > context_lines:
            shown.append(f"… {len(diff) - context_lines} more diff lines")
        return "\n".join(shown)


def _lines(data: bytes) -> list[str]:
    """Lines with their endings made visible, so a missing final newline shows in a diff."""
    text = data.decode("utf-8", "backslashreplace")
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        lines[-1] += "⏎(no newline at end)"
    return lines


@attrs.frozen
class Verdict:
    case: str
    fault: str | None = None
    mismatches: tuple[Mismatch, ...] = ()
    problems: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()
    checked: int = 0

    @property
    def passed(self) -> bool:
        return self.fault is None and not self.mismatches and not self.problems

    def report(self) -> str:
        """Everything wrong with the case, for a person; empty when it passed."""
        parts: list[str] = []
        if self.fault is not None:
            parts.append(f"fault: {self.fault}")
        parts.extend(self.problems)
        parts.extend(m.describe() for m in self.mismatches)
        return "\n".join(parts)


def judge(case: Case, mode: Mode = Mode.CHECK, strict: bool = True, surfaces: Surfaces | None = None) -> Verdict:
    """Drive ``case`` and hold it to its goldens; never raises for anything the case does."""
    try:
        inputs = case_module.read(case)
        produced = drive(case, inputs, surfaces)
    except CaseFault as fault:
        return Verdict(case=case.name, fault=str(fault))
    except Exception:
        return Verdict(case=case.name, fault="the harness itself failed:\n" + traceback.format_exc())
    if mode is Mode.UPDATE:
        _rewrite(case.dir, produced)
        return Verdict(case=case.name, problems=produced.problems, checked=len(produced.goldens))
    return _compare(case, produced, strict, write_actual=mode is Mode.WRITE_ACTUAL)


def _rewrite(directory: Path, produced: Produced) -> None:
    for name, data in produced.goldens.items():
        (directory / name).write_bytes(data)
    for name in produced.forbidden:
        (directory / name).unlink(missing_ok=True)


def _compare(case: Case, produced: Produced, strict: bool, write_actual: bool) -> Verdict:
    mismatches: list[Mismatch] = []
    unchecked: list[str] = []
    checked = 0
    for name, actual in produced.goldens.items():
        path = case.dir / name
        actual_path = case.dir / f"{name}.actual"
        held = path.read_bytes() if path.is_file() else None
        if held is None and not strict:
            unchecked.append(name)
        elif held is not None:
            checked += 1
        if (held is None and strict) or (held is not None and held != actual):
            mismatches.append(Mismatch(name, held, actual))
        if write_actual:
            if held != actual:
                actual_path.write_bytes(actual)
            else:
                actual_path.unlink(missing_ok=True)
    for name in sorted(produced.forbidden):
        if (case.dir / name).is_file():
            mismatches.append(Mismatch(name, (case.dir / name).read_bytes(), None))
    problems = list(produced.problems)
    if checked == 0 and not mismatches and not problems:
        problems.append("holds no golden this run could be compared with")
    return Verdict(
        case=case.name,
        mismatches=tuple(mismatches),
        problems=tuple(problems),
        unchecked=tuple(unchecked),
        checked=checked,
    )


def summary(verdicts: Sequence[Verdict]) -> str:
    passed = sum(1 for v in verdicts if v.passed)
    return f"{passed} passed, {len(verdicts) - passed} failed"

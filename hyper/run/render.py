"""A Run's answer as rows and as the page drawn from them.

Rows, in stream order: every ``step`` (reached and never-reached); each ``refusal``; the
Run-wide ``provenance`` where an entry was written; one Step ``provenance`` per Step that
wrote a file; the terminal ``outcome``. Member orders are the wire contract.

The page is blocks separated by one empty line: the Step table (or, where no Step was
reached but the Run refused, a sentence standing in for it); the Refusal blocks in caret
form; what a refused Step left; where a rehearsal stopped; the terminal line.
"""

from __future__ import annotations

from hyper.artefact.repository import Repository
from hyper.core.row import Row, row
from hyper.render.refusal import Citation, citing_artefact
from hyper.render.table import table
from hyper.run.engine import Answer
from hyper.run.refusal import Refusal
from hyper.run.step import Reached

NOTHING_REACHED = "no step was reached, so nothing ran."
EN_DASH = "\u2013"


def step_row(step: Reached) -> Row:
    return row(
        "step",
        step=step.position,
        id=step.id,
        path=step.path or None,
        kind=step.kind,
        disposition=step.disposition,
        records=step.records,
        expanded=step.expanded,
        withheld=True if step.withheld else None,
    )


def outcome_row(outcome: str, code: int, dry_run: bool, error_code: str = "", run_id: str = "") -> Row:
    return row(
        "outcome",
        outcome=outcome,
        code=code,
        error_code=error_code or None,
        dry_run=dry_run,
        run_id=run_id or None,
    )


def rows(answer: Answer) -> list[Row]:
    out = [step_row(step) for step in answer.steps]
    for refusal in answer.refusals:
        out.append(refusal.row())
        remediation = refusal.remediation()
        if remediation is not None:
            out.append(remediation)
    if answer.run_id and answer.provenance is not None:
        out.append(answer.provenance.to_row())
    out += [
        step.provenance.to_row(step.position)
        for step in answer.steps
        if step.provenance is not None and step.disposition != "never-reached"
    ]
    return out


def terminal_line(outcome: str, code: int, dry_run: bool, run_id: str = "") -> str:
    parts = [outcome, *(["dry-run"] if dry_run else []), f"exit {code}", *([f"run {run_id}"] if run_id else [])]
    return " · ".join(parts) + "\n"


def page(answer: Answer, code: int, dry_run: bool, repo: Repository) -> str:
    blocks: list[str] = []
    if answer.steps:
        cells = [["STEP", "ID", "KIND", "DISPOSITION", "RECORDS"]]
        cells += [[str(s.position), s.path or s.id, s.kind, s.disposition, _records(s)] for s in answer.steps]
        blocks.append(table(cells))
    elif answer.refusals:
        blocks.append(NOTHING_REACHED + "\n")
    if answer.refusals:
        blocks.append(citing_artefact([_citation(refusal, repo) for refusal in answer.refusals]))
        refused = next((s.position for s in answer.steps if s.disposition == "refused"), 0)
        if refused:
            blocks.append(_what_stands(refused))
    if answer.withheld:
        stopped = answer.steps[answer.withheld - 1]
        blocks.append(
            f"stopped before {stopped.path or stopped.id}: a rehearsal performs the reads it reaches and withholds"
            " the first effect rather than imitating it.\n"
        )
    said = sentences(answer)
    if said:
        blocks.append("".join(f"{line}\n" for line in said))
    observed = answer.refusals[0].member.observed if answer.refusals else None
    if observed is not None and answer.run_id:
        # what the Refusal counted is one command away, in place of the bare id
        line = terminal_line(answer.outcome, code, dry_run).rstrip("\n")
        blocks.append(f"{line} · hyper show {answer.run_id} --expansion   for all {observed}\n")
    else:
        blocks.append(terminal_line(answer.outcome, code, dry_run, answer.run_id))
    return "\n".join(blocks)


def sentences(answer: Answer) -> list[str]:
    """What the Step table cannot say, in the order it happened: every answer a read took that
    was not 2xx, then what stopped a failed Run. stderr says the same lines; the page keeps
    them beside the table so a reader of stdout alone (a CI log, an MCP text block) has them."""
    said = [note for step in answer.steps for note in step.notes]
    if answer.outcome == "failed" and answer.fault:
        said.append(answer.fault)
    return said


def _records(step: Reached) -> str:
    if step.records is None:
        return EN_DASH
    if step.expanded is not None:
        return f"{step.records} of {step.expanded}"
    return str(step.records)


def _what_stands(position: int) -> str:
    if position == 1:
        return "step 1 recorded nothing.\n"
    before = "step 1" if position == 2 else f"steps 1-{position - 1}"
    return f"{before} stand{'s' if position == 2 else ''} as recorded; step {position} recorded nothing.\n"


def _citation(refusal: Refusal, repo: Repository) -> Citation:
    member = refusal.member
    loaded = repo.file(member.file)
    source = loaded.data.decode("utf-8", "replace") if loaded is not None and member.line else None
    return refusal.citation(source, refusal.notes)

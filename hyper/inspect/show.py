"""One Journal entry read back whole, as ``show`` answers it: rows, then the page drawn from them.

Rows, in order: the ``entry`` header; each ``refusal`` the Run recorded (with the
``remediation`` an edit would be), in the array's order; the Run-wide ``provenance``; then per
Step record, in the Run's written order, its ``step`` row and that Step's own ``provenance``.
A Step the Run never reached wrote no file and has no row; the record a closing write makes of
the Step a dead Run went quiet on has a ``step`` row and no ``provenance`` row, since a reaper
establishes a Step's code facts and never its revisions.

Everything here is read out of the entry itself, with one exception that is always named: a
Step whose identity set did not move stores only its digest, and its members are read from the
Run that last wrote them — this one, where an earlier invocation of the same Procedure did —
which the row names as ``unchanged_since``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from hyper.artefact.scalars import duration_seconds
from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, encode_value, members, row
from hyper.render.refusal import Citation, citing_artefact
from hyper.run.refusal import NO_OVERRIDE, REMEDIES, Refusal
from hyper.store.canonical import Value, instant_seconds_text, instant_text
from hyper.store.journal import RefusalMember, Trigger
from hyper.store.reading import Entry, Journal, dispositions
from hyper.store.schema import Members as Written
from hyper.store.step import HTTPAnswer, MemberAnswer, Pattern, StepFile

SEPARATOR = " · "
PADDING = 2
RELATIVE_OPERATORS = ("older_than", "newer_than")
NO_STEP_FILE = "no Step of this Run wrote a record, so there is no Step to show."
OPEN = "open — no account of how this Run ended has been written, by it or by another Run."


class Members(NamedTuple):
    """A Step's identity set as ``show`` states it: the names, and the Run they were read from
    where this entry stored only the digest (``""`` where they are the entry's own)."""

    names: tuple[str, ...]
    since: str = ""


class Shown(NamedTuple):
    """One entry and every Step record it holds, in written order, each with its members."""

    entry: Entry
    steps: tuple[StepFile, ...]
    sets: Mapping[int, Members]


def read(journal: Journal, entry: Entry) -> Shown:
    """The entry ``journal`` found, read whole; each digest-only Step's members are scanned for
    on that same handle, so the date partitions are listed once however many Steps scan."""
    held = dispositions(journal.store, entry)
    sets: dict[int, Members] = {}
    for step in held.steps:
        found = step_members(journal, entry, step)
        if found is not None:
            sets[step.step] = found
    return Shown(entry, held.steps, sets)


def step_members(journal: Journal, entry: Entry, step: StepFile) -> Members | None:
    """The names a Step concluded about; ``None`` where it carries no set, or where the digest
    it stored matches no earlier record that wrote the names out."""
    if step.identities is None:
        return None
    if step.identities.members is not None:
        return Members(step.identities.members)
    digest = step.identities.digest
    passed = False
    for evidence in journal.scan(step.code.id):
        if evidence.entry.run_id == entry.run_id:
            # The entry's own earlier Steps come first: a Procedure invoked twice gives one
            # Step two files in one entry, and the second is compared against the first.
            passed = True
            if evidence.step.step >= step.step:
                continue
        if not passed or not evidence.comparable(entry.run_file.procedure, step.path):
            continue
        earlier = evidence.step.identities
        if earlier is None or earlier.members is None:
            continue
        return Members(earlier.members, evidence.entry.run_id) if earlier.digest == digest else None
    return None


def trigger_value(trigger: Trigger) -> dict[str, Value]:
    """The Trigger as the entry stores it — a mapping, members in the schema's order."""
    return members(
        cause=trigger.cause,
        executor=trigger.executor,
        actor=trigger.actor or None,
        host=trigger.host or None,
        run_id=trigger.executor_run or None,
        run_attempt=trigger.attempt or None,
        job_url=trigger.job_url or None,
    )


def entry_row(entry: Entry) -> Row:
    """``outcome`` and ``ended_at`` are the owner's alone; each closing write is one
    ``closed_by`` member, named by the closer's Run id (the file's name)."""
    run = entry.run_file
    owner = entry.owner
    closed_by = [
        members(
            run_id=closer.run,
            outcome="failed",
            step=closer.closed_by.step,
            ended_at=instant_text(closer.closed_by.ended_at),
        )
        for closer in entry.closers
    ]
    return row(
        "entry",
        run_id=run.run_id,
        procedure=run.procedure,
        trigger=trigger_value(run.trigger),
        started_at=instant_text(run.started_at),
        dry_run=run.dry_run,
        outcome=owner.outcome if owner is not None else None,
        ended_at=instant_text(owner.ended_at) if owner is not None else None,
        closed_by=closed_by or None,
    )


def refusals(shown: Shown) -> list[Refusal]:
    """Each recorded member, with the binding of the Step it cites where the entry holds that
    Step's record (a Refusal before Step 1 cites a Step that wrote nothing)."""
    owner = shown.entry.owner
    if owner is None:
        return []
    by_position = {step.step: step for step in shown.steps}
    out = []
    for member in owner.refusal:
        cited = by_position.get(member.step)
        code = cited.code if cited is not None else None
        out.append(Refusal(member, code.operation if code else "", code.target if code else ""))
    return out


def resolved(declared: Value, started: _dt.datetime) -> dict[str, str]:
    """Each relative operand in the selector, mapped to the instant it named — measured from the
    Run's own start, never from the reader's clock."""
    return {operand: at for _, operand, at in _glosses(declared, started)}


def _selector_text(declared: Value) -> str:
    """The selector as authored, one line: its form, then each literal or predicate in the order
    written (a list's order is the Expansion's, so sorting it would hide which member came first).
    A shape this reader does not know is shown as its canonical JSON rather than guessed at."""
    if isinstance(declared, dict) and len(declared) == 1:
        ((form, held),) = declared.items()
        if isinstance(held, list):
            parts = [_predicate_text(each) for each in held]
            if all(part is not None for part in parts):
                return SEPARATOR.join([form, *(part for part in parts if part is not None)])
    return encode_value(declared).decode()


def _predicate_text(held: Value) -> str | None:
    if isinstance(held, str):
        return held
    if isinstance(held, dict) and isinstance(held.get("field"), str) and len(held) == 2:
        ((op, operand),) = ((key, value) for key, value in held.items() if key != "field")
        shown = operand if isinstance(operand, str) else encode_value(operand).decode()
        return f"{held['field']} {op} {shown}"
    return None


def _glosses(declared: Value, started: _dt.datetime) -> Iterator[tuple[str, str, str]]:
    """Each relative predicate with the instant its operand named, measured from the Run's start."""
    if isinstance(declared, dict):
        for key, held in declared.items():
            if key in RELATIVE_OPERATORS and isinstance(held, str):
                seconds = duration_seconds(held)
                if seconds is not None:
                    yield key, held, instant_seconds_text(started - _dt.timedelta(seconds=seconds))
            else:
                yield from _glosses(held, started)
    elif isinstance(declared, list):
        for held in declared:
            yield from _glosses(held, started)


def pattern_value(pattern: Pattern) -> dict[str, Value] | None:
    held = members(attempts=pattern.attempts or None, pages=pattern.pages or None, polls=pattern.polls or None)
    return held or None


def answered_value(answers: Sequence[MemberAnswer]) -> list[Value] | None:
    """Every answer the Step recorded, each led by the member it was for, as the Step file
    holds them: a halted Expansion names the answer that halted it, not only the first."""
    if not answers:
        return None
    out: list[Value] = []
    for answer in answers:
        held = Written()
        answer.write(held)
        out.append(held.mapping)
    return out


def step_row(step: StepFile, held: Members | None, expansion: bool, started: _dt.datetime) -> Row:
    code = step.code
    selector = step.selector if expansion else None
    return row(
        "step",
        step=step.step,
        id=code.id or None,
        path=step.path or None,
        definition=code.definition or None,
        operation=code.operation or None,
        provider=code.provider or None,
        target=code.target or None,
        kind=code.kind or None,
        disposition=step.disposition,
        started_at=instant_text(step.started_at) if step.started_at else None,
        ended_at=instant_text(step.ended_at) if step.ended_at else None,
        records=list(held.names) if held is not None else None,
        unchanged_since=held.since if held is not None and held.since else None,
        selector=members(
            declared=selector.declared,
            expanded_to=list(selector.expanded_to),
            bound=selector.bound or None,
        )
        if selector is not None
        else None,
        resolved=(resolved(selector.declared, started) or None) if selector is not None else None,
        pattern=pattern_value(step.pattern),
        answered=answered_value(step.answered),
        projection_failed_path=step.projection_failed_path or None,
    )


def rows(shown: Shown, expansion: bool) -> list[Row]:
    run = shown.entry.run_file
    out = [entry_row(shown.entry)]
    for refusal in refusals(shown):
        out.append(refusal.row())
        remediation = refusal.remediation()
        if remediation is not None:
            out.append(remediation)
    out.append(run.provenance.to_row())
    for step in shown.steps:
        out.append(step_row(step, shown.sets.get(step.step), expansion, run.started_at))
        if step.provenance is not None:
            out.append(step.provenance.to_row(step.step))
    return out


def page(shown: Shown, expansion: bool, root: str) -> str:
    """Blocks of labelled values, one empty line between blocks: the header; the account where
    it is not simply the owner's; the Refusal in caret form; one block per Step record. Every
    block's values start in one column, so the page reads as one sheet rather than several."""
    entry = shown.entry
    started = entry.run_file.started_at
    header = _header(entry)
    steps = [(step, _step_pairs(step, shown.sets.get(step.step), expansion, started)) for step in shown.steps]
    shown_labels = [label for pairs in (header, *(pairs for _, pairs in steps)) for label, value in pairs if value]
    width = max(len(label) for label in shown_labels) + PADDING
    blocks = [_lay(header, width)]
    account = _account(entry)
    if account:
        blocks.append(account)
    if not shown.steps:
        blocks.append(NO_STEP_FILE + "\n")
    recorded = refusals(shown)
    if recorded:
        blocks.append(citing_artefact([_citation(refusal, root) for refusal in recorded]))
    blocks.extend(f"STEP {step.step}  {_title(step)}\n" + _lay(pairs, width) for step, pairs in steps)
    return "\n".join(blocks)


def _lay(pairs: Sequence[tuple[str, str]], width: int) -> str:
    """Labelled values at one column; a value's further lines sit under its first, and an empty
    value writes no line at all."""
    out = []
    for label, value in pairs:
        if not value:
            continue
        first, *more = value.split("\n")
        out.append(f"{label.ljust(width)}{first}".rstrip() + "\n")
        out.extend(f"{' ' * width}{line}".rstrip() + "\n" for line in more)
    return "".join(out)


def _header(entry: Entry) -> list[tuple[str, str]]:
    run = entry.run_file
    trigger = run.trigger
    owner = entry.owner
    held = run.provenance
    return [
        ("ENTRY", run.run_id),
        ("PROCEDURE", run.procedure),
        ("CAUSE", trigger.cause),
        ("EXECUTOR", trigger.executor),
        ("ACTOR", trigger.actor),
        ("HOST", trigger.host),
        ("EXECUTOR RUN", trigger.executor_run),
        ("ATTEMPT", str(trigger.attempt) if trigger.attempt else ""),
        ("JOB URL", trigger.job_url),
        ("STARTED", instant_text(run.started_at)),
        ("REHEARSAL", "yes" if run.dry_run else ""),
        ("OUTCOME", owner.outcome if owner is not None else ""),
        ("ENDED", instant_text(owner.ended_at) if owner is not None else ""),
        ("HYPER", held.hyper_version),
        ("PROCEDURE REVISION", held.procedure_revision),
        # ``+``: the Run read bytes that differ from this commit, so the page may not assert them
        ("REPOSITORY REVISION", held.repo_revision + ("+" if held.repo_dirty else "")),
    ]


def _account(entry: Entry) -> str:
    """One line per closing write; an open entry says it is open. An entry closed by its own
    Run alone needs no line — the header's OUTCOME is its account."""
    if entry.account == "open":
        return OPEN + "\n"
    lead = "contested — " if entry.account == "contested" else ""
    return "".join(
        f"{lead}Run {closer.run} concluded this entry failed at {instant_text(closer.closed_by.ended_at)}\n"
        for closer in entry.closers
    )


def _citation(refusal: Refusal, root: str) -> Citation:
    """The caret form over the cited file as the working tree holds it now, where it holds it;
    else the coordinate as notes. The phase a Run knew is not stored, so only the way past is."""
    member = refusal.member
    return refusal.citation(_source(root, member), (REMEDIES.get(member.error_code, NO_OVERRIDE),))


def _source(root: str, member: RefusalMember) -> str | None:
    if not member.line or not member.file:
        return None
    base = Path(root).resolve()
    path = (base / member.file).resolve()
    if not path.is_relative_to(base) or not path.is_file():
        return None
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return None


def _title(step: StepFile) -> str:
    """What the Step is called, its Kind and its Disposition — whichever of them the record holds."""
    return SEPARATOR.join(part for part in (step.path or step.code.id, step.code.kind, step.disposition) if part)


def _step_pairs(step: StepFile, held: Members | None, expansion: bool, started: _dt.datetime) -> list[tuple[str, str]]:
    code = step.code
    pairs: list[tuple[str, str]] = [
        ("DEFINITION", code.definition),
        ("OPERATION", code.operation),
        ("PROVIDER", code.provider),
        ("TARGET", code.target),
        ("STARTED", instant_text(step.started_at) if step.started_at else ""),
        ("ENDED", instant_text(step.ended_at) if step.ended_at else ""),
    ]
    if held is not None:
        pairs.append(("RECORDS", SEPARATOR.join(held.names) if held.names else "none"))
        pairs.append(("UNCHANGED SINCE", held.since))
    if expansion and step.selector is not None:
        declared = step.selector.declared
        glosses = [f"= {op}: {operand} resolved to {at}" for op, operand, at in _glosses(declared, started)]
        pairs.append(("SELECTOR", "\n".join([_selector_text(declared), *glosses])))
        pairs.append(("EXPANDED TO", SEPARATOR.join(step.selector.expanded_to) or "(none)"))
        pairs.append(("BOUND", str(step.selector.bound) if step.selector.bound else ""))
    pattern = step.pattern
    pairs += [
        ("ATTEMPTS", str(pattern.attempts) if pattern.attempts else ""),
        ("PAGES", str(pattern.pages) if pattern.pages else ""),
        ("POLLS", str(pattern.polls) if pattern.polls else ""),
    ]
    for answer in step.answered:
        pairs += _answer_pairs(answer)
    pairs.append(("PROJECTION FAILED", step.projection_failed_path))
    if step.provenance is not None:
        pairs += [
            ("DEFINITION REVISION", step.provenance.definition_revision),
            ("MANIFEST DIGEST", step.provenance.manifest_digest),
            ("ORIGIN DIGEST", step.provenance.origin_digest),
        ]
    return pairs


def _answer_pairs(answer: MemberAnswer) -> list[tuple[str, str]]:
    held = answer.answer
    if isinstance(held, HTTPAnswer):
        said = [("HOST", held.host), ("STATUS", "" if held.status is None else str(held.status))]
    else:
        said = [("COMMAND", held.command), ("EXIT CODE", "" if held.exit_code is None else str(held.exit_code))]
    return [("MEMBER", answer.member), *said]

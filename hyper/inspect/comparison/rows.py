"""The wire rows of one window: ``window``, then ``asset`` and ``observation`` rows, then
``code`` rows. The page is read back off these, so a fact the stream carries the page carries.

Values are whole on the wire whatever the page elides; an ordinal is absent where that end has
nothing for the row to name; a side's ``ended`` is absent on a reaped entry, whose only account
of its end is another Run's clock.
"""

from __future__ import annotations

from typing import Any

from hyper.core.row import Row, row
from hyper.inspect.comparison.code import CATCH_ALL, Code
from hyper.inspect.comparison.records import Change
from hyper.inspect.comparison.window import Window
from hyper.store.canonical import instant_text
from hyper.store.reading import Entry

_GLOSSED = ("from_phrase", "to_phrase", "from_rate", "to_rate")


def side(entry: Entry) -> dict[str, Any]:
    run = entry.run_file
    value: dict[str, Any] = {
        "run": run.run_id,
        "trigger": run.trigger.text,
        "started": instant_text(run.started_at),
        "dry_run": run.dry_run,
        "outcome": entry.outcome,
    }
    if entry.owner is not None:
        value["ended"] = instant_text(entry.owner.ended_at)
    value["procedure_revision"] = run.provenance.procedure_revision
    if run.provenance.repo_dirty:
        value["repo_dirty"] = True
    if entry.closers:
        value["closed_by"] = [
            {
                "run": closer.run,
                "outcome": "failed",
                "step": closer.closed_by.step,
                "ended": instant_text(closer.closed_by.ended_at),
            }
            for closer in entry.closers
        ]
    return value


def window_row(window: Window) -> Row:
    baseline = side(window.baseline) if window.baseline is not None else None
    return row("window", procedure=window.procedure, baseline=baseline, subject=side(window.subject))


def change_row(change: Change) -> Row:
    fields = {
        key: [value[0], value[1]] if change.change == "changed" else value for key, value in change.fields.items()
    }
    return row(
        change.record_type,
        change=change.change,
        target=change.identity.target,
        definition=change.identity.definition,
        name=change.identity.name,
        from_ordinal=change.from_ordinal,
        to_ordinal=change.to_ordinal,
        confirmed_at=instant_text(change.confirmed_at) if change.confirmed_at is not None else None,
        fields=dict(sorted(fields.items())),
    )


def code_rows(code: Code) -> list[Row]:
    rows = []
    for fact in code.facts:
        phrases = dict(zip(_GLOSSED, fact.cadence, strict=True)) if fact.cadence else {}
        rows.append(
            row(
                "code",
                subject_kind=fact.subject_kind or None,
                subject=fact.subject or None,
                fact=fact.fact,
                **{"from": fact.before, "to": fact.after},
                **phrases,
            )
        )
    if code.catch_all is not None:
        held = code.catch_all
        rows.append(
            row(
                "code",
                fact=CATCH_ALL,
                count=held.lines,
                baseline_absent="not-in-clone" if held.lines is None else None,
                command=held.command or None,
            )
        )
    return rows

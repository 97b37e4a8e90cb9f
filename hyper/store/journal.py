"""run.json and outcome.json: how a Run began and the account it gave of its own end, and
how an entry is classified from which of its files are present (:data:`Account`).

Neither carries an exit code, a duration or a stored head code: each derives from what the
entry already holds, and a stored copy is a second representation that can disagree.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.namedtuple import NamedTuple
from hyper.store.canonical import Always, Value
from hyper.store.paths import JournalEntry
from hyper.store.provenance import RUN_PROVENANCE_MEMBERS, RunProvenance
from hyper.store.schema import (
    OUTCOME_SCHEMA_VERSION,
    RUN_SCHEMA_VERSION,
    Fields,
    Members,
    join,
    read_file,
    write_file,
)

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

Outcome: TypeAlias = 'Literal["completed", "refused", "failed"]'
OUTCOMES: tuple[Outcome, ...] = ("completed", "refused", "failed")
Cause: TypeAlias = 'Literal["cron", "manual"]'
Executor: TypeAlias = 'Literal["github-actions", "local"]'

_OUTCOME_MEMBERS = ("outcome", "ended_at")
_RUN_MEMBERS = ("run_id", "procedure", "trigger", "started_at", "dry_run", "provenance")
_TRIGGER_MEMBERS = ("cause", "executor", "actor")


Account: TypeAlias = 'Literal["open", "own", "reaped", "contested"]'
"""How an entry ended, classified from the files present and from nothing else. Strings the
checker holds to these four, not an ``enum.Enum``: defining one cost a review's start-up about
0.8M instructions (ADR 0006), and mypy's strict equality and exhaustiveness hold a literal the
same way."""
ACCOUNTS: tuple[Account, ...] = ("open", "own", "reaped", "contested")


def classify(owned: bool, reaped: bool) -> Account:
    if owned and reaped:
        return "contested"
    if owned:
        return "own"
    if reaped:
        return "reaped"
    return "open"


class RefusalMember(NamedTuple):
    """One check that declined a Run: a check problem's members plus what a Run adds — the Step
    it cites and the two values it compared. ``file`` is a Store path on
    ``store-schema-unsupported``."""

    error_code: str
    file: str
    message: str
    line: int = 0
    field: str = ""
    step: int = 0
    step_id: str = ""
    declared: Value | None = None
    observed: Value | None = None

    def value(self) -> Value:
        members = Members()
        members.text("error_code", self.error_code)
        members.text("file", self.file)
        members.count("line", self.line)
        members.text("field", self.field)
        members.text("message", self.message)
        members.count("step", self.step)
        members.text("step_id", self.step_id)
        members.value("declared", self.declared)
        members.value("observed", self.observed)
        return members.mapping

    @classmethod
    def read(cls, fields: Fields) -> RefusalMember:
        fields.require("error_code", "file", "message")
        member = cls(
            error_code=fields.text("error_code"),
            file=fields.text("file"),
            message=fields.text("message"),
            line=fields.position("line"),
            field=fields.text("field"),
            step=fields.position("step"),
            step_id=fields.text("step_id"),
            declared=fields.value("declared"),
            observed=fields.value("observed"),
        )
        fields.closed()
        return member


class OutcomeFile(NamedTuple):
    """outcome.json, written by the Run whose entry it is and by no other.

    ``refusal`` is present exactly where the outcome is ``refused``.
    """

    outcome: Outcome
    ended_at: _dt.datetime
    refusal: tuple[RefusalMember, ...] = ()

    @property
    def head(self) -> str:
        """The first refusal's code — what a terminal line names; derived, never stored."""
        return self.refusal[0].error_code if self.refusal else ""

    def encode(self) -> bytes:
        if (self.outcome == "refused") != bool(self.refusal):
            raise ValueError(
                f"store: an outcome of {self.outcome!r} carries {len(self.refusal)} refusal members;"
                " a refusal is present exactly where the outcome is refused"
            )

        def fill(members: Members) -> None:
            members.text("outcome", self.outcome)
            members.at("ended_at", self.ended_at)
            if self.refusal:
                members.mapping["refusal"] = [member.value() for member in self.refusal]

        return write_file(OUTCOME_SCHEMA_VERSION, "outcome.json", _OUTCOME_MEMBERS, fill)

    @classmethod
    def decode(cls, data: bytes) -> OutcomeFile:
        return read_file(data, OUTCOME_SCHEMA_VERSION, cls._read, OutcomeFile.encode)

    @classmethod
    def _read(cls, fields: Fields) -> OutcomeFile:
        fields.require(*_OUTCOME_MEMBERS)
        outcome = fields.one_of("outcome", OUTCOMES)
        ended = fields.at("ended_at")
        refusal = fields.blocks("refusal")
        if bool(refusal) != (outcome == "refused") or (fields.carries("refusal") and not refusal):
            raise fields.fault(f"an outcome of {outcome!r} carries a refusal of {len(refusal)} members")
        assert ended is not None
        return cls(outcome, ended, tuple(RefusalMember.read(member) for member in refusal))


class Trigger(NamedTuple):
    """What caused a Run and where: ``host`` on a local Run; ``executor_run`` (the executor's own
    id, never a hyper Run id), ``attempt`` and ``job_url`` on Actions."""

    cause: Cause
    executor: Executor
    actor: str
    host: str = ""
    executor_run: str = ""
    attempt: int = 0
    job_url: str = ""

    @property
    def text(self) -> str:
        """The one-cell rendering ``runs`` shows: ``cron``, ``<actor>``, or ``<actor>@<host>``."""
        if self.cause == "cron":
            return "cron"
        return f"{self.actor}@{self.host}" if self.host else self.actor

    def write(self, members: Members) -> None:
        members.text("cause", self.cause)
        members.text("executor", self.executor)
        members.text("actor", self.actor)
        members.text("host", self.host)
        members.text("run_id", self.executor_run)
        members.count("run_attempt", self.attempt)
        members.text("job_url", self.job_url)
        members.require("a Trigger", _TRIGGER_MEMBERS)

    @classmethod
    def read(cls, fields: Fields) -> Trigger:
        fields.require(*_TRIGGER_MEMBERS)
        trigger = cls(
            cause=fields.one_of("cause", ("cron", "manual")),
            executor=fields.one_of("executor", ("github-actions", "local")),
            actor=fields.text("actor"),
            host=fields.text("host"),
            executor_run=fields.text("run_id"),
            attempt=fields.count("run_attempt"),
            job_url=fields.text("job_url"),
        )
        fields.closed()
        return trigger


class RunFile(NamedTuple):
    """run.json, written at Run start. ``dry_run`` is written on every entry, false included:
    a reader taking its absence for false would refuse every run-once Step it rehearsed."""

    run_id: str
    procedure: str
    trigger: Trigger
    started_at: _dt.datetime
    dry_run: bool
    provenance: RunProvenance

    @property
    def at(self) -> JournalEntry:
        """Where this entry sits, built from the file's own facts."""
        return JournalEntry(self.run_id, self.started_at)

    def encode(self) -> bytes:
        def fill(members: Members) -> None:
            members.text("run_id", self.run_id)
            members.text("procedure", self.procedure)
            members.block("trigger", self.trigger.write)
            members.at("started_at", self.started_at)
            members.mapping["dry_run"] = Always(self.dry_run)
            members.block("provenance", self.provenance.write)

        return write_file(RUN_SCHEMA_VERSION, "run.json", _RUN_MEMBERS, fill)

    @classmethod
    def decode(cls, data: bytes) -> RunFile:
        return read_file(data, RUN_SCHEMA_VERSION, cls._read, RunFile.encode)

    @classmethod
    def _read(cls, fields: Fields) -> RunFile:
        fields.require(*_RUN_MEMBERS)
        trigger = fields.block("trigger")
        provenance = fields.block("provenance")
        started = fields.at("started_at")
        assert trigger is not None and provenance is not None and started is not None
        provenance.require(*RUN_PROVENANCE_MEMBERS)
        read = cls(
            run_id=fields.run("run_id"),
            procedure=fields.text("procedure"),
            trigger=Trigger.read(trigger),
            started_at=started,
            dry_run=fields.mark("dry_run"),
            provenance=RunProvenance.read(provenance),
        )
        join(provenance)
        return read

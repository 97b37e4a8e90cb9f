"""A Step file, and the closing write a later Run leaves in an entry whose Run went quiet.

Six of the seven Dispositions are borne by a Step file; ``never-reached`` is read from the
absence of one inside a closed entry, so no file carries it.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.namedtuple import NamedTuple
from hyper.store.canonical import Always, Value
from hyper.store.identities import Identities
from hyper.store.provenance import STEP_PROVENANCE_MEMBERS, StepProvenance
from hyper.store.schema import (
    CLOSED_BY_SCHEMA_VERSION,
    STEP_SCHEMA_VERSION,
    Fields,
    Members,
    join,
    read_file,
    write_file,
)

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

Kind: TypeAlias = 'Literal["read", "mutate", "destroy"]'
KINDS: tuple[Kind, ...] = ("read", "mutate", "destroy")
Disposition: TypeAlias = 'Literal["ran", "skipped-as-already-recorded", "skipped-by-condition", "refused", "never-reached", "attempted-outcome-unknown", "attempted-world-untouched"]'  # noqa: E501 - one string, so the alias costs no typing import
FILED_DISPOSITIONS: tuple[Disposition, ...] = (
    "ran",
    "skipped-as-already-recorded",
    "skipped-by-condition",
    "refused",
    "attempted-outcome-unknown",
    "attempted-world-untouched",
)

_STEP_MEMBERS = (
    "step",
    "id",
    "definition",
    "operation",
    "provider",
    "target",
    "kind",
    "disposition",
    "started_at",
    "ended_at",
    "provenance",
)
_CLOSED_BY_MEMBERS = ("step", "disposition", "ended_at")


class StepCode(NamedTuple):
    """A Step's code facts: its authored id and what it resolved to at the Run's revision.
    A closing write holds all of them or none (the dead Run's revision did not resolve)."""

    id: str = ""
    definition: str = ""
    operation: str = ""
    provider: str = ""
    target: str = ""
    kind: Kind | Literal[""] = ""

    def write(self, members: Members) -> None:
        members.text("id", self.id)
        members.text("definition", self.definition)
        members.text("operation", self.operation)
        members.text("provider", self.provider)
        members.text("target", self.target)
        members.text("kind", self.kind)

    @classmethod
    def read(cls, fields: Fields) -> StepCode:
        return cls(
            id=fields.text("id"),
            definition=fields.text("definition"),
            operation=fields.text("operation"),
            provider=fields.text("provider"),
            target=fields.text("target"),
            kind=fields.one_of("kind", KINDS),
        )


class Selector(NamedTuple):
    """The selector as authored beside what it expanded to, in Expansion order; ``expanded_to``
    is written whenever a selector exists, ``[]`` included."""

    declared: Value
    expanded_to: tuple[str, ...] = ()
    bound: int = 0

    def write(self, members: Members) -> None:
        members.value("declared", self.declared)
        members.mapping["expanded_to"] = Always(list(self.expanded_to))
        members.count("bound", self.bound)


class Pattern(NamedTuple):
    """hyper's own account of the work: attempts, pages, polls (each absent at zero)."""

    attempts: int = 0
    pages: int = 0
    polls: int = 0

    def write(self, members: Members) -> None:
        members.count("attempts", self.attempts)
        members.count("pages", self.pages)
        members.count("polls", self.polls)


class HTTPAnswer(NamedTuple):
    """The host reached and the status it gave; ``status`` is ``None`` where no response came."""

    host: str
    status: int | None = None


class ShellAnswer(NamedTuple):
    """The command (compact JSON argv) and its exit code; ``None`` where it never started."""

    command: str
    exit_code: int | None = None


class MemberAnswer(NamedTuple):
    """One Expansion member not answered the ordinary way; ``member`` is empty where the Step
    resolved no selector."""

    answer: HTTPAnswer | ShellAnswer
    member: str = ""

    def write(self, members: Members) -> None:
        members.text("member", self.member)
        if isinstance(self.answer, HTTPAnswer):
            members.text("host", self.answer.host)
            if self.answer.status is not None:
                members.mapping["status"] = self.answer.status
        else:
            members.text("command", self.answer.command)
            if self.answer.exit_code is not None:
                members.mapping["exit_code"] = self.answer.exit_code
        if "host" not in members.mapping and "command" not in members.mapping:
            raise ValueError("store: an answer names neither the host it reached nor the command it ran")

    @classmethod
    def read(cls, fields: Fields) -> MemberAnswer:
        member = fields.text("member")
        answer: HTTPAnswer | ShellAnswer
        if fields.carries("host"):
            answer = HTTPAnswer(fields.text("host"), fields.answer("status"))
        elif fields.carries("command"):
            answer = ShellAnswer(fields.text("command"), fields.answer("exit_code"))
        else:
            raise fields.fault("an answer names the host it reached or the command it ran")
        fields.closed()
        return cls(answer, member)


class StepFile(NamedTuple):
    """``steps/<nnnn>.json``: one Step of a Run reaching a Disposition.

    The code facts are held rather than resolved later, so the Kind in force when the Step ran
    is read back as it was.
    """

    step: int
    code: StepCode
    disposition: Disposition
    started_at: _dt.datetime | None
    ended_at: _dt.datetime | None
    provenance: StepProvenance | None
    path: str = ""
    identities: Identities | None = None
    selector: Selector | None = None
    pattern: Pattern = Pattern()
    answered: tuple[MemberAnswer, ...] = ()
    projection_failed_path: str = ""
    answered_as_one: bool = False

    def encode(self) -> bytes:
        if self.disposition == "never-reached":
            raise ValueError("store: a Step file never carries never-reached; that is read from an absence")

        def fill(members: Members) -> None:
            members.count("step", self.step)
            members.text("path", self.path)
            self.code.write(members)
            members.text("disposition", self.disposition)
            members.at("started_at", self.started_at)
            members.at("ended_at", self.ended_at)
            if self.provenance is not None:
                members.block("provenance", self.provenance.write)
            if self.identities is not None:
                members.block("identities", self.identities.write)
            if self.selector is not None:
                members.block("selector", self.selector.write)
            members.block("pattern", self.pattern.write)
            if self.answered:
                entries = []
                for answer in self.answered:
                    entry = Members()
                    answer.write(entry)
                    entries.append(entry.mapping)
                as_one = self.answered_as_one and len(entries) == 1
                members.mapping["answered"] = entries[0] if as_one else list[Value](entries)
            members.text("projection_failed_path", self.projection_failed_path)

        return write_file(STEP_SCHEMA_VERSION, "a Step file", _STEP_MEMBERS, fill)

    @classmethod
    def decode(cls, data: bytes) -> StepFile:
        return read_file(data, STEP_SCHEMA_VERSION, cls._read, StepFile.encode)

    @classmethod
    def _read(cls, fields: Fields) -> StepFile:
        fields.require(*_STEP_MEMBERS)
        provenance_block = fields.block("provenance")
        assert provenance_block is not None
        provenance_block.require(*STEP_PROVENANCE_MEMBERS)
        provenance = StepProvenance.read(provenance_block)
        join(provenance_block)

        identities = None
        block = fields.block("identities")
        if block is not None:
            block.require("digest")
            held = block.names("members")
            if held is not None and held != sorted(set(held)):
                raise block.fault("the members are not the sorted set the digest is taken over")
            identities = Identities(block.text("digest"), None if held is None else tuple(held))
            join(block)

        selector = None
        block = fields.block("selector")
        if block is not None:
            block.require("declared", "expanded_to")
            declared = block.value("declared")
            assert declared is not None
            selector = Selector(declared, tuple(block.names("expanded_to") or ()), block.count("bound"))
            join(block)

        pattern = Pattern()
        block = fields.block("pattern")
        if block is not None:
            pattern = Pattern(block.count("attempts"), block.count("pages"), block.count("polls"))
            join(block)

        # An older writer held a single answer as one object rather than a list of them; such a
        # file is read, and re-encodes to its own bytes, so the canonical check still holds it.
        as_one = isinstance(fields.mapping.get("answered"), dict)
        one = fields.block("answered") if as_one else None
        answered = [one] if one is not None else fields.blocks("answered")
        return cls(
            step=fields.position("step"),
            path=fields.text("path"),
            code=StepCode.read(fields),
            disposition=fields.one_of("disposition", FILED_DISPOSITIONS),
            started_at=fields.at("started_at"),
            ended_at=fields.at("ended_at"),
            provenance=provenance,
            identities=identities,
            selector=selector,
            pattern=pattern,
            answered=tuple(MemberAnswer.read(entry) for entry in answered),
            projection_failed_path=fields.text("projection_failed_path"),
            answered_as_one=as_one,
        )


class ClosedBy(NamedTuple):
    """``closed-by/<closer-run-id>.json``: one Run's inference about another Run's entry.

    Its disposition is always ``attempted-outcome-unknown`` and is written by the encoder, not
    taken from a caller; it carries no ``started_at`` (the closer does not know it) and no
    author member (its file name is that).
    """

    step: int
    ended_at: _dt.datetime
    code: StepCode = StepCode()

    def encode(self) -> bytes:
        def fill(members: Members) -> None:
            members.count("step", self.step)
            self.code.write(members)
            members.text("disposition", "attempted-outcome-unknown")
            members.at("ended_at", self.ended_at)

        return write_file(CLOSED_BY_SCHEMA_VERSION, "a closing write", _CLOSED_BY_MEMBERS, fill)

    def reading(self) -> StepFile:
        """The record this write makes of the Step the dead Run went quiet on, in a Step file's
        shape so Dispositions read alike across all seven — never encodable as a file."""
        return StepFile(
            step=self.step,
            code=self.code,
            disposition="attempted-outcome-unknown",
            started_at=None,
            ended_at=self.ended_at,
            provenance=None,
        )

    @classmethod
    def decode(cls, data: bytes) -> ClosedBy:
        return read_file(data, CLOSED_BY_SCHEMA_VERSION, cls._read, ClosedBy.encode)

    @classmethod
    def _read(cls, fields: Fields) -> ClosedBy:
        fields.require(*_CLOSED_BY_MEMBERS)
        if fields.text("disposition") != "attempted-outcome-unknown":
            raise fields.fault("a closing write's disposition is attempted-outcome-unknown and no other")
        ended = fields.at("ended_at")
        assert ended is not None
        return cls(step=fields.position("step"), ended_at=ended, code=StepCode.read(fields))

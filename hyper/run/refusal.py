"""A Refusal as a Run holds it: the member ``outcome.json`` stores, plus what rides on the
wire and the page alone.

``operation`` and ``target`` are the binding of the Step a member cites; the entry holds
them on that Step's own file, so ``outcome.json`` does not repeat them. ``phase`` says when
the check ran — a page note no machine reads.

**Most members are cleared by an edit**, and say so twice: a ``remediation`` row naming
the coordinate (file, line, field) rides right after the member's ``refusal`` row, and
the page's ``EDIT ONE OF`` table lists it. **A few are cleared by something else** — a
command, the environment, another invocation, another binary — and for those no edit is
offered at all; the page's last note names the remedy instead. Offering an edit there
would point a reader at a file that is not at fault.
"""

from __future__ import annotations

from hyper.check import codes as check_codes
from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, row
from hyper.render.refusal import Citation, Edit
from hyper.run.effect import BOUND_EXCEEDED
from hyper.store.journal import RefusalMember
from hyper.store.schema import SCHEMA_UNSUPPORTED_CODE

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final


CREDENTIAL_ABSENT: Final = "credential-absent"
SECRET_SINK_ABSENT: Final = "secret-sink-absent"
SECRET_SINK_UNFILLED: Final = "secret-sink-unfilled"

AT_RUN_START: Final = "checked at run start, before the first step"
AT_EXPANSION: Final = "checked at expansion, before the first call"
AT_CONDITION: Final = "checked at the condition, before the step's expansion"
AT_REPEATABILITY: Final = "checked against the Journal, before the step's expansion"
NO_OVERRIDE: Final = "no flag gets past this — the way past is an edit to the artefact"

_NEWER_HYPER: Final = "a hyper that reads this schema version — nothing in the repository is at fault"
REMEDIES: Final[dict[str, str]] = {
    CREDENTIAL_ABSENT: "set the variable, or run under a wrapper that does — op run --, direnv, aws-vault exec --",
    SECRET_SINK_ABSENT: "the same invocation again, with --secret-out <path>",
    SECRET_SINK_UNFILLED: "declare secret: [<field>] beside the Operation's record: that should fill it,"
    " or the same invocation again without --secret-out",
    check_codes.PROJECTION_STALE: "hyper project",
    SCHEMA_UNSUPPORTED_CODE: _NEWER_HYPER,
    check_codes.MANIFEST_SCHEMA_UNSUPPORTED: _NEWER_HYPER,
}
"""The codes an edit to an artefact does not clear, and what does — named as it is typed."""


class Refusal(NamedTuple):
    member: RefusalMember
    operation: str = ""
    target: str = ""
    phase: str = AT_RUN_START

    @property
    def code(self) -> str:
        return self.member.error_code

    @property
    def notes(self) -> tuple[str, ...]:
        """When it was checked, then the way past: the remedy, or that only an edit is one."""
        return (self.phase, REMEDIES.get(self.code, NO_OVERRIDE))

    def row(self) -> Row:
        member = self.member
        return row(
            "refusal",
            error_code=member.error_code,
            step=member.step or None,
            step_id=member.step_id or None,
            operation=self.operation or None,
            target=self.target or None,
            declared=member.declared,
            observed=member.observed,
            file=member.file or None,
            line=member.line or None,
            field=member.field or None,
            message=member.message or None,
        )

    def remediation(self) -> Row | None:
        """The edit past this check, on the wire; ``None`` where an edit is not the way past."""
        member = self.member
        if self.code in REMEDIES or not member.file:
            return None
        declared, observed = self._arithmetic()
        return row(
            "remediation",
            file=member.file,
            line=member.line or None,
            field=member.field or None,
            **{"from": declared, "to": observed},
        )

    def _arithmetic(self) -> tuple[int | None, int | None]:
        """A Bound too small is the one edit whose fix is a number: raise it from what was
        declared to at least what the Expansion came to."""
        member = self.member
        if self.code != BOUND_EXCEEDED or not isinstance(member.declared, int) or not isinstance(member.observed, int):
            return None, None
        return member.declared, member.observed

    def citation(self, source: str | None, notes: tuple[str, ...]) -> Citation:
        """This member in the caret form, over ``source`` (the cited file's text, or ``None``
        where it cannot be shown); ``run`` and ``show`` differ only in those two."""
        member = self.member
        return Citation(
            error_code=member.error_code,
            message=member.message,
            file=member.file,
            line=member.line or None,
            field=member.field,
            source=source,
            notes=notes,
            edits=tuple(edit for edit in (self.edit(),) if edit is not None),
        )

    def edit(self) -> Edit | None:
        """The same edit, as the page's ``EDIT ONE OF`` row."""
        if self.remediation() is None:
            return None
        declared, observed = self._arithmetic()
        if declared is None:
            return Edit(self.member.file, self.member.line or None, self.member.field)
        return Edit(self.member.file, self.member.line or None, self.member.field, str(declared), f"≥ {observed}")


def sort_key(refusal: Refusal) -> tuple[str, int, str]:
    """``check``'s print order — file, then line — which puts the same code first on every run."""
    return (refusal.member.file, refusal.member.line, refusal.member.error_code)

"""What a Kind changes about a call: how an effectful answer is judged, and the two
Repeatability values that read something before a call goes out.

A ``read`` records whatever came back. An effectful Step has to decide whether what came
back means its effect happened, and that judgement is the whole difference:

* **``http`` completes on a 2xx**, and a ``destroy`` on a 404 besides — a ``destroy``
  told the thing is not there has reached the state it exists to reach, and halting it
  would halt it identically on every re-run. A 3xx halts: hyper follows no redirect.
* **``shell`` completes on exit 0 alone**, on both effectful Kinds: an exit code is the
  command's own vocabulary, and no value of it is known to mean *already gone*.
* **The two ``attempted`` Dispositions split on doubt.** A request that provably never
  left (ADR-0018's pre-send class, the Capability's ``unsent``) touched nothing:
  *attempted, world untouched*. A deadline, or a failure after the request may have
  reached the world, leaves the effect unknown: *attempted, outcome unknown*.

``answered`` names the answer wherever it was not the ordinary one; a deadline has no
answer to name, so it carries none.
"""

from __future__ import annotations

from hyper import capability
from hyper.capability.shell import command_text
from hyper.core.namedtuple import NamedTuple
from hyper.run.binding import Binding
from hyper.store import reading
from hyper.store.branch import Store
from hyper.store.step import Disposition, HTTPAnswer, MemberAnswer, ShellAnswer

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Any


RUN_ONCE_RECORDED = "run-once-recorded"
BOUND_EXCEEDED = "bound-exceeded"

EVIDENCE: tuple[Disposition, ...] = ("ran", "attempted-outcome-unknown")
"""What run-once reads as *this Step already touched the world, or may have*. A Step never
reached, refused, skipped, or whose request never left, is no evidence of an effect."""


class Judged(NamedTuple):
    """What one effectful call came to: ``fault`` empty where it completed."""

    disposition: Disposition = "ran"
    fault: str = ""
    answered: MemberAnswer | None = None


def judge(bound: Binding, name: str, member: str, answered: capability.Answer) -> Judged:
    """The Kind's verdict on one answer. ``name`` is the Step's name for narration,
    ``member`` the Expansion member (empty where the Step has no selector)."""
    response = answered.response
    fault = answered.fault
    shell = bound.operation.capability == "shell"
    if fault is not None and fault.reason == "deadline":
        return Judged(
            "attempted-outcome-unknown",
            f"step {name}: {fault.text}; the call went out and no answer"
            " came back, so whether its effect happened is unknown",
        )
    if fault is not None and fault.reason == "transport":
        return Judged(
            "attempted-outcome-unknown",
            f"step {name}: {fault.text}; the request may have reached the"
            " world before it failed, so whether its effect happened is unknown",
        )
    if shell:
        command = str(response.get(capability.COMMAND, ""))
        code = response.get(capability.EXIT_CODE)
        if fault is not None or not isinstance(code, int):
            return Judged(
                "attempted-world-untouched",
                f"step {name}: {command} never started, so no child ran and nothing was touched",
                MemberAnswer(ShellAnswer(command), member) if command else None,
            )
        if code == 0:
            return Judged()
        return Judged(
            "ran",
            f"step {name}: {command} exited {code}; a {bound.kind} Step under shell completes on"
            " exit 0 and on nothing else, since what any other code means is the command's own business",
            MemberAnswer(ShellAnswer(command, code), member),
        )
    host = str(response.get(capability.HOST, ""))
    status = response.get(capability.STATUS)
    if fault is not None or not isinstance(status, int):
        reason = f" ({fault.text})" if fault is not None else ""
        return Judged(
            "attempted-world-untouched",
            f"step {name}: the request to {host or 'its host'} never left{reason}, so nothing was touched",
            MemberAnswer(HTTPAnswer(host), member) if host else None,
        )
    if 200 <= status < 300:
        return Judged()
    if status == 404 and bound.kind == "destroy":
        return Judged(answered=MemberAnswer(HTTPAnswer(host, status), member))
    accepted = "a 2xx or a 404" if bound.kind == "destroy" else "a 2xx"
    return Judged(
        "ran",
        f"step {name}: {host} answered {status}; a {bound.kind} Step completes on {accepted} only,"
        " and hyper neither follows a redirect nor reads an error body to guess whether its effect"
        " happened",
        MemberAnswer(HTTPAnswer(host, status), member),
    )


def identity_before(bound: Binding, template: str, inputs: dict[str, Any]) -> str:
    """The Record a call would write under, known before it goes out: the template the
    inputs filled, or — under ``shell`` — the argv itself, which ``$.command`` names."""
    if template:
        return template
    if bound.operation.capability == "shell" and bound.operation.record_identity == "$.command":
        command = inputs.get("command")
        if isinstance(command, list) and command and all(isinstance(word, str) for word in command):
            return command_text([str(word) for word in command])
    return ""


def run_once_evidence(store: Store, step_id: str) -> reading.Evidence | None:
    """The newest record, in any entry that is not a rehearsal, of the Step authored under
    ``step_id`` as ``ran`` or ``attempted-outcome-unknown`` — a closer's inference counting.

    It matches on the ``id`` alone: a nested Step carries a ``path`` only when reached
    through an invocation, so narrowing on it would miss the same effect run under the
    other name, which is the one mistake this value exists to prevent."""
    for held in reading.Journal(store).scan(step_id):
        if held.entry.run_file.dry_run:
            continue
        if held.step.disposition in EVIDENCE:
            return held
    return None

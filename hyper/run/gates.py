"""Everything between ``run.json`` and Step 1, in its fixed order; each gate declines into
the entry that already exists.

1. **The Store schema** over the files the Run will read: the Journal, and the series
   under each (Definition, Target) pair the Run binds.
2. **``check`` re-run in full**, nothing skipped: a working tree edited since ``check``
   last passed declines with whatever code the edit earns.
3. **The credential pass**: every slot the bound Providers' schemes need, of every Target
   the Run binds, read from the environment **once**; presence is the whole question (a
   variable set to ``""`` is present). Every absence is reported at once, so an operator
   is not sent round the loop one ``export`` at a time.
4. **The Secret sink**, one gate with two operands: a Step whose Operation declares
   ``secret:`` output, reached with no ``--secret-out``, names every such Step at once; a
   sink named for a Run that reaches no such Step is refused too, citing the Procedure the
   invocation named — either the flag was not needed or the declaration that would fill it
   is missing, and a Run completing with exit 0 would lose the value in the second case.
   It has no rehearsal exemption — a rehearsal's reads produce the secret too.

The first gate that declines is the whole answer: running the credential pass over a
repository ``check`` just refused would report variables for bindings that do not resolve.
"""

from __future__ import annotations

from hyper.artefact.repository import Repository
from hyper.check.repository import check_repository
from hyper.core.namedtuple import NamedTuple
from hyper.core.process import Process
from hyper.run import binding
from hyper.run.refusal import CREDENTIAL_ABSENT, SECRET_SINK_ABSENT, SECRET_SINK_UNFILLED, Refusal, sort_key
from hyper.run.sequence import Sequenced
from hyper.store import reading
from hyper.store.branch import Store
from hyper.store.checked import Checked
from hyper.store.journal import RefusalMember
from hyper.store.schema import SCHEMA_UNSUPPORTED_CODE
from hyper.yaml.access import member

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence as Seq


Credentials = dict[str, dict[str, str]]
"""Target name → scheme slot → the value the environment held. Never rendered, never stored."""


class Passed(NamedTuple):
    credentials: Credentials
    refused: tuple[Refusal, ...]


def pairs(steps: Seq[Sequenced]) -> list[tuple[str, str]]:
    """The (Target, Definition) pairs the Run binds, each once, in the Steps' order."""
    seen: dict[tuple[str, str], None] = {}
    for step in steps:
        seen.setdefault((step.target, step.definition), None)
    return list(seen)


def run_gates(
    store: Store, repo: Repository, procedure: str, steps: Seq[Sequenced], process: Process, sink: str | None
) -> Passed:
    unreadable = reading.readable(store, pairs(steps), Checked.load(store.objects.git_dir))
    if unreadable is not None:
        return Passed({}, (_schema(unreadable),))
    checked = _checked(repo)
    if checked:
        return Passed({}, checked)
    credentials, absent = _credentials(repo, steps, process)
    if absent:
        return Passed({}, absent)
    if sink:
        return Passed(credentials, _unfilled(repo, procedure, steps))
    return Passed(credentials, _sinkless(repo, steps))


def _schema(unreadable: reading.Unreadable) -> Refusal:
    """The one Refusal whose subject is evidence, not an artefact: a file and no line, since
    no caret may invite an edit to the record; the way past is another binary."""
    return Refusal(
        RefusalMember(
            error_code=SCHEMA_UNSUPPORTED_CODE,
            file=unreadable.file,
            message=f"written at schema version {unreadable.written}, and this hyper reads up to {unreadable.known}",
        ),
    )


def _checked(repo: Repository) -> tuple[Refusal, ...]:
    return tuple(
        Refusal(
            RefusalMember(
                error_code=problem.error_code,
                file=problem.file,
                message=problem.message,
                line=problem.line,
                field=problem.field,
            ),
        )
        for problem in check_repository(repo)
    )


def _credentials(repo: Repository, steps: Seq[Sequenced], process: Process) -> tuple[Credentials, tuple[Refusal, ...]]:
    resolved: Credentials = {}
    asked: set[tuple[str, str]] = set()
    absent: list[Refusal] = []
    for target_name, definition in pairs(steps):
        manifest = binding.provider_of(repo, definition)
        declaration = repo.targets.get(target_name)
        if manifest is None or manifest.auth is None or declaration is None:
            continue
        for slot_name in manifest.auth.slots:
            slot = next((s for s in declaration.credentials if s.slot == slot_name), None)
            if slot is None or not slot.env_name or (target_name, slot_name) in asked:
                continue  # an uncovered slot or one naming no variable: check reports both
            asked.add((target_name, slot_name))
            value = process.lookup_env(slot.env_name)
            if value is None:
                absent.append(
                    Refusal(
                        RefusalMember(
                            error_code=CREDENTIAL_ABSENT,
                            file=declaration.file,
                            message=f"the environment does not hold {slot.env_name}",
                            line=slot.key.line,
                            field=f"auth.{slot_name}",
                        ),
                    )
                )
                continue
            resolved.setdefault(target_name, {})[slot_name] = value
    return resolved, tuple(sorted(absent, key=sort_key))


def producing(repo: Repository, step: Sequenced) -> bool:
    """Does the Step's Operation declare ``secret:`` output — the question the sink turns on."""
    operation = binding.operation_of(repo, step)
    return operation is not None and bool(operation.secret_fields)


def _sinkless(repo: Repository, steps: Seq[Sequenced]) -> tuple[Refusal, ...]:
    declined = []
    for position, step in enumerate(steps, start=1):
        if not producing(repo, step):
            continue
        manifest = binding.provider_of(repo, step.definition)
        provider = manifest.declared_name if manifest is not None else ""
        declined.append(
            Refusal(
                RefusalMember(
                    error_code=SECRET_SINK_ABSENT,
                    file=step.file.path,
                    message=f"{provider} {step.operation} declares secret: output and this invocation names no"
                    " sink for it — run again with --secret-out <path>",
                    line=step.step.entry.line,
                    field=step.step.field,
                    step=position,
                    step_id=step.id,
                ),
                operation=step.operation,
                target=step.target,
            )
        )
    return tuple(declined)


def _unfilled(repo: Repository, procedure: str, steps: Seq[Sequenced]) -> tuple[Refusal, ...]:
    """The sink's other direction: named, and nothing the Run reaches would fill it. It cites
    the line naming the Procedure and no Step — every Step is right as authored."""
    if any(producing(repo, step) for step in steps):
        return ()
    loaded = repo.procedures.get(procedure)
    named = member(loaded.root if loaded is not None else None, "procedure")
    return (
        Refusal(
            RefusalMember(
                error_code=SECRET_SINK_UNFILLED,
                file=loaded.path if loaded is not None else "",
                message="this Run was given a Secret sink and no Step it reaches has an Operation declaring"
                " secret: output — the flag was not needed here, or the declaration that would fill the sink"
                " is missing",
                line=named.line if named is not None else 0,
                field="procedure",
            )
        ),
    )


def withheld_variables(repo: Repository) -> list[str]:
    """Every variable any Target declaration in the repository names as a credential slot or
    lists under ``withhold:`` — decided offline, not by which Steps a Run reaches — which no
    shell child inherits. The union is repository-wide for both: a name one declaration
    withholds is a name its reviewers decided a child must not see, whichever Target the
    child runs against."""
    named = [slot.env_name for declaration in repo.target_files for slot in declaration.credentials if slot.env_name]
    named += [
        scalar.value for declaration in repo.target_files for _, scalar in declaration.withhold or () if scalar.value
    ]
    return named

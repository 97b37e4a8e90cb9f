"""The Run: what happens between ``hyper run <procedure>`` and the Journal entry it leaves.

The order is fixed, and no Step starts until all of it has happened: the code branch is
read (a Run that cannot name a revision has no Provenance to write); the Run is
identified and narrates its id; ``run.json`` goes down as ``Begin run <id>``; the four
gates decline into that entry; then the Steps in written order; then ``outcome.json``
as ``End run <id>``; then the last push.

A Run with any effectful Step (decided statically, as the lock is) does three things more.
It closes every entry a dead Run left open, in its own ``Begin run`` commit
(:mod:`hyper.run.reap`). It pushes that commit before anything else: the push is its sync,
and no effect goes out on a Store the remote has not seen — failing it is 75. And it
pushes again at every Step boundary after the first, so what one Step did is on the
remote before the next may act on the world. A read-only Run pushes once, at its end.

Two questions are asked of the outside between Steps and nowhere else: *has the drain
begun* (a first signal, or an MCP cancel) and *has a rehearsal reached an effect*. A Step
in flight is never asked to stop, so what a stopped Run leaves is always whole Steps.

The engine renders nothing and maps no exit code: what a Run did is an :class:`Answer`,
and what is said about it is the surface's.
"""

from __future__ import annotations

from hyper.artefact.repository import Repository
from hyper.capability.predicate import Test, read_test
from hyper.capability.shell import compose
from hyper.core.faults import RUN_FAULTS, PushExhausted, SinkUnwritten
from hyper.core.namedtuple import NamedTuple
from hyper.core.process import Process
from hyper.run import binding, revision
from hyper.run.gates import producing, run_gates, withheld_variables
from hyper.run.ledger import Comparands, Ledger, comparands
from hyper.run.reap import reap
from hyper.run.refusal import AT_CONDITION, Refusal
from hyper.run.sequence import Requirement, Sequenced, flatten
from hyper.run.sink import Sink
from hyper.run.step import PREDICATE_TYPE_MISMATCH, Halted, InFlight, Reached, holds, perform
from hyper.store import canonical
from hyper.store.branch import Store, Write
from hyper.store.journal import OutcomeFile, RefusalMember, RunFile, Trigger
from hyper.store.paths import JournalEntry
from hyper.store.provenance import RunProvenance
from hyper.yaml.subset import Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Protocol
else:
    Protocol = object  # the checker holds Narrator as a Protocol; at run time it is a plain base


INTERRUPTED = "interrupted: no further Step was started, and this Run closed its own entry"
PUSH_EXHAUSTED = (
    "origin refused the push three times running; this Run's entry is committed to hyper-store here,"
    " not yet published, and the next Run's push publishes it"
)
"""Said without git's own text, which names the remote's path and is no help to act on."""
PUSH_EXHAUSTED_WITH_RECORDS = (
    "origin refused the push three times running; the Records this Run's Steps reached, and its entry, are"
    " committed to hyper-store here, not yet published, and the next Run's push publishes them"
)
"""The same, where a Step has acted: what it did to the world is recorded, and not lost, only late."""
UNSYNCED = "the Store could not be synced, so no Step was started"
"""An effectful Run's first push is its sync: no effect goes out on a Store the remote has not seen."""


class Narrator(Protocol):
    def began(self, run_id: str) -> None:
        """The Run naming itself before anything else: the one place a killed Run's id appears."""

    def reached(self, position: int, of: int, name: str) -> None:
        """One Step boundary, at the start of the Step."""


class Request(NamedTuple):
    repo: Repository
    procedure: str
    store: Store
    process: Process
    version: str
    trigger: Trigger
    dry_run: bool
    sink: str | None
    """The Secret sink's absolute path, resolved by the surface; ``None`` where none was named."""
    narrator: Narrator
    drained: Callable[[], bool]
    """Asked where the next Step would start: has the first signal or a cancel arrived."""


class Answer(NamedTuple):
    outcome: str
    run_id: str = ""
    """Present exactly where an entry was written."""
    steps: tuple[Reached, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    provenance: RunProvenance | None = None
    withheld: int = 0
    """The position a rehearsal stopped at; 0 where it withheld nothing."""
    fault: str = ""
    interrupted: bool = False
    lost: bool = False
    """The Store was lost (push exhausted): a Run that exits 75."""

    def failed(self, fault: str, *, interrupted: bool = False, lost: bool = False) -> Answer:
        """``failed``, keeping the first fault: what stopped the Run is what stopped it."""
        if self.fault:
            return self._replace(outcome="failed")
        return self._replace(outcome="failed", fault=fault, interrupted=interrupted, lost=lost)


def perform_run(request: Request) -> Answer:
    repo, process = request.repo, request.process
    walked = flatten(repo, request.procedure)
    top = repo.procedures[request.procedure]
    git = request.store.git
    object_format = request.store.objects.object_format
    try:
        facts = revision.read(git, object_format, binding.artefacts_read(repo, walked.procedures, walked.steps))
    except RUN_FAULTS as unread:
        return Answer("failed", fault=str(unread))
    provenance = RunProvenance(request.version, revision.blob_id(top.data, object_format), facts.head, facts.dirty)

    started = process.now()
    run_id = process.mint(started)
    entry = JournalEntry(run_id, started)
    run = InFlight(
        store=request.store,
        repo=repo,
        process=process,
        object_format=object_format,
        run_id=run_id,
        entry=entry,
        procedure=request.procedure,
        provenance=provenance,
        started=started,
        credentials={},
        environment=compose(process.environ, withheld_variables(repo)),
        ledger=Ledger(request.store),
        digests=Comparands({}, rehearsal=request.dry_run),
    )
    request.narrator.began(run_id)
    effectful = walked.cycle != "" or any(binding.effectful(repo, step) for step in walked.steps)
    try:
        wanted = {(step.id, step.path) for step in walked.steps}
        run.digests = comparands(request.store, request.procedure, wanted, rehearsal=request.dry_run)
        closing = reap(request.store, repo, facts.head, run_id, process.now()) if effectful else []
        run.append(
            [
                Write(
                    entry.run_path,
                    RunFile(run_id, request.procedure, request.trigger, started, request.dry_run, provenance).encode(),
                ),
                *closing,
            ],
            f"Begin run {run_id}",
        )
        run.settle()
    except RUN_FAULTS as failed:
        return Answer("failed", fault=str(failed))
    answer = Answer("completed", run_id=run_id, provenance=provenance)
    if effectful:
        try:
            request.store.publish()
        except PushExhausted:
            return _closed(run, answer.failed(f"{UNSYNCED}: {PUSH_EXHAUSTED}", lost=True))
        except RUN_FAULTS as unsynced:
            return _closed(run, answer.failed(f"{UNSYNCED}: {unsynced}", lost=True))

    try:
        passed = run_gates(request.store, repo, request.procedure, walked.steps, process, request.sink)
    except RUN_FAULTS as failed:
        return _closed(run, answer.failed(str(failed)))
    if passed.refused:
        return _closed(run, answer._replace(outcome="refused", refusals=passed.refused))
    if walked.cycle:
        return _closed(
            run,
            answer.failed(
                f"the invocations of {request.procedure} reach {walked.cycle} again from inside it; a cycle has no end"
                " and no Run performs one — hyper check reports it"
            ),
        )
    run.credentials = passed.credentials
    if request.sink and any(producing(repo, step) for step in walked.steps):
        run.sink = Sink(request.sink)
        try:
            run.sink.create()
        except SinkUnwritten as unmade:
            return _closed(run, answer.failed(str(unmade)))

    steps = walked.steps
    canonical.expect(len(steps))  # each Step writes at least its own file
    done: list[Reached] = []

    def failed_before(start: int, fault: str, *, interrupted: bool = False, lost: bool = False) -> Answer:
        """The Run fails with the Steps from ``start`` on never reached, and closes."""
        ended = _unreached(answer, done, repo, steps, start)
        return _closed(run, ended.failed(fault, interrupted=interrupted, lost=lost))

    for at, step in enumerate(steps):
        position = at + 1
        if request.drained():
            return failed_before(at, INTERRUPTED, interrupted=True)
        stopped = _requirements(run, walked.requirements, at)
        if stopped is not None:
            return _closed(run, _ended_by(_unreached(answer, done, repo, steps, at), stopped))
        if request.dry_run and binding.effectful(repo, step):
            ended = _unreached(answer, done, repo, steps, at)
            marked = list(ended.steps)
            marked[at] = marked[at]._replace(withheld=True)
            return _closed(run, ended._replace(steps=tuple(marked), withheld=position))
        if effectful and position > 1:
            try:
                run.settle()
                request.store.publish()
            except PushExhausted:
                return failed_before(at, _unpublished(done), lost=True)
            except RUN_FAULTS as unpushed:
                return failed_before(at, f"what step {steps[at - 1].name} wrote could not be pushed: {unpushed}")
        request.narrator.reached(position, len(steps), step.name)
        try:
            try:
                reached, declined = perform(run, position, step)
            finally:
                if effectful:
                    run.settle()  # an effectful Run's every Step is on the branch before the next begins
                else:
                    run.boundary()
        except Halted as halted:
            done.append(halted.reached)
            return failed_before(position, str(halted))
        except RUN_FAULTS as failed:
            return failed_before(position, str(failed))
        done.append(reached)
        if declined:
            ended = _unreached(answer, done, repo, steps, position)
            return _closed(run, ended._replace(outcome="refused", refusals=declined))
    answer = answer._replace(steps=tuple(done))
    if request.drained():
        return _closed(run, answer.failed(INTERRUPTED, interrupted=True))
    stopped = _requirements(run, walked.requirements, len(steps))
    if stopped is not None:
        return _closed(run, _ended_by(answer, stopped))
    return _closed(run, answer)


def _unreached(
    answer: Answer, done: list[Reached], repo: Repository, steps: tuple[Sequenced, ...], start: int
) -> Answer:
    """The Steps the Run ended before: a row each, and no file — inside a closed entry the
    absence is the whole of *never reached*."""
    rest = tuple(
        Reached(position, step.id, step.path, binding.kind_of(repo, step), "never-reached")
        for position, step in enumerate(steps[start:], start=start + 1)
    )
    return answer._replace(steps=(*done, *rest))


def _requirements(run: InFlight, requirements: tuple[Requirement, ...], before: int) -> str | Refusal | None:
    """The Requirements standing in front of the Step at ``before``, in written order: the
    first that does not hold halts (a sentence), and one whose operator cannot decide
    Refuses; ``None`` where every one held."""
    for standing in requirements:
        if standing.before != before:
            continue
        test = read_test(standing.entry.require)
        if test is None:
            return f"requirement {standing.name} carries no legible require: — hyper check reports it"
        acted = run.acted.get((standing.namespace, test.step), [])
        if not acted:
            return (
                f"requirement {standing.name} did not hold: step {test.step} acted on no Record in this Run,"
                f" so there was nothing to read {test.field} of, and no Step after it runs"
            )
        held, mismatch = holds(test, acted, run.started)
        if mismatch:
            return Refusal(
                RefusalMember(
                    error_code=PREDICATE_TYPE_MISMATCH,
                    file=standing.file.path,
                    message=f"on the Record step {test.step} acted on, {mismatch}",
                    line=test.line,
                    field=f"{standing.entry.field}.require.{test.operator}",
                    step_id=standing.id,
                ),
                phase=AT_CONDITION,
            )
        if not held:
            return (
                f"requirement {standing.name} did not hold: {test.field} of the Record step {test.step} acted on"
                f" does not satisfy {_as_written(test)}, and no Step after it runs"
            )
    return None


def _ended_by(answer: Answer, stopped: str | Refusal) -> Answer:
    if isinstance(stopped, Refusal):
        return answer._replace(outcome="refused", refusals=(stopped,))
    return answer.failed(stopped)


def _as_written(test: Test) -> str:
    if isinstance(test.operand, Scalar):
        return f"{test.operator}: {test.operand.value}"
    if isinstance(test.operand, Seq):
        return f"{test.operator}: [{', '.join(i.value for i in test.operand.items if isinstance(i, Scalar))}]"
    return test.operator


def _closed(run: InFlight, answer: Answer) -> Answer:
    """``outcome.json`` then the push — every Run's last push, and a read-only Run's only one."""
    try:
        run.append(
            [
                Write(
                    run.entry.outcome_path,
                    OutcomeFile(
                        answer.outcome,  # type: ignore[arg-type]
                        run.process.now(),
                        tuple(r.member for r in answer.refusals),
                    ).encode(),
                )
            ],
            f"End run {run.run_id}",
        )
        run.settle()
        run.store.publish()
    except PushExhausted:
        return answer.failed(_unpublished(answer.steps), lost=True)
    except RUN_FAULTS as failed:
        return answer.failed(str(failed))
    return answer


def _unpublished(steps: Sequence[Reached]) -> str:
    """Why a Run answers 75 after its pushes ran out, naming its Records where a Step wrote any."""
    return PUSH_EXHAUSTED_WITH_RECORDS if any(step.records for step in steps) else PUSH_EXHAUSTED

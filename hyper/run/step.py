"""One Step: the binding resolved, the condition decided, the Expansion resolved, the calls
made, the answers projected, the versions written where the bytes moved, and the file
that says what became of it.

* **The condition decides first, the Expansion second**, both before any call; what
  either declines is a Refusal the Run ends on.
* **A read never halts on what came back.** A non-zero exit, a quiet host, a 500: each
  is an answer, recorded. What halts is what is not an answer — the Operation's
  deadline, and an identity or collection path that did not resolve.
* **A read Expansion drains.** Members are called up to the Operation's
  ``concurrency:`` limit at once; every member is attempted, every Observation that
  succeeded is written, and the Run then halts on the *first fault in Expansion
  order* — never the first to arrive, so which fault stops a Run is not a race.
  Writes happen in Expansion order too, whatever order the answers came in.
* **A version is minted only where the canonical bytes differ from the Head's**; the
  Record is in the identity set either way (an unchanged Record is not a missing one).
* **An effectful Step is the same path with three differences**: run-once reads the
  Journal before the Expansion, the Expansion is dispatched one member at a time with each
  confirmed effect committed and settled before the next call, and what came back is
  judged by :mod:`hyper.run.effect` — the first member it does not complete halts the Step.
"""

from __future__ import annotations

import time

from hyper import capability
from hyper.artefact.manifest import Operation
from hyper.artefact.repository import Repository
from hyper.capability import projection
from hyper.capability.predicate import read_test
from hyper.core.deepjson import DROP, GO_DEPTH, rebuild
from hyper.core.faults import SinkUnwritten, TooDeep, Unbound
from hyper.core.namedtuple import NamedTuple
from hyper.core.process import Process
from hyper.run import arguments, cause, effect, expand
from hyper.run.binding import Binding, resolve
from hyper.run.ledger import Comparands, Ledger
from hyper.run.refusal import AT_CONDITION, AT_EXPANSION, AT_REPEATABILITY, Refusal
from hyper.run.revision import blob_id
from hyper.run.sequence import Sequenced
from hyper.run.sink import Sink
from hyper.store import reading
from hyper.store.branch import Store, Write
from hyper.store.canonical import Secret, Value, encode
from hyper.store.identities import concluded
from hyper.store.journal import RefusalMember
from hyper.store.paths import Identity, JournalEntry, record_path
from hyper.store.provenance import Provenance, RunProvenance, StepProvenance
from hyper.store.record import Metadata, RecordType, RecordVersion
from hyper.store.step import MemberAnswer, Pattern, Selector, StepCode, StepFile
from hyper.yaml.subset import Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    import datetime as _dt
    from collections.abc import Callable, Mapping, Sequence
    from concurrent.futures import ThreadPoolExecutor
    from typing import Any


SETTLE_EVERY = 0.5
"""Seconds of completed Steps a Run may hold in commits the branch has not yet moved to."""

PREDICATE_TYPE_MISMATCH = "predicate-type-mismatch"
RECORD_IDENTITY_COLLISION = "record-identity-collision"


class Reached(NamedTuple):
    """One Step as the page and the rows read it back."""

    position: int
    id: str
    path: str
    kind: str
    disposition: str
    records: int | None = None
    """The identity set's size; ``None`` where the Disposition carries no set."""
    expanded: int | None = None
    """Record identities reached, written only where the Step stopped short of them."""
    withheld: bool = False
    provenance: StepProvenance | None = None
    notes: tuple[str, ...] = ()
    """What the rows cannot say about an answer this Step read — a non-2xx status, and what it
    made of the collection — for the page and stderr only (:mod:`hyper.run.cause`)."""


class Halted(Exception):
    """What stops the Run at a Step, once the Step's file is down: narration only, never an
    ``error_code``."""

    def __init__(self, reached: Reached, fault: str) -> None:
        super().__init__(fault)
        self.reached = reached


class InFlight:
    """The Run between ``run.json`` and ``outcome.json``: what every Step is performed against.

    A mutable holder, so a slotted class rather than a NamedTuple: the engine fills in the
    comparands, credentials and sink as the gates pass, and each settle moves ``settled_at``."""

    __slots__ = (
        "acted",
        "credentials",
        "digests",
        "entry",
        "environment",
        "ledger",
        "object_format",
        "procedure",
        "process",
        "provenance",
        "provenances",
        "repo",
        "run_id",
        "settled_at",
        "sink",
        "started",
        "store",
    )

    def __init__(
        self,
        *,
        store: Store,
        repo: Repository,
        process: Process,
        object_format: str,
        run_id: str,
        entry: JournalEntry,
        procedure: str,
        provenance: RunProvenance,
        started: _dt.datetime,
        credentials: dict[str, dict[str, str]],
        environment: dict[str, str],
        ledger: Ledger,
        digests: Comparands,
    ) -> None:
        self.store = store
        self.repo = repo
        self.process = process
        self.object_format = object_format
        self.run_id = run_id
        self.entry = entry
        self.procedure = procedure
        self.provenance = provenance
        self.started = started
        self.credentials = credentials
        self.environment = environment
        self.ledger = ledger
        self.digests = digests
        """Each Step's comparand digest, by (id, path): read before Step 1, then this Run's own."""
        self.acted: dict[tuple[int, str], list[dict[str, Any]]] = {}
        self.sink: Sink | None = None
        """Where ``secret:`` values go; made before Step 1 where a Step produces one."""
        self.settled_at = time.monotonic()
        self.provenances: dict[str, StepProvenance] = {}
        """Each bound Definition's Step provenance, by its path: hashed once per Run, as the
        Definition's and its Manifest's bytes are the ones the Run loaded and never change."""

    def step_provenance(self, bound: Binding) -> StepProvenance:
        """The Step's half of the provenance, for any Step bound through ``bound``'s Definition."""
        path = bound.definition_file.path
        known = self.provenances.get(path)
        if known is None:
            known = self.provenances[path] = bound.provenance(blob_id(bound.definition_file.data, self.object_format))
        return known

    def append(self, writes: Sequence[Write], message: str) -> None:
        """One commit per confirmed write, built at once; the branch moves at :meth:`settle`."""
        self.store.now = self.process.now()
        self.store.stage(writes, message)

    def settle(self) -> None:
        """The branch moved to every commit made so far."""
        self.store.settle()
        self.settled_at = time.monotonic()

    def boundary(self) -> None:
        """A Step boundary: the branch is moved where the last move is older than
        :data:`SETTLE_EVERY`. A read's commits are the record of what it saw, never of an
        effect, so a crash costing a fraction of a second of them costs a re-run; moving
        the ref (and writing each object as its own file) at every one of a hundred quick
        Steps costs more than the Steps."""
        if time.monotonic() - self.settled_at >= SETTLE_EVERY:
            self.settle()


_NO_SECRETS: Mapping[str, Any] = {}


class _Concluded(NamedTuple):
    """One Record a member's answer concluded about."""

    name: str
    fields: dict[str, Value] | None
    secrets: Mapping[str, Any] = _NO_SECRETS
    """The ``secret:`` fields' own values, bound for the sink and nowhere else."""


_NO_PATTERN: Mapping[str, int] = {}


class _Turn(NamedTuple):
    """What one member's call came to."""

    records: list[_Concluded]
    fault: str = ""
    failed_path: str = ""
    pattern: Mapping[str, int] = _NO_PATTERN
    notes: tuple[str, ...] = ()


def perform(run: InFlight, position: int, step: Sequenced) -> tuple[Reached, tuple[Refusal, ...]]:
    """Runs one Step; answers what became of it and any Refusal it ends the Run on.

    :class:`Halted` carries a fault, after the Step's file is down where one was reached."""
    bound = resolve(run.repo, step)
    provenance = run.step_provenance(bound)
    started = run.process.now()
    code = StepCode(
        id=step.id,
        definition=step.definition,
        operation=step.operation,
        provider=bound.manifest.declared_name,
        target=step.target,
        kind=bound.kind if bound.kind in ("read", "mutate", "destroy") else "",  # type: ignore[arg-type]
    )
    base = Reached(position, step.id, step.path, bound.kind, "ran", provenance=provenance)

    def filed(disposition: str, **more: Any) -> None:
        run.append(
            [
                Write(
                    run.entry.step_path(position),
                    StepFile(
                        step=position,
                        code=code,
                        disposition=disposition,  # type: ignore[arg-type]
                        started_at=started,
                        ended_at=run.process.now(),
                        provenance=provenance,
                        path=step.path,
                        **more,
                    ).encode(),
                )
            ],
            f"Step {position} {step.id} of run {run.run_id}: {disposition}",
        )
        run.digests.filed(step.id, step.path, more.get("identities"))

    def refused(*refusals: Refusal, **more: Any) -> tuple[Reached, tuple[Refusal, ...]]:
        """The Step's file says it refused; the Run ends on ``refusals``."""
        filed("refused", **more)
        return base._replace(disposition="refused"), refusals

    held, declined = _condition(run, step, position, bound)
    if declined:
        return refused(*declined)
    if not held:
        filed("skipped-by-condition")
        return base._replace(disposition="skipped-by-condition"), ()

    effectful = bound.kind != "read"
    if effectful and bound.operation.run_once:
        run.settle()  # this Run's own earlier Steps are evidence too
        evidence = effect.run_once_evidence(run.store, step.id)
        if evidence is not None:
            return refused(
                _refusal(
                    step,
                    position,
                    bound,
                    effect.RUN_ONCE_RECORDED,
                    f"{step.name} binds {step.operation}, which is run-once, and run {evidence.entry.run_id}"
                    f" records it as {evidence.step.disposition}",
                    step.step.entry.line,
                    step.step.field,
                    phase=AT_REPEATABILITY,
                ),
            )

    selector = expand.read_selector(step.step.over)
    if selector.form in ("assets", "observations"):
        run.settle()  # the selector reads the branch as git holds it
    found, mismatches = expand.members(run.store, selector, step.target, step.definition, run.started, step.step.field)
    if bound.kind == "destroy" and selector.form == "values":
        found = [member for member in found if not _ended(run, step, member.name)]
    # The block holds what was authored and what it reached, and no Bound: the reference's entries
    # carry none on any Kind, the Bound being the artefact's to state and a Refusal's to quote.
    stored_selector = (
        Selector(expand.as_stored(selector.node), tuple(m.name for m in found))
        if selector.form and selector.node is not None
        else None
    )
    if mismatches:
        first = mismatches[0]
        return refused(
            _refusal(step, position, bound, PREDICATE_TYPE_MISMATCH, first.message, first.line, first.field),
            selector=stored_selector,
        )

    limit = step.step.bound_value
    if effectful and limit is not None and len(found) > limit and step.step.bound is not None:
        return refused(
            Refusal(
                RefusalMember(
                    error_code=effect.BOUND_EXCEEDED,
                    file=step.file.path,
                    message=f"expansion resolved {len(found)} {selector.form or 'members'} on {step.target}",
                    line=step.step.bound.line,
                    field=f"{step.step.field}.bound",
                    step=position,
                    step_id=step.id,
                    declared=limit,
                    observed=len(found),
                ),
                operation=step.operation,
                target=step.target,
                phase=AT_EXPANSION,
            ),
            selector=stored_selector,
        )

    inputs: list[dict[str, Any]] = []
    for member in found:
        read = arguments.arguments(
            step.step.args, bound.inputs, bound.operation.opaque, member, run.acted, step.namespace, step.step.field
        )
        if isinstance(read, arguments.Declined):
            return refused(
                _refusal(step, position, bound, arguments.SCHEMA_MISMATCH, read.message, read.line, read.field),
                selector=stored_selector,
            )
        inputs.append(read)

    identities = [effect.identity_before(bound, _before_the_call(bound.operation, read), read) for read in inputs]
    # A destroy declares no identity: the Tombstone it writes is named by the member, so the
    # member's name is what both comparands are held to — a literal spelled apart from a
    # standing series under the fold would otherwise open a second series for one thing.
    comparable = [
        name or (member.name if bound.kind == "destroy" else "") for member, name in zip(found, identities, strict=True)
    ]
    collision = _collisions(run.ledger, step, found, comparable)
    if collision:
        return refused(
            _refusal(
                step, position, bound, RECORD_IDENTITY_COLLISION, collision, _selector_line(step), _selector_field(step)
            ),
            selector=stored_selector,
        )

    if effectful:
        return _effect(run, bound, step, position, provenance, found, inputs, identities, stored_selector, base, filed)

    turns = _dispatch(run, bound, found, inputs, identities)

    names: list[str] = []
    acted: list[dict[str, Any]] = []
    reached_identities = 0
    halted = ""
    failed_path = ""
    taken: dict[Identity, Identity] = {}
    pattern = Pattern()
    notes: list[str] = []
    for turn in turns:
        notes += [f"step {step.name}: {note}" for note in turn.notes]
        pattern = Pattern(
            pattern.attempts + turn.pattern.get("attempts", 0),
            pattern.pages + turn.pattern.get("pages", 0),
            pattern.polls + turn.pattern.get("polls", 0),
        )
        if turn.fault:
            reached_identities += 1
            if not halted:
                halted, failed_path = f"step {step.name}: {turn.fault}", turn.failed_path
        for record in turn.records:
            reached_identities += 1
            identity = Identity(step.target, step.definition, record.name)
            clash = _taken(run.ledger, taken, identity)
            if clash:
                halted = halted or f"step {step.name}: {clash}"
                continue
            names.append(record.name)
            acted.append(dict(record.fields or {}))
            _mint(run, bound, step, position, provenance, identity, record.fields)
            _sunk(run, position, record)

    previous = run.digests.previous(step.id, step.path)
    run.acted[(step.namespace, step.id)] = acted
    filed(
        "ran",
        identities=concluded(names, previous),
        selector=stored_selector,
        pattern=pattern,
        projection_failed_path=failed_path,
    )
    reached = base._replace(
        records=len(set(names)), expanded=reached_identities if halted else None, notes=tuple(notes)
    )
    if halted:
        raise Halted(reached, halted)
    return reached, ()


def _condition(run: InFlight, step: Sequenced, position: int, bound: Binding) -> tuple[bool, tuple[Refusal, ...]]:
    """A ``when:`` over what the named earlier Step of this Run acted on — never the Store.
    A Step that acted on nothing leaves it not holding: the skip propagates."""
    if step.step.when is None:
        return True, ()
    test = read_test(step.step.when)
    if test is None:
        return True, ()  # check's fault: a condition with no operator
    held, mismatch = holds(test, run.acted.get((step.namespace, test.step), []), run.started)
    if mismatch:
        return False, (
            _refusal(
                step,
                position,
                bound,
                PREDICATE_TYPE_MISMATCH,
                f"on the Record step {test.step} acted on, {mismatch}",
                test.line,
                f"{step.step.field}.when.{test.operator}",
                phase=AT_CONDITION,
            ),
        )
    return held, ()


def holds(test: Any, records: Sequence[dict[str, Any]], instant: _dt.datetime) -> tuple[bool, str]:
    """A predicate over a population holds of every member (a filter is an AND); every
    Record is evaluated, so which one came first never decides a Refusal."""
    if not records:
        return False, ""
    held, found = True, ""
    for fields in records:
        matched, mismatch = test.holds(fields, instant)
        found = found or mismatch
        held = held and matched
    return (False, found) if found else (held, "")


def _refusal(
    step: Sequenced,
    position: int,
    bound: Binding,
    code: str,
    message: str,
    line: int,
    field: str,
    phase: str = AT_EXPANSION,
) -> Refusal:
    return Refusal(
        RefusalMember(
            error_code=code,
            file=step.file.path,
            message=message,
            line=line,
            field=field,
            step=position,
            step_id=step.id,
        ),
        operation=step.operation,
        target=step.target,
        phase=phase,
    )


def _selector_line(step: Sequenced) -> int:
    over = step.step.over
    return over.line if over is not None else step.step.entry.line


def _selector_field(step: Sequenced) -> str:
    return f"{step.step.field}.over" if step.step.over is not None else step.step.field


def _before_the_call(operation: Operation, inputs: dict[str, Any]) -> str:
    """The Record name where ``identity:`` is a template the inputs fill; ``""`` where it is a
    ``$`` path only the answer resolves (``shell``'s ``$.command`` excepted, by the caller: the
    argv is known before the call, so two members with one argv are caught before either runs)."""
    identity = operation.record_identity
    if not identity or identity.startswith("$"):
        return ""
    return projection.identity(identity, inputs, None) or ""


def _collisions(ledger: Ledger, step: Sequenced, found: Sequence[arguments.Member], identities: Sequence[str]) -> str:
    """Both comparands, once, before any call: the identities against each other under the
    fold, then against the series the Store holds."""
    first: dict[Identity, tuple[str, str]] = {}
    resolved: list[Identity] = []
    for member, name in zip(found, identities, strict=True):
        if not name:
            continue
        identity = Identity(step.target, step.definition, name)
        resolved.append(identity)
        folded = reading.folded(identity)
        if folded in first and first[folded][1] != name:
            earlier_member, earlier = first[folded]
            return (
                f"{earlier_member or 'the call'} resolves to {earlier} and {member.name or 'the call'} to {name},"
                " which are one Record identity — every member of an Expansion is one identity"
            )
        first.setdefault(folded, (member.name, name))
    for identity in resolved:
        standing = ledger.collision(identity)
        if standing is not None:
            return (
                f"{identity.name} and the Record {standing.name} the Store already holds are one identity under"
                " hyper's case fold — one of the two spellings is wrong"
            )
    return ""


def _taken(ledger: Ledger, taken: dict[Identity, Identity], identity: Identity) -> str:
    """The collision an identity resolved from an answer meets — halting, not refusing, since
    the call has gone out — or ``""``. A second Record under the very same name collides as
    surely as one under another spelling: an identity a template hole filled before the call
    names every Record of a ``series`` answer alike, and only one of them can be that Record."""
    folded = reading.folded(identity)
    earlier = taken.get(folded)
    if earlier is not None and earlier != identity:
        return f"{identity.name} and {earlier.name} were both answered, and they are one Record identity"
    if earlier is not None:
        return f"{identity.name} was answered twice in this Step, and one identity names one Record"
    taken[folded] = identity
    clash = ledger.collision(identity)
    if clash is not None:
        return f"{identity.name} collides with the Record {clash.name} the Store already holds"
    return ""


def _caller(run: InFlight, bound: Binding) -> Callable[[dict[str, Any]], capability.Answer]:
    """One member's call to the Capability, given its inputs: everything else a call carries —
    the Run's context, the Operation's deadline, the Target's credentials — is the Step's, the
    same for every member, whether they are called at once or one at a time."""
    context = capability.Context(run.process, run.repo.root, run.started, run.environment)
    deadline = bound.operation.deadline_seconds
    seconds = float(deadline) if deadline is not None else None
    credentials = run.credentials.get(bound.target.declared_name, {})

    def answer_for(inputs: dict[str, Any]) -> capability.Answer:
        call = capability.Call(bound.manifest, bound.operation, bound.target, inputs, seconds, credentials)
        return capability.perform(call, context)

    return answer_for


def _dispatch(
    run: InFlight,
    bound: Binding,
    found: Sequence[arguments.Member],
    inputs: Sequence[dict[str, Any]],
    identities: Sequence[str],
) -> list[_Turn]:
    """Every member's call, up to ``concurrency:`` at once, answered in Expansion order."""
    answer_for = _caller(run, bound)

    def call(at: int) -> _Turn:
        return _project(bound, found[at], identities[at], answer_for(inputs[at]))

    limit = max(1, bound.operation.concurrency_limit)
    if limit == 1 or len(found) <= 1:
        return [call(at) for at in range(len(found))]
    with _pool(min(limit, len(found))) as pool:
        return list(pool.map(call, range(len(found))))


def _pool(workers: int) -> ThreadPoolExecutor:
    """The threads of a concurrent Expansion. ``concurrent.futures`` (with ``logging`` and
    ``queue``, ≈28M instructions) is imported here, by the first Step that calls members at
    once, so a Run whose Steps each make one call never loads it (ADR 0006)."""
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=workers)


def _project(bound: Binding, member: arguments.Member, identity: str, answered: capability.Answer) -> _Turn:
    """What one answer concluded. A deadline concluded nothing; everything else on a read is
    an answer, projected."""
    pattern = dict(answered.pattern)
    fault = answered.fault
    if fault is not None and fault.reason in ("deadline", "refused"):
        return _Turn([], f"{_member(member)}{fault.text}", pattern=pattern)
    record = bound.operation.record
    why = cause.of(answered)
    if record is None:
        return _Turn([], pattern=pattern)
    if record.over is not None:
        over = record.over.value if isinstance(record.over, Scalar) else ""
        held: list[_Concluded] = []
        for page in (*answered.pages, answered.response):
            items = projection.collection(over, page)
            if items is None:
                return _Turn(
                    held,
                    _unresolved(
                        member,
                        f"the collection path {over}",
                        why,
                        "so an empty collection and a wrong path cannot be told apart",
                    ),
                    over,
                    pattern,
                )
            for at, item in enumerate(items, start=len(held) + 1):
                name = _identity(bound.operation, identity, item)
                if name is None:
                    return _Turn(
                        held,
                        f"{_member(member)}the identity path {bound.operation.record_identity} did not"
                        f" resolve against record {at} of {over}",
                        bound.operation.record_identity,
                        pattern,
                    )
                held.append(_Concluded(name, _fields(bound.operation, item), _secrets(bound.operation, item)))
        made = (
            f"and the collection {over} came to {len(held)} Record{'' if len(held) == 1 else 's'} this Run"
            " recorded as the whole of it"
            if held
            else f"and the collection {over} came to none: this Run recorded an empty collection, and hyper changes"
            " calls every Record an earlier Run of this Step saw vanished"
        )
        return _Turn(held, pattern=pattern, notes=_noted(member, answered, made))
    name = _identity(bound.operation, identity, answered.response)
    if name is None:
        return _Turn(
            [],
            _unresolved(
                member,
                f"the identity path {bound.operation.record_identity}",
                why,
                "so hyper cannot say which Record it holds",
            ),
            bound.operation.record_identity,
            pattern,
        )
    return _Turn(
        [_Concluded(name, _fields(bound.operation, answered.response), _secrets(bound.operation, answered.response))],
        pattern=pattern,
    )


def _unresolved(member: arguments.Member, path: str, why: str, otherwise: str) -> str:
    """A path that did not resolve, with what came back where that is the likelier story."""
    if not why:
        return f"{_member(member)}{path} did not resolve against what came back, {otherwise}"
    return f"{_member(member)}{path} did not resolve, because {why}"


def _noted(member: arguments.Member, answered: capability.Answer, made: str) -> tuple[str, ...]:
    """One sentence per page of a collection answered with a status that is not 2xx, the last
    saying what the collection came to. A single Record's status is its own datum — an uptime
    check answered 503 is the fact it records — so only a collection, where an error answer
    passes for an empty world, is said."""
    pages = (*answered.pages, answered.response)
    cut = [
        (at, page, status)
        for at, page in enumerate(pages, start=1)
        if (status := cause.status_of(page)) is not None and not cause.ordinary(status)
    ]
    said = []
    for count, (at, page, status) in enumerate(cut, start=1):
        where = f" on page {at} of {len(pages)}" if len(pages) > 1 else ""
        said.append(f"{_member(member)}{cause.answered(page, status)}{where}{', ' + made if count == len(cut) else ''}")
    return tuple(said)


def _member(member: arguments.Member) -> str:
    return f"{member.name}: " if member.name else ""


def _identity(operation: Operation, before: str, root: Any) -> str | None:
    return before or projection.identity(operation.record_identity, {}, root)


def _fields(operation: Operation, root: Any) -> dict[str, Value] | None:
    """The projected mapping: every field whose path resolved to something the Store can hold,
    a ``secret:`` one as the constant marker in the position its value would occupy."""
    secret = set(operation.secret_fields)
    kept: dict[str, Value] = {}
    for name, value in projection.fields(projection.read(operation.record).fields, root).items():
        stored = _stored(value)
        if stored is not None:
            kept[name] = Secret() if name in secret else stored
    return kept or None


def _secrets(operation: Operation, root: Any) -> dict[str, Any]:
    """The values :func:`_fields` replaced with the marker, as the answer held them."""
    if not operation.secret_fields:
        return {}
    secret = set(operation.secret_fields)
    return {
        name: value
        for name, value in projection.fields(projection.read(operation.record).fields, root).items()
        if name in secret and value is not None
    }


def _stored(value: Any) -> Value | None:
    """A response value as a Store value; ``None`` for a JSON null, which the Store cannot hold
    (a null inside a mapping or a list is left out of it)."""
    if value is None:
        return None
    return rebuild(value, _stored_leaf)  # type: ignore[no-any-return]


def _stored_leaf(value: Any) -> Any:
    if value is None:
        return DROP
    if isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _sunk(run: InFlight, position: int, record: _Concluded) -> None:
    """A Record's secrets into the sink beside its version's commit, so a Run that halts later
    still leaves every secret the world already issued. The gate refuses a secret-producing
    Run with no sink, so a secret in hand and no sink is a caller's fault, said as one."""
    if not record.secrets:
        return
    if run.sink is None:
        raise SinkUnwritten(
            f"step {position} holds a secret field of {record.name} and this Run has no Secret sink to put it in"
        )
    run.sink.write(position, record.name, record.secrets)


def _mint(
    run: InFlight,
    bound: Binding,
    step: Sequenced,
    position: int,
    provenance: StepProvenance,
    identity: Identity,
    fields: dict[str, Value] | None,
    *,
    tombstone: bool = False,
) -> None:
    record_type: RecordType = "observation" if bound.kind == "read" else "asset"
    try:
        previous = run.ledger.head(identity)
        if previous is not None:
            same_kind = previous.metadata.record_type == record_type and previous.metadata.tombstone == tombstone
            if same_kind and encode(previous.fields or {}) == encode(fields or {}):
                return
        data = RecordVersion(
            Metadata(
                identity=identity,
                record_type=record_type,
                run_id=run.run_id,
                step=position,
                operation=step.operation,
                written_at=run.process.now(),
                provenance=Provenance(run.provenance, provenance),
                path=step.path,
                tombstone=tombstone,
            ),
            fields,
        ).encode()
    except TooDeep:
        name = f"{identity.target}/{identity.definition}/{identity.name}"
        raise TooDeep(GO_DEPTH, f"the Record {name} and its fields") from None
    run.append(
        [Write(record_path(identity, run.run_id, position), data)],
        f"Record {identity.target}/{identity.definition}/{identity.name} at run {run.run_id} step {position}",
    )
    run.ledger.minted(identity)


def _ended(run: InFlight, step: Sequenced, name: str) -> bool:
    """A ``values:`` member whose series' Head is a Tombstone: the Store knows it gone, so a
    ``destroy`` drops it before any command goes out rather than re-reaching it."""
    head = run.ledger.head(Identity(step.target, step.definition, name))
    return head is not None and head.metadata.tombstone


def _effect(
    run: InFlight,
    bound: Binding,
    step: Sequenced,
    position: int,
    provenance: StepProvenance,
    found: Sequence[arguments.Member],
    inputs: Sequence[dict[str, Any]],
    identities: Sequence[str],
    stored_selector: Selector | None,
    base: Reached,
    filed: Callable[..., None],
) -> tuple[Reached, tuple[Refusal, ...]]:
    """An effectful Expansion: one member at a time, each confirmed write committed and on
    the branch before the next call goes out, stopping at the first member whose answer did
    not complete it.

    ``skip-if-recorded`` decides per member, at that member's turn, against the Head of the
    series its call would write: standing (not a Tombstone) skips, so a member named twice
    runs once. A ``destroy`` writes a Tombstone under the member's own name carrying the
    previous Head's fields forward — the destroying call projects nothing."""
    answer_for = _caller(run, bound)
    skips = bound.operation.repeatability_value == "skip-if-recorded"
    destroys = bound.kind == "destroy"
    names: list[str] = []
    acted: list[dict[str, Any]] = []
    answers: list[MemberAnswer] = []
    taken: dict[Identity, Identity] = {}
    skipped = 0
    judged = effect.Judged()
    failed_path = ""
    pattern = Pattern()
    for at, member in enumerate(found):
        before = effect.identity_before(bound, identities[at], inputs[at])
        if skips:
            if not before:
                # No call was made, so no Disposition describes it: the Run ends with no Step file.
                raise Unbound(
                    f"step {step.name}: {step.operation} declares skip-if-recorded, and its identity:"
                    " resolves to nothing before the call — hyper check reports it"
                )
            head = run.ledger.head(Identity(step.target, step.definition, before))
            if head is not None and not head.metadata.tombstone:
                skipped += 1
                names.append(before)
                acted.append(dict(head.fields or {}))
                continue
        answered = answer_for(inputs[at])
        pattern = Pattern(
            pattern.attempts + answered.pattern.get("attempts", 0),
            pattern.pages + answered.pattern.get("pages", 0),
            pattern.polls + answered.pattern.get("polls", 0),
        )
        judged = effect.judge(bound, step.name, member.name if stored_selector is not None else "", answered)
        if judged.answered is not None:
            answers.append(judged.answered)
        if judged.fault:
            break
        if destroys:
            identity = Identity(step.target, step.definition, member.name or before)
            previous = run.ledger.head(identity)
            fields = previous.fields if previous is not None else None
            _mint(run, bound, step, position, provenance, identity, fields, tombstone=True)
            names.append(identity.name)
            acted.append(dict(fields or {}))
        else:
            turn = _project(bound, member, identities[at] or before, answered)
            for record in turn.records:
                identity = Identity(step.target, step.definition, record.name)
                clash = _taken(run.ledger, taken, identity)
                if clash:
                    judged = effect.Judged("ran", f"step {step.name}: {clash}")
                    break
                names.append(record.name)
                acted.append(dict(record.fields or {}))
                _mint(run, bound, step, position, provenance, identity, record.fields)
                _sunk(run, position, record)
            if turn.fault and not judged.fault:
                judged, failed_path = effect.Judged("ran", f"step {step.name}: {turn.fault}"), turn.failed_path
        run.settle()  # a confirmed effect is on the branch before the next call goes out
        if judged.fault:
            break

    if judged.fault:
        disposition = judged.disposition
    elif found and skipped == len(found):
        disposition = "skipped-as-already-recorded"
    else:
        disposition = "ran"
    if disposition == "attempted-outcome-unknown" and bound.operation.patterns is not None:
        pattern = pattern._replace(attempts=max(1, pattern.attempts))
    untouched = disposition == "attempted-world-untouched"
    previous_digest = run.digests.previous(step.id, step.path)
    run.acted[(step.namespace, step.id)] = acted
    filed(
        disposition,
        identities=None if untouched else concluded(names, previous_digest),
        selector=stored_selector,
        pattern=pattern,
        answered=tuple(answers),
        projection_failed_path=failed_path,
    )
    run.settle()
    reached = base._replace(
        disposition=disposition,
        records=None if untouched else len(set(names)),
        # ``n of m`` measures the halt against the whole Expansion, members never called included.
        expanded=len(found) if judged.fault and not untouched else None,
    )
    if judged.fault:
        raise Halted(reached, judged.fault)
    return reached, ()

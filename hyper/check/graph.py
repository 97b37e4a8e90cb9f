"""The rules that need every Procedure at once: the invocation graph and what it reaches.

Composition must not widen blast radius by accident, so an invoked Procedure's whole
reach — its Targets, to any depth — must lie inside its caller's declared envelope.
A Cadence is checked through the same walk: a recurring Procedure may reach no
run-once Step (it would work once) and no Step with secret output (no scheduled
invocation supplies a sink). And the graph must be acyclic, because a Run performs
the graph as written and a cycle has no end.

The walk is also what ``hyper project`` needs to know about a Procedure — the
(Definition, Target) pairs it binds and whether any Step it reaches effects — so it
is exposed as :meth:`Graph.reaches`, one derivation for both.
"""

from __future__ import annotations

from hyper.artefact.procedure import Invocation, Procedure, Step
from hyper.check import codes
from hyper.check.index import Index
from hyper.core.namedtuple import NamedTuple
from hyper.core.problem import Problem
from hyper.yaml.access import at, join
from hyper.yaml.subset import Node, Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable


class _StepFacts(NamedTuple):
    run_once: bool
    secret: bool
    effects: bool
    pair: tuple[str, str] | None


class _Call(NamedTuple):
    callee: str
    node: Scalar
    field: str


class _Node(NamedTuple):
    file: str
    targets: frozenset[str]
    steps: tuple[_StepFacts, ...]
    calls: tuple[_Call, ...]
    cadence: Node | None


class Reach(NamedTuple):
    """What a Procedure reaches, to any depth."""

    targets: frozenset[str]
    run_once: bool
    secret: bool
    effects: bool
    pairs: tuple[tuple[str, str], ...]
    """Each (Definition, Target) pair once, in Step order, a callee's after its caller's own."""


_NOTHING = Reach(frozenset(), False, False, False, ())


def _step_facts(step: Step, index: Index) -> _StepFacts:
    pair = (step.definition.value, step.target.value) if step.definition and step.target else None
    if pair is not None and (pair[0] == "" or pair[1] == ""):
        pair = None
    claim = index.definitions.get(step.definition.value) if step.definition else None
    provider = index.providers.get(claim.provider) if claim else None
    operation = provider.operations.get(step.operation.value) if provider and step.operation else None
    if operation is None:
        return _StepFacts(False, False, False, pair)
    return _StepFacts(operation.run_once, operation.has_secret, operation.kind != "read", pair)


class Graph:
    """Every parsed Procedure, by the name it declares."""

    def __init__(self, procedures: Iterable[Procedure], index: Index) -> None:
        self._nodes: dict[str, _Node] = {}
        for read in procedures:
            if read.name is None:
                continue
            steps: list[_StepFacts] = []
            calls: list[_Call] = []
            for entry in read.entries:  # one pass, the Steps and the invocations alike
                if isinstance(entry, Step):
                    steps.append(_step_facts(entry, index))
                elif isinstance(entry, Invocation) and entry.callee is not None:
                    calls.append(_Call(entry.callee.value, entry.callee, join(entry.field, "procedure")))
            self._nodes[read.name.value] = _Node(read.file, read.target_names, tuple(steps), tuple(calls), read.cadence)
        self.names = sorted(self._nodes)
        """Every Procedure's name, in order: each walk over the graph starts from these."""
        self._callees = {
            name: [call.callee for call in node.calls if call.callee in self._nodes]
            for name, node in self._nodes.items()
        }
        """Each Procedure's callees that are Procedures, in written order: the edges both walks below follow."""
        self._reach = self._every_reach()

    def cadence(self, name: str) -> Node | None:
        node = self._nodes.get(name)
        return node.cadence if node else None

    def reaches(self, name: str) -> Reach:
        """What ``name`` reaches; an unknown name (``artefact-absent`` where written) reaches nothing."""
        return self._reach.get(name, _NOTHING)

    def _components(self) -> list[list[str]]:
        """The strongly connected components, callees before callers (Tarjan's, without recursion).

        A Procedure in a cycle reaches what every member of the cycle reaches, so the
        component is the unit a reach is computed for; the cycle itself is reported by
        :meth:`_cycles`.
        """
        order: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        components: list[list[str]] = []
        for root in self.names:
            if root in order:
                continue
            order[root] = low[root] = len(order)
            stack.append(root)
            on_stack.add(root)
            work = [(root, iter(self._callees[root]))]
            while work:
                name, callees = work[-1]
                callee = next(callees, None)
                if callee is not None:
                    if callee not in order:
                        order[callee] = low[callee] = len(order)
                        stack.append(callee)
                        on_stack.add(callee)
                        work.append((callee, iter(self._callees[callee])))
                    elif callee in on_stack:
                        low[name] = min(low[name], order[callee])
                    continue
                work.pop()
                if work:
                    caller = work[-1][0]
                    low[caller] = min(low[caller], low[name])
                if low[name] == order[name]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == name:
                            break
                    components.append(sorted(component))
        return components

    def _every_reach(self) -> dict[str, Reach]:
        reach: dict[str, Reach] = {}
        for component in self._components():
            members = set(component)
            targets: set[str] = set()
            run_once = secret = effects = False
            pairs: dict[tuple[str, str], None] = {}
            for name in component:
                node = self._nodes[name]
                targets |= node.targets
                for step in node.steps:  # one pass for all four: every Procedure's Steps are walked here
                    run_once = run_once or step.run_once
                    secret = secret or step.secret
                    effects = effects or step.effects
                    if step.pair is not None:
                        pairs[step.pair] = None
                for callee in self._callees[name]:
                    if callee in members:
                        continue
                    child = reach[callee]
                    targets |= child.targets
                    run_once, secret, effects = (
                        run_once or child.run_once,
                        secret or child.secret,
                        effects or child.effects,
                    )
                    pairs.update(dict.fromkeys(child.pairs))
            found = Reach(frozenset(targets), run_once, secret, effects, tuple(pairs))
            for name in component:
                reach[name] = found
        return reach

    def problems(self) -> list[Problem]:
        problems = self._cycles()
        for name in self.names:
            node = self._nodes[name]
            for call in node.calls:
                reached = self.reaches(call.callee).targets
                for target in sorted(reached - node.targets):
                    problems.append(
                        at(
                            node.file,
                            call.node,
                            call.field,
                            codes.ENVELOPE_EXCEEDED,
                            f"procedure: {call.callee} reaches {target} at some depth, and {target} is outside "
                            "the targets: this Procedure declares",
                        )
                    )
            if node.cadence is None:
                continue
            reach = self.reaches(name)
            if reach.run_once:
                problems.append(
                    at(
                        node.file,
                        node.cadence,
                        "cadence",
                        codes.CADENCE_RUN_ONCE,
                        "cadence: recurs over a run-once Step somewhere beneath it — that Step refuses every "
                        "occurrence after the first, so the recurrence would run once",
                    )
                )
            if reach.secret:
                problems.append(
                    at(
                        node.file,
                        node.cadence,
                        "cadence",
                        codes.CADENCE_SECRET_OUTPUT,
                        "cadence: recurs over a Step whose Operation declares secret: output — a scheduled "
                        "Run has no Secret sink to hand it, so every occurrence would be refused",
                    )
                )
        return problems

    def _cycles(self) -> list[Problem]:
        """Every invocation that closes a loop, cited at that invocation — the line to edit.

        One depth-first walk over the graph, without recursion: an edge back into the
        chain being walked is a cycle; an edge into a Procedure already explored is a
        diamond, and fine.
        """
        problems: list[Problem] = []
        done: set[str] = set()
        chain: set[str] = set()
        for root in self.names:
            if root in done:
                continue
            chain.add(root)
            work = [(root, iter(self._nodes[root].calls))]
            while work:
                name, calls = work[-1]
                call = next(calls, None)
                if call is None:
                    work.pop()
                    chain.discard(name)
                    done.add(name)
                elif call.callee in chain:
                    node = self._nodes[name]
                    problems.append(
                        at(
                            node.file,
                            call.node,
                            call.field,
                            codes.PROCEDURE_CYCLE,
                            f"procedure: {call.callee} already leads back to {name}, so this invocation closes "
                            "a loop — the invocation graph has to be acyclic",
                        )
                    )
                elif call.callee not in done and call.callee in self._nodes:
                    chain.add(call.callee)
                    work.append((call.callee, iter(self._nodes[call.callee].calls)))
        return problems

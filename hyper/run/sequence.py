"""A Run's Steps, flattened: a Procedure invoking another is still one Run.

The invoked Procedure's Steps are Steps of the one Run, numbered in the one written
order and recorded under a dotted ``path``. An invocation is not a Step (no
Disposition describes one, it writes no file, it takes no position), and neither is a
Requirement — but a Requirement *happens*, so it is collected beside the Steps with the
position of the Step it stands in front of.

The walk judges nothing: an invocation naming no Procedure and a cycle are ``check``'s
to refuse (``artefact-absent``, ``procedure-cycle``), and ``check`` re-runs in full
before Step 1. The walk still reports both, because the alternative to naming them is
silently running a Procedure nobody wrote.
"""

from __future__ import annotations

from hyper.artefact import procedure as procedure_artefact
from hyper.artefact.repository import LoadedFile, Repository
from hyper.core.namedtuple import NamedTuple


class Sequenced(NamedTuple):
    """One Step of the flattened sequence and where it was authored."""

    step: procedure_artefact.Step
    path: str
    """The invocation chain ending in the Step's own id; ``""`` at the top level."""
    file: LoadedFile
    """The Procedure file the Step is written in: a Refusal's coordinate is the artefact's."""
    namespace: int
    """Which id namespace (one per invocation reached) ``when:`` and ``{step:}`` resolve in."""

    @property
    def id(self) -> str:
        return self.step.id.value if self.step.id is not None else ""

    @property
    def name(self) -> str:
        """How one name for the Step is spelled: its path, else its id, else its line."""
        return self.path or self.id or f"at line {self.step.entry.line}"

    @property
    def definition(self) -> str:
        return self.step.definition.value if self.step.definition is not None else ""

    @property
    def operation(self) -> str:
        return self.step.operation.value if self.step.operation is not None else ""

    @property
    def target(self) -> str:
        return self.step.target.value if self.step.target is not None else ""


class Requirement(NamedTuple):
    """A ``require:`` entry, standing in front of the Step at index ``before``."""

    entry: procedure_artefact.Requirement
    path: str
    file: LoadedFile
    namespace: int
    before: int

    @property
    def id(self) -> str:
        return self.entry.id.value if self.entry.id is not None else ""

    @property
    def name(self) -> str:
        return self.path or self.id or f"at line {self.entry.entry.line}"


class Sequence(NamedTuple):
    steps: tuple[Sequenced, ...]
    requirements: tuple[Requirement, ...]
    procedures: tuple[LoadedFile, ...]
    """Every Procedure file walked, the top-level one first, each once."""
    cycle: str
    """The Procedure an invocation re-entered, ``""`` where the graph is acyclic."""


def flatten(repo: Repository, name: str) -> Sequence:
    top = repo.procedures.get(name)
    if top is None:
        return Sequence((), (), (), "")
    steps: list[Sequenced] = []
    requirements: list[Requirement] = []
    procedures: dict[str, LoadedFile] = {}
    cycle = ""
    namespaces = 0
    visiting = {name}

    def walk(file: LoadedFile, prefix: str, namespace: int) -> None:
        nonlocal cycle, namespaces
        procedures.setdefault(file.path, file)
        read = procedure_artefact.read(file.path, file.root)
        for entry in read.entries:
            if isinstance(entry, procedure_artefact.Requirement):
                own = entry.id.value if entry.id is not None else ""
                requirements.append(Requirement(entry, _under(prefix, own), file, namespace, len(steps)))
            elif isinstance(entry, procedure_artefact.Step):
                own = entry.id.value if entry.id is not None else ""
                steps.append(Sequenced(entry, _under(prefix, own), file, namespace))
            elif isinstance(entry, procedure_artefact.Invocation) and entry.callee is not None:
                callee = entry.callee.value
                invoked = repo.procedures.get(callee)
                if invoked is None:
                    continue
                if callee in visiting:
                    cycle = cycle or callee
                    continue
                visiting.add(callee)
                namespaces += 1
                walk(invoked, f"{prefix}{callee}.", namespaces)
                visiting.discard(callee)

    walk(top, "", 0)
    return Sequence(tuple(steps), tuple(requirements), tuple(procedures.values()), cycle)


def _under(prefix: str, own: str) -> str:
    """The chain names the Procedures invoked, not the ids invoking them, so a reader finds
    the nested file by the name in the path; the Step's own id is the last segment."""
    return prefix + own if prefix else ""

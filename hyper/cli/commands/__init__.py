"""The commands this build carries, by name.

A command is a function ``run(inv, to, ctx) -> int`` in its own module. The table
names modules rather than importing them so that starting ``hyper providers`` pays
for ``providers`` alone. It holds every command of the tree, no more and no fewer
(a test holds the two together).
"""

from __future__ import annotations

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType
    from typing import Final, TypeAlias

    from hyper.cli.context import Context
    from hyper.cli.destination import Destination
    from hyper.cli.invocation import Invocation

Body: TypeAlias = "Callable[[Invocation, Destination, Context], int]"
GateAnswer: TypeAlias = "Callable[[Invocation, Destination, str], None]"

BUILT: Final[dict[str, str]] = {
    "providers": "hyper.cli.commands.providers",
    "provider": "hyper.cli.commands.provider",
    "operation": "hyper.cli.commands.operation",
    "targets": "hyper.cli.commands.targets",
    "check": "hyper.cli.commands.check",
    "review": "hyper.cli.commands.review",
    "store": "hyper.cli.commands.store",
    "compact": "hyper.cli.commands.compact",
    "run": "hyper.cli.commands.run",
    "probe": "hyper.cli.commands.probe",
    "project": "hyper.cli.commands.project",
    "changes": "hyper.cli.commands.changes",
    "records": "hyper.cli.commands.records",
    "runs": "hyper.cli.commands.runs",
    "show": "hyper.cli.commands.show",
    "install": "hyper.cli.commands.install",
}
"""Command name → the module holding its ``run``."""


ANSWERS_A_GATE_REFUSAL: Final[dict[str, str]] = {
    "run": "hyper.cli.commands.run",
}
"""Commands whose answer goes on after the pin gate refuses them, by the module holding their
``refused_by_the_gate(inv, to, error_code)``: a Run's answer always ends in its outcome row,
even one declined before the Run had an id. Every other command's answer is the Refusal."""


JUDGES_ITS_POSITIONAL: Final[dict[str, str]] = {
    "install": "hyper.cli.commands.install",
}
"""Commands whose positional has a grammar of its own, by the module holding their
``positional_fault(inv) -> str | None``: a positional outside it is a usage error decided from
the argument list alone, before the repository is resolved or the gate consulted."""


def positional_fault(name: str, inv: Invocation) -> str | None:
    module = JUDGES_ITS_POSITIONAL.get(name)
    if module is None:
        return None
    fault: str | None = _module(module).positional_fault(inv)
    return fault


def gate_answer(name: str) -> GateAnswer | None:
    module = ANSWERS_A_GATE_REFUSAL.get(name)
    if module is None:
        return None
    answer: GateAnswer = _module(module).refused_by_the_gate
    return answer


def lookup(name: str) -> Body:
    body: Body = _module(BUILT[name]).run
    return body


def _module(name: str) -> ModuleType:
    """The module ``name``, imported on first use by the import statement's own machinery:
    the ``importlib`` package, and ``warnings`` with it, are start-up cost (ADR 0006). A
    non-empty ``fromlist`` makes ``__import__`` answer the module itself, not its package."""
    return __import__(name, fromlist=("run",))

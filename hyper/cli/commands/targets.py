"""``hyper targets``: every Target this repository declares, and where its credentials come from.

It is the one surface that answers *is the credential in place*, and it answers with
names only: each slot is paired with the variable it resolves from, and the variable's
presence — ``absent``, ``empty`` or ``set`` — is asked of the environment when the command
runs. The value itself is never shown; an empty one is told apart from a set one because
an empty token is the usual shape of a credential that was wired but never filled.
"""

from __future__ import annotations

from hyper.artefact.target import TargetDeclaration
from hyper.cli.commands.provider import repository
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.cli.listing import cut_namespace
from hyper.core import exit as codes
from hyper.core.process import Process
from hyper.core.row import Row, Value, members, row
from hyper.render.table import table
from hyper.render.terminal import result

COLUMNS = ("NAME", "HOSTS", "KINDS", "CAPABILITIES", "CREDENTIALS")


def credentials(target: TargetDeclaration, process: Process) -> list[dict[str, Value]]:
    """Every slot the declaration carries; a slot naming no variable has no presence to state."""
    cells: list[dict[str, Value]] = []
    for slot in target.credentials:
        env = slot.env_name
        cells.append(members(slot=slot.slot, env=env or None, presence=presence(process, env) if env else None))
    return cells


def presence(process: Process, env: str) -> str:
    """``absent`` (unset), ``empty`` (set to nothing) or ``set``."""
    value = process.lookup_env(env)
    if value is None:
        return "absent"
    return "empty" if value == "" else "set"


def target_row(name: str, target: TargetDeclaration, process: Process) -> Row:
    """One declaration; a list it grants nothing in is absent rather than empty."""
    return row(
        "target",
        name=name,
        hosts=list(target.host_values) or None,
        accepts_kinds=list(target.kind_values) or None,
        grants_capabilities=list(target.capability_values) or None,
        credentials=credentials(target, process) or None,
    )


def _credential_cell(credential: dict[str, Value]) -> str:
    if "env" not in credential:
        return str(credential["slot"])
    return f"{credential['slot']}={credential['env']} ({credential['presence']})"


def _cells(r: Row) -> list[str]:
    return [
        r.get("name"),
        ", ".join(r.get("hosts", ())),
        ", ".join(r.get("accepts_kinds", ())),
        ", ".join(r.get("grants_capabilities", ())),
        ", ".join(_credential_cell(c) for c in r.get("credentials", ())),
    ]


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    repo = repository(inv, to, ctx)
    if repo is None:
        return codes.USAGE
    rows = [target_row(name, repo.targets[name], ctx.process) for name in sorted(repo.targets)]
    kept, truncated = cut_namespace(rows, inv, "Targets", to)
    page = (
        table([list(COLUMNS), *(_cells(r) for r in kept)])
        if kept
        else "this repository declares no Target in targets/\n"
    )
    to.answer(kept, result(truncated), page)
    return codes.CLEAN

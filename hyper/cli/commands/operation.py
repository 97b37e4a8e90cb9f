"""``hyper operation <provider> <operation>``: how to call one Operation.

The answer is the Manifest's own lines declaring the Operation, verbatim — the
format a Definition is authored against, and the bytes the Manifest's digest
covers — and beside them the facts hyper derives and the lines do not state in that
form: the Capability, the Bound rule, the Patterns, the projection, the secret
fields, the Repeatability in force, the deadline in seconds, the concurrency limit.

The two names resolve in order against two namespaces: the Provider against the
repository's, then the Operation against that Manifest's own. A bad Provider is
reported and the Operation is never looked up.
"""

from __future__ import annotations

from hyper.artefact.manifest import Manifest, Operation
from hyper.artefact.repository import Repository
from hyper.cli.commands.provider import repository, resolve_provider
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.quote import go_quote
from hyper.core.row import Row, Value, members, row
from hyper.render.table import labelled
from hyper.render.terminal import result


def derived(op: Operation) -> dict[str, Value]:
    """The derived block, in wire order; a fact with nothing legible behind it is absent.

    ``patterns_resolved`` is ``[]`` rather than absent where none are declared —
    *none of them* is an answer — and ``concurrency_limit`` is always present, every
    Operation having an effective limit. The members are exactly those the published
    ``operation`` output schema declares, which is closed.
    """
    return members(
        capabilities=[op.capability] if op.capability else None,
        bound=op.bound or None,
        patterns_resolved=list(op.patterns_resolved),
        record_cardinality=op.record_cardinality or None,
        record_identity=op.record_identity or None,
        repeatability=op.effective_repeatability or None,
        deadline_seconds=op.deadline_seconds,
        concurrency_limit=op.concurrency_limit,
    )


def page(source: str, op: Operation, detail: Row) -> str:
    """The source as written, then the derived facts; DEADLINE keeps the source's own spelling."""
    facts = detail.get("derived")
    text = source if source.endswith("\n") else source + "\n"
    block = labelled(
        [
            ("CAPABILITIES", ", ".join(facts.get("capabilities", ()))),
            ("BOUND", facts.get("bound", "")),
            ("PATTERNS RESOLVED", ", ".join(facts["patterns_resolved"])),
            ("RECORD CARDINALITY", facts.get("record_cardinality", "")),
            ("RECORD IDENTITY", facts.get("record_identity", "")),
            ("REPEATABILITY", facts.get("repeatability", "")),
            ("DEADLINE", op.deadline_text),
            ("CONCURRENCY LIMIT", str(facts["concurrency_limit"])),
        ]
    )
    return f"{text}\n{block}"


def resolve_operation(inv: Invocation, to: Destination, ctx: Context) -> tuple[Repository, Manifest, Operation] | None:
    """The repository, Provider and Operation the two positionals name, or ``None`` after the usage sentence.

    ``hyper operation`` and ``hyper probe`` name an Operation the same way, so the two
    namespaces are walked in one place and a miss reads the same from either command.
    """
    repo = repository(inv, to, ctx)
    if repo is None:
        return None
    provider_name, operation_name = inv.positional
    manifest = resolve_provider(inv, to, repo, provider_name)
    if manifest is None:
        return None
    op = manifest.operation(operation_name)
    if op is None:
        to.usage(
            f"hyper {inv.command.name}: Provider {go_quote(provider_name)} declares no Operation named "
            f"{go_quote(operation_name)} in its own Operation namespace\n"
            f"  hyper provider {provider_name} lists every Operation it declares\n"
        )
        return None
    return repo, manifest, op


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    resolved = resolve_operation(inv, to, ctx)
    if resolved is None:
        return codes.USAGE
    _, manifest, op = resolved
    source = manifest.operation_source(op.name)
    assert source is not None  # the Operation was found among these very keys
    detail = row("operation_detail", source=source, derived=derived(op))
    to.answer([detail], result(False), page(source, op, detail))
    return codes.CLEAN

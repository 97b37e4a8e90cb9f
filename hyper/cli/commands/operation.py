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

from hyper import exit as codes
from hyper.artefact.manifest import Operation
from hyper.cli.commands.provider import repository, resolve_provider
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.cli.usage import go_quote
from hyper.render.row import Row, Value, members, row
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


def unresolved_operation(command: str, provider: str, operation: str) -> str:
    """The usage sentence for an Operation name the Provider's own namespace does not hold."""
    return (
        f"hyper {command}: Provider {go_quote(provider)} declares no Operation named "
        f"{go_quote(operation)} in its own Operation namespace\n"
        f"  hyper provider {provider} lists every Operation it declares\n"
    )


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    repo = repository(inv, to, ctx)
    if repo is None:
        return codes.USAGE
    provider_name, operation_name = inv.positional
    manifest = resolve_provider(inv, to, repo, provider_name)
    if manifest is None:
        return codes.USAGE
    op = manifest.operation(operation_name)
    source = manifest.operation_source(operation_name)
    if op is None or source is None:
        to.usage(unresolved_operation(inv.command.name, provider_name, operation_name))
        return codes.USAGE
    detail = row("operation_detail", source=source, derived=derived(op))
    to.answer([detail], result(False), page(source, op, detail))
    return codes.CLEAN

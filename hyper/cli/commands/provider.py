"""``hyper provider <name>``: one Provider's Manifest facts and every Operation it exposes.

The name resolves against the Provider namespace — what Manifests *declare*, byte
for byte — so a case-insensitive filesystem can never decide what resolves. A name
matching nothing is a usage error (exit 2, stdout silent, no error_code): nothing
was reviewed, so nothing was refused, and the remedy is a different name. It offers
no near miss; listing the namespace is ``hyper providers``'s job.
"""

from __future__ import annotations

from hyper.artefact.manifest import Manifest
from hyper.artefact.repository import Repository, Unreadable, load_repository
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.quote import go_quote
from hyper.core.row import Row, row
from hyper.render.table import labelled, table
from hyper.render.terminal import result

OPERATION_COLUMNS = ("NAME", "KIND", "OPAQUE", "SUMMARY")


def repository(inv: Invocation, to: Destination, ctx: Context) -> Repository | None:
    """The repository at the resolved root, or ``None`` after saying why it could not be listed."""
    loaded = load_repository(ctx.root, ctx.declared)
    if isinstance(loaded, Unreadable):
        to.usage(f"hyper {inv.command.name}: {loaded.message}\n")
        return None
    return loaded


def resolve_provider(inv: Invocation, to: Destination, repo: Repository, name: str) -> Manifest | None:
    """The Manifest ``name`` means here, or ``None`` after the usage sentence for a miss."""
    manifest = repo.manifests.get(name)
    if manifest is None:
        to.usage(
            f"hyper {inv.command.name}: this repository's Provider namespace holds no Provider named "
            f"{go_quote(name)}\n  hyper providers lists every Provider it holds\n"
        )
    return manifest


def manifest_row(manifest: Manifest) -> Row:
    """What the Manifest declares about itself; a fact it did not legibly state is absent."""
    origin = manifest.origin
    return row(
        "manifest",
        auth_scheme=manifest.auth_scheme or None,
        capabilities_required=list(manifest.capability_values) or None,
        digest=manifest.digest,
        schema_version=manifest.schema_version_value,
        origin_ref=(origin.ref.value if origin and origin.ref else "") or None,
        origin_digest=(origin.digest.value if origin and origin.digest else "") or None,
    )


def operation_rows(manifest: Manifest) -> list[Row]:
    """One row per Operation, by name: a listing is ranged over, so its order is normative."""
    return [
        row("operation", name=op.name, kind=op.kind_value, opaque=op.opaque, summary=op.summary)
        for op in sorted(manifest.operations, key=lambda op: op.name)
    ]


def page(header: Row, operations: list[Row]) -> str:
    facts = header.fields
    block = labelled(
        [
            ("AUTH SCHEME", facts.get("auth_scheme", "")),
            ("CAPABILITIES", ", ".join(facts.get("capabilities_required", ()))),
            ("DIGEST", facts["digest"]),
            ("SCHEMA VERSION", str(facts["schema_version"]) if "schema_version" in facts else ""),
            ("ORIGIN REF", facts.get("origin_ref", "")),
            ("ORIGIN DIGEST", facts.get("origin_digest", "")),
        ]
    )
    if not operations:
        return f"{block}\nthis Manifest declares no Operation\n"
    cells = [
        [r.get("name"), r.get("kind"), "true" if r.get("opaque") else "false", r.get("summary")] for r in operations
    ]
    return block + "\n" + table([list(OPERATION_COLUMNS), *cells])


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    repo = repository(inv, to, ctx)
    if repo is None:
        return codes.USAGE
    manifest = resolve_provider(inv, to, repo, inv.positional[0])
    if manifest is None:
        return codes.USAGE
    header, operations = manifest_row(manifest), operation_rows(manifest)
    to.answer([header, *operations], result(False), page(header, operations))
    return codes.CLEAN

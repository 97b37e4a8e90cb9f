"""``hyper providers``: every Provider this repository can load, built-in and Extension alike.

It reports facts, never problems: a Manifest that will not parse contributes no row
and its faults are ``check``'s, so this command cannot exit 1. It reaches no
network, no credential and no Store — the answer is the repository load alone.
"""

from __future__ import annotations

from hyper.artefact import builtin
from hyper.artefact.manifest import Manifest
from hyper.cli.commands.provider import repository
from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.cli.listing import cut_namespace
from hyper.core import exit as codes
from hyper.core.row import Row, row
from hyper.render.table import table
from hyper.render.terminal import result

COLUMNS = ("NAME", "ORIGIN", "SUMMARY", "OPERATIONS", "DIGEST")


def provider_row(name: str, manifest: Manifest) -> Row:
    """One Provider. The digest is whole on every surface: it is checked with sha256sum, not by eye."""
    summary, digest = builtin.shell_listing() if manifest is builtin.shell() else (manifest.summary, manifest.digest)
    return row(
        "provider",
        name=name,
        origin=manifest.origin_kind,
        summary=summary,
        operation_count=len(manifest.operations_by_name),
        digest=digest,
    )


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    repo = repository(inv, to, ctx)
    if repo is None:
        return codes.USAGE
    rows = [provider_row(name, repo.manifests[name]) for name in sorted(repo.manifests)]
    kept, truncated = cut_namespace(rows, inv, "Providers", to)
    cells = [
        [r.get("name"), r.get("origin"), r.get("summary"), str(r.get("operation_count")), r.get("digest")] for r in kept
    ]
    to.answer(kept, result(truncated), table([list(COLUMNS), *cells]))
    return codes.CLEAN

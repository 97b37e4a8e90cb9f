"""``hyper providers``: every Provider this repository can load, built-in and Extension alike.

It reports facts, never problems: a Manifest that will not parse contributes no row
and its faults are ``check``'s, so this command cannot exit 1. It reaches no
network, no credential and no Store — the answer is the Provider namespace alone,
read by :func:`~hyper.artefact.repository.load_extensions`, with the built-in's row
spelled from this build's own facts rather than parsed again (ADR 0006).
"""

from __future__ import annotations

from hyper.artefact import builtin
from hyper.artefact.repository import Unreadable, load_extensions
from hyper.cli.listing import cut_namespace
from hyper.core import exit as codes
from hyper.core.row import Row, row
from hyper.render.terminal import result

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence

    from hyper.artefact.manifest import Manifest
    from hyper.cli.context import Context
    from hyper.cli.destination import Destination
    from hyper.cli.invocation import Invocation

COLUMNS = ("NAME", "ORIGIN", "SUMMARY", "OPERATIONS", "DIGEST")
BUILT_IN = "built-in"
"""The built-in's origin, as :attr:`~hyper.artefact.manifest.Manifest.origin_kind` names it."""


def provider_row(name: str, manifest: Manifest) -> Row:
    """One Extension. The digest is whole on every surface: it is checked with sha256sum, not by eye."""
    return row(
        "provider",
        name=name,
        origin=manifest.origin_kind,
        summary=manifest.summary,
        operation_count=len(manifest.operations_by_name),
        digest=manifest.digest,
    )


def shell_row() -> Row:
    """The built-in, from the facts its bytes come to in this build."""
    return row(
        "provider",
        name="shell",
        origin=BUILT_IN,
        summary=builtin.SHELL_SUMMARY,
        operation_count=builtin.SHELL_OPERATION_COUNT,
        digest=builtin.SHELL_DIGEST,
    )


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    extensions = load_extensions(ctx.root)
    if isinstance(extensions, Unreadable):
        to.usage(f"hyper {inv.command.name}: {extensions.message}\n")
        return codes.USAGE
    listed = {"shell": shell_row(), **{name: provider_row(name, m) for name, m in extensions.items()}}
    rows = [listed[name] for name in sorted(listed)]
    kept, truncated = cut_namespace(rows, inv, "Providers", to)
    to.answer(kept, result(truncated), _page(kept) if to.draws else "")
    return codes.CLEAN


def _page(kept: Sequence[Row]) -> str:
    from hyper.render.table import table  # deferred: drawn for the page alone

    cells = [
        [r.get("name"), r.get("origin"), r.get("summary"), str(r.get("operation_count")), r.get("digest")] for r in kept
    ]
    return table([list(COLUMNS), *cells])

"""``hyper install <ref>``: fetch an extension Manifest, verify it, write it into ``providers/``.

The ref is the location: the Manifest is read from it, and its digest from the
``checksums.txt`` its publisher put in the same directory. Only bytes that hash to the
published digest are written, with an ``origin:`` block recording the ref as typed and
that digest, so ``check`` can tell later whether the file is still what was installed.

What it does, in order, stopping at the first failure:

1. The ref is judged against its grammar (:mod:`hyper.registry.ref`) before the
   repository is resolved — a bad ref is a usage error (2), and nothing is dialled.
2. The pin gate stands before any dial, as for every gated command.
3. Two reads over the process's dialer (:func:`hyper.workflow.release.get`): the Manifest,
   capped at :data:`MAX_MANIFEST`, then the checksums file. A status other than 200, a
   body over the cap, a checksums file naming no line for the basename, or a read that
   did not complete exits 1.
4. Bytes that are not the published ones Refuse (``origin-digest-mismatch``, 77), and
   nothing is written.
5. ``providers/<basename>`` is written whole, over whatever stood there.

No static pass runs before the write and nothing is parsed: the repository installed
into is often one that does not check *because* this Manifest is missing, and a file
that lands and does not check is ``check``'s to report.
"""

from __future__ import annotations

from typing import Final

from hyper.cli.context import Context
from hyper.cli.destination import Destination
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.digest import sha256
from hyper.core.faults import InstallFailed, NotARef, NotArrived
from hyper.core.quote import go_quote
from hyper.core.row import row
from hyper.fs.read import CAP
from hyper.fs.write import replace_held
from hyper.registry.ref import Ref, parse
from hyper.render.refusal import Member, about_invocation
from hyper.render.table import table
from hyper.render.terminal import result
from hyper.workflow.release import digest_in, get

PROVIDERS: Final = "providers"
MAX_MANIFEST: Final = CAP
"""The largest Manifest read (4 MiB): far past any real one, and a bound on what a host can make us hold."""
ORIGIN_DIGEST_MISMATCH: Final = "origin-digest-mismatch"
HEADER: Final = ("PATH", "DIGEST")


def positional_fault(inv: Invocation) -> str | None:
    """The usage error a ref outside the grammar earns, decided from the argument list alone."""
    typed = inv.positional[0]
    try:
        parse(typed)
    except NotARef as clause:
        return f"hyper install: {go_quote(typed)} is not a ref: {clause}\n"
    return None


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    ref = parse(inv.positional[0])
    try:
        published, data = _fetch(ctx, ref)
        answered = sha256(data)
        if published != answered:
            to.refusal(about_invocation([Member(ORIGIN_DIGEST_MISMATCH, _mismatch(ref, published, answered))]))
            return codes.REFUSED
        path = _write(ctx.root, ref, data, answered)
    except InstallFailed as fault:
        to.narrate(f"hyper install: {fault}\n")
        return fault.exit
    made = row("manifest", path=path, digest=published)
    to.answer([made], result(False), table([list(HEADER), [path, published]]))
    return codes.CLEAN


def _fetch(ctx: Context, ref: Ref) -> tuple[str, bytes]:
    """The digest the checksums file publishes for the basename, and the Manifest that arrived.

    The Manifest is read first: a ref that answers nothing fails naming the ref, the thing
    typed, rather than a checksums file the caller never named.
    """
    dial = ctx.process.dial
    try:
        status, data = get(dial, ref.typed, MAX_MANIFEST + 1)
        if status != 200:
            raise InstallFailed(f"{ref.typed} answered {status}")
        if len(data) > MAX_MANIFEST:
            raise InstallFailed(f"{ref.typed} answered more than {MAX_MANIFEST} bytes")
        listing = ref.checksums_url
        status, checksums = get(dial, listing)
        if status != 200:
            raise InstallFailed(f"{listing} answered {status}")
    except NotArrived as fault:
        raise InstallFailed(str(fault)) from fault
    published = digest_in(checksums.decode("utf-8", "replace"), ref.basename)
    if published is None:
        raise InstallFailed(f"{listing} names no {ref.basename}")
    return published, data


def _mismatch(ref: Ref, published: str, answered: str) -> str:
    return (
        f"the checksums beside {ref.typed} publish {published}, and the bytes it answered hash to {answered} "
        "— nothing was written"
    )


def _write(root: str, ref: Ref, published: bytes, digest: str) -> str:
    """``providers/<basename>``: the published bytes, a newline if they lacked one, the ``origin:`` block.

    The digest recorded is over the bytes exactly as published; the one newline added is
    the only byte of hyper's above the block, and ``check`` allows for it. The file is
    written whole: an older block over a re-installed Manifest is replaced, never merged.
    """
    path = f"{PROVIDERS}/{ref.basename}"
    data = published if published.endswith(b"\n") else published + b"\n"
    data += f"origin:\n  ref: {ref.typed}\n  digest: {digest}\n".encode()
    try:
        replace_held(root, path, data)  # 0644 less the umask: a reviewed artefact, not a secret
    except OSError as exc:
        raise InstallFailed(f"{path}: {exc.strerror or exc}") from exc
    return path

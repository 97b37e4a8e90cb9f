"""hyper's one entry point, and the dispatch the MCP surface calls.

Both surfaces run a repository command through :func:`run_repository_command`: parse,
resolve the root, pass the gate, run the body. The CLI hands it :class:`Streams`;
a tool call hands it :class:`Collected` and gets an :class:`hyper_mcp.Answer` back.
That one path is why no tool can skip a guardrail or reword a Refusal.

Imports below the module line are deliberate: ``hyper version`` must cost little
more than starting Python, so each arm imports what it uses and nothing else
(ADR 0006).
"""

from __future__ import annotations

import sys

from hyper.cli.destination import Streams
from hyper.core import exit as codes
from hyper.core.basefaults import StreamFault

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import BinaryIO

    from hyper.cli.destination import Collected
    from hyper.core.process import Process
    from hyper.core.version import BuildFacts
    from hyper_mcp import Answer, Call, Dispatch

_HOLDING = ("run", "probe", "mcp")
"""The commands that hold a credential; hyper.cli.undumpable.HOLDING, spelled here so the
entry point imports nothing to decide."""

_CHILDLESS = ("version", "completions", "providers", "provider", "operation", "targets", "check")
"""The commands that read files and write only their answer: no child to wait for and no
half-made write to undo, so an interrupt can be met wherever it lands. (``review`` starts a
git child, and ``subprocess`` imports ``signal`` anyway.)"""

_UNCOLLECTED = ("review", "check")
"""The commands that hold the cycle collector off from the start. Both build nothing cyclic
and hold it off for their own work already (:mod:`hyper.cli.commands.review`,
:mod:`hyper.cli.commands.check`); held off through their imports too, they never walk the
modules' objects: that cost ``review`` about 4.5M instructions, as much as reading its
repository's Manifests, and ``check`` as much again, a fortieth of checking thirty artefacts."""


def main(argv: Sequence[str], stdout: BinaryIO, stderr: BinaryIO, process: Process, facts: BuildFacts) -> int:
    """Run one command line (without the program name) and answer its exit code."""
    return _answer(argv, Streams(stdout, stderr), lambda: process, facts)


def entry() -> None:
    """The console script: the real process, the installed build.

    An interrupt ends hyper by the signal, as the reference's does — no KeyboardInterrupt
    traceback, no outcome row — until a Run installs its drain. Every command but those in
    :data:`_CHILDLESS` restores the default disposition first, so that no cleanup (waiting
    for a child, undoing a write) runs on the way out. Those few get there without importing
    ``signal``, whose enumerations cost ``version`` most of its start-up (ADR 0006): Python's
    own handler raises where the interrupt lands, nothing on the way catches it, and the
    process then ends itself by the default disposition."""
    import gc  # built into the interpreter: importing it reads no file

    word = sys.argv[1] if sys.argv[1:2] else ""
    if word in _UNCOLLECTED:
        gc.disable()
    if word not in _CHILDLESS:
        _interrupt_by_default()
    if word in _HOLDING:
        from hyper.cli.undumpable import forbid_dumps  # deferred: start-up cost

        forbid_dumps()
    from hyper.core.version import installed  # deferred: start-up cost

    def real() -> Process:
        from hyper.core.process import real  # deferred: start-up cost

        return real()

    try:
        code = _answer(sys.argv[1:], Streams(sys.stdout.buffer, sys.stderr.buffer), real, installed())
    except KeyboardInterrupt:
        import os  # deferred: start-up cost

        os.kill(os.getpid(), _interrupt_by_default())
        raise  # not reached: the default disposition ends the process first
    # The process ends here. Frozen, what hyper made is skipped by the collection that
    # interpreter shutdown runs — a walk over every object only to find what exit frees
    # anyway, which cost more than a discovery command's own work (ADR 0006).
    # Finalizers, atexit and flushing are untouched.
    gc.freeze()
    sys.exit(code)


def _interrupt_by_default() -> int:
    """SIGINT back to the default disposition; its number."""
    import signal  # deferred: start-up cost

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    return signal.SIGINT


def _answer(argv: Sequence[str], streams: Streams, process: Callable[[], Process], facts: BuildFacts) -> int:
    if not argv:
        from hyper.cli import usage  # deferred: start-up cost

        streams.usage(usage.page())
        return codes.USAGE
    word, args = argv[0], argv[1:]
    try:
        if word == "version":
            return _version(args, streams, facts)
        if word == "completions":
            return _completions(args, streams)
        if word == "mcp":
            return _mcp(args, streams, process(), facts)
        from hyper.cli.tree import COMMANDS  # deferred: start-up cost

        if word in COMMANDS:
            return run_repository_command(argv, streams, process(), facts)
    except StreamFault as exc:
        streams.usage(f"hyper {word}: {exc}\n")
        return exc.exit
    from hyper.cli import usage  # deferred: start-up cost

    streams.usage(usage.unknown_command(word))
    return codes.USAGE


def run_repository_command(
    argv: Sequence[str],
    to: Streams | Collected,
    process: Process,
    facts: BuildFacts,
    call: Call | None = None,
) -> int:
    """One of the sixteen, through every step both surfaces share."""
    from hyper.cli import commands  # deferred: start-up cost
    from hyper.cli.context import Context, never  # deferred: start-up cost
    from hyper.cli.invocation import parse
    from hyper.cli.tree import COMMANDS  # deferred: start-up cost
    from hyper.core.basefaults import RootFault, UsageFault
    from hyper.core.repository_root import resolve

    command = COMMANDS[argv[0]]
    try:
        inv = parse(command, argv[1:], no_color_env=bool(process.nonempty_env("NO_COLOR")))
    except UsageFault as fault:
        to.usage(fault.text)
        return fault.exit
    judged = commands.positional_fault(command.name, inv)
    if judged is not None:
        to.usage(judged)
        return codes.USAGE
    destination = to.with_form(inv.as_json) if isinstance(to, Streams) else to
    label = command.label(inv.positional)
    try:
        wd = process.getwd()
    except OSError as exc:
        to.usage(f"hyper: {exc}\n")
        return codes.PROBLEMS
    try:
        root = resolve(inv.repo_dir, process, wd)
    except RootFault as fault:
        to.usage(f"hyper {label}: {fault}\n")
        return fault.exit
    declared: bytes | None = None
    if command.gated:
        from hyper.core.basefaults import PinUnreadable
        from hyper.gate.pin import gate, read_declared

        try:
            declared = read_declared(root)
            refused = gate(declared, facts.version)
        except PinUnreadable as exc:
            to.usage(f"hyper {label}: {exc}\n")
            return exc.exit
        if refused is not None:
            from hyper.render.refusal import about_invocation  # deferred: start-up cost

            to.refusal(about_invocation([refused]))
            answer = commands.gate_answer(command.name)
            if answer is not None:
                answer(inv, destination, refused.error_code)
            return codes.REFUSED
    body = commands.lookup(command.name)
    ctx = Context(
        process=process,
        root=root,
        facts=facts,
        declared=declared,
        progress=call.progress if call else None,
        cancelled=call.cancelled if call else never,
    )
    return body(inv, destination, ctx)


def dispatch(process: Process, facts: BuildFacts) -> Dispatch:
    """The collecting dispatch behind every MCP tool: one fresh destination per call."""
    from hyper.cli.destination import Collected  # deferred: start-up cost

    def answer(call: Call) -> Answer:
        collected = Collected(draws=call.drawn)
        code = run_repository_command(call.argv, collected, process, facts, call)
        return collected.to_answer(code)

    return answer


def _version(args: Sequence[str], to: Streams, facts: BuildFacts) -> int:
    if args:
        to.usage(f"hyper version: takes no arguments, got {args[0]}\n")
        return codes.USAGE
    from hyper.core.version import page  # deferred: start-up cost

    to.page_only(page(facts))
    return codes.CLEAN


def _completions(args: Sequence[str], to: Streams) -> int:
    from hyper.cli import usage  # deferred: start-up cost
    from hyper.cli.tree import SHELLS  # deferred: start-up cost
    from hyper.core.quote import go_quote  # deferred: start-up cost

    known = f"  known shells: {', '.join(SHELLS)}\n"
    if len(args) != 1:
        to.usage(f"hyper completions: {usage.arity_fault(args, ('shell',))}\n{known}")
        return codes.USAGE
    if args[0] not in SHELLS:
        to.usage(f"hyper completions: unknown shell {go_quote(args[0])}\n{known}")
        return codes.USAGE
    from hyper.cli.completions import script  # deferred: start-up cost

    to.page_only(script(args[0]))
    return codes.CLEAN


def _mcp(args: Sequence[str], to: Streams, process: Process, facts: BuildFacts) -> int:
    if args:
        to.usage(f"hyper mcp: takes no arguments, got {args[0]}\n")
        return codes.USAGE
    from hyper.cli.mcp import server  # deferred: start-up cost

    return server(facts.version, dispatch(process, facts)).serve()

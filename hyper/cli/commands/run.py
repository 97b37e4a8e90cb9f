"""``hyper run <procedure>``: perform a Procedure, record what happened, say so.

The preamble, in order, every fault a usage error (2) unless stated: the ``--secret-out``
rules; exactly one positional; a sink inside the working tree once both are resolved; the repository read; the
name resolved in the Procedure namespace (a Definition named here, and a positional shaped
like a path, are told apart: each has its own remedy). A positional typo answers 2 even
where no Store exists — the positional, then the Store.

Then the Store, in the order that keeps a Run from deciding anything against a record it
cannot write: the lock (shared when every Step is a ``read``, exclusive otherwise;
contention is 75 and nothing else is said; a root that is no git repository is 75 too,
in a sentence of its own), the sync (a read-only Run tolerates a failed
one and reads the branch this clone holds), the branch opened (``store-absent`` is 77).
Then the engine, under a signal watch: the first SIGINT or SIGTERM drains (130/143), a
second ends the process and leaves the entry open for the next effectful Run to reap.

stderr carries narration only — ``run <id>``, one ``step <p>/<n> <name>`` per Step as it
starts, every read answered with a status that is not 2xx, and a failed Run's fault (the
page repeats those last two); the answer (the page, or the ``--json`` rows ending in
``outcome``) is stdout's, Refusals included.
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager

from hyper.artefact.repository import Unreadable, load_repository
from hyper.capability.shell import abandon_groups
from hyper.cli.commands.store import STORE_ABSENT_CODE, refuse_store_absent, said
from hyper.cli.context import Context
from hyper.cli.destination import Destination, Streams
from hyper.cli.invocation import Invocation
from hyper.core import exit as codes
from hyper.core.faults import STORE_FAULTS, Contended, GitError, NoRepository, StoreAbsent
from hyper.core.process import Process
from hyper.fs.read import inside, real_root
from hyper.review.resolve import is_path
from hyper.run import binding
from hyper.run.engine import Answer, Request, perform_run
from hyper.run.render import outcome_row, page, rows, sentences, terminal_line
from hyper.run.sequence import flatten
from hyper.store.branch import Store
from hyper.store.git import Git
from hyper.store.journal import Trigger
from hyper.store.lock import LockMode, acquire
from hyper.store.sync import sync

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import FrameType


NAME = "run"
FETCH_TOLERATED = "origin could not be fetched from, so this Run reads the hyper-store already in this clone"


class _Narration:
    """The engine's two narration events, on stderr and — where a client asked — as MCP
    progress. The Run naming itself sends nothing on MCP: progress is per Step."""

    def __init__(self, to: Destination, ctx: Context) -> None:
        self._to = to
        self._progress = ctx.progress

    def began(self, run_id: str) -> None:
        self._to.narrate(f"run {run_id}\n")

    def reached(self, position: int, of: int, name: str) -> None:
        self._to.narrate(f"step {position}/{of} {name}\n")
        if self._progress is not None:
            self._progress(position, of, name)


def run(inv: Invocation, to: Destination, ctx: Context) -> int:
    process = ctx.process
    sink = inv.secret_out
    if sink is not None:
        if sink == "-":
            return _usage(
                to,
                "--secret-out -: stdout carries the answer alone, and a secret written there lands in"
                " whatever log captures it\n  name a path outside the repository",
            )
        if not sink or sink.startswith("--"):
            return _usage(to, "--secret-out requires a path")
        where = os.path.normpath(os.path.join(process.getwd(), sink))
        # Resolved, where the reference compares text: a link into the working tree, or a
        # --repo-dir reached through one, must not carry a secret inside it (ADR 0011).
        if inside(os.path.realpath(where), real_root(ctx.root)):
            return _usage(
                to,
                f"--secret-out {sink}: that path is inside the repository's working tree\n"
                "  one `git add` from there puts a secret in the record — name a path outside it",
            )
        if os.path.lexists(where):
            return _usage(
                to,
                f"--secret-out {sink}: something is already at that path\n"
                "  hyper makes the sink directory itself, so that every file in it is this Run's"
                " — name a path that does not exist yet",
            )
        sink = where
    name = inv.positional[0]
    repo = load_repository(ctx.root, ctx.declared)
    if isinstance(repo, Unreadable):
        return _usage(to, repo.message)
    if name not in repo.procedures:
        if name in repo.definitions:
            return _usage(
                to,
                f'"{name}" names a Definition, and run performs Procedures only\n'
                "  to run one Operation, write a Procedure of one Step naming its definition:,"
                " operation:, target: and args:",
            )
        if is_path(name):
            return _usage(
                to,
                f'"{name}" is a path, and run takes the name a Procedure declares\n'
                "  a Procedure's name is its file's basename less .yaml; `review` is the command"
                " that takes either",
            )
        return _usage(
            to,
            f'no Procedure named "{name}" in this repository\n'
            "  the Procedure namespace is procedures/, and no command lists it",
        )
    walked = flatten(repo, name)
    read_only = not walked.cycle and all(not binding.effectful(repo, step) for step in walked.steps)
    try:
        lock = acquire(ctx.root, process, LockMode.SHARED if read_only else LockMode.EXCLUSIVE)
    except STORE_FAULTS as untaken:
        return _lock_fault(to, untaken)
    with lock:
        now = process.now()
        git = Git.open(ctx.root, process, now)  # the sync's and the Store's: the remotes are asked once
        try:
            sync(git)
        except StoreAbsent:
            return _refused_before(to, inv.dry_run, refuse_store_absent(to))
        except (GitError, OSError) as unreached:
            if not read_only:
                to.narrate(said(NAME, f"the Store could not be reached: {unreached}"))
                return codes.STORE_LOST
            to.narrate(said(NAME, FETCH_TOLERATED))
        try:
            store = Store.on(git, now, lock.layout)
        except StoreAbsent:
            return _refused_before(to, inv.dry_run, refuse_store_absent(to))
        except (GitError, OSError) as unopened:
            to.narrate(said(NAME, f"the Store could not be reached: {unopened}"))
            return codes.STORE_LOST
        with store, _watching(to) as caught:
            answer = perform_run(
                Request(
                    repo=repo,
                    procedure=name,
                    store=store,
                    process=process,
                    version=ctx.version,
                    trigger=trigger(process),
                    dry_run=inv.dry_run,
                    sink=sink,
                    narrator=_Narration(to, ctx),
                    drained=lambda: caught() is not None or ctx.cancelled(),
                )
            )
            code = exit_code(answer, caught())
    for sentence in sentences(answer):
        to.narrate(said(NAME, sentence))
    first = answer.refusals[0].code if answer.refusals else ""
    to.answer(
        rows(answer),
        outcome_row(answer.outcome, code, inv.dry_run, first, answer.run_id),
        page(answer, code, inv.dry_run, repo),
    )
    return code


def _lock_fault(to: Destination, fault: Exception) -> int:
    """A lock this Run could not take: 75 whatever the cause, as the reference answers, but each
    cause in its own sentence. Contention clears with time; a root that is no git repository is
    the invocation's to fix, and an agent told the lock was held would retry it forever."""
    if isinstance(fault, Contended):
        to.narrate(
            f"hyper {NAME}: another Run holds this repository's hyper-store lock; a Run keeps it for its"
            " whole length, and this one does not wait\n"
        )
    elif isinstance(fault, NoRepository):
        to.narrate(
            said(NAME, f"{fault}; no Run began, and none can until the directory named is a git repository's root")
        )
    else:
        to.narrate(said(NAME, f"the Store lock under .git/hyper could not be taken, and no Run began: {fault}"))
    return codes.STORE_LOST


def exit_code(answer: Answer, signalled: int | None) -> int:
    if answer.outcome == "completed":
        return codes.CLEAN
    if answer.outcome == "refused":
        return codes.REFUSED
    if answer.interrupted and signalled is not None:
        return codes.TERMINATED if signalled == signal.SIGTERM else codes.INTERRUPTED
    if answer.lost:
        return codes.STORE_LOST
    return codes.PROBLEMS


def refused_before_the_run(to: Destination, error_code: str, dry_run: bool) -> None:
    """The answer of a Run declined before it had an id (the version pin, an absent Store):
    the terminal row with no ``run_id``, and a page that is the terminal line alone."""
    to.answer(
        [], outcome_row("refused", codes.REFUSED, dry_run, error_code), terminal_line("refused", codes.REFUSED, dry_run)
    )


def refused_by_the_gate(inv: Invocation, to: Destination, error_code: str) -> None:
    refused_before_the_run(to, error_code, inv.dry_run)


def _refused_before(to: Destination, dry_run: bool, code: int) -> int:
    refused_before_the_run(to, STORE_ABSENT_CODE, dry_run)
    return code


def _usage(to: Destination, sentence: str) -> int:
    to.usage(f"hyper {NAME}: {sentence}\n")
    return codes.USAGE


def trigger(process: Process) -> Trigger:
    """What caused this Run and where: a GitHub Actions job where ``GITHUB_ACTIONS`` is
    exactly ``true``, a person at a machine otherwise."""
    env = process.lookup_env
    if env("GITHUB_ACTIONS") == "true":
        run_id = env("GITHUB_RUN_ID") or ""
        attempt_text = env("GITHUB_RUN_ATTEMPT") or ""
        attempt = int(attempt_text) if attempt_text.isdigit() and int(attempt_text) >= 1 else 0
        parts = [env(name) or "" for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY")]
        job_url = (
            f"{parts[0]}/{parts[1]}/actions/runs/{run_id}/attempts/{attempt_text}"
            if all(parts) and run_id and attempt_text
            else ""
        )
        return Trigger(
            cause="cron" if env("GITHUB_EVENT_NAME") == "schedule" else "manual",
            executor="github-actions",
            actor=env("GITHUB_ACTOR") or "unknown",
            executor_run=run_id,
            attempt=attempt,
            job_url=job_url,
        )
    try:
        host = process.hostname()
    except OSError:
        host = ""
    return Trigger(cause="manual", executor="local", actor=process.user() or "unknown", host=host)


DRAINING = (
    f"hyper {NAME}: interrupted — the Step in flight finishes and no further Step starts;"
    " interrupt again to end hyper now and leave this Run's entry open\n"
)


@contextmanager
def _watching(to: Destination) -> Iterator[Callable[[], int | None]]:
    """The drain: the first SIGINT or SIGTERM is remembered, said, and asked about between
    Steps; a second one ends the Step's process group, then the process as the signal
    would, leaving the entry open.

    The handler only records: it runs on the main thread between two bytecodes, which may
    be in the middle of a write to stderr, and a buffered stream re-entered there raises.
    So it appends the signal and writes one byte to a pipe — a raw system call, no
    stream — and a watcher thread, woken by the byte, says the drain through the stream,
    whose lock orders it after whatever line the main thread was writing.

    Only a terminal Run in the main thread watches: the MCP surface's calls run in worker
    threads, and its drain is the client's cancel."""
    caught: list[int] = []
    if not isinstance(to, Streams) or threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    woken, wake = os.pipe()

    def handler(signum: int, _frame: FrameType | None) -> None:
        if caught:
            abandon_groups()
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        caught.append(signum)
        os.write(wake, b"!")

    def say() -> None:
        if os.read(woken, 1):
            to.narrate(DRAINING)

    watcher = threading.Thread(target=say, name="hyper-drain", daemon=True)
    watcher.start()
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield lambda: caught[0] if caught else None
    finally:
        for sig, held in previous.items():
            signal.signal(sig, held)
        os.close(wake)
        watcher.join()
        os.close(woken)

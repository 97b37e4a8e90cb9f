"""The ``shell`` Capability: an argv started directly, and what the child did.

It is the shallower Capability on purpose. Only hyper's built-in ``shell`` Provider may
declare it and that Provider knows nothing about the command, so the words are the
Step's ``command:`` input and what this module adds is the four decisions no artefact
makes: the process group, the deadline, the directory and the environment.

* **No shell.** The argv is started as it stands, so a pipe, a glob or ``&&`` reaches
  the child as a literal word. The head is a literal (check refuses a hole there).
* **Own process group** (a new session), so a terminal's Ctrl-C reaches hyper — which
  drains — and not the command, and so the deadline's SIGKILL reaches the command's
  own children too.
* **The repository root** is the working directory and the null device is stdin:
  fixed rather than authored, so a laptop and a runner agree without a line saying so.
* **The environment** is the Run's composed one (:func:`compose`): hyper's own less
  every credential-slot variable any Target in the repository names. A call with no
  composed environment starts nothing, because the fallback would be hyper's own
  environment, credentials included.
* **Bounded capture.** Each of stdout and stderr keeps its first :data:`CAPTURE_LIMIT`
  bytes; the rest is read and dropped so the child never blocks on a full pipe.

A non-zero exit is an answer. The deadline is the one thing that stops a child early.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time

from hyper.capability import COMMAND, EXIT_CODE, STDERR, STDOUT, Answer, Call, Context, Fault
from hyper.core.deepjson import quote

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Final


CAPTURE_LIMIT: Final = 1 << 20
"""Bytes kept of each stream: enough for any answer worth recording, small enough that a
runaway command cannot fill the Store or hyper's memory."""

_CHUNK: Final = 65536

_IN_FLIGHT: set[int] = set()
"""The process groups of the commands being waited on now (each leader's pid): what
:func:`abandon_groups` ends when hyper exits without waiting for them."""


def abandon_groups() -> None:
    """SIGKILL to the group of every command in flight: called where hyper ends itself (a
    second signal) and would otherwise leave them running with no one to read them.

    Safe inside a signal handler — a copy of a set and ``killpg`` calls, no stream."""
    for group in tuple(_IN_FLIGHT):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)


def compose(environ: Mapping[str, str], withheld: Iterable[str]) -> dict[str, str]:
    """The child environment: ``environ`` less every variable named in ``withheld``.

    ``withheld`` is every credential-slot variable any Target in the repository names —
    decided offline, not by which Steps a Run reaches.
    """
    removed = {name for name in withheld if name}
    return {name: value for name, value in environ.items() if name not in removed}


def command_text(argv: list[str]) -> str:
    """The ``command`` member: the argv as compact one-line JSON.

    JSON rather than a joining rule because it must be injective: ``[echo, "a b"]`` and
    ``[echo, a, b]`` are two commands and two identities. Spelled by the Store's own string
    writer, which escapes exactly what orjson's compact form does (the tests hold the two
    against each other), so a Run through this Capability never imports orjson for one line.
    """
    return "[" + ",".join(quote(word) for word in argv) + "]"


def _argv(call: Call) -> list[str] | None:
    command = call.inputs.get("command")
    if not isinstance(command, list) or not command or not all(isinstance(w, str) for w in command):
        return None
    return [str(word) for word in command]


def perform(call: Call, context: Context) -> Answer:
    argv = _argv(call)
    if argv is None:
        # check has refused a command that is not a non-empty list of words.
        return Answer({COMMAND: command_text([])}, Fault("unsent", "the command is not a list of words"))
    response: dict[str, object] = {COMMAND: command_text(argv)}
    if context.environment is None:
        return Answer(response, Fault("unsent", "no child environment was composed; nothing inherits hyper's own"))
    try:
        child = context.process.launch(
            argv,
            cwd=context.root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(context.environment),
            start_new_session=True,
            close_fds=True,
        )
    except (OSError, ValueError) as err:
        return Answer(response, Fault("unsent", f"{argv[0]} could not be started: {_reason(err)}"))
    expires = None if call.deadline is None else time.monotonic() + call.deadline
    _IN_FLIGHT.add(child.pid)
    try:
        out, err_bytes, reached = _collect(child, expires)
    finally:
        _IN_FLIGHT.discard(child.pid)
    if reached:
        return Answer(response, Fault("deadline", f"{argv[0]} was still running at its deadline and was killed"))
    code = child.returncode
    response[EXIT_CODE] = code if code >= 0 else -1
    response[STDOUT] = _text(out)
    response[STDERR] = _text(err_bytes)
    return Answer(response)


def _reason(err: BaseException) -> str:
    if isinstance(err, OSError) and err.strerror:
        return err.strerror.lower()
    return str(err)


def _collect(child: subprocess.Popen[bytes], expires: float | None) -> tuple[bytes, bytes, bool]:
    """Reads both pipes to their ends and waits for the child to exit, keeping a bounded prefix
    of each stream; kills the group at ``expires``. Answers the two prefixes and whether the
    deadline was reached.

    The child's exit is one more event in the same wait, through a process descriptor where
    the platform has one, so nothing here sleeps and polls: a hundred quick commands would
    otherwise spend longer being waited for than running."""
    kept: dict[int, bytearray] = {}
    out_fd = child.stdout.fileno() if child.stdout is not None else -1
    err_fd = child.stderr.fileno() if child.stderr is not None else -1
    exited = _process_descriptor(child.pid)
    try:
        with selectors.DefaultSelector() as selector:
            for stream in (child.stdout, child.stderr):
                if stream is not None:
                    kept[stream.fileno()] = bytearray()
                    selector.register(stream, selectors.EVENT_READ)
            if exited is not None:
                selector.register(exited, selectors.EVENT_READ)
            while selector.get_map():
                remaining = None if expires is None else expires - time.monotonic()
                if remaining is not None and remaining <= 0:
                    _kill(child)
                    return b"", b"", True
                for key, _ in selector.select(remaining):
                    if key.fd == exited:
                        selector.unregister(exited)
                        continue
                    chunk = os.read(key.fd, _CHUNK)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    buffer = kept[key.fd]
                    if len(buffer) < CAPTURE_LIMIT:
                        buffer.extend(chunk[: CAPTURE_LIMIT - len(buffer)])
    finally:
        if exited is not None:
            os.close(exited)
    _close(child)
    out, err = bytes(kept.get(out_fd, b"")), bytes(kept.get(err_fd, b""))
    try:
        child.wait(None if exited is not None or expires is None else max(0.0, expires - time.monotonic()))
    except subprocess.TimeoutExpired:
        _kill(child)
        return b"", b"", True
    return out, err, False


def _process_descriptor(pid: int) -> int | None:
    """A descriptor that reads ready when ``pid`` exits (Linux); ``None`` where there is none."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        descriptor: int = opener(pid)
    except OSError:
        return None
    return descriptor


def _kill(child: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the child's whole group, with no grace: the deadline is the author's."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    _close(child)


def _close(child: subprocess.Popen[bytes]) -> None:
    for stream in (child.stdout, child.stderr):
        if stream is not None:
            stream.close()


def _text(data: bytes) -> str:
    """Bytes as text, never parsed; a sequence the cut split, or any invalid one, reads as U+FFFD."""
    return data.decode("utf-8", errors="replace")

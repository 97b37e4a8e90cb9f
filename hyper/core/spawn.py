"""A child spoken to over its three pipes, started without the ``subprocess`` module.

``subprocess`` brings ``threading``, ``selectors``, ``locale`` and its own machinery: about
19M instructions, as much as a review's whole Store reader, for the one ``cat-file`` a review
talks to (ADR 0006). What such a child needs is small — three pipes and its exit status — and
:func:`spawn` starts it as :class:`subprocess.Popen` would: the program found on the child's
own ``PATH``, SIGPIPE and SIGXFSZ back to their default dispositions, a session of its own.

``os.posix_spawn`` has no action that changes directory, so the child starts in hyper's own;
a caller that needs another says so in the arguments (``git -C``). Every descriptor Python
opens is non-inheritable (PEP 446), so the exec closes hyper's own. A descriptor hyper
*inherited* as inheritable from its own parent would outlive the exec; ``Popen``'s
``close_fds`` closes every descriptor above the three, and so does :func:`spawn`: by
``POSIX_SPAWN_CLOSEFROM`` where the platform has it (3.13 with a recent C library), else by
closing each inheritable one it finds open (:func:`_inheritable`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import IO

_NEXT_ON_PATH = (2, 20)  # ENOENT, ENOTDIR: this directory has no such program; try the next, as exec does
"""``errno.ENOENT`` and ``errno.ENOTDIR``, which POSIX numbers the same everywhere hyper runs."""


class Child:
    """A started child: its process id, its three pipes, and its exit status once waited for —
    the part of :class:`subprocess.Popen` the Store's long-lived readers use, with the same
    meanings (a signal's death is minus its number)."""

    __slots__ = ("pid", "returncode", "stderr", "stdin", "stdout")

    def __init__(self, pid: int, stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes]) -> None:
        self.pid = pid
        self.stdin: IO[bytes] | None = stdin
        self.stdout: IO[bytes] | None = stdout
        self.stderr: IO[bytes] | None = stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit status, or ``None`` while the child runs."""
        if self.returncode is None:
            self._reaped(os.WNOHANG)
        return self.returncode

    def wait(self) -> int:
        """Waits for the child to exit; its exit status."""
        if self.returncode is None:
            self._reaped(0)
        assert self.returncode is not None
        return self.returncode

    def _reaped(self, options: int) -> None:
        try:
            pid, status = os.waitpid(self.pid, options)
        except ChildProcessError:
            self.returncode = 0  # reaped elsewhere (SIGCHLD ignored): Popen reads it as 0 too
            return
        if pid == self.pid:
            self.returncode = os.waitstatus_to_exitcode(status)


_LISTINGS = ("/proc/self/fd", "/dev/fd")
"""Where the process's open descriptors are listed: Linux's ``/proc``, and macOS's ``/dev/fd``
(on Linux a link to the first)."""


def _inheritable() -> list[int]:
    """The open descriptors above the three that an exec would leave open: those hyper
    inherited as inheritable, or made so. One directory listing and one ``fcntl`` a descriptor,
    where ``Popen`` closes every descriptor the same way from C; a platform that lists none
    (neither directory) closes only what the exec closes."""
    for listing in _LISTINGS:
        try:
            names = os.listdir(listing)
        except OSError:
            continue
        found = []
        for name in names:
            fd = int(name)
            try:
                if fd > 2 and os.get_inheritable(fd):
                    found.append(fd)
            except OSError:
                pass  # the listing's own descriptor, closed once it was read
        return found
    return []


def _exec_path(env: Mapping[str, str]) -> list[str]:
    """The directories ``env``'s ``PATH`` names, as :func:`os.get_exec_path` reads a mapping of
    strings (``os.defpath`` where it names none). That function imports ``warnings`` to quiet
    the ``BytesWarning`` a ``bytes`` key could raise, which a ``str`` mapping never holds: about
    1.2M instructions of a review's start-up (ADR 0006)."""
    return env.get("PATH", os.defpath).split(os.pathsep)


def spawn(argv: Sequence[str], env: Mapping[str, str]) -> Child:
    """``argv`` started with ``env``, its standard streams pipes to the parent.

    A program that cannot be started raises the ``OSError`` ``Popen`` raises for it, naming
    ``argv[0]``: ``[Errno 2] No such file or directory: 'git'``."""
    import signal  # deferred: only a child needs its dispositions (every command that starts one has it already)

    program = argv[0]
    paths = [program] if os.path.dirname(program) else [os.path.join(at, program) for at in _exec_path(env)]
    into, out, err = os.pipe(), os.pipe(), os.pipe()
    reading = into[0]
    if reading == 0:
        # hyper's own stdin was closed and the pipe took its number: a descriptor put onto
        # itself would stay close-on-exec, so a duplicate of it is put there instead.
        reading = os.dup(reading)
        os.close(into[0])
    actions: list[tuple[int, ...]] = [
        (os.POSIX_SPAWN_DUP2, reading, 0),
        (os.POSIX_SPAWN_DUP2, out[1], 1),
        (os.POSIX_SPAWN_DUP2, err[1], 2),
    ]
    closing = getattr(os, "POSIX_SPAWN_CLOSEFROM", None)  # 3.13 on, where the C library has it
    if closing is not None:
        actions.append((closing, 3))
    else:
        actions.extend((os.POSIX_SPAWN_CLOSE, fd) for fd in _inheritable())
    defaults = {signal.SIGPIPE, signal.SIGXFSZ}  # Python ignores both for itself; Popen's children get them back
    failed: OSError | None = None
    try:
        for path in paths:
            if not os.path.exists(path):
                continue  # as exec would find it (ENOENT, ENOTDIR), without a child spent finding it
            try:
                pid = os.posix_spawn(path, list(argv), env, file_actions=actions, setsigdef=defaults, setsid=True)
                break
            except OSError as error:
                if failed is None or failed.errno in _NEXT_ON_PATH:
                    failed = error  # the first reason that is not "no such program here" is the one told
        else:
            code = failed.errno if failed is not None and failed.errno else 2
            raise OSError(code, os.strerror(code), program)
    except BaseException:
        for fd in (reading, into[1], *out, *err):
            os.close(fd)
        raise
    for fd in (reading, out[1], err[1]):
        os.close(fd)
    return Child(pid, open(into[1], "wb"), open(out[0], "rb"), open(err[0], "rb"))

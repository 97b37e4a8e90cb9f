"""Everything hyper reads from the process, as one injectable value.

A command body never calls ``os.environ``, ``os.getcwd``, the clock or the run-id mint
directly: it asks the :class:`Process` it was handed. The real process supplies the
real readings (:func:`real`); the corpus supplies fixed ones, which is what makes
every golden case reproducible byte for byte.

Values on the start-up path of every command are ``NamedTuple``s rather than attrs
classes: ADR 0006 has the measurement.
"""

from __future__ import annotations

import os
import time  # built into the interpreter, and loaded before any of hyper is

from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    import datetime as _dt
    import ssl
    import subprocess
    from collections.abc import Callable, Mapping, Sequence
    from typing import IO, Any, Protocol, TypeAlias

    class Piped(Protocol):
        """A child spoken to over its three pipes: a :class:`subprocess.Popen`, or the
        :class:`hyper.core.spawn.Child` a :data:`Spawner` starts."""

        @property
        def pid(self) -> int: ...
        @property
        def stdin(self) -> IO[bytes] | None: ...
        @property
        def stdout(self) -> IO[bytes] | None: ...
        @property
        def stderr(self) -> IO[bytes] | None: ...
        @property
        def returncode(self) -> int | None: ...
        def poll(self) -> int | None: ...
        def wait(self) -> int: ...


def _utc_now() -> _dt.datetime:
    import datetime as _dt  # on first reading, not at start-up: most commands never read the clock

    return _dt.datetime.now(_dt.UTC)


def _mint(at: _dt.datetime) -> str:
    from hyper.core.ids import mint_v7  # deferred: start-up cost

    return mint_v7(at)


def _real_user() -> str:
    import getpass  # deferred: start-up cost

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _real_hostname() -> str:
    """The machine's name, as ``socket.gethostname`` answers it on a POSIX system (the C
    library's ``gethostname`` reads the same ``uname`` field), without importing ``socket``:
    about 11M instructions, paid by every Run for one string (ADR 0006)."""
    return os.uname().nodename


def _real_launch(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
    import subprocess  # deferred: start-up cost

    return subprocess.Popen(*args, **kwargs)


Launcher: TypeAlias = "Callable[..., subprocess.Popen[bytes]]"
"""Starts a child process; the signature is :class:`subprocess.Popen`'s."""


def _real_spawn(argv: Sequence[str], env: Mapping[str, str]) -> Piped:
    from hyper.core.spawn import spawn  # deferred: start-up cost

    return spawn(argv, env)


Spawner: TypeAlias = "Callable[[Sequence[str], Mapping[str, str]], Piped]"
"""Starts ``argv`` with the environment given, in this process's working directory and a
session of its own, its three standard streams pipes to the caller (:mod:`hyper.core.spawn`)."""


def _real_dial(host: str, port: int, timeout: float | None) -> ssl.SSLSocket:
    """The system's resolver and trust (:func:`hyper.core.dial.connect`)."""
    from hyper.core.dial import connect  # deferred: start-up cost

    return connect(host, port, timeout)


def _no_pause(_attempt: int) -> None:
    """A fixed process waits for nothing: a retry in the corpus is immediate and reproducible."""


def _real_backoff(attempt: int) -> None:
    """About 250 ms, doubling with each attempt, scaled by a random factor between 0.5 and 1.5:
    two writers that collided once should not collide again on the same beat."""
    import random  # deferred: start-up cost

    time.sleep(0.25 * 2 ** (attempt - 1) * (0.5 + random.random()))


Dialer: TypeAlias = "Callable[[str, int, float | None], ssl.SSLSocket]"
"""Opens a connection to ``host:port`` and completes its TLS handshake, verifying the peer
for ``host``, within ``timeout`` seconds (``None``: no bound). Failures raise ``OSError``.
The ``http`` Capability reaches the world through this alone, so a test (or the corpus's
``serve/``) supplies a resolver and a trust root by supplying a dialer."""


class Process(NamedTuple):
    """The process as hyper may read it.

    ``environ`` is the whole environment: a name it does not hold is unset, and the
    empty string is a value. ``mint`` hands out Run ids given the instant they are
    minted at (UUIDv7 carries the clock, and the corpus fixes both).
    """

    environ: Mapping[str, str]
    getwd: Callable[[], str]
    now: Callable[[], _dt.datetime]
    mint: Callable[[_dt.datetime], str]
    user: Callable[[], str]
    hostname: Callable[[], str]
    launch: Launcher = _real_launch
    dial: Dialer = _real_dial
    backoff: Callable[[int], None] = _no_pause
    """The wait before retry ``attempt`` (1-based) of a contended write: jittered in the real
    process, nothing at all in a fixed one."""
    monotonic: Callable[[], float] = time.monotonic
    """Seconds from any origin, never going back: the clock an Operation's deadline is measured
    on. A fixed process supplies its own, so that how busy the machine is cannot spend a
    deadline, and a corpus case reaches one only where its served host is made to hold an
    answer past it (``harness/stopwatch.py``)."""
    pause: Callable[[float], None] = time.sleep
    """A wait of that many seconds on :attr:`monotonic`'s clock: the interval between two polls."""
    spawn: Spawner | None = None
    """How the real process starts a child it only talks to over pipes, without ``subprocess``
    (ADR 0006). ``None`` — a fixed process's — starts every child through ``launch``, so a
    harness or a test that injects a launcher sees and chooses every child as before."""

    def lookup_env(self, name: str) -> str | None:
        return self.environ.get(name)

    def nonempty_env(self, name: str) -> str | None:
        """An environment value, with the empty string read as unset."""
        value = self.environ.get(name)
        return value if value else None


def real() -> Process:
    """The running process's own readings."""
    return Process(
        environ=dict(os.environ),
        getwd=os.getcwd,
        now=_utc_now,
        mint=_mint,
        user=_real_user,
        hostname=_real_hostname,
        backoff=_real_backoff,
        spawn=_real_spawn,
    )

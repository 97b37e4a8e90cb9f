"""A case's stopwatch: the clock an Operation's deadline is measured on, which load cannot move.

A case's ``now`` is fixed; so is the clock its deadlines run on. hyper measures a deadline
on :attr:`hyper.core.process.Process.monotonic` and waits through
:attr:`~hyper.core.process.Process.pause`, and a case's process reads both here. On the
machine's clock a ``deadline: 1s`` raced the machine: a case whose every answer comes at
once reached its deadline when the suite shared two cores with other work (a TLS handshake,
a server thread waiting for the interpreter, a process scheduled late). Here it cannot:

* **Each thread of the command has a stopwatch of its own**, as each member of a concurrent
  Expansion has a deadline of its own. It stands still while hyper works and while the
  served host works, however long that takes on the machine.
* **It moves only by what the case declares**: a :attr:`~hyper.core.process.Process.pause`
  (a poll's interval) moves it by the pause, at once; a served host holding an answer
  (``delay_ms``; ``hangs``, a hold with no end) moves it by the hold, or to the end of the
  wait hyper is in, whichever comes first — the answer was due, or the deadline was.
* **A wait on the wire** is one on a :class:`WatchedSocket`: the timeout hyper sets is read
  on the stopwatch, so it ends when a hold outlasts it, by the same ``TimeoutError`` a real
  socket raises, and never because the machine was slow. The bytes and the TLS are real.
  Should the harness's own server say nothing for :data:`PATIENCE` of real time, the wait ends
  as a timeout anyway, so a broken server fails its case rather than holding the suite.

A hold still waits its real length on the server (``delay_ms`` is how a concurrent Expansion
is answered out of order); only the deadline is no longer measured in real time.
"""

from __future__ import annotations

import math
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any, Final, TypeVar

PATIENCE: Final = 30.0
"""Real seconds a wait on the harness's own server may last before it is given up."""
_SLICE: Final = 0.02
"""Real seconds between two looks at the stopwatch while a wait on the wire is blocked."""

_T = TypeVar("_T")


class Watch:
    """One thread's stopwatch: seconds it has been moved on, never back."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._at = 0.0

    def read(self) -> float:
        return self._at

    def move_to(self, at: float) -> None:
        with self._lock:
            self._at = max(self._at, at)


class Stopwatches:
    """The stopwatches of one case's command, one per thread, made on first reading."""

    def __init__(self) -> None:
        self._local = threading.local()

    def watch(self) -> Watch:
        """The calling thread's stopwatch."""
        mine: Watch | None = getattr(self._local, "watch", None)
        if mine is None:
            mine = self._local.watch = Watch()
        return mine

    def read(self) -> float:
        """:attr:`Process.monotonic`: the calling thread's stopwatch."""
        return self.watch().read()

    def pause(self, seconds: float) -> None:
        """:attr:`Process.pause`: the calling thread's stopwatch moved on, with no real wait."""
        watch = self.watch()
        watch.move_to(watch.read() + seconds)


class Line:
    """One dialled connection: the stopwatch of the thread that dialled it, and the instant on
    it the served host holds its answer until (``None``: nothing held)."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch
        self._held_until: float | None = None

    def hold(self, seconds: float | None) -> None:
        """The server's side: the answer is held ``seconds`` from now (``None``: for good)."""
        self._held_until = self.watch.read() + (math.inf if seconds is None else seconds)

    def outlasts(self, ends: float | None) -> bool:
        """Whether a wait ending at ``ends`` on the stopwatch ends before the answer comes,
        the stopwatch moved to whichever comes first. Nothing held: the server is still at
        work, and work spends no stopwatch."""
        held = self._held_until
        if held is None or ends is None:
            return False
        self.watch.move_to(min(held, ends))
        return held >= ends

    def answered(self) -> None:
        """Bytes came: a held answer came when it was due."""
        held, self._held_until = self._held_until, None
        if held is not None and not math.isinf(held):
            self.watch.move_to(held)


class WatchedSocket(ssl.SSLSocket):
    """The client's end of a served connection, its timeouts read on the stopwatch.

    Made by the dialer's context (``sslsocket_class``), so the handshake is the standard
    one; :attr:`line` is set once it is done, and until then the socket is a plain one."""

    line: Line | None = None
    _ends: float | None = None

    def settimeout(self, value: float | None) -> None:
        line = self.line
        if line is None:
            super().settimeout(value)
            return
        self._ends = None if value is None else line.watch.read() + value
        super().settimeout(_SLICE)

    def recv(self, buflen: int = 1024, flags: int = 0) -> bytes:
        return self._waited(lambda: ssl.SSLSocket.recv(self, buflen, flags))

    def recv_into(self, buffer: Any, nbytes: int | None = None, flags: int = 0) -> int:
        return self._waited(lambda: ssl.SSLSocket.recv_into(self, buffer, nbytes, flags))

    def send(self, data: Any, flags: int = 0) -> int:
        return self._waited(lambda: ssl.SSLSocket.send(self, data, flags), reading=False)

    def _waited(self, call: Callable[[], _T], reading: bool = True) -> _T:
        line = self.line
        if line is None:
            return call()
        began = time.monotonic()
        while True:
            try:
                done = call()
            except TimeoutError:
                if line.outlasts(self._ends) or time.monotonic() - began > PATIENCE:
                    raise
                continue
            if reading:
                line.answered()
            return done

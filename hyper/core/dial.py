"""The trust the real dialer verifies peers against: the system's, built once per process.

Building a verifying context loads the system's certificate store, which costs more than
most calls; a Run's reads share one. A test never reaches this: it hands the ``http``
Capability a dialer of its own through :class:`hyper.core.process.Process`.
"""

from __future__ import annotations

import functools
import ssl


@functools.cache
def verifying_context() -> ssl.SSLContext:
    """Certificate and host name verified, TLS 1.2 at the least: nothing is configurable."""
    context = ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


class Budget:
    """What is left of one timeout shared by the dial's steps; ``TimeoutError`` once spent."""

    def __init__(self, seconds: float | None) -> None:
        import time

        self._clock = time.monotonic
        self._until = None if seconds is None else self._clock() + seconds

    def __call__(self) -> float | None:
        if self._until is None:
            return None
        left = self._until - self._clock()
        if left <= 0:
            raise TimeoutError("the deadline was reached before the connection was made")
        return left


def resolve(host: str, port: int, timeout: float | None) -> tuple[str, int]:
    """``host`` resolved to an address within ``timeout``: ``getaddrinfo`` takes no timeout of
    its own, so it runs in a daemon thread and is abandoned (not waited for) once time is up."""
    import socket
    import threading

    found: list[object] = []

    def look() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][4])
        except OSError as failed:
            found.append(failed)

    looking = threading.Thread(target=look, name="hyper-resolve", daemon=True)
    looking.start()
    looking.join(timeout)
    if not found:
        raise TimeoutError(f"the name {host} did not resolve in time")
    answer = found[0]
    if isinstance(answer, OSError):
        raise answer
    address = answer
    assert isinstance(address, tuple)
    return str(address[0]), int(address[1])

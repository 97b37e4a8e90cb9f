"""The real dialer: every resolved address in turn, and the system's trust, built once per process.

Building a verifying context loads the system's certificate store, which costs more than
most calls; a Run's reads share one. A test hands the ``http`` Capability a dialer of its own
through :class:`hyper.core.process.Process` — :func:`connect` itself, with a resolver and a
trust root of the test's.
"""

from __future__ import annotations

import functools
import ssl
from collections.abc import Callable
from typing import Any, Final


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


Address = tuple[int, int, int, tuple[Any, ...]]
"""One way to reach a name: ``(family, type, protocol, sockaddr)``, as ``getaddrinfo`` answers."""

Resolver = Callable[[str, int, "float | None"], "list[Address]"]
"""Every address a name resolves to, in the resolver's order, within a timeout."""

SHARE_FLOOR: Final = 2.0
"""The fewest seconds an address is given while more of the deadline is left, Go's own floor:
an even share of a short deadline among many addresses would let none of them answer."""


def resolve(host: str, port: int, timeout: float | None) -> list[Address]:
    """Every address ``host`` resolves to, within ``timeout``: ``getaddrinfo`` takes no timeout
    of its own, so it runs in a daemon thread and is abandoned (not waited for) once time is up."""
    import socket
    import threading

    found: list[object] = []

    def look() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
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
    assert isinstance(answer, list)
    return [(family, kind, protocol, address) for family, kind, protocol, _, address in answer]


def connect(
    host: str,
    port: int,
    timeout: float | None,
    addresses: Resolver = resolve,
    trust: Callable[[], ssl.SSLContext] = verifying_context,
) -> ssl.SSLSocket:
    """Resolution, connection and handshake inside one ``timeout`` between them, not one each.

    Every address the name resolves to is tried in turn, each given an even share of what is
    left (never less than :data:`SHARE_FLOOR` while that much is left), so one address that
    never answers does not spend the deadline of the ones after it. Each is an address of the
    one granted name and the handshake verifies that name, whichever address answered. Where
    none connects, the first address's fault is the one raised, as Go's dialer answers.
    """
    import socket  # deferred: start-up cost

    left = Budget(timeout)
    found = addresses(host, port, left())
    if not found:
        raise socket.gaierror(socket.EAI_NONAME, "it resolved to no address")
    first: OSError | None = None
    for index, (family, kind, protocol, address) in enumerate(found):
        remaining = left()
        share = None if remaining is None else min(remaining, max(remaining / (len(found) - index), SHARE_FLOOR))
        raw = socket.socket(family, kind, protocol)
        try:
            raw.settimeout(share)
            raw.connect(address)
        except OSError as failed:
            raw.close()
            if first is None:
                first = failed
            continue
        try:
            raw.settimeout(left())
            return trust().wrap_socket(raw, server_hostname=host)
        except BaseException:
            raw.close()
            raise
    assert first is not None
    raise first

"""The ``http`` Capability: one Manifest ``http:`` block made into HTTPS requests, and what came back.

What leaves is decided by artefacts and nothing else:

* **HTTPS only**, port 443 unless the granted host names one. There is no plain-HTTP
  path to configure, because the only way out is :attr:`hyper.core.process.Process.dial`,
  which answers a connection already past a *verified* TLS handshake.
* **One host**, the one the Manifest's candidate set and the bound Target's ``hosts:``
  grant meet in (:mod:`hyper.capability.reach`). It is what the grant was checked
  against and what the ``Host`` header is written from; a host outside the grant is
  refused before anything is dialled.
* **No redirects.** A 3xx is the answer: its target would be reach arriving from data,
  and the grant was checked against one host only.
* **The request is the Manifest's**: method, path (holes filled, then escaped into the
  path), ``query:`` and ``headers:`` in authored order, a ``body:`` serialised as
  compact JSON with ``Content-Type: application/json``. The five headers hyper computes
  (``Host``, ``Content-Length``, ``Content-Type``, ``Transfer-Encoding``,
  ``Connection``) are dropped wherever an artefact wrote them. One connection per
  request (``Connection: close``), so the certificate reported is the one that answered.
* **The credential** goes from the composed Auth header straight to the wire, written
  last. It is held in a :class:`Credential`, which has no rendering, and it is never in
  a response object, a fault's text or a request description.
* **The deadline** is the Operation's own, covering every request its Patterns make;
  there is no other timeout.

The response object is ``host``, ``status``, ``headers``, ``body`` (present only where
the body parsed as JSON), ``tls``; a call that got no answer is ``{host}`` alone, with
the reason as narration in :class:`~hyper.capability.Fault` — never as a member.

Faults are classified by **where** they happened, never by what an error said: a failure
inside the dialer (refused, unresolved, handshake failed — not a timeout) is ``unsent``,
which is the only failure a retry Pattern may follow.
"""

from __future__ import annotations

import base64
import datetime as _dt
import http.client
import time
import urllib.parse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from hyper.capability import BODY, HEADERS, HOST, STATUS, TLS, Answer, Call, Context, Fault, Response, reach
from hyper.capability import patterns as pattern
from hyper.capability.patterns import Exchange, Page
from hyper.capability.projection import read
from hyper.capability.response import body_member, headers_member, tls_member
from hyper.capability.template import body, fill
from hyper.core.faults import TemplateFault
from hyper.core.namedtuple import NamedTuple
from hyper.yaml.subset import Map, Scalar

if TYPE_CHECKING:
    import ssl

    from hyper.artefact.manifest import Auth, HttpRequest
    from hyper.capability.reach import Reach
    from hyper.core.process import Dialer

SCHEME: Final = "https"
PORT: Final = 443
USER_AGENT: Final = "hyper"
"""Sent unless the Manifest writes its own; some APIs refuse a request that names no agent."""
RESERVED: Final = frozenset({"host", "content-length", "content-type", "transfer-encoding", "connection"})
_CHUNK: Final = 65536
_PATH_SAFE: Final = "/$&+,:;=@"


class Request(NamedTuple):
    """What leaves, every hole filled. It is a value a caller may describe: no credential in it."""

    method: str
    host: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None

    @property
    def target(self) -> str:
        """The request target: the path escaped as a path, the query in authored order."""
        path = self.path if self.path.startswith("/") else "/" + self.path
        escaped = urllib.parse.quote(path, safe=_PATH_SAFE)
        if not self.query:
            return escaped
        return escaped + "?" + "&".join(f"{_query(name)}={_query(value)}" for name, value in self.query)

    @property
    def url(self) -> str:
        return f"{SCHEME}://{self.host}{self.target}"


def _query(text: str) -> str:
    return urllib.parse.quote_plus(text, safe="")


def build(declared: HttpRequest, host: str, inputs: Mapping[str, Any]) -> Request:
    """The request an ``http:`` block makes against ``host``; :class:`TemplateFault` names a hole
    nothing fills (or a body literal JSON cannot spell)."""

    def pairs(position: str, node: Any) -> tuple[tuple[str, str], ...]:
        if not isinstance(node, Map):
            return ()
        return tuple(
            (key.value, fill(f"{position}{key.value}", value.value, inputs))
            for key, value in node.entries
            if isinstance(value, Scalar)
        )

    return Request(
        method=declared.method.value if declared.method is not None else "",
        host=host,
        path=fill("path:", declared.path.value if declared.path is not None else "", inputs),
        query=pairs("query:", declared.query),
        headers=pairs("headers:", declared.headers),
        body=body(declared.body, inputs) if declared.body is not None else None,
    )


class Credential:
    """One request's composed Auth header. It renders as nothing: no ``repr`` shows the value,
    and it is handed to :func:`send` and to nothing that writes."""

    __slots__ = ("_name", "_value")

    def __init__(self, name: str, value: str) -> None:
        self._name, self._value = name, value

    def __repr__(self) -> str:
        return f"Credential({self._name}: <secret>)"

    def header(self) -> tuple[str, str]:
        return self._name, self._value


def credential(auth: Auth | None, slots: Mapping[str, str]) -> Credential | None:
    """The header the Manifest's Auth scheme composes from the bound Target's slot values."""
    if auth is None:
        return None
    if auth.scheme == "header" and auth.owned_header:
        return Credential(auth.owned_header, auth.prefix + slots.get("token", ""))
    if auth.scheme == "basic":
        pair = f"{slots.get('username', '')}:{slots.get('password', '')}".encode()
        return Credential("Authorization", "Basic " + base64.b64encode(pair).decode("ascii"))
    return None


def canonical(name: str) -> str:
    """A header name as it goes on the wire: each ``-``-separated word capitalised."""
    if not name or any(not (c.isalnum() or c in "!#$%&'*+-.^_`|~") for c in name):
        return name
    return "-".join(word[:1].upper() + word[1:].lower() for word in name.split("-"))


def _wire_headers(request: Request, secret: Credential | None) -> list[tuple[str, str]]:
    """The headers in the order they are written: the reserved five dropped, the credential
    last among the authored, then the ones hyper computes."""
    written: dict[str, tuple[str, str]] = {}
    for name, value in request.headers:
        if name.lower() not in RESERVED:
            written[name.lower()] = (canonical(name), value)
    if "user-agent" not in written:
        written = {"user-agent": ("User-Agent", USER_AGENT), **written}
    if secret is not None:
        name, value = secret.header()
        written.pop(name.lower(), None)
        written[name.lower()] = (canonical(name), value)
    headers = [("Host", request.host), *written.values()]
    if request.body is not None:
        headers += [("Content-Type", "application/json"), ("Content-Length", str(len(request.body)))]
    headers.append(("Connection", "close"))
    return headers


class Clock:
    """The Operation's deadline, counted from when it is made, as seconds left (``None``: none).

    Read on ``monotonic``, the process's :attr:`~hyper.core.process.Process.monotonic`: every
    wait on the wire is given what is left on that clock, so a process whose clock stands still
    while it works (the corpus's) spends its deadline only on what it waits for."""

    def __init__(self, seconds: float | None, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self.until = None if seconds is None else monotonic() + seconds

    def left(self) -> float | None:
        return None if self.until is None else self.until - self._monotonic()

    def passed(self) -> bool:
        left = self.left()
        return left is not None and left <= 0

    def budget(self) -> float | None:
        """The timeout for the next wait on the wire; ``TimeoutError`` once nothing is left."""
        left = self.left()
        if left is not None and left <= 0:
            raise TimeoutError("the Operation's deadline was reached")
        return left


DEADLINE_TEXT: Final = "the Operation's deadline was reached and no response arrived"


def send(
    request: Request, dial: Dialer, instant: _dt.datetime, clock: Clock, secret: Credential | None = None
) -> Exchange:
    """One request, one connection; the response object and, where there is one, the fault."""
    answer: Response = {HOST: request.host}
    host, _, port_text = request.host.rpartition(":") if _has_port(request.host) else (request.host, "", "")
    port = int(port_text) if port_text else PORT
    host = _dialled_host(host)
    connection = _Connection(host, port)
    try:
        connection.putrequest(request.method, request.target, skip_host=True, skip_accept_encoding=True)
        for name, value in _wire_headers(request, secret):
            connection.putheader(name, value)
    except (ValueError, http.client.HTTPException) as exc:
        return Exchange(
            answer, Fault("transport", f"{request.method} {request.url}: the request cannot be written: {exc}")
        )
    try:
        sock = dial(host, port, clock.budget())
    except TimeoutError as exc:
        return Exchange(answer, _late(clock, request, f"no connection to {request.host} in time: {_reason(exc)}"))
    except OSError as exc:
        if clock.passed():
            return Exchange(answer, Fault("deadline", DEADLINE_TEXT))
        return Exchange(answer, Fault("unsent", f"{request.method} {request.url}: {_dial_reason(request.host, exc)}"))
    try:
        return Exchange(_exchange(connection, sock, request, instant, clock, answer))
    except (OSError, http.client.HTTPException) as exc:
        return Exchange(answer, _late(clock, request, _reason(exc)))
    finally:
        sock.close()


class _Connection(http.client.HTTPConnection):
    """The standard client over a socket the caller dialled, and keeps: reading a response to
    the end does not close it, so its timeout can follow the deadline to the last byte."""

    def close(self) -> None:
        self.sock = None


def _has_port(host: str) -> bool:
    """Whether a granted host names its port: ``name:8443``, or an IPv6 literal in brackets
    followed by one (``[::1]:8443``) — a bare literal's own colons are never a port."""
    head, sep, tail = host.rpartition(":")
    if not sep or not tail.isdigit():
        return False
    if head.startswith("["):
        return head.endswith("]")
    return ":" not in head


def _dialled_host(host: str) -> str:
    """The name or address to dial: an IPv6 literal without its brackets."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


class _Bounded:
    """The dialled socket with every wait on it bounded by what is left of the deadline.

    ``http.client`` reads a status line, headers and a body through many ``recv`` calls, and a
    timeout set once applies to each of them: a server dripping a byte at a time held a
    request far past its deadline. Here each call is given only what remains."""

    def __init__(self, sock: ssl.SSLSocket, clock: Clock) -> None:
        self._sock = sock
        self._clock = clock

    def _bound(self) -> None:
        self._sock.settimeout(self._clock.budget())

    def recv_into(self, buffer: Any, size: int = 0) -> int:
        self._bound()
        return self._sock.recv_into(buffer, size)

    def recv(self, size: int) -> bytes:
        self._bound()
        return self._sock.recv(size)

    def sendall(self, data: Any) -> None:
        view = memoryview(data).cast("B")
        while view:
            self._bound()
            view = view[self._sock.send(view[:_CHUNK]) :]

    def makefile(self, mode: str) -> Any:
        import io
        import socket

        return io.BufferedReader(socket.SocketIO(self, mode))  # type: ignore[arg-type]

    def _decref_socketios(self) -> None:
        """What ``SocketIO.close`` calls back: the socket itself is closed by :func:`send`."""

    def close(self) -> None:
        """``http.client`` closes what it read through; the dialled socket stays :func:`send`'s."""


def _late(clock: Clock, request: Request, reason: str) -> Fault:
    if clock.passed():
        return Fault("deadline", DEADLINE_TEXT)
    return Fault("transport", f"{request.method} {request.url}: {reason}")


def _exchange(
    connection: http.client.HTTPConnection,
    sock: ssl.SSLSocket,
    request: Request,
    instant: _dt.datetime,
    clock: Clock,
    answer: Response,
) -> Response:
    connection.sock = _Bounded(sock, clock)
    connection.endheaders(request.body)
    reply = connection.getresponse()
    chunks: list[bytes] = []
    while True:
        chunk = reply.read(_CHUNK)
        if not chunk:
            break
        chunks.append(chunk)
    reply.close()

    answer = {**answer, STATUS: reply.status, HEADERS: headers_member(reply.getheaders())}
    parsed, value = body_member(b"".join(chunks))
    if parsed:
        answer[BODY] = value
    peer = sock.getpeercert()
    facts = tls_member(peer, instant) if peer else None
    if facts is not None:
        answer[TLS] = facts
    return answer


def _dial_reason(host: str, exc: OSError) -> str:
    import socket  # deferred: start-up cost
    import ssl  # deferred: start-up cost

    if isinstance(exc, socket.gaierror):
        return f"the name {host} did not resolve: {exc.strerror or exc}"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"the TLS handshake with {host} failed: {_unverified(host, exc)}"
    if isinstance(exc, ssl.SSLError):
        return f"the TLS handshake with {host} failed: {exc.reason or exc}"
    if isinstance(exc, ConnectionRefusedError):
        return f"{host} refused the connection"
    return f"no connection to {host}: {_reason(exc)}"


_UNKNOWN_ISSUER: Final = frozenset({2, 18, 19, 20, 21})
"""OpenSSL's verify codes for a chain that ends nowhere this machine trusts: an issuer it
cannot find, a self-signed leaf or root it does not hold, a leaf it cannot check."""
_EXPIRED: Final = 10
_NOT_YET_VALID: Final = 9
_WRONG_HOST: Final = frozenset({62, 64})


def _unverified(host: str, exc: ssl.SSLCertVerificationError) -> str:
    """Why the peer's certificate did not verify, in the three cases a reader acts on
    differently: trust the issuer (or fix the chain), renew it, or fix the name. Only
    OpenSSL's code is read, never the certificate, so nothing of the peer is echoed. An error
    raised by other code than OpenSSL's (a wrapper, a stand-in dialer) may carry no code at all:
    it is then named by what it does carry, never a traceback."""
    code = getattr(exc, "verify_code", None)
    if code in _UNKNOWN_ISSUER:
        return f"the certificate {host} presented was issued by no authority this machine trusts (unknown issuer)"
    if code == _EXPIRED:
        return f"the certificate {host} presented has expired"
    if code == _NOT_YET_VALID:
        return f"the certificate {host} presented is not valid yet"
    if code in _WRONG_HOST:
        return f"the certificate {host} presented is for another host name (wrong host)"
    said = getattr(exc, "verify_message", None) or getattr(exc, "reason", None) or exc
    return f"the certificate {host} presented did not verify: {said}"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    text = str(exc)
    return text or type(exc).__name__


def perform(call: Call, context: Context) -> Answer:
    """One Operation performed: the host resolved and checked, its Patterns walked."""
    clock = Clock(call.deadline, context.process.monotonic)
    declared = call.operation.http
    if declared is None:
        return Answer({}, Fault("unsent", "the Operation writes no http: block"))

    grant = call.target.host_values if call.target is not None else ()
    where = reach.resolve(
        declared.host.value if declared.host is not None else "",
        _enumerations(call),
        grant,
        declared.host_input.value if declared.host_input is not None else "",
        call.inputs,
    )
    if where.verdict != "granted":
        return Answer({HOST: where.host} if where.host else {}, _declined(call, where))
    try:
        request = build(declared, where.host, call.inputs)
    except TemplateFault as exc:
        return Answer({HOST: where.host}, Fault("unsent", str(exc)))
    secret = credential(call.manifest.auth, call.credentials)
    dial = context.process.dial

    def one(page: Page) -> Exchange:
        query, headers = pattern.write(page, request.query, request.headers)
        return send(request._replace(query=query, headers=headers), dial, context.instant, clock, secret)

    walked = pattern.walk(
        pattern.read(call.operation.patterns),
        one,
        pattern.collection_size(read(call.operation.record).over),
        context.instant,
        clock.left,
        context.process.pause,
    )
    return Answer(walked.response, walked.fault, walked.account, walked.earlier)


def _enumerations(call: Call) -> dict[str, tuple[str, ...]]:
    from hyper.check.facts import provider_facts  # deferred: start-up cost

    return dict(provider_facts(call.manifest).enumerations)


def _declined(call: Call, where: Reach) -> Fault:
    target = call.target.declared_name if call.target is not None else "the bound Target"
    name = call.operation.name
    if where.verdict == "undecidable":
        return Fault(
            "refused",
            f"{name} can reach {where.granted} of {target}'s granted hosts and declares no host-input: naming one",
            "manifest-inconsistent",
        )
    if where.verdict == "illegible":
        return Fault(
            "refused", f"{name} writes a host: hole that is neither from-target nor an enumeration", "hole-illegal"
        )
    return Fault("refused", f"{target}'s hosts: do not grant {where.host or 'any host'}", "host-not-granted")

"""A case's ``serve/``: canned HTTPS answers from a real TLS server standing in this process.

**The call is real; only the name resolution is a fixture.** A case that holds
``serve/<host>.json`` gets one in-process TLS server for all its hosts, with a
certificate minted at the case's own instant, and the command is handed a
:data:`hyper.core.process.Dialer` that connects every served host name to that listener. So
a case exercises a real handshake, a real peer certificate, a real status line, real
headers and a real JSON parse, and nothing about the *response object* is ever written
down by a case — a ``serve/`` file says what a server answers (a status, headers, a
body) and nothing about what hyper does with it.

* **A host with no entry has its connection refused** — the one way *no response
  arrived at all* is driven. A case with no ``serve/`` at all dials nothing: a dial is
  a harness problem there, since the case could not have asserted what came back.
* **The certificate** covers every served host, names the first (sorted) as its common
  name with organisation :data:`ORGANISATION`, is valid from a day before the case's
  instant to :data:`CERTIFICATE_LIFE` after it (so ``tls.days_left`` is 34, floored off
  a real chain), and is its own issuer. The dialer trusts exactly it and checks the
  host name, but not the validity window against the machine's clock: the window is
  the case's, and the case's clock is fixed.
* **The response** carries the case's status and headers, a ``Date`` stamped from the
  case's instant (a server sends one; which instant it names is the fixture's), a
  ``Content-Length``, and — where the case names none and the body is not empty — a
  ``Content-Type`` sniffed as a Go server would. ``echo_request_headers`` makes the
  body a JSON object of the named request headers (lower-cased, sorted; ``""`` for
  one not sent): the one way a case can assert what hyper put on the wire.
* **``delay_ms``** holds the answer back that long after the request has been read —
  the one way a case drives a deadline reached *after* the request left, or members of
  a concurrent Expansion answering out of their Expansion order. The wait ends early
  when the case is over, so a client that gave up never holds the harness. The hold is
  also what moves the dialling thread's stopwatch, the clock hyper's deadline is read on
  in a case (:mod:`harness.stopwatch`): a deadline is reached by a hold, never by load.
* **``answers``** is a list of answers (each with the keys above) the host gives in
  order, one per request, before falling back to its own: how one host answers two
  reads differently (a Manifest, then the checksums file beside it). A host with
  ``answers`` and no ``status`` of its own repeats its last answer once the list is
  spent, as the reference's fixtures are written.
* **``repeat``** sends the body that many times over: how a body larger than any file
  worth checking in (a Manifest past ``install``'s cap) is served.
* **``hangs``** (the host's, never one answer's) accepts the connection, reads the request
  and answers nothing until the client gives up or the case is over: the one way an
  Operation's own ``deadline:`` is reached with no answer in flight.
* **``refuse_first``** refuses that many dials to the host before any is accepted, and
  **``refuse_first_as``** says how each fails, in order — ``refused`` (nothing accepted the
  connection, the default), ``name`` (the name did not resolve) or ``handshake`` (the
  peer's certificate did not verify); a list shorter than the count repeats its last
  entry. A host with no ``status`` may refuse or hang; reaching it past that is a fault.
  It is how a retry is shown succeeding, and every failure that provably precedes the
  request is driven through the dialer where it really happens.
* **A body template**: ``<<query>>`` in a body is replaced by the request's raw query
  string, and ``<<header:name>>`` by that request header (``""`` when not sent) — how a
  paginating read shows which page it asked for while still projecting Records.
* **``Content-Length``** is the body's length unless the case's headers name one: a case
  declaring more than it sends is how a body that stopped part-way is served.
"""

from __future__ import annotations

import datetime as _dt
import email.utils
import errno
import http
import re
import socket
import ssl
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import attrs
import orjson

from harness.fault import CaseFault
from harness.stopwatch import PATIENCE, Line, Stopwatches, WatchedSocket
from hyper.core.deepjson import compact

ORGANISATION: Final = "hyper golden fixture"
CERTIFICATE_LIFE: Final = _dt.timedelta(days=34, hours=12)
_HOST_KEYS: Final = frozenset({"answers", "hangs", "refuse_first", "refuse_first_as"})
_KEYS: Final = frozenset({"status", "headers", "body", "echo_request_headers", "delay_ms", "repeat"}) | _HOST_KEYS
"""Facts about the host, which no one of its ``answers`` may carry."""
_REFUSALS: Final = ("refused", "name", "handshake")
_QUERY: Final = "<<query>>"
_HEADER: Final = re.compile(r"<<header:([^<>]+)>>")
_NO_CHECK_TIME: Final = 0x200000
"""OpenSSL's ``X509_V_FLAG_NO_CHECK_TIME``: the chain is verified, its dates against nothing."""


@attrs.frozen
class Served:
    """What one host answers."""

    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: str = ""
    echo_request_headers: tuple[str, ...] = ()
    delay_ms: int = 0
    repeat: int = 1
    answers: tuple[Served, ...] = ()
    hangs: bool = False
    refuse_first: int = 0
    refuse_first_as: tuple[str, ...] = ()


def read_served(directory: Path) -> dict[str, Served]:
    """Every ``<host>.json`` under ``directory``, read strictly; ``{}`` where there is none."""
    if not directory.is_dir():
        return {}
    served: dict[str, Served] = {}
    for path in sorted(directory.iterdir()):
        where = f"serve/{path.name}"
        if path.is_dir() or path.suffix != ".json":
            raise CaseFault(f"holds {where}; serve/ holds one <host>.json per served host and nothing else")
        try:
            value = orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError as error:
            raise CaseFault(f"{where} is not JSON: {error}") from None
        served[path.name.removesuffix(".json")] = _served(where, value)
    return served


def _served(where: str, value: Any, nested: bool = False) -> Served:
    if not isinstance(value, dict):
        raise CaseFault(f"{where} is not an object of status, headers, body, echo_request_headers and delay_ms")
    unknown = sorted(set(value) - (_KEYS - _HOST_KEYS if nested else _KEYS))
    if unknown:
        raise CaseFault(f"{where} carries {', '.join(unknown)}; it takes {', '.join(sorted(_KEYS))}")
    hangs = value.get("hangs", False)
    if not isinstance(hangs, bool):
        raise CaseFault(f"{where}'s hangs is not true or false")
    refuse_first = value.get("refuse_first", 0)
    if isinstance(refuse_first, bool) or not isinstance(refuse_first, int) or refuse_first < 0:
        raise CaseFault(f"{where}'s refuse_first is not a whole number of dials to refuse, zero or more")
    refuse_as = value.get("refuse_first_as", [])
    if not isinstance(refuse_as, list) or not all(each in _REFUSALS for each in refuse_as):
        raise CaseFault(f"{where}'s refuse_first_as is not a list of {', '.join(_REFUSALS)}")
    if refuse_as and not refuse_first:
        raise CaseFault(f"{where} says how refusals fail and refuses no dial (refuse_first)")
    status = value.get("status")
    if status is None and (hangs or refuse_first or (value.get("answers") and not nested)):
        status = 0  # a host that only refuses, hangs or walks its answers may answer no status of its own
    elif isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
        raise CaseFault(f"{where} names no status from 100 to 599; a server always answers one")
    headers = value.get("headers", {})
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        raise CaseFault(f"{where}'s headers is not an object of header name to string value")
    body = value.get("body", "")
    if not isinstance(body, str):
        raise CaseFault(f"{where}'s body is not a string; it holds the bytes sent, exactly")
    echo = value.get("echo_request_headers", [])
    if not isinstance(echo, list) or not all(isinstance(name, str) for name in echo):
        raise CaseFault(f"{where}'s echo_request_headers is not a list of header names")
    delay = value.get("delay_ms", 0)
    if isinstance(delay, bool) or not isinstance(delay, int) or delay < 0:
        raise CaseFault(f"{where}'s delay_ms is not a whole number of milliseconds, zero or more")
    repeat = value.get("repeat", 1)
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise CaseFault(f"{where}'s repeat is not a whole number of times to send the body, one or more")
    answers = value.get("answers", [])
    if not isinstance(answers, list):
        raise CaseFault(f"{where}'s answers is not a list of answers given in order")
    turns = tuple(_served(f"{where} answers[{n}]", answer, nested=True) for n, answer in enumerate(answers))
    return Served(
        status, tuple(headers.items()), body, tuple(echo), delay, repeat, turns, hangs, refuse_first, tuple(refuse_as)
    )


@contextmanager
def serving(
    served: Mapping[str, Served], instant: _dt.datetime, problems: list[str], watches: Stopwatches | None = None
) -> Iterator[Any]:
    """A dialer for the case's process, with the server behind it for the duration; each
    connection's waits are read on the stopwatch of the thread that dialled it (``watches``,
    the process's own; by default a set no process reads, where no hold is driven)."""
    watches = watches or Stopwatches()
    if not served:

        def nothing(host: str, port: int, timeout: float | None) -> ssl.SSLSocket:
            problems.append(f"dialled {host}:{port}, and the case carries no serve/ entry for any host")
            raise ConnectionRefusedError(errno.ECONNREFUSED, "the golden harness dials nothing for this case")

        yield nothing
        return
    hosts = sorted(served)
    certificate, key = _mint(hosts, instant)
    with tempfile.TemporaryDirectory(prefix="hyper-serve-") as scratch:
        chain, secret = Path(scratch) / "cert.pem", Path(scratch) / "key.pem"
        chain.write_bytes(certificate)
        secret.write_bytes(key)
        server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_side.load_cert_chain(chain, secret)
        client_side = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        client_side.load_verify_locations(cadata=certificate.decode("ascii"))
        client_side.verify_flags |= _NO_CHECK_TIME
        client_side.sslsocket_class = WatchedSocket
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.02)
    port = listener.getsockname()[1]
    stopping = threading.Event()
    turns = _Turns(served)
    lines: dict[int, Line] = {}
    thread = threading.Thread(
        target=_accept, args=(listener, server_side, turns, lines, instant, stopping), daemon=True
    )
    thread.start()

    def dial(host: str, wanted: int, timeout: float | None) -> ssl.SSLSocket:
        # ``timeout`` is left unread: the served host never holds a handshake, so on the
        # stopwatch one takes no time at all (harness/stopwatch.py); PATIENCE bounds it for real.
        if host not in served:
            raise ConnectionRefusedError(errno.ECONNREFUSED, f"{host} is not served by this case")
        refused = turns.refusing(host)
        if refused is not None:
            raise _refusal(refused, host)
        raw = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
        line = lines[raw.getsockname()[1]] = Line(watches.watch())
        try:
            sock = client_side.wrap_socket(raw, server_hostname=host)
        except BaseException:
            raw.close()
            raise
        assert isinstance(sock, WatchedSocket)  # the context's sslsocket_class
        sock.line = line
        return sock

    try:
        yield dial
    finally:
        stopping.set()
        thread.join()
        listener.close()


def _mint(hosts: list[str], instant: _dt.datetime) -> tuple[bytes, bytes]:
    # deferred: only a case with serve/ mints a certificate
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [x509.NameAttribute(NameOID.COMMON_NAME, hosts[0]), x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION)]
    )
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(instant - _dt.timedelta(days=1))
        .not_valid_after(instant + CERTIFICATE_LIFE)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host) for host in hosts]), critical=False)
        .sign(key, hashes.SHA256())
    )
    return (
        certificate.public_bytes(serialization.Encoding.PEM),
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
    )


def _refusal(how: str, host: str) -> OSError:
    """The error a dial fails with, of the type that failure really raises where it happens."""
    if how == "name":
        return socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    if how == "handshake":
        failed = ssl.SSLCertVerificationError(1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed")
        failed.reason = "CERTIFICATE_VERIFY_FAILED"
        failed.verify_code = 20  # what OpenSSL sets: no issuer this machine trusts
        failed.verify_message = "unable to get local issuer certificate"
        return failed
    return ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")


class _Turns:
    """Which answer each host gives next: its ``answers`` in order, then its own for good; and
    how many of its dials are still to be refused."""

    def __init__(self, served: Mapping[str, Served]) -> None:
        self._served = served
        self._taken: dict[str, int] = {}
        self._refused: dict[str, int] = {}
        self._lock = threading.Lock()

    def refusing(self, host: str) -> str | None:
        """How this dial fails, or ``None`` where the host accepts it; counts it either way."""
        answer = self._served[host]
        with self._lock:
            done = self._refused.get(host, 0)
            if done >= answer.refuse_first:
                return None
            self._refused[host] = done + 1
        named = answer.refuse_first_as
        return named[min(done, len(named) - 1)] if named else "refused"

    def next(self, host: str) -> Served | None:
        answer = self._served.get(host)
        if answer is None or not answer.answers:
            return answer
        with self._lock:
            turn = self._taken.get(host, 0)
            self._taken[host] = turn + 1
        if turn < len(answer.answers):
            return answer.answers[turn]
        return answer if answer.status else answer.answers[-1]


def _accept(
    listener: socket.socket,
    context: ssl.SSLContext,
    served: _Turns,
    lines: Mapping[int, Line],
    instant: _dt.datetime,
    stopping: threading.Event,
) -> None:
    while not stopping.is_set():
        try:
            raw, _ = listener.accept()
        except TimeoutError:
            continue
        except OSError:
            return
        threading.Thread(target=_answer, args=(raw, context, served, lines, instant, stopping), daemon=True).start()


def _answer(
    raw: socket.socket,
    context: ssl.SSLContext,
    served: _Turns,
    lines: Mapping[int, Line],
    instant: _dt.datetime,
    stopping: threading.Event,
) -> None:
    raw.settimeout(PATIENCE)
    try:
        with context.wrap_socket(raw, server_side=True) as conn:
            head, rest = _read_head(conn)
            if head is None:
                return
            request_line, *fields = head.decode("latin-1").split("\r\n")
            headers: dict[str, str] = {}
            for field in fields:
                name, _, value = field.partition(":")
                headers.setdefault(name.strip().lower(), value.strip())
            _drain_body(conn, rest, int(headers.get("content-length", "0") or 0))
            host = headers.get("host", "").partition(":")[0]
            answer = served.next(host)
            line = lines.get(conn.getpeername()[1])  # registered by the dialer before its handshake
            if answer is not None and answer.hangs:
                if line is not None:
                    line.hold(None)
                stopping.wait()
                return
            if answer is not None and answer.delay_ms:
                if line is not None:
                    line.hold(answer.delay_ms / 1000)
                if stopping.wait(answer.delay_ms / 1000):
                    return
            target = request_line.split(" ")[1] if request_line.count(" ") >= 2 else ""
            conn.sendall(_response(answer, headers, target.partition("?")[2], instant))
    except (OSError, ValueError):
        return  # a client that went away (a deadline, a refused handshake) is the case's subject, not a fault


def _read_head(conn: ssl.SSLSocket) -> tuple[bytes | None, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _drain_body(conn: ssl.SSLSocket, rest: bytes, length: int) -> None:
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return
        rest += chunk


def _response(answer: Served | None, request: Mapping[str, str], query: str, instant: _dt.datetime) -> bytes:
    if answer is None or answer.status == 0:
        plain = (("Content-Type", "text/plain; charset=utf-8"),)
        answer = Served(500, plain, "the golden harness serves no such answer")
    written = _HEADER.sub(lambda named: request.get(named.group(1).lower(), ""), answer.body.replace(_QUERY, query))
    body = written.encode("utf-8") * answer.repeat
    if answer.echo_request_headers:
        echoed = {name.lower(): request.get(name.lower(), "") for name in answer.echo_request_headers}
        body = compact({name: echoed[name] for name in sorted(echoed)})
    headers: dict[str, tuple[str, str]] = {
        "date": ("Date", email.utils.format_datetime(instant.astimezone(_dt.UTC), usegmt=True))
    }
    for name, value in answer.headers:
        headers[name.lower()] = (name, value)
    bodiless = answer.status < 200 or answer.status in (204, 304)
    if body and "content-type" not in headers and not bodiless:
        headers["content-type"] = ("Content-Type", _sniff(body))
    if not bodiless and "content-length" not in headers:
        headers["content-length"] = ("Content-Length", str(len(body)))
    try:
        reason = http.HTTPStatus(answer.status).phrase
    except ValueError:
        reason = f"status code {answer.status}"
    lines = [f"HTTP/1.1 {answer.status} {reason}", *(f"{name}: {value}" for name, value in headers.values())]
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (b"" if bodiless else body)


def _sniff(body: bytes) -> str:
    """The type a Go server names for a body whose handler named none (the cases that matter)."""
    head = body.lstrip(b"\t\n\x0c\r ")[:14].lower()
    if head.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<p", b"<div")):
        return "text/html; charset=utf-8"
    if any(byte < 0x09 or 0x0D < byte < 0x20 or byte == 0x7F for byte in body[:512]):
        return "application/octet-stream"
    return "text/plain; charset=utf-8"

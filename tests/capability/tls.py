"""A local HTTPS server with a test CA minted at test time, and the dialer that reaches it.

No test touches the network: the dialer resolves every name a test serves to the local
listener and verifies the peer against the test CA alone, so the handshake and the host
name check are as real as hyper's own dialer makes them.
"""

from __future__ import annotations

import datetime as _dt
import http.server
import socket
import ssl
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

NOW = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
LIFE = _dt.timedelta(days=30, hours=6)


class Seen(NamedTuple):
    """One request as the server read it."""

    method: str
    target: str
    headers: dict[str, str]
    """Lower-cased names; a repeated name keeps its last value."""
    body: bytes


class Reply(NamedTuple):
    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""


Handler = Callable[[Seen], Reply]


def _name(common: str) -> x509.Name:
    return x509.Name(
        [x509.NameAttribute(NameOID.COMMON_NAME, common), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "hyper tests")]
    )


_CA_USAGE = x509.KeyUsage(
    digital_signature=False,
    content_commitment=False,
    key_encipherment=False,
    data_encipherment=False,
    key_agreement=False,
    key_cert_sign=True,
    crl_sign=True,
    encipher_only=False,
    decipher_only=False,
)


def mint(hosts: list[str], expired: bool = False) -> tuple[bytes, bytes, bytes]:
    """A CA, and a leaf for ``hosts`` signed by it: (CA PEM, leaf PEM, leaf key PEM); an
    ``expired`` leaf ended a day before now.

    The key usage and key identifiers are what 3.13's default context checks (it verifies
    strictly, ``VERIFY_X509_STRICT``): without them a real dialer on 3.13 refuses the CA."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("hyper test CA"))
        .issuer_name(_name("hyper test CA"))
        .public_key(ca_key.public_key())
        .serial_number(1)
        .not_valid_before(NOW - _dt.timedelta(days=1))
        .not_valid_after(NOW + _dt.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(_CA_USAGE, critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(_name(hosts[0]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(2)
        .not_valid_before(NOW - _dt.timedelta(days=40 if expired else 1))
        .not_valid_after(NOW - _dt.timedelta(days=1) if expired else NOW + LIFE)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(h) for h in hosts]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    return (
        ca.public_bytes(pem),
        leaf.public_bytes(pem),
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
    )


class Server:
    """What a test reads back: every request seen, and a dialer that counts its dials."""

    def __init__(self, port: int, trust: ssl.SSLContext, hosts: list[str], ca_pem: bytes = b"") -> None:
        self.port = port
        self.trust = trust
        self.ca_pem = ca_pem
        """The test CA, for a child process that trusts it the way a user would (``SSL_CERT_FILE``)."""
        self.hosts = hosts
        self.seen: list[Seen] = []
        self.dials: list[str] = []
        self.refuse: list[str] = []
        """Hosts whose next dials are refused, one entry per refusal (then they connect)."""

    def dial(self, host: str, port: int, timeout: float | None) -> ssl.SSLSocket:
        self.dials.append(host)
        if host in self.refuse:
            self.refuse.remove(host)
            raise ConnectionRefusedError(111, "Connection refused")
        if host not in self.hosts:
            raise socket.gaierror(-2, "Name or service not known")
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        try:
            return self.trust.wrap_socket(raw, server_hostname=host)
        except BaseException:
            raw.close()
            raise


def contexts(names: list[str], expired: bool = False) -> tuple[bytes, ssl.SSLContext, ssl.SSLContext]:
    """A fresh CA, a server's context holding its leaf for ``names``, and a client's trusting it alone."""
    ca, leaf, key = mint(names, expired)
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "leaf.pem").write_bytes(leaf)
        (Path(scratch) / "key.pem").write_bytes(key)
        server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_side.load_cert_chain(Path(scratch) / "leaf.pem", Path(scratch) / "key.pem")
    trust = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    trust.load_verify_locations(cadata=ca.decode("ascii"))
    return ca, server_side, trust


@contextmanager
def serving(handler: Handler, hosts: list[str] | None = None, expired: bool = False) -> Iterator[Server]:
    names = hosts or ["api.test.example"]
    ca, server_side, trust = contexts(names, expired)
    seen: list[Seen] = []

    class Handle(http.server.BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            request = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            seen.append(request)
            reply = handler(request)
            self.send_response(reply.status)
            for name, value in reply.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _any

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handle)
    httpd.daemon_threads = True
    httpd.socket = server_side.wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    server = Server(httpd.server_address[1], trust, names, ca)
    server.seen = seen
    try:
        yield server
    finally:
        httpd.shutdown()
        httpd.server_close()

"""The one network read ``project`` makes: the sha256 the package index records for this build's wheel.

It happens only when the pin moves, attended, and its answer lands in a diff:
freezing the checksum turns a version on an index — a name whose file could in
principle be replaced — into a reviewed fact. What is read is the index's JSON page
for the release (PyPI's ``/pypi/<name>/<version>/json``, a few kilobytes), never the
wheel itself.

It is hyper's own fetch, not an Operation: no Capability, Target, credential,
Journal or Store is involved. It shares only the process's dialer, so HTTPS with a
verified peer is the only way out and a test stands a server behind the dialer.
Unlike a Capability's call it follows redirects, but never into plaintext.

Two answers, two exits. :class:`ReleaseAbsent` is an answer that *arrived* and
says there is nothing to pin — no such release on the index (404 or 410), or a
release whose files include no wheel of the expected name — and a verbatim retry
would get it again. :class:`NotArrived` is everything else: no connection, a read
cut short, a page that is not the index's JSON, and any other status (a 503 or a
rate limit can differ on the next try).

``install`` reads an extension Manifest and its checksums file through the same
:func:`get` and :func:`digest_in`: one HTTPS client and one ``sha256sum`` reader, so
the two commands cannot come to disagree about a redirect or a checksums line.
"""

from __future__ import annotations

import http.client
import re
import socket
import ssl
import urllib.parse
from typing import TYPE_CHECKING, Any, Final

from hyper.core.deepjson import loads
from hyper.core.faults import NotArrived, ReleaseAbsent
from hyper.workflow.executor import artefact_name, release_url

if TYPE_CHECKING:
    from hyper.core.process import Dialer

ABSENT_STATUSES: Final = frozenset({404, 410})
MAX_CHECKSUMS: Final = 1 << 20
"""How much of a checksums file is read: one ``sha256sum`` line per published file is far less."""
MAX_RELEASE_PAGE: Final = 8 << 20
"""How much of the index's JSON page is read: it repeats the project's description, so allow for a long one."""
_HEX: Final = re.compile(r"[0-9a-f]{64}")
MAX_REDIRECTS: Final = 10
_REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})


def published_digest(dial: Dialer, version: str) -> str:
    """``sha256:<hex>`` for ``version``'s wheel, as the index's JSON page for the release records it."""
    url = release_url(version)
    status, body = get(dial, url, MAX_RELEASE_PAGE + 1)
    if status in ABSENT_STATUSES:
        raise ReleaseAbsent(f"{url} answered {status}")
    if status != 200:
        raise NotArrived(f"{url} answered {status}")
    if len(body) > MAX_RELEASE_PAGE:
        raise NotArrived(f"{url} answered more than {MAX_RELEASE_PAGE} bytes")
    name = artefact_name(version)
    files = _files(url, body)
    if name not in files:
        raise ReleaseAbsent(f"{url} lists no {name}")
    return f"sha256:{files[name]}"


def _files(url: str, body: bytes) -> dict[str, str]:
    """Each listed file's name and sha256 from the page's ``urls``; a page not shaped so did not arrive.

    A listed file without a well-formed sha256 is a page this reader cannot trust at all,
    not a file to pass over: the digest is the whole point of the read.
    """
    try:
        page: Any = loads(body.decode("utf-8"))
    except ValueError as exc:
        raise NotArrived(f"{url} answered something that is not JSON: {exc}") from exc
    listed = page.get("urls") if isinstance(page, dict) else None
    if not isinstance(listed, list):
        raise NotArrived(f"{url} answered JSON with no urls list, so not the index's release page")
    files: dict[str, str] = {}
    for entry in listed:
        name = entry.get("filename") if isinstance(entry, dict) else None
        digests = entry.get("digests") if isinstance(entry, dict) else None
        sha = digests.get("sha256") if isinstance(digests, dict) else None
        if not isinstance(name, str) or not isinstance(sha, str) or _HEX.fullmatch(sha) is None:
            raise NotArrived(f"{url} lists a file without a filename and a sha256 of 64 hex digits")
        files[name] = sha
    return files


def digest_in(published: str, name: str) -> str | None:
    """The checksum one ``sha256sum`` line records for ``name``; ``None`` where no line names it.

    Both spellings ``sha256sum`` writes are read — two spaces for text mode, `` *`` for
    binary — because which mode a release process used says nothing about the release.
    """
    for line in published.split("\n"):
        fields = line.split()
        if len(fields) == 2 and fields[1].removeprefix("*") == name:
            return f"sha256:{fields[0]}"
    return None


def get(dial: Dialer, url: str, limit: int = MAX_CHECKSUMS) -> tuple[int, bytes]:
    """The status and the body at ``url`` (at most ``limit`` bytes of it), redirects followed over HTTPS only.

    A caller that must tell a body over its cap from one at it asks for one byte more.
    """
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        status, location, body = _one(dial, current, limit)
        if status not in _REDIRECTS or location is None:
            return status, body
        following = urllib.parse.urljoin(current, location)
        if urllib.parse.urlsplit(following).scheme != "https":
            raise NotArrived(f"GET {current}: redirected to {following}, and hyper reads over https only")
        current = following
    raise NotArrived(f"GET {url}: more than {MAX_REDIRECTS} redirects")


def _one(dial: Dialer, url: str, limit: int) -> tuple[int, str | None, bytes]:
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    try:
        port = parts.port or 443
        sock = dial(host, port, None)
    except (OSError, ValueError) as exc:
        raise NotArrived(f"GET {url}: {_reason(host, exc)}") from exc
    try:
        connection = http.client.HTTPConnection(host, port)
        connection.sock = sock
        connection.request("GET", target, headers={"User-Agent": "hyper", "Connection": "close"})
        reply = connection.getresponse()
        body = reply.read(limit)
        if len(body) < limit and reply.length:
            # A capped read returns short at end of stream rather than raising: a body that
            # stopped before its Content-Length is a read cut short, not a smaller file.
            raise http.client.IncompleteRead(body, reply.length)
        return reply.status, reply.getheader("Location"), body
    except (OSError, http.client.HTTPException) as exc:
        raise NotArrived(f"GET {url}: {_reason(host, exc)}") from exc
    finally:
        sock.close()


def _reason(host: str, exc: Exception) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return f"{host} refused the connection"
    if isinstance(exc, socket.gaierror):
        return f"the name {host} did not resolve"
    if isinstance(exc, ssl.SSLError):
        return f"the TLS handshake with {host} failed: {exc.reason or exc}"
    if isinstance(exc, http.client.IncompleteRead):
        arrived = len(exc.partial)
        whole = f" of {arrived + exc.expected}" if exc.expected is not None else ""
        return f"the body stopped part-way: {arrived}{whole} bytes arrived"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__

"""The ``http`` response object: assembling one off the wire, reading one a caller supplied.

Both halves build the same object, a ``dict`` in the reference's member order —
``host``, ``status``, ``headers``, ``body``, ``tls`` — holding only the members that are
there (absent is not ``null``). ``host`` is the one member a call that got no answer
still produces, which is why a supplied object without it is refused: no call could
have produced it.

Values are made deterministic where the wire is not: header names are lowered (a header
name is case-insensitive on the wire and a path is exact, so lowering is what makes one
path mean one thing) and every mapping inside ``headers`` and ``body`` is held with its
keys sorted, so the object renders one way however the server ordered its bytes.

:func:`hyper.core.deepjson.compact` is the encoding every rendering of a response uses:
compact JSON with no HTML escaping, non-ASCII raw, integers of any width exact, any depth.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping
from typing import Any, Final

from hyper.capability import BODY, COMMAND, EXIT_CODE, HEADERS, HOST, STATUS, STDERR, STDOUT, TLS, Response
from hyper.core.deepjson import loads, rebuild
from hyper.core.faults import SuppliedFault

NOT_AFTER: Final = "not_after"
DAYS_LEFT: Final = "days_left"
SUBJECT: Final = "subject"
ISSUER: Final = "issuer"

HTTP_MEMBERS: Final = (HOST, STATUS, HEADERS, BODY, TLS)
SHELL_MEMBERS: Final = (COMMAND, EXIT_CODE, STDOUT, STDERR)
TLS_MEMBERS: Final = (NOT_AFTER, DAYS_LEFT, SUBJECT, ISSUER)

_HOP_BY_HOP: Final = frozenset({"connection", "transfer-encoding"})
"""Framing, not content: the transport consumes them and a response object never shows them."""


def sorted_tree(value: Any) -> Any:
    """``value`` with every mapping's keys in code-point order, at every depth, however deep."""
    return rebuild(value, sort_keys=True)


def parse_json(raw: bytes | str) -> Any:
    """Strict JSON to Go's depth: one value, no ``NaN``/``Infinity``; ``ValueError`` otherwise,
    :class:`hyper.core.deepjson.TooDeep` past ten thousand levels."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return loads(text)


def body_member(raw: bytes) -> tuple[bool, Any]:
    """``(True, parsed)`` where the body is one JSON value; ``(False, None)`` otherwise.

    Decided by the parse and never by ``Content-Type``: the header is what a server
    claims, the bytes are what it sent. An empty or non-JSON body is an absent member,
    not an error — a host that is down answers with no body at all.
    """
    if not raw.strip():
        return False, None
    try:
        return True, sorted_tree(parse_json(raw))
    except ValueError:
        return False, None


def headers_member(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Names lowered and sorted; a name sent twice joined with ``", "``, the wire's own rule."""
    joined: dict[str, list[str]] = {}
    for name, value in pairs:
        lowered = name.lower()
        if lowered in _HOP_BY_HOP:
            continue
        joined.setdefault(lowered, []).append(value)
    return {name: ", ".join(joined[name]) for name in sorted(joined)}


def tls_member(peer: Mapping[str, Any], instant: _dt.datetime) -> dict[str, Any] | None:
    """The four facts off the peer certificate (``ssl.SSLSocket.getpeercert()``'s dict).

    ``days_left`` counts whole days from the invocation's own instant, floored: fourteen
    hours left is zero days in hand.
    """
    expiry_text = peer.get("notAfter")
    if not isinstance(expiry_text, str):
        return None
    import ssl  # deferred: start-up cost

    expiry = _dt.datetime.fromtimestamp(ssl.cert_time_to_seconds(expiry_text), _dt.UTC)
    left = (expiry - instant).total_seconds() // 86400
    return {
        NOT_AFTER: expiry.strftime("%Y-%m-%dT%H:%M:%SZ"),
        DAYS_LEFT: int(left),
        SUBJECT: distinguished_name(peer.get("subject", ())),
        ISSUER: distinguished_name(peer.get("issuer", ())),
    }


# The attributes a certificate name is rendered with, in the order the reference renders
# them (most specific first), by the long names Python's ssl module reports.
_NAMED: Final = (
    ("serialNumber", "SERIALNUMBER"),
    ("commonName", "CN"),
    ("organizationalUnitName", "OU"),
    ("organizationName", "O"),
    ("postalCode", "POSTALCODE"),
    ("streetAddress", "STREET"),
    ("localityName", "L"),
    ("stateOrProvinceName", "ST"),
    ("countryName", "C"),
)


def distinguished_name(rdns: Iterable[Iterable[tuple[str, str]]]) -> str:
    """An RFC 4514 string: the standard attributes most-specific first, then any other."""
    by_type: dict[str, list[str]] = {}
    others: list[str] = []
    known = dict(_NAMED)
    for rdn in rdns:
        for attribute, value in rdn:
            if attribute in known:
                by_type.setdefault(attribute, []).append(value)
            else:
                others.append(f"{attribute}={_escape_dn(value)}")
    parts = ["+".join(f"{short}={_escape_dn(v)}" for v in by_type[long]) for long, short in _NAMED if long in by_type]
    return ",".join(parts + list(reversed(others)))


def _escape_dn(value: str) -> str:
    out: list[str] = []
    for index, char in enumerate(value):
        special = char in ',+"\\<>;' or (index == 0 and char in " #") or (index == len(value) - 1 and char == " ")
        out.append("\\" + char if special else char)
    return "".join(out)


def read_supplied(capability: str, data: bytes) -> Response:
    """A response object handed over rather than fetched, read against its Capability's members.

    Built in the Capability's member order, whatever order the file spelled: it is the
    same object a call assembles. Every member is optional but the one a call always
    produces (``host`` for ``http``, ``command`` for ``shell``); a member no object of
    that Capability carries is refused, since a path rooted there would resolve here
    and nowhere else.
    """
    if capability == "shell":
        return _object("", SHELL_MEMBERS, COMMAND, _SHELL_READERS, data)
    return _object("", HTTP_MEMBERS, HOST, _HTTP_READERS, data)


def _mapping(prefix: str, data: bytes | Any) -> dict[str, Any]:
    held: Any
    if isinstance(data, bytes):
        where = "the supplied response" if not prefix else prefix.rstrip(".")
        try:
            held = parse_json(data)
        except ValueError as exc:
            raise SuppliedFault(f"{where} is not one JSON value: {exc}") from None
    else:
        held = data
        where = prefix.rstrip(".")
    if not isinstance(held, dict):
        raise SuppliedFault(f"{where} is not a JSON object, and a response object is one")
    return held


def _object(
    prefix: str, members: tuple[str, ...], required: str | None, readers: Mapping[str, Any], data: Any
) -> Response:
    held = _mapping(prefix, data)
    for name in sorted(held):
        if name not in members:
            raise SuppliedFault(
                f"{prefix}{name}: no response object carries that member — it carries {', '.join(members)}"
            )
    built: Response = {}
    for name in members:
        if name not in held:
            if name == required:
                raise SuppliedFault(
                    f"{prefix}{name}: every response object carries this member, even one from a call that got "
                    "no answer — an object without it is not one a call produces"
                )
            continue
        built[name] = readers[name](prefix + name, held[name])
    return built


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str):
        raise SuppliedFault(f"{where}: a response object holds a string here")
    return value


def _integer(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SuppliedFault(f"{where}: a response object holds an integer here")
    return value


def _headers(where: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise SuppliedFault(f"{where}: a response object holds a mapping of header name to one string value here")
    claimed: dict[str, str] = {}
    for name in sorted(value):
        lowered = name.lower()
        if lowered in claimed:
            raise SuppliedFault(
                f"{where}: {claimed[lowered]} and {name} lower to one header name, and a response object holds "
                "one value per name"
            )
        claimed[lowered] = name
    return {lowered: value[claimed[lowered]] for lowered in sorted(claimed)}


def _body(_where: str, value: Any) -> Any:
    return sorted_tree(value)


def _tls(where: str, value: Any) -> Response:
    return _object(where + ".", TLS_MEMBERS, None, _TLS_READERS, value)


_HTTP_READERS: Final = {HOST: _text, STATUS: _integer, HEADERS: _headers, BODY: _body, TLS: _tls}
_SHELL_READERS: Final = {COMMAND: _text, EXIT_CODE: _integer, STDOUT: _text, STDERR: _text}
_TLS_READERS: Final = {NOT_AFTER: _text, DAYS_LEFT: _integer, SUBJECT: _text, ISSUER: _text}

"""What a ``hosts:`` grant may be: ``host[:port]``, and nothing a URL adds around it.

A grant is compared with the host a Manifest's candidate set names and written into the
``Host`` header, so a scheme, a path, userinfo or a stray character would make a grant no
request can match. The sentence says what to write instead, derived from the value; a
value carrying userinfo is never quoted back, since what stands before ``@`` may be a
credential.
"""

from __future__ import annotations

import re

from hyper.core.pattern import compiled

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

_LABEL: Final = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")
_PORT: Final = r"^[0-9]{1,5}$"
"""Compiled on first use (:func:`hyper.core.pattern.compiled`): most grants name no port."""


def misshapen(value: str) -> str:
    """Why ``value`` is not ``host[:port]``, or ``""`` where it is."""
    host, port = _split(value)
    if host is not None and _host(host) and (port is None or _port(port)):
        return ""
    if "@" in value:
        return (
            "a hosts: entry carries userinfo (something@), and a grant names a host[:port] only —"
            " credentials go in auth:, never in hosts:"
        )
    instead = _instead(value)
    suggestion = f" — write {instead}" if instead else ""
    return f'"{value}" is not a host[:port]: a grant names a host, and a port where it is not 443{suggestion}'


def _split(value: str) -> tuple[str | None, str | None]:
    """``(host, port)``; ``port`` is ``None`` where none is written, ``host`` ``None`` where
    the brackets of an IPv6 literal do not close."""
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None, None
        rest = value[end + 1 :]
        if rest and not rest.startswith(":"):
            return None, None
        return value[: end + 1], (rest[1:] if rest else None)
    head, sep, tail = value.rpartition(":")
    return (head, tail) if sep else (value, None)


def _host(host: str) -> bool:
    if host.startswith("[") and host.endswith("]"):
        import ipaddress  # only a bracketed literal needs it: every check of a hosts: grant imports this module

        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return False
        return True
    labels = host.split(".")
    return bool(host) and len(host) <= 253 and all(_LABEL.match(label) for label in labels)


def _port(port: str) -> bool:
    return bool(compiled(_PORT).match(port)) and 1 <= int(port) <= 65535


def _instead(value: str) -> str:
    """The ``host[:port]`` a URL-shaped value (or a bare IPv6 address) holds, where it holds one."""
    import ipaddress  # only a grant already found misshapen is read this far
    import urllib.parse

    try:
        return f"[{ipaddress.IPv6Address(value)}]"
    except ValueError:
        pass
    if "://" not in value:
        return ""
    try:
        parsed = urllib.parse.urlsplit(value)
        netloc = parsed.netloc
    except ValueError:
        return ""
    host, port = _split(netloc)
    if host is None or not _host(host) or (port is not None and not _port(port)):
        return ""
    return netloc

"""What ``hyper install`` accepts as a ref, judged from the typed string alone.

A ref is both the place the Manifest is fetched from and the coordinate recorded in its
``origin:`` block, a file a reviewer reads in a diff. So the grammar is narrow: HTTPS
and nothing else, no credential, no query or fragment (a signed URL's token would land in
a tracked file; a fragment points inside a document where a Manifest is a whole one), and
a last path segment that is, once decoded, a plain ``providers/`` filename ending in
``.yaml``. Every clause is a parse, so a bad ref is a usage error decided before the
repository is resolved or the network is touched.

The clauses run in a fixed order and the first that fails is the one reported — the
order is part of the contract: ``..`` is answered as a traversal, not as a name that
does not end in ``.yaml``. The typed string is kept verbatim, never normalised: it is
what is fetched and what is recorded.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
from typing import Final

from hyper.core.faults import NotARef
from hyper.core.namedtuple import NamedTuple

SCHEME: Final = "https"
SUFFIX: Final = ".yaml"
CHECKSUMS: Final = "checksums.txt"

_SCHEME_PREFIX: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_BAD_ESCAPE: Final = re.compile(r"%(?![0-9A-Fa-f]{2})")
_HOST_CHARS: Final = re.compile(r"""[A-Za-z0-9\-._~!$&'()*+,;=:\[\]<>"%\x80-\U0010ffff]*""")

SPACE_OR_CONTROL: Final = "a ref holds no whitespace and no control character"
QUERY_OR_FRAGMENT: Final = (
    "a ref carries no query and no fragment — a signed URL's token would be written into a tracked "
    "file, and a Manifest is fetched whole, never from a position inside a document"
)
NOT_A_URL: Final = "a ref is an absolute URL, and this one does not parse as a URL at all"
NOT_HTTPS: Final = "a ref is an https:// URL; no other scheme is read"
USERINFO: Final = (
    "a ref carries no user or password — the ref is recorded in a tracked file and read in a diff, "
    "so a credential in it would be a secret written down"
)
NO_HOST: Final = "a ref names the host that serves it"
UNDECODABLE: Final = "a ref's last path segment must percent-decode, and this one does not"
DOT_SEGMENT: Final = "a ref's last path segment becomes a providers/ filename, and . and .. name no file"
SEPARATOR: Final = (
    "a ref's last path segment becomes a providers/ filename, so it holds no path separator or control "
    "character, written plainly or as an escape"
)
NOT_YAML: Final = "a ref names a .yaml file — providers/*.yaml is all the repository loader reads"


class Ref(NamedTuple):
    typed: str
    """Exactly what was typed: fetched as it stands, and recorded as it stands."""
    basename: str
    """The decoded last path segment: the ``providers/`` filename and the checksums line's name."""

    @property
    def checksums_url(self) -> str:
        """``checksums.txt`` in the ref's own directory, derived from what was typed.

        Never from where a redirect landed: the digest must come from the publisher's
        coordinate, and a CDN the bytes happened to come from is asked for nothing else.
        """
        return self.typed[: self.typed.rfind("/") + 1] + CHECKSUMS


def parse(typed: str) -> Ref:
    """The ref ``typed`` names, or :class:`NotARef` with the first clause it breaks."""
    if any(ch <= " " or ch == "\x7f" for ch in typed):
        raise NotARef(SPACE_OR_CONTROL)
    if "?" in typed or "#" in typed:
        raise NotARef(QUERY_OR_FRAGMENT)
    parts = _split(typed)
    if parts.scheme.lower() != SCHEME:
        raise NotARef(NOT_HTTPS)
    if "@" in parts.netloc:
        raise NotARef(USERINFO)
    if not parts.hostname:
        raise NotARef(NO_HOST)
    last = parts.path.rpartition("/")[2]
    try:
        basename = _unquote(last)
    except ValueError:
        raise NotARef(UNDECODABLE) from None
    if basename in (".", ".."):
        raise NotARef(DOT_SEGMENT)
    if any(ch in "/\\" or unicodedata.category(ch) == "Cc" for ch in basename):
        raise NotARef(SEPARATOR)
    if not basename.endswith(SUFFIX):
        raise NotARef(NOT_YAML)
    return Ref(typed, basename)


def _split(typed: str) -> urllib.parse.SplitResult:
    """``typed`` split as a URL, or :class:`NotARef` where a strict URL parser would reject it.

    :func:`urllib.parse.urlsplit` accepts nearly anything, so the faults a strict parser
    raises are looked for first: a malformed escape, a colon opening the string or inside
    a scheme-less first segment, a character no host name holds, a port that is not a number.
    """
    scheme = _SCHEME_PREFIX.match(typed)
    first_segment = typed.split("/", 1)[0]
    if _BAD_ESCAPE.search(typed) or typed.startswith(":") or (scheme is None and ":" in first_segment):
        raise NotARef(NOT_A_URL)
    try:
        parts = urllib.parse.urlsplit(typed)
        parts.port  # noqa: B018 — reading it is what validates it
    except ValueError:
        raise NotARef(NOT_A_URL) from None
    host = parts.netloc.rpartition("@")[2]
    if not _HOST_CHARS.fullmatch(host):
        raise NotARef(NOT_A_URL)
    return parts


def _unquote(segment: str) -> str:
    """Percent-decoding that fails on a malformed escape, or on bytes that are not UTF-8, rather than
    passing either through into a filename."""
    if _BAD_ESCAPE.search(segment):
        raise ValueError(segment)
    return urllib.parse.unquote(segment, errors="strict")

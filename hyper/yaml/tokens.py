"""The tokens the YAML scanner hands the parser, and the error either stage stops with.

The scanner (:mod:`hyper.yaml.scanner`) turns text into a list of these and the parser
(:mod:`hyper.yaml.parse`) reads that list into nodes; this module is all the two share.
Every token starts with the same three fields — its kind and libyaml's 0-based mark
(line and column) — so the parser can ask any token those, and reads a payload only
from the token type that carries it. The kinds are plain ints rather than an enum: the
parser compares them on every token, and a comparison of ints costs least.
"""

from __future__ import annotations

from hyper.yaml.nodes import Map, Node, Scalar, Seq, named

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import TypeAlias


STREAM_END = 0
DOCUMENT_START = 1
DOCUMENT_END = 2
BLOCK_SEQUENCE_START = 3
BLOCK_MAPPING_START = 4
BLOCK_END = 5
FLOW_SEQUENCE_START = 6
FLOW_SEQUENCE_END = 7
FLOW_MAPPING_START = 8
FLOW_MAPPING_END = 9
BLOCK_ENTRY = 10
FLOW_ENTRY = 11
KEY = 12
VALUE = 13
ALIAS = 14
ANCHOR = 15
TAG = 16
SCALAR = 17
VERSION_DIRECTIVE = 18
TAG_DIRECTIVE = 19
ERROR = 20
PAIR = 21
"""KEY, a plain key, VALUE and — where the scanner read it whole — the value (:class:`PairToken`)."""
NODE = 22
"""A finished flow collection the scanner read whole (:class:`NodeToken`)."""

NULL_SPELLINGS = frozenset({"", "~", "null", "Null", "NULL"})
"""The plain scalars YAML would read as null. The vocabulary has no null at all, so the
scanner never reads one whole and the parser refuses every one it meets."""

HELD_DEPTH = 200
"""The deepest hyper reads collections nested, block and flow together (issue #12 owns the
number). The parser counts every collection it opens and refuses the one past this with a
sentence (see :mod:`hyper.yaml.parse`); the scanner holds a collection it reads whole in
place to the same count. The parser recurses two or three frames a level, so 200 levels
stay inside Python's default recursion limit from any caller, a worker thread of the MCP
server included — where raising that limit would raise it for every thread at once
(ADR 0027). No authored artefact comes near it; libyaml's own bound is 1000, so this is
where the two part: a file 201 to 1000 levels deep reads there and is refused here."""


@named
class Mark(tuple[int, int, int]):
    """An indicator token, which carries nothing but where it stands."""

    __slots__ = ()
    kind: int
    line: int
    column: int


@named
class ScalarToken(tuple[int, int, int, Scalar]):
    __slots__ = ()
    kind: int
    line: int
    column: int
    scalar: Scalar


@named
class PairToken(tuple[int, int, int, Scalar, int, "Node | None"]):
    """A block ``key: value`` line read whole: the key, the column of its ``:``, and the
    value where it was read too (``None`` where the tokens after the pair hold it)."""

    __slots__ = ()
    kind: int
    line: int
    column: int
    key: Scalar
    colon: int
    value: Node | None


@named
class NodeToken(tuple[int, int, int, "Seq | Map"]):
    __slots__ = ()
    kind: int
    line: int
    column: int
    node: Seq | Map


@named
class NameToken(tuple[int, int, int, str]):
    """An anchor (``&name``) or an alias (``*name``)."""

    __slots__ = ()
    kind: int
    line: int
    column: int
    name: str


@named
class TagToken(tuple[int, int, int, str, bytes]):
    """An explicit tag, read only to be refused; ``handle`` is empty for a verbatim one."""

    __slots__ = ()
    kind: int
    line: int
    column: int
    handle: str
    suffix: bytes


@named
class VersionToken(tuple[int, int, int, int, int]):
    """A ``%YAML major.minor`` directive."""

    __slots__ = ()
    kind: int
    line: int
    column: int
    major: int
    minor: int


@named
class TagDirectiveToken(tuple[int, int, int, str, bytes]):
    """A ``%TAG handle prefix`` directive."""

    __slots__ = ()
    kind: int
    line: int
    column: int
    handle: str
    prefix: bytes


@named
class ErrorToken(tuple[int, int, int, "Broken"]):
    """Where the scanner stopped: the text is not YAML from here on."""

    __slots__ = ()
    kind: int
    line: int
    column: int
    error: Broken


Token: TypeAlias = (
    Mark | ScalarToken | PairToken | NodeToken | NameToken | TagToken | VersionToken | TagDirectiveToken | ErrorToken
)


class Broken(Exception):
    """The file is not YAML: libyaml's problem, and the lines of the marks it would cite.

    Lines are 0-based, as libyaml's marks are, because the parser reckons the line a
    problem row cites from those; ``context_line`` is ``None`` where libyaml names no
    context. ``scanner`` tells which stage of libyaml's would have stopped.
    """

    def __init__(self, problem: str, line: int, context_line: int | None, scanner: bool) -> None:
        super().__init__(problem)
        self.problem = problem
        self.line = line
        self.context_line = context_line
        self.scanner = scanner

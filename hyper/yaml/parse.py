"""A hand-written reader for the strict YAML subset artefacts are written in: its parser.

Why not PyYAML: importing it costs about as much as a whole command may spend
starting up (ADR 0006), and its event stream builds an object per token that the
tree then throws away. The reader needs nothing but ``re``.

What it must agree with: libyaml, the reader PyYAML's C loader wraps and the
reference's go-yaml was ported from. Artefacts are read by other YAML tools too,
so what counts as YAML is not ours to redefine: a file reads here exactly as it
reads there — same tree, same positions, same error at the same line — or it is
refused for a reason this module names. So the reader keeps libyaml's two stages
(ADR 0027):

* the scanner (:mod:`hyper.yaml.scanner`) turns text into tokens
  (:mod:`hyper.yaml.tokens`);
* this module's parser is a recursive descent over those tokens with libyaml's
  grammar and its problems, building the tree directly — no event objects. Its
  depth is an explicit count (:data:`~hyper.yaml.tokens.HELD_DEPTH`) that refuses
  with a sentence; the process-wide recursion limit is never touched.

Before either, :mod:`hyper.yaml.lines` tries the whole document: where every line is of
the commonest shapes it reads the tree straight from the lines, and where any is not it
reads nothing, and the two stages read the document (ADR 0035).

It was checked against the libyaml PyYAML 6.0.4 bundles (0.2.6) by differential
tests. It parts from it in one place: a control character anywhere in the file is
reported before any other error, where libyaml, reading 16 KB at a time, reports a
grammar error earlier in a longer file first.

Faults come in two kinds. A file that is not YAML at all is one fault and no tree,
cited at the line the reference's parser would cite, by its odd rule (see
:func:`_error_line`). A file that is YAML but uses constructs the subset refuses —
anchors, aliases, tags, merge keys, repeated keys, nulls, collection keys, a second
document — is a tree *and* every such fault, so a schema check can still read the
rest of it. Scalars are never typed: every value stays a string with its style.
Nothing here raises.
"""

from __future__ import annotations

from hyper.core.quote import quote
from hyper.yaml.nodes import Map, Node, Parsed, Scalar, Seq, YamlFault
from hyper.yaml.scanner import scan
from hyper.yaml.tokens import (
    ALIAS,
    ANCHOR,
    BLOCK_END,
    BLOCK_ENTRY,
    BLOCK_MAPPING_START,
    BLOCK_SEQUENCE_START,
    DOCUMENT_END,
    DOCUMENT_START,
    FLOW_ENTRY,
    FLOW_MAPPING_END,
    FLOW_MAPPING_START,
    FLOW_SEQUENCE_END,
    FLOW_SEQUENCE_START,
    HELD_DEPTH,
    KEY,
    NULL_SPELLINGS,
    PAIR,
    STREAM_END,
    TAG_DIRECTIVE,
    VALUE,
    VERSION_DIRECTIVE,
    Broken,
    ErrorToken,
    Mark,
    NameToken,
    NodeToken,
    PairToken,
    ScalarToken,
    TagDirectiveToken,
    TagToken,
    Token,
    VersionToken,
)

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn, TypeAlias

# One sentence per refused construct, each naming what the reader must change. They
# are the sentences hyper.yaml.subset writes, so either reader reports alike.
_SECOND_DOCUMENT = "a file holds one YAML document, and a second one starts here"
_ALIAS = "an alias is outside the YAML the authoring format admits"
_ANCHOR = "an anchor is outside the YAML the authoring format admits"
_TAG = "an explicit tag is outside the YAML the authoring format admits"
_NULL = "the scalar vocabulary has no null — write the value out, or quote it to mean the text"
_COLLECTION_KEY = "a mapping key must be a scalar, never a list or a mapping"
_MERGE_KEY = "a merge key (<<) is outside the YAML the authoring format admits"
_NOT_YAML = "the file is not well-formed YAML: "
_NOT_UTF8 = "the file is not UTF-8 text, which every artefact must be"
_UNREADABLE = "the file could not be read as YAML"
_TOO_DEEP_HELD = f"collections nest more than {HELD_DEPTH} levels deep here, deeper than hyper reads"

_ODD_KEYS = NULL_SPELLINGS | {"<<"}
"""Plain keys a mapping refuses: a null, and the merge key."""
_DEFAULT_HANDLES = (("!", b"!"), ("!!", b"tag:yaml.org,2002:"))
_NO_BLOCK_VALUE = frozenset({KEY, PAIR, VALUE, BLOCK_END})
"""What follows a block mapping's ``?`` or ``:`` where the key or value is left out."""
_STARTS_NO_DOCUMENT = frozenset({VERSION_DIRECTIVE, TAG_DIRECTIVE, DOCUMENT_START, STREAM_END})
_EMPTY_DOCUMENT = _STARTS_NO_DOCUMENT | {DOCUMENT_END}
_FLOW_COLLECTION = frozenset({FLOW_SEQUENCE_START, FLOW_MAPPING_START})
_BLOCK_COLLECTION = frozenset({BLOCK_SEQUENCE_START, BLOCK_MAPPING_START})

_Path: TypeAlias = "tuple[_Path, str | int] | None"
"""Where a node sits, built cheaply and rendered to a field name only for a fault."""


class _TooDeep(Exception):
    """The collection opening on ``line`` (0-based) is past :data:`HELD_DEPTH`."""

    def __init__(self, line: int) -> None:
        super().__init__(_TOO_DEEP_HELD)
        self.line = line


class _Unreadable(Exception):
    """A tag whose %-escapes spell bytes that are not UTF-8, which PyYAML fails to decode."""


FAST_AFTER = 44
"""How many documents a process reads in full before it reads any by :mod:`hyper.yaml.lines`.
Importing the fast path and compiling its line pattern cost about 22.6M instructions; an
artefact read fast instead of in full saves about 0.5M on average (the ``check_scaling``
set: 923M against 415M a round of 1,000). So the fast path starts once the documents read
so far would have paid for it, and a process spends on reading at most about twice what it
would have had it known from the start how many it reads. A command that reads a few dozen
files never pays for it (a discovery command, ADR 0006); one that reads a repository pays
once. Either way every document reads alike (ADR 0035): the policy moves only time."""


class _Read:
    """How many documents this process has read, counted up to :data:`FAST_AFTER`, and the
    fast path once it starts. Two threads counting at once may miscount by one, which
    changes when the fast path starts and nothing else."""

    documents = 0
    fast: Callable[[str], Node | None] | None = None
    """:func:`hyper.yaml.lines.read`, imported once the count reaches :data:`FAST_AFTER`: an
    import statement run per document cost about 5,000 instructions even with the module
    loaded, and a process reading fewer documents never imports it."""


def load(data: bytes, file: str) -> Node | YamlFault | None:
    """The tree, ``None`` for an empty file, or the first fault found. Never raises."""
    parsed = parse(data, file)
    if parsed.faults:
        return parsed.faults[0]
    return parsed.root


def parse(data: bytes, file: str) -> Parsed:
    """Read ``data`` in full, keeping every fault rather than stopping at the first."""
    if data.startswith(b"\xef\xbb\xbf"):
        # A byte-order mark is accepted and skipped, as the reference's reader does;
        # it is not a character of line 1, so columns count from after it.
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        return _broken(YamlFault(file, line, 1, _NOT_UTF8))
    fast = _Read.fast
    if fast is not None:
        root = fast(text)
        if root is not None:
            return Parsed(root, (), True)
    else:
        _Read.documents += 1
        if _Read.documents >= FAST_AFTER:
            from hyper.yaml.lines import read  # deferred: see _Read.fast

            _Read.fast = read
    return read_fully(text, file)


def read_fully(text: str, file: str) -> Parsed:
    """Read decoded ``text`` by the scanner and the parser: the reader in full, for every
    document :func:`hyper.yaml.lines.read` leaves to it (and the one it is tested against)."""
    try:
        parser = _Parser(scan(text), file)
        root = parser.stream()
    except Broken as err:
        return _broken(YamlFault(file, _error_line(err), 1, _NOT_YAML + err.problem))
    except _TooDeep as err:
        return _broken(YamlFault(file, err.line + 1, 1, _TOO_DEEP_HELD))
    except (_Unreadable, RecursionError):
        # RecursionError only where the caller's own stack is already nearly full.
        return _broken(YamlFault(file, 1, 1, _UNREADABLE))
    return Parsed(root, tuple(parser.kept), True)


def _broken(fault: YamlFault) -> Parsed:
    return Parsed(None, (fault,), False)


def _error_line(err: Broken) -> int:
    """The line a hard parse error is cited at, reckoned the way the reference reckons it.

    The reference reports its parser's own ``line N`` prefix, which is the context
    mark's zero-based line for a parser error and the one-based line for a scanner
    error, falling back to the problem mark, and to line 1 where neither names a
    line. The rule is odd but the line is a machine-read member of a problem row, so
    it is reproduced rather than improved on.
    """
    for line in (err.context_line, err.line):
        if line:
            return line + 1 if err.scanner else line
    return 1


def _render(path: _Path) -> str:
    """A node's field name in the reference's notation: ``steps[0].bound``."""
    steps: list[str | int] = []
    while path is not None:
        path, step = path
        steps.append(step)
    field = ""
    for step in reversed(steps):
        field = f"{field}[{step}]" if isinstance(step, int) else f"{field}.{step}" if field else step
    return field


def _decoded(tag: bytes) -> None:
    """PyYAML decodes a tag up to its first NUL, strictly; one it cannot decode is unreadable."""
    try:
        tag.split(b"\0", 1)[0].decode("utf-8")
    except UnicodeDecodeError as err:
        raise _Unreadable from err


class _Parser:
    """libyaml's grammar as a recursive descent over the token list, building the tree.

    Each method reads the tokens libyaml's parser state of the same name reads, in
    the same order, and fails with the same problem at the same token; each fault
    is recorded where libyaml's event stream would have shown its construct.
    """

    __slots__ = ("depth", "faults", "file", "handles", "kept", "p", "tokens")

    def __init__(self, tokens: list[Token], file: str) -> None:
        self.tokens = tokens
        self.file = file
        self.p = 0
        self.depth = 0
        self.faults: list[YamlFault] = []
        self.kept = self.faults
        self.handles: dict[str, bytes] = {}

    def fault(self, line: int, column: int, path: _Path, message: str) -> None:
        self.faults.append(YamlFault(self.file, line, column, message, _render(path)))

    def fail(self, context_line: int | None, problem: str, token: Token) -> NoReturn:
        """A grammar error at ``token`` — unless the scanner stopped there, whose error it is."""
        if isinstance(token, ErrorToken):
            raise token.error
        raise Broken(problem, token.line, context_line, False)

    def stream(self) -> Node | None:
        tokens = self.tokens
        root: Node | None = None
        documents = 0
        while True:
            token = tokens[self.p]
            kind = token.kind
            if documents:
                while kind == DOCUMENT_END:
                    self.p += 1
                    token = tokens[self.p]
                    kind = token.kind
            elif kind not in _STARTS_NO_DOCUMENT:
                # The implicit document: a file that starts with its content.
                self.handles = dict(_DEFAULT_HANDLES)
                documents = 1
                root = self.node(True, False, None, False)
                self.document_end()
                continue
            if kind == STREAM_END:
                return root
            first = token  # an explicit document starts at its first directive, or at its ---
            self.directives()
            token = tokens[self.p]
            if token.kind != DOCUMENT_START:
                self.fail(None, "did not find expected <document start>", token)
            documents += 1
            if documents == 2:
                self.fault(first.line + 1, first.column + 1, None, _SECOND_DOCUMENT)
                self.faults = []  # a later document is read for errors, but nothing in it is kept
            self.p += 1
            token = tokens[self.p]
            node = self.empty(token, None) if token.kind in _EMPTY_DOCUMENT else self.node(True, False, None, False)
            if documents == 1:
                root = node
            self.document_end()

    def document_end(self) -> None:
        if self.tokens[self.p].kind == DOCUMENT_END:
            self.p += 1
        self.handles = {}

    def directives(self) -> None:
        tokens = self.tokens
        version = False
        declared: list[bytes] = []
        token = tokens[self.p]
        while token.kind in (VERSION_DIRECTIVE, TAG_DIRECTIVE):
            if isinstance(token, VersionToken):
                if version:
                    self.fail(None, "found duplicate %YAML directive", token)
                if token.major != 1 or token.minor not in (1, 2):
                    self.fail(None, "found incompatible YAML document", token)
                version = True
            elif isinstance(token, TagDirectiveToken):
                if token.handle in self.handles:
                    self.fail(None, "found duplicate %TAG directive", token)
                self.handles[token.handle] = token.prefix
                declared.append(token.prefix)
            self.p += 1
            token = tokens[self.p]
        for handle, prefix in _DEFAULT_HANDLES:
            self.handles.setdefault(handle, prefix)
        if token.kind == DOCUMENT_START:
            for prefix in declared:  # PyYAML decodes them with the document's start
                _decoded(prefix)

    def empty(self, token: Token, path: _Path, after: int = 0) -> Scalar:
        """The empty plain scalar YAML reads where a node is left out — a null, so a fault."""
        line, column = token.line + 1, token.column + 1 + after
        self.fault(line, column, path, _NULL)
        return Scalar(("", "plain", line, column))

    def node(self, block: bool, indentless: bool, path: _Path, as_key: bool) -> Node:
        token = self.tokens[self.p]
        if isinstance(token, ScalarToken):
            self.p += 1
            scalar = token.scalar
            if scalar.style == "plain" and scalar.value in NULL_SPELLINGS:
                self.fault(scalar.line, scalar.column, path, _NULL)
            return scalar
        if not as_key:
            if isinstance(token, NodeToken):
                self.p += 1
                return token.node
            # A block collection with neither anchor nor tag: the commonest node after a scalar.
            kind = token.kind
            if block and kind == BLOCK_MAPPING_START:
                self.deeper(token.line)
                found_map = self.block_mapping(token.line + 1, token.column + 1, path, token.line)
                self.depth -= 1
                return found_map
            if block and kind == BLOCK_SEQUENCE_START:
                self.deeper(token.line)
                found_seq = self.block_sequence(token.line + 1, token.column + 1, path, token.line)
                self.depth -= 1
                return found_seq
        line, column = token.line + 1, token.column + 1
        found = self.decorated(block, indentless, path, as_key, line, column)
        if found is not None:
            return found
        # A collection, read here rather than in a method of its own so that each level
        # nested costs as few frames as it can (see HELD_DEPTH). An error inside it cites
        # the line its own token opened on.
        token = self.tokens[self.p]
        self.deeper(token.line)
        kind = token.kind
        collection: Node
        if kind == BLOCK_MAPPING_START:
            collection = self.block_mapping(line, column, path, token.line)
        elif kind == FLOW_MAPPING_START:
            collection = self.flow_mapping(line, column, path, token.line)
        elif kind == BLOCK_SEQUENCE_START:
            collection = self.block_sequence(line, column, path, token.line)
        elif kind == FLOW_SEQUENCE_START:
            collection = self.flow_sequence(line, column, path, token.line)
        else:
            collection = self.indentless_sequence(line, column, path)
        self.depth -= 1
        return collection

    def decorated(
        self, block: bool, indentless: bool, path: _Path, as_key: bool, line: int, column: int
    ) -> Node | None:
        """An alias, or a scalar after its anchor and tag (each refused): the node, cited at
        ``line`` and ``column`` where the first of them stands. ``None`` where a collection
        follows them, which the caller reads."""
        token = self.tokens[self.p]
        if isinstance(token, NameToken) and token.kind == ALIAS:
            self.p += 1
            self.fault(line, column, path, _ALIAS)
            return Scalar(("*" + token.name, "plain", line, column))
        anchored, tag = self.properties()
        token = self.tokens[self.p]
        if tag is not None:
            self.resolve(tag, token, line)
        if anchored:
            self.fault(line, column, path, _ANCHOR)
        if tag is not None:
            self.fault(line, column, path, _TAG)
        if isinstance(token, ScalarToken):
            self.p += 1
            scalar = token.scalar
            if scalar.style == "plain" and scalar.value in NULL_SPELLINGS:
                self.fault(line, column, path, _NULL)
            return Scalar((scalar.value, scalar.style, line, column))
        kind = token.kind
        if not (
            kind in _FLOW_COLLECTION
            or isinstance(token, NodeToken)
            or (block and kind in _BLOCK_COLLECTION)
            or (indentless and kind == BLOCK_ENTRY)
        ):
            if anchored or tag is not None:
                self.fault(line, column, path, _NULL)
                return Scalar(("", "plain", line, column))
            self.fail(line - 1, "did not find expected node content", token)
        if as_key:
            self.fault(line, column, path, _COLLECTION_KEY)
        if isinstance(token, NodeToken):
            self.p += 1
            found = token.node
            if isinstance(found, Seq):
                return Seq((found.items, line, column, found.flow))
            return Map((found.entries, line, column, found.flow))
        return None

    def properties(self) -> tuple[bool, TagToken | None]:
        """Step over a node's anchor and tag, in either order: whether it had an anchor, and its tag."""
        anchored = False
        tag: TagToken | None = None
        for _ in range(2):
            token = self.tokens[self.p]
            if isinstance(token, TagToken) and tag is None:
                tag = token
            elif token.kind == ANCHOR and not anchored:
                anchored = True
            else:
                break
            self.p += 1
        return anchored, tag

    def resolve(self, tag: TagToken, token: Token, line: int) -> None:
        """A tag's handle must be declared, and the tag must decode, before the node after it is read."""
        if isinstance(token, ErrorToken):
            raise token.error
        prefix = self.handles.get(tag.handle) if tag.handle else b""
        if prefix is None:
            raise Broken("found undefined tag handle", tag.line, line - 1, False)
        _decoded(prefix + tag.suffix)

    def deeper(self, line: int) -> None:
        """One more collection open: past :data:`HELD_DEPTH`, the read ends at ``line``."""
        self.depth += 1
        if self.depth > HELD_DEPTH:
            raise _TooDeep(line)

    def take_key(self, key: Node, seen: set[str], path: _Path) -> _Path:
        """Refuse a merge key or a repeated key; the path of the key's value, or the map's own."""
        if not isinstance(key, Scalar):
            return path
        name = key.value
        if name == "<<" and key.style == "plain":
            self.fault(key.line, key.column, (path, "<<"), _MERGE_KEY)
        elif name in seen:
            message = f"{quote(name)} is already a key of this mapping — each key is written once"
            self.fault(key.line, key.column, (path, name), message)
        seen.add(name)
        return (path, name)

    def block_mapping(self, line: int, column: int, path: _Path, opened: int) -> Map:
        tokens = self.tokens
        p = self.p + 1
        entries: list[tuple[Scalar, Node]] = []
        seen: set[str] = set()
        while True:
            token = tokens[p]
            if isinstance(token, PairToken):
                p += 1
                key = token.key
                name = key.value
                if name in seen or name in _ODD_KEYS:
                    self.odd_key(key, seen, path)
                seen.add(name)
                value = token.value  # the scanner never reads a null in whole, so it needs no check here
                if value is None:
                    if tokens[p].kind not in _NO_BLOCK_VALUE:
                        self.p = p
                        value = self.node(True, True, (path, name), False)
                        p = self.p
                    else:
                        value = self.empty(Mark((VALUE, token.line, token.colon)), (path, name), 1)
                entries.append((key, value))
            elif token.kind == KEY:
                self.p = p
                entry = self.explicit_entry(seen, path)
                p = self.p
                if entry is not None:
                    entries.append(entry)
            elif token.kind == BLOCK_END:
                self.p = p + 1
                return Map((tuple(entries), line, column, False))
            else:
                self.fail(opened, "did not find expected key", token)

    def odd_key(self, key: Scalar, seen: set[str], path: _Path) -> None:
        """A pair's key that is a null, the merge key, or one the mapping already has."""
        if key.value in NULL_SPELLINGS:
            self.fault(key.line, key.column, path, _NULL)
        if key.value in seen or key.value == "<<":
            self.take_key(key, seen, path)

    def explicit_entry(self, seen: set[str], path: _Path) -> tuple[Scalar, Node] | None:
        """A block entry led by ``?`` (or a key whose ``:`` the scanner found apart from it);
        ``None`` where its key is a collection, which is refused."""
        tokens = self.tokens
        token = tokens[self.p]
        key: Node
        self.p += 1
        if tokens[self.p].kind not in _NO_BLOCK_VALUE:
            key = self.node(True, True, path, True)
        else:
            key = self.empty(token, path, 1)
        value_path = self.take_key(key, seen, path)
        token = tokens[self.p]
        value: Node
        if token.kind == VALUE:
            self.p += 1
            if tokens[self.p].kind not in _NO_BLOCK_VALUE:
                value = self.node(True, True, value_path, False)
            else:
                value = self.empty(token, value_path, 1)
        else:
            value = self.empty(token, value_path)
        return (key, value) if isinstance(key, Scalar) else None

    def block_sequence(self, line: int, column: int, path: _Path, opened: int) -> Seq:
        tokens = self.tokens
        self.p += 1
        items: list[Node] = []
        while True:
            token = tokens[self.p]
            kind = token.kind
            if kind == BLOCK_ENTRY:
                self.p += 1
                if tokens[self.p].kind not in (BLOCK_ENTRY, BLOCK_END):
                    items.append(self.node(True, False, (path, len(items)), False))
                else:
                    items.append(self.empty(token, (path, len(items)), 1))
            elif kind == BLOCK_END:
                self.p += 1
                return Seq((tuple(items), line, column, False))
            else:
                self.fail(opened, "did not find expected '-' indicator", token)

    def indentless_sequence(self, line: int, column: int, path: _Path) -> Seq:
        """A sequence whose ``-`` sits at its mapping key's column; it ends at anything else."""
        tokens = self.tokens
        items: list[Node] = []
        while True:
            token = tokens[self.p]
            if token.kind != BLOCK_ENTRY:
                return Seq((tuple(items), line, column, False))
            self.p += 1
            if tokens[self.p].kind not in (BLOCK_ENTRY, KEY, PAIR, VALUE, BLOCK_END):
                items.append(self.node(True, False, (path, len(items)), False))
            else:
                items.append(self.empty(token, (path, len(items)), 1))

    def flow_sequence(self, line: int, column: int, path: _Path, opened: int) -> Seq:
        tokens = self.tokens
        self.p += 1
        items: list[Node] = []
        while True:
            token = tokens[self.p]
            kind = token.kind
            if kind != FLOW_SEQUENCE_END and items:
                if kind != FLOW_ENTRY:
                    self.fail(opened, "did not find expected ',' or ']'", token)
                self.p += 1
                token = tokens[self.p]
                kind = token.kind
            if kind == FLOW_SEQUENCE_END:
                self.p += 1
                return Seq((tuple(items), line, column, True))
            if kind == KEY:
                items.append(self.flow_pair(token, (path, len(items))))
            else:
                items.append(self.node(False, False, (path, len(items)), False))

    def flow_pair(self, key_token: Token, path: _Path) -> Map:
        """``[a: b]``: a one-entry mapping standing as a flow sequence's item."""
        tokens = self.tokens
        self.p += 1
        token = tokens[self.p]
        kind = token.kind
        if kind not in (VALUE, FLOW_ENTRY, FLOW_SEQUENCE_END):
            key = self.node(False, False, path, True)
        elif kind == FLOW_SEQUENCE_END:
            key = self.empty(token, path)
        else:
            self.p += 1  # libyaml steps over a ':' or ',' that follows a bare '?'
            key = self.empty(token, path, 1)
        value_path = self.take_key(key, set(), path)
        token = tokens[self.p]
        if token.kind == VALUE:
            self.p += 1
            token = tokens[self.p]
            if token.kind not in (FLOW_ENTRY, FLOW_SEQUENCE_END):
                value = self.node(False, False, value_path, False)
            else:
                value = self.empty(token, value_path)
        else:
            value = self.empty(token, value_path)
        entries = ((key, value),) if isinstance(key, Scalar) else ()
        return Map((entries, key_token.line + 1, key_token.column + 1, True))

    def flow_mapping(self, line: int, column: int, path: _Path, opened: int) -> Map:
        tokens = self.tokens
        self.p += 1
        entries: list[tuple[Scalar, Node]] = []
        seen: set[str] = set()
        first = True
        while True:
            token = tokens[self.p]
            kind = token.kind
            if kind != FLOW_MAPPING_END and not first:
                if kind != FLOW_ENTRY:
                    self.fail(opened, "did not find expected ',' or '}'", token)
                self.p += 1
                token = tokens[self.p]
                kind = token.kind
            if kind == FLOW_MAPPING_END:
                self.p += 1
                return Map((tuple(entries), line, column, True))
            first = False
            if kind == KEY:
                key, value = self.flow_entry(seen, path)
            else:
                key = self.node(False, False, path, True)
                value = self.empty(tokens[self.p], self.take_key(key, seen, path))
            if isinstance(key, Scalar):
                entries.append((key, value))

    def flow_entry(self, seen: set[str], path: _Path) -> tuple[Node, Node]:
        """A flow mapping's entry led by a KEY token: its key and its value, either left out."""
        tokens = self.tokens
        self.p += 1
        token = tokens[self.p]
        key: Node
        if token.kind not in (VALUE, FLOW_ENTRY, FLOW_MAPPING_END):
            key = self.node(False, False, path, True)
        else:
            key = self.empty(token, path)
        value_path = self.take_key(key, seen, path)
        token = tokens[self.p]
        if token.kind != VALUE:
            return key, self.empty(token, value_path)
        self.p += 1
        token = tokens[self.p]
        if token.kind in (FLOW_ENTRY, FLOW_MAPPING_END):
            return key, self.empty(token, value_path)
        return key, self.node(False, False, value_path, False)

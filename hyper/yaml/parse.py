"""A hand-written reader for the strict YAML subset artefacts are written in.

Why not PyYAML: importing it costs about as much as a whole command may spend
starting up (ADR 0006), and its event stream builds an object per token that the
tree then throws away. This module needs nothing but ``re``.

What it must agree with: libyaml, the reader PyYAML's C loader wraps and the
reference's go-yaml was ported from. Artefacts are read by other YAML tools too,
so what counts as YAML is not ours to redefine: a file reads here exactly as it
reads there — same tree, same positions, same error at the same line — or it is
refused for a reason this module names. So the two stages keep libyaml's shape:

* the scanner turns text into tokens, deciding *after the fact* whether a scalar
  was a mapping key (a "simple key" is only known to be one when its ``:`` turns
  up on the same line), with libyaml's indentation, tab and flow-context rules;
* the parser is a recursive descent over those tokens with libyaml's grammar and
  its problems, building the tree directly — no event objects.

Speed comes from reading the commonest shapes whole — a ``key: value`` line, a
one-line flow collection of plain scalars — into the very tokens (or nodes) the
token-at-a-time path would make; anything else takes that path.

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

import re
from typing import Any, NoReturn, TypeAlias

from hyper.core.quote import quote
from hyper.yaml.nodes import Map, Node, Parsed, Scalar, Seq, Style, YamlFault

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
_TOO_DEEP = "exceeded maximum nesting depth"  # libyaml's own problem, so cited as the others are

_NULL_SPELLINGS = frozenset({"", "~", "null", "Null", "NULL"})
"""The plain scalars YAML would read as null. The vocabulary has no null at all."""
_ODD_KEYS = _NULL_SPELLINGS | {"<<"}
"""Plain keys a mapping refuses: a null, and the merge key."""

# Token kinds. A token is a tuple (kind, line, column, ...), positions 0-based as
# libyaml's marks are. A scalar adds its finished Scalar node, an anchor or alias its
# name, a tag (handle, suffix), a directive its two values, an error its _Broken.
_STREAM_END = 0
_DOCUMENT_START = 1
_DOCUMENT_END = 2
_BLOCK_SEQUENCE_START = 3
_BLOCK_MAPPING_START = 4
_BLOCK_END = 5
_FLOW_SEQUENCE_START = 6
_FLOW_SEQUENCE_END = 7
_FLOW_MAPPING_START = 8
_FLOW_MAPPING_END = 9
_BLOCK_ENTRY = 10
_FLOW_ENTRY = 11
_KEY = 12
_VALUE = 13
_ALIAS_TOKEN = 14
_ANCHOR_TOKEN = 15
_TAG_TOKEN = 16
_SCALAR = 17
_VERSION_DIRECTIVE = 18
_TAG_DIRECTIVE = 19
_ERROR = 20
_PAIR = 21
"""KEY, a plain key, VALUE and — where the scanner read it whole — the value: a block
``key: value`` line as one token (key, column of the ``:``, value node or None)."""
_NODE = 22
"""A finished flow collection the scanner read whole (see :func:`_simple_flow`)."""

_Token: TypeAlias = tuple[Any, ...]
_Key: TypeAlias = tuple[bool, int, int, int, int]
"""A possible simple key: (required, token number, index, line, column)."""
_Keys: TypeAlias = tuple[_Key | None, ...]
"""The possible simple key of each flow level, outermost (block context) first."""
_Path: TypeAlias = "tuple[_Path, str | int] | None"
"""Where a node sits, built cheaply and rendered to a field name only for a fault."""

_BLANKZ = " \t\n\0"
_NOT_PLAIN_START = " \t\n\0-?:,[]{}#&*!|>'\"%@`"
_ANCHOR_END = " \t\n\0?:,]}%@`"
_DEEPEST = 1000
"""libyaml reads collections nested up to 1000 deep (block and flow levels together)…"""
_DEEPEST_BLOCK = 999
"""…and up to 999 block levels alone."""
HELD_DEPTH = 200
"""The deepest hyper reads collections nested, block and flow together: the parser
recurses two or three frames a level, and 200 levels stay inside Python's default
recursion limit from any caller, a worker thread of the MCP server included — where
raising that limit would raise it for every thread at once. No authored artefact comes
near it; libyaml's own bound (:data:`_DEEPEST`) is five times deeper, so this is where
the two part: a file 201 to 1000 levels deep reads there and is refused here."""
_TOO_DEEP_HELD = f"collections nest more than {HELD_DEPTH} levels deep here, deeper than hyper reads"
_PAD = "\0" * 12
"""libyaml reads a NUL as the end of the stream; padding lets every look-ahead index."""

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
"""C0 and C1 controls but tab, line feed, carriage return and NEL. libyaml refuses them
and U+FFFE and U+FFFF (UTF-8 text holds no surrogates); those two are looked for apart,
as a character class holding them costs ten times as much to compile."""
_SPACES = re.compile(" *")
_BLANKS = re.compile("[ \t]*")
_COMMENT = re.compile("[^\n\0]*")
# Patterns only unusual text needs are kept as text and compiled where first used (``re``
# caches them from then on): compiling all of them on import cost more than reading a
# typical artefact does, and every command that reads one pays the import.
_ALNUM = "[0-9A-Za-z_-]*"
_DIGITS = "[0-9]*"
_HEX = "[0-9A-Fa-f]*"
_URI = r"[0-9A-Za-z_\-;/?:@&=+$.!~*'()]+"
_VERBATIM_URI = r"[0-9A-Za-z_\-;/?:@&=+$.!~*'(),\[\]]+"
# A plain scalar's word: a ':' is content only where no blank follows it (in flow
# context, nor a flow indicator). Its first character, then runs each led by one
# ':', so that no two quantifiers compete for a character and a failed match
# backtracks in linear time.
_BLOCK_WORD_TEXT = r"(?:[^ \t\n\0:]|:(?=[^ \t\n\0]))[^ \t\n\0:]*(?::(?=[^ \t\n\0])[^ \t\n\0:]*)*"
_FLOW_WORD_TEXT = (
    r"(?:[^ \t\n\0:,\[\]{}]|:(?=[^ \t\n\0,?\[\]{}]))[^ \t\n\0:,\[\]{}]*"
    r"(?::(?=[^ \t\n\0,?\[\]{}])[^ \t\n\0:,\[\]{}]*)*"
)
_BLOCK_WORDS = re.compile(rf"{_BLOCK_WORD_TEXT}(?:[ \t]+(?!#){_BLOCK_WORD_TEXT})*")
_FLOW_WORDS = rf"{_FLOW_WORD_TEXT}(?:[ \t]+(?!#){_FLOW_WORD_TEXT})*"
"""A plain scalar's words on one line (a ``#`` after a blank starts a comment)."""
_NEXT_LINES = re.compile(r"(?: *\n)*( *)(?=[^ \t\n])")
"""Blank lines after a plain scalar's first line, and the next line's indentation."""
_KEY_VALUE = re.compile(
    rf"({_BLOCK_WORD_TEXT}(?:[ \t]+(?!#){_BLOCK_WORD_TEXT})*)[ \t]*(:)(?=[ \t\n\0])"
    rf"(?:[ \t]+((?:[^-?:,\[\]{{}}#&*!|>'\"%@` \t\n\0]|[-?:](?=[^ \t\n\0]))"
    rf"[^ \t\n\0:]*(?::(?=[^ \t\n\0])[^ \t\n\0:]*)*(?:[ \t]+(?!#){_BLOCK_WORD_TEXT})*"
    r"|'(?:[^'\n\0]|'')*'(?!')|\"[^\"\\\n\0]*\"))?[ \t]*"
    r"(?:(\n(?: *\n)*)( *)(?=[^ \t\n]))?"
)
"""A block ``key:`` (1) and its ``:`` (2); the value (3) where it is a plain scalar or a
one-line quoted one without escapes; the line breaks (4) and indentation (5) after it."""
_LINE_REST = re.compile(r"[ \t]*(?:#[^\n\0]*)?")
_FLOW_ITEM_TEXT = (
    r"(?:(?:[^-?:,\[\]{}#&*!|>'\"%@` \t\n\0]|-(?=[^ \t\n\0]))[^ \t\n\0:,\[\]{}#]*(?:[ \t]+[^ \t\n\0:,\[\]{}#]+)*"
    r"|'[^'\n\0]*'(?!')|\"[^\"\\\n\0]*\")"
)
_SIMPLE_ITEM = re.compile(rf"[ \t]*({_FLOW_ITEM_TEXT})[ \t]*([,\]])")
_SIMPLE_ENTRY = re.compile(rf"[ \t]*({_FLOW_ITEM_TEXT})[ \t]*:[ \t]+({_FLOW_ITEM_TEXT})[ \t]*([,}}])")
"""A flow item or entry — plain without ``:`` or ``#``, or quoted without escapes — and
the indicator after it: what :func:`_simple_flow` reads."""
_SIMPLE_KEY = rf"[ \t]*({_FLOW_ITEM_TEXT})[ \t]*:[ \t]+"
"""An entry's key, where its value is a collection nested on the same line."""
_FLOW_NESTING = 16
"""How deep :func:`_simple_flow` follows collections nested on one line; deeper ones (and
any that would pass libyaml's nesting limit) are left to the tokens, which enforce it."""
_ONE_LINE_SINGLE = re.compile(r"((?:[^'\n\0]|'')*)'(?!')")
_ONE_LINE_DOUBLE = re.compile(r'([^"\\\n\0]*)"')
_SINGLE_RUN = r"[^' \t\n\0]+"
_DOUBLE_RUN = r'[^"\\ \t\n\0]+'

_QUOTE_STYLES: dict[str, Style] = {"'": "single", '"': "double"}
_ESCAPES = {
    "0": "\0",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_DEFAULT_HANDLES = (("!", b"!"), ("!!", b"tag:yaml.org,2002:"))

_new = tuple.__new__
"""Builds a NamedTuple from a ready tuple, skipping its Python-level ``__new__``."""


class _Broken(Exception):
    """The file is not YAML: libyaml's problem, and the lines of the marks it would cite.

    Lines are 0-based, as libyaml's marks are, because :func:`_error_line` reckons from
    those; ``context_line`` is ``None`` where libyaml names no context.
    """

    def __init__(self, problem: str, line: int, context_line: int | None, scanner: bool) -> None:
        super().__init__(problem)
        self.problem = problem
        self.line = line
        self.context_line = context_line
        self.scanner = scanner


class _TooDeep(Exception):
    """The collection opening on ``line`` (0-based) is past :data:`HELD_DEPTH`."""

    def __init__(self, line: int) -> None:
        super().__init__(_TOO_DEEP_HELD)
        self.line = line


class _Unreadable(Exception):
    """A tag whose %-escapes spell bytes that are not UTF-8, which PyYAML fails to decode."""


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
    try:
        return _read(text, file)
    except _Broken as err:
        return _broken(YamlFault(file, _error_line(err), 1, _NOT_YAML + err.problem))
    except _TooDeep as err:
        return _broken(YamlFault(file, err.line + 1, 1, _TOO_DEEP_HELD))
    except (_Unreadable, RecursionError):
        # RecursionError only where the caller's own stack is already nearly full.
        return _broken(YamlFault(file, 1, 1, _UNREADABLE))


def _broken(fault: YamlFault) -> Parsed:
    return Parsed(None, (fault,), False)


def _error_line(err: _Broken) -> int:
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


def _read(text: str, file: str) -> Parsed:
    control = _CONTROL.search(text)
    bad = [found for found in (text.find("\ufffe"), text.find("\uffff")) if found >= 0]
    if control is not None:
        bad.append(control.start())
    if bad:
        # libyaml checks the characters it reads before it scans them, so this comes first.
        reason = f"unacceptable character #x{ord(text[min(bad)]):04x}: control characters are not allowed"
        return _broken(YamlFault(file, 1, 1, _NOT_YAML + reason))
    if text.startswith("\ufeff"):
        # libyaml's reader drops one more byte-order mark at the very start, uncounted.
        text = text[1:]
    if "\r" in text or "\x85" in text:
        # Every such break reads as a line feed, inside scalars too.
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x85", "\n")
    breaks = text
    if "\u2028" in text or "\u2029" in text:
        # LS and PS end a line like a line feed but stay themselves inside a scalar:
        # structure is read from ``text``, a scalar's line breaks from ``breaks``.
        text = text.replace("\u2028", "\n").replace("\u2029", "\n")
    padded = text + _PAD
    parser = _Parser(_scan(padded, padded if breaks is text else breaks + _PAD, len(text)), file)
    root = parser.stream()
    return Parsed(root, tuple(parser.kept), True)


def _past(pattern: re.Pattern[str], text: str, i: int) -> int:
    """Where a run of ``pattern``, which also matches nothing, ends when it starts at ``i``."""
    return pattern.match(text, i).end()  # type: ignore[union-attr]


# --------------------------------------------------------------------------- scanner


def _scan(text: str, breaks: str, end: int) -> list[_Token]:
    """The token list; where the text stops being YAML, ending in an error token.

    libyaml scans lazily, so its parser may report a grammar error before the scanner
    ever reaches a later malformed character. To report what it reports, the error
    token goes where the lazy scanner would have surfaced it: after the tokens it had
    released, which stop short of any token a simple key might still precede.
    """
    tokens: list[_Token] = []
    append = tokens.append
    i = line = ls = 0  # ls: where the current line starts, so a column is i - ls
    indent = -1
    indents: list[int] = []
    flow = 0
    ska = True  # may a simple key start here?
    keys: _Keys = (None,)
    released_keys = keys
    released = 0
    try:
        while True:
            released_keys = keys
            released = len(tokens)
            c = text[i]
            if c in " \t#\n\ufeff":
                # Skip blanks, comments and line breaks up to the next token; a tab
                # separates only where it cannot be taken for indentation.
                while True:
                    if i == ls and c == "\ufeff":
                        i += 1
                        c = text[i]
                    if c == " " or (c == "\t" and (flow or not ska)):
                        i = (_BLANKS if flow or not ska else _SPACES).match(text, i).end()  # type: ignore[union-attr]
                        c = text[i]
                    if c == "#":
                        i = _COMMENT.match(text, i).end()  # type: ignore[union-attr]
                        c = text[i]
                    if c != "\n":
                        break
                    i += 1
                    line += 1
                    ls = i
                    c = text[i]
                    if not flow:
                        ska = True
                if flow:
                    if any(keys):
                        keys = _unstale(keys, line, i)
                else:
                    key = keys[0]
                    if key is not None and (key[3] < line or key[2] + 1024 < i):
                        keys = _unstale(keys, line, i)
            col = i - ls
            if not flow and indent > col:
                while indent > col:
                    append((_BLOCK_END, line, col))
                    indent = indents.pop()
            nxt = text[i + 1]
            if (
                c not in _NOT_PLAIN_START
                or (c == "-" and nxt not in _BLANKZ)
                or (not flow and (c == "?" or c == ":") and nxt not in _BLANKZ)
            ) and not (
                col == 0 and (c == "." or c == "-") and nxt == c and text[i + 2] == c and text[i + 3] in _BLANKZ
            ):
                # A plain scalar — the commonest token, so it is tried first. ("---" and
                # "..." at a line's start are document markers only before a blank.)
                key = keys[-1]
                if ska and key is not None and key[0]:
                    raise _Broken("could not find expected ':'", line, key[3], True)
                if ska and key is None and not flow:
                    # ``key: value`` read whole into a pair token; then, while the next
                    # line holds a sibling key, that one too.
                    match = _KEY_VALUE.match(text, i)
                    sibling = False
                    while match is not None and match.start(2) <= i + 1024:
                        if indent < col:
                            if len(indents) >= _DEEPEST_BLOCK:
                                raise _Broken(_TOO_DEEP, line, line, True)
                            indents.append(indent)
                            indent = col
                            append((_BLOCK_MAPPING_START, line, col))
                        key_node = _new(Scalar, (match.group(1), "plain", line + 1, col + 1))
                        colon = match.start(2) - ls
                        written = match.group(3)
                        broken_at = match.start(4)
                        i = match.end() if broken_at < 0 else broken_at
                        ska = False
                        pair_value: Node | None = None
                        if written is None:
                            if broken_at < 0 and text[i] in "[{":
                                # A one-line flow collection, alone on the rest of the line.
                                found = _simple_flow(text, i, line, ls, _room(indents))
                                if found is not None:
                                    rest = _past(_LINE_REST, text, found[0])
                                    if text[rest] in "\n\0":
                                        pair_value, i = found[1], rest
                            append((_PAIR, line, col, key_node, colon, pair_value))
                            break
                        value_col = match.start(3) - ls
                        opener = written[0]
                        if opener == "'" or opener == '"':
                            # A quoted value ends with its closing quote, whatever follows.
                            if broken_at >= 0 or text[i] in "#\0":
                                written = written[1:-1]
                                if opener == "'":
                                    written = written.replace("''", "'")
                                pair_value = _new(Scalar, (written, _QUOTE_STYLES[opener], line + 1, value_col + 1))
                        elif (opener not in "~nN" or written not in _NULL_SPELLINGS) and (
                            # A plain one ends with its line where the line ends the text, or
                            # in a comment, or where the next is indented too little to go on.
                            # (A null is left to the token path, whose parser refuses it.)
                            text[i] in "#\0"
                            if broken_at < 0
                            else len(match.group(5)) <= col or text[match.end()] in "#\0"
                        ):
                            pair_value = _new(Scalar, (written, "plain", line + 1, value_col + 1))
                        append((_PAIR, line, col, key_node, colon, pair_value))
                        if pair_value is None:
                            i = match.start(3)
                            break
                        if broken_at < 0:
                            break
                        i = match.end()
                        ls = match.start(5)
                        line += text.count("\n", broken_at, ls)
                        ska = True
                        c = text[i]
                        if i - ls != col or c in _NOT_PLAIN_START or c == "." or c == "\ufeff":
                            break
                        match = _KEY_VALUE.match(text, i)
                        sibling = True
                    else:
                        match = None
                        if sibling:
                            # The sibling is read below, in a step of its own.
                            released_keys = keys
                            released = len(tokens)
                    if match is not None:
                        continue
                if ska:
                    keys = (*keys[:-1], (not flow and indent == col, len(tokens), i, line, col))
                # Most plain scalars end with their first line, which is read here; the
                # rest are read again, in full, by _scan_plain.
                match = (re.compile(_FLOW_WORDS) if flow else _BLOCK_WORDS).match(text, i)
                j = _past(_BLANKS, text, match.end())  # type: ignore[union-attr]
                c = text[j]
                below = _NEXT_LINES.match(text, j + 1) if c == "\n" and not flow else None
                if below is not None and (below.end() - below.start(1) <= indent or text[below.end()] in "#\0"):
                    append((_SCALAR, line, col, _new(Scalar, (match.group(), "plain", line + 1, col + 1))))  # type: ignore[union-attr]
                    i = below.end()
                    ls = below.start(1)
                    line += text.count("\n", j, ls)
                    ska = True
                elif c != "\n" and not (flow and c == ":" and text[j + 1] in ",?[]{}"):
                    append((_SCALAR, line, col, _new(Scalar, (match.group(), "plain", line + 1, col + 1))))  # type: ignore[union-attr]
                    i = j
                    ska = False
                else:
                    start = line
                    value, i, line, ls, ska = _scan_plain(text, breaks, i, line, ls, indent, flow)
                    append((_SCALAR, start, col, _new(Scalar, (value, "plain", start + 1, col + 1))))
            elif c == ":" and (flow or nxt in _BLANKZ):
                key = keys[-1]
                if key is not None:
                    # The possible simple key was one: its KEY goes in before it.
                    number, key_line, key_col = key[1], key[3], key[4]
                    tokens.insert(number, (_KEY, key_line, key_col))
                    if not flow and indent < key_col:
                        if len(indents) >= _DEEPEST_BLOCK:
                            raise _Broken(_TOO_DEEP, line, line, True)
                        indents.append(indent)
                        indent = key_col
                        tokens.insert(number, (_BLOCK_MAPPING_START, key_line, key_col))
                    keys = (*keys[:-1], None)
                    ska = False
                else:
                    if not flow:
                        if not ska:
                            raise _Broken("mapping values are not allowed in this context", line, None, True)
                        if indent < col:
                            if len(indents) >= _DEEPEST_BLOCK:
                                raise _Broken(_TOO_DEEP, line, line, True)
                            indents.append(indent)
                            indent = col
                            append((_BLOCK_MAPPING_START, line, col))
                    ska = not flow
                append((_VALUE, line, col))
                i += 1
            elif c == "-" and nxt in _BLANKZ:
                if not flow:
                    if not ska:
                        raise _Broken("block sequence entries are not allowed in this context", line, None, True)
                    if indent < col:
                        if len(indents) >= _DEEPEST_BLOCK:
                            raise _Broken(_TOO_DEEP, line, line, True)
                        indents.append(indent)
                        indent = col
                        append((_BLOCK_SEQUENCE_START, line, col))
                if keys[-1] is not None:
                    keys = _removed(keys, line)
                ska = True
                append((_BLOCK_ENTRY, line, col))
                i += 1
            elif c == ",":
                if keys[-1] is not None:
                    keys = _removed(keys, line)
                ska = True
                append((_FLOW_ENTRY, line, col))
                i += 1
            elif c == "[" or c == "{":
                found = None if flow or ska else _simple_flow(text, i, line, ls, _room(indents))
                if found is not None:
                    i, node = found
                    append((_NODE, line, col, node))
                else:
                    if ska:
                        keys = _saved(keys, flow, indent, len(tokens), i, line, col)
                    if len(indents) + flow >= _DEEPEST:
                        raise _Broken(_TOO_DEEP, line, line, True)
                    flow += 1
                    keys = (*keys, None)
                    ska = True
                    append((_FLOW_SEQUENCE_START if c == "[" else _FLOW_MAPPING_START, line, col))
                    i += 1
            elif c == "]" or c == "}":
                if keys[-1] is not None:
                    keys = _removed(keys, line)
                if flow:
                    flow -= 1
                    keys = keys[:-1]
                ska = False
                append((_FLOW_SEQUENCE_END if c == "]" else _FLOW_MAPPING_END, line, col))
                i += 1
            elif c == "'" or c == '"':
                if ska:
                    keys = _saved(keys, flow, indent, len(tokens), i, line, col)
                ska = False
                start = line
                value, i, line, ls = _scan_quoted(text, breaks, i, line, ls, c == "'")
                append((_SCALAR, start, col, _new(Scalar, (value, _QUOTE_STYLES[c], start + 1, col + 1))))
            elif (c == "|" or c == ">") and not flow:
                if keys[-1] is not None:
                    keys = _removed(keys, line)
                ska = True
                start = line
                value, i, line, ls = _scan_block_scalar(text, breaks, i, line, ls, indent, c == "|", end)
                style = "literal" if c == "|" else "folded"
                append((_SCALAR, start, col, _new(Scalar, (value, style, start + 1, col + 1))))
            elif c == "?" and (flow or nxt in _BLANKZ):
                if not flow:
                    if not ska:
                        raise _Broken("mapping keys are not allowed in this context", line, None, True)
                    if indent < col:
                        if len(indents) >= _DEEPEST_BLOCK:
                            raise _Broken(_TOO_DEEP, line, line, True)
                        indents.append(indent)
                        indent = col
                        append((_BLOCK_MAPPING_START, line, col))
                if keys[-1] is not None:
                    keys = _removed(keys, line)
                ska = not flow
                append((_KEY, line, col))
                i += 1
            elif c == "*" or c == "&":
                if ska:
                    keys = _saved(keys, flow, indent, len(tokens), i, line, col)
                ska = False
                j = _past(re.compile(_ALNUM), text, i + 1)
                if j == i + 1 or text[j] not in _ANCHOR_END:
                    raise _Broken("did not find expected alphabetic or numeric character", line, line, True)
                append((_ALIAS_TOKEN if c == "*" else _ANCHOR_TOKEN, line, col, text[i + 1 : j]))
                i = j
            elif c == "!":
                if ska:
                    keys = _saved(keys, flow, indent, len(tokens), i, line, col)
                ska = False
                token, i = _scan_tag(text, i, line, col, flow)
                append(token)
            elif c == "\0":
                if col:
                    line += 1  # the end of the stream is read as the start of a new line
                if not flow:
                    while indent > -1:
                        append((_BLOCK_END, line, 0))
                        indent = indents.pop()
                if keys[-1] is not None:
                    keys = _removed(keys, line)
                append((_STREAM_END, line, 0))
                if any(keys):
                    _unstale(keys, line, i)
                return tokens
            elif col == 0 and (c == "%" or c == "-" or c == "."):
                # A directive, or a document marker: the plain branch let no other through.
                if not flow:
                    while indent > -1:
                        append((_BLOCK_END, line, 0))
                        indent = indents.pop()
                if keys[-1] is not None:
                    keys = _removed(keys, line)
                ska = False
                if c == "%":
                    token, i, line, ls = _scan_directive(text, i, line, ls)
                    append(token)
                else:
                    append((_DOCUMENT_START if c == "-" else _DOCUMENT_END, line, 0))
                    i += 3
            else:
                raise _Broken("found character that cannot start any token", line, line, True)
            # libyaml looks for stale keys again before it hands a token over.
            if flow:
                if any(keys):
                    keys = _unstale(keys, line, i)
            else:
                key = keys[0]
                if key is not None and (key[3] < line or key[2] + 1024 < i):
                    keys = _unstale(keys, line, i)
    except _Broken as err:
        numbers = [key[1] for key in released_keys if key is not None]
        del tokens[min(numbers, default=released) :]
        append((_ERROR, 0, 0, err))
        return tokens


def _unstale(keys: _Keys, line: int, i: int) -> _Keys:
    """Drop the keys no ``:`` can follow any more: a simple key is one line, under 1024 characters."""
    kept: list[_Key | None] = []
    for key in keys:
        if key is not None and (key[3] < line or key[2] + 1024 < i):
            if key[0]:
                raise _Broken("could not find expected ':'", line, key[3], True)
            key = None
        kept.append(key)
    return tuple(kept)


def _removed(keys: _Keys, line: int) -> _Keys:
    """The current level's possible key given up — an error where one was required there."""
    key = keys[-1]
    if key is not None and key[0]:
        raise _Broken("could not find expected ':'", line, key[3], True)
    return (*keys[:-1], None)


def _saved(keys: _Keys, flow: int, indent: int, number: int, i: int, line: int, col: int) -> _Keys:
    """A possible simple key here; in block context, at the indentation, it must be one."""
    key = keys[-1]
    if key is not None and key[0]:
        raise _Broken("could not find expected ':'", line, key[3], True)
    return (*keys[:-1], (not flow and indent == col, number, i, line, col))


def _room(indents: list[int]) -> int:
    """How many flow levels may still open inside one opened at this block depth: never
    past :data:`HELD_DEPTH`, so a collection read in place is held to it as the parser is."""
    return min(_FLOW_NESTING, HELD_DEPTH - 1 - len(indents))


def _simple_flow(text: str, i: int, line: int, ls: int, deeper: int) -> tuple[int, Seq | Map] | None:
    """A one-line flow collection of plain and simply quoted scalars, and of collections
    like it nested in value position: where it ends, and its node.

    ``None`` for anything else. Only what the parser would accept without a fault is
    read here — no null, no repeated key, no merge key — so there is nothing left in
    it for the parser to check, and the tokens it stands for would not change a thing
    the scanner keeps (a collection in value position is never a simple key, and one
    followed by anything but ``,`` or its parent's closing bracket is not read here).
    """
    sequence = text[i] == "["
    j = _past(_BLANKS, text, i + 1)
    items: list[Node] = []
    entries: list[tuple[Scalar, Node]] = []
    if text[j] == ("]" if sequence else "}"):
        j += 1
    elif sequence:
        while True:
            match = _SIMPLE_ITEM.match(text, j)
            if match is not None:
                item = _flow_scalar(match.group(1), match.start(1) - ls, line)
                if item is None:
                    return None
                items.append(item)
                j = match.end()
                closer = match.group(2)
            else:
                nested = _nested_flow(text, j, line, ls, deeper, "]")
                if nested is None:
                    return None
                j, node, closer = nested
                items.append(node)
            if closer == "]":
                break
    else:
        names: set[str] = set()
        while True:
            match = _SIMPLE_ENTRY.match(text, j)
            value: Node | None
            if match is not None:
                key = _flow_scalar(match.group(1), match.start(1) - ls, line)
                value = _flow_scalar(match.group(2), match.start(2) - ls, line)
                j = match.end()
                closer = match.group(3)
            else:
                match = re.compile(_SIMPLE_KEY).match(text, j)
                if match is None:
                    return None
                key = _flow_scalar(match.group(1), match.start(1) - ls, line)
                nested = _nested_flow(text, match.end(), line, ls, deeper, "}")
                if nested is None:
                    return None
                j, value, closer = nested
            if key is None or value is None or key[0] in names or (key[0] == "<<" and key[1] == "plain"):
                return None
            names.add(key[0])
            entries.append((key, value))
            if closer == "}":
                break
    if sequence:
        return j, _new(Seq, (tuple(items), line + 1, i - ls + 1, True))
    return j, _new(Map, (tuple(entries), line + 1, i - ls + 1, True))


def _nested_flow(text: str, j: int, line: int, ls: int, deeper: int, closer: str) -> tuple[int, Node, str] | None:
    """A collection :func:`_simple_flow` reads nested at ``j``: where the indicator after it
    ends, the node, and that indicator (``,`` or ``closer``); ``None`` for anything else,
    and where ``deeper`` leaves no room for another level."""
    j = _past(_BLANKS, text, j)
    if text[j] not in "[{" or deeper <= 0:
        return None
    found = _simple_flow(text, j, line, ls, deeper - 1)
    if found is None:
        return None
    j = _past(_BLANKS, text, found[0])
    after = text[j]
    if after != "," and after != closer:
        return None
    return j + 1, found[1], after


def _flow_scalar(text: str, col: int, line: int) -> Scalar | None:
    """A scalar as :func:`_simple_flow` reads it; ``None`` for a null."""
    style = _QUOTE_STYLES.get(text[0])
    if style is not None:
        return _new(Scalar, (text[1:-1], style, line + 1, col + 1))
    if text in _NULL_SPELLINGS:
        return None
    return _new(Scalar, (text, "plain", line + 1, col + 1))


def _scan_plain(
    text: str, breaks: str, i: int, line: int, ls: int, indent: int, flow: int
) -> tuple[str, int, int, int, bool]:
    """A plain scalar, folded across lines; last, whether it ended after a line break."""
    start = line
    word = re.compile(_FLOW_WORD_TEXT if flow else _BLOCK_WORD_TEXT)
    floor = indent + 1
    value = ""
    spaces = ""  # blanks since the last word, kept only if another word follows on the line
    leading_break = ""
    trailing = ""
    folded = False
    while True:
        if i == ls and (text.startswith("---", i) or text.startswith("...", i)) and text[i + 3] in _BLANKZ:
            break
        if text[i] == "#":
            break
        match = word.match(text, i)
        if match is not None:
            if folded:
                value += _fold(leading_break, trailing)
                leading_break = trailing = ""
                folded = False
            elif spaces:
                value += spaces
            spaces = ""
            value += match.group()
            i = match.end()
        c = text[i]
        if flow and c == ":" and text[i + 1] in ",?[]{}":
            raise _Broken("found unexpected ':'", line, start, True)
        if c != " " and c != "\t" and c != "\n":
            break
        while True:
            if c == " " or c == "\t":
                j = _past(_BLANKS, text, i)
                if folded:
                    tab = text.find("\t", i, j)
                    if tab >= 0 and tab - ls < floor:
                        raise _Broken("found a tab character that violates indentation", line, start, True)
                else:
                    spaces += text[i:j]
                i = j
            elif c == "\n":
                if folded:
                    trailing += breaks[i]
                else:
                    spaces = ""
                    leading_break = breaks[i]
                    folded = True
                i += 1
                line += 1
                ls = i
            else:
                break
            c = text[i]
        if not flow and i - ls < floor:
            break
    return value, i, line, ls, folded


def _fold(leading_break: str, trailing: str) -> str:
    """What a run of line breaks inside a plain or quoted scalar becomes (YAML's line folding): a
    lone newline is a space; where more breaks follow it, the first is dropped and the rest
    kept; a first break of another kind (a Unicode line or paragraph separator) is kept."""
    return (trailing or " ") if leading_break == "\n" else leading_break + trailing


def _scan_quoted(text: str, breaks: str, i: int, line: int, ls: int, single: bool) -> tuple[str, int, int, int]:
    """A single- or double-quoted scalar with its escapes, folded across lines."""
    match = (_ONE_LINE_SINGLE if single else _ONE_LINE_DOUBLE).match(text, i + 1)
    if match is not None:
        value = match.group(1)
        if single and "''" in value:
            value = value.replace("''", "'")
        return value, match.end(), line, ls
    start = line
    closer = "'" if single else '"'
    run = re.compile(_SINGLE_RUN if single else _DOUBLE_RUN)
    i += 1
    parts: list[str] = []  # joined once: a value grown piece by piece re-copies itself
    while True:
        if i == ls and (text.startswith("---", i) or text.startswith("...", i)) and text[i + 3] in _BLANKZ:
            raise _Broken("found unexpected document indicator", line, start, True)
        if text[i] == "\0":
            raise _Broken("found unexpected end of stream", line, start, True)
        folded = False
        while True:
            c = text[i]
            if c == " " or c == "\t" or c == "\n" or c == "\0":
                break
            if single:
                if c == "'":
                    if text[i + 1] != "'":
                        break
                    parts.append("'")
                    i += 2
                    continue
            elif c == '"':
                break
            elif c == "\\":
                escaped, i, escaped_break = _escape(text, i, line, start)
                parts.append(escaped)
                if escaped_break:
                    line += 1
                    ls = i
                    folded = True
                    break
                continue
            match = run.match(text, i)
            parts.append(match.group())  # type: ignore[union-attr]
            i = match.end()  # type: ignore[union-attr]
        if text[i] == closer:
            break
        spaces = leading_break = trailing = ""
        while True:
            c = text[i]
            if c == " " or c == "\t":
                if not folded:
                    spaces += c
                i += 1
            elif c == "\n":
                if folded:
                    trailing += breaks[i]
                else:
                    spaces = ""
                    leading_break = breaks[i]
                    folded = True
                i += 1
                line += 1
                ls = i
            else:
                break
        parts.append(_fold(leading_break, trailing) if folded else spaces)
    return "".join(parts), i + 1, line, ls


def _escape(text: str, i: int, line: int, start: int) -> tuple[str, int, bool]:
    """A double-quoted scalar's escape at ``i``: what it stands for, where it ends, and
    whether it was an escaped line break (which joins the next line on directly).

    It answers the piece, never the value with the piece added: building a new value per
    escape made a scalar of many escapes cost the square of its length."""
    c = text[i + 1]
    if c == "\n":
        return "", i + 2, True
    escaped = _ESCAPES.get(c)
    if escaped is not None:
        return escaped, i + 2, False
    width = _HEX_ESCAPES.get(c)
    if width is None:
        raise _Broken("found unknown escape character", line, start, True)
    digits = text[i + 2 : i + 2 + width]
    if _past(re.compile(_HEX), digits, 0) != width:
        raise _Broken("did not find expected hexdecimal number", line, start, True)
    code = int(digits, 16)
    if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
        raise _Broken("found invalid Unicode character escape code", line, start, True)
    return chr(code), i + 2 + width, False


def _scan_block_scalar(
    text: str, breaks: str, i: int, line: int, ls: int, indent: int, literal: bool, end: int
) -> tuple[str, int, int, int]:
    """A literal (``|``) or folded (``>``) scalar with its chomping and indentation indicators."""
    start = line
    i += 1
    chomping = increment = 0
    for _ in range(2):  # the two indicators, in either order
        c = text[i]
        if (c == "+" or c == "-") and not chomping:
            chomping = 1 if c == "+" else -1
            i += 1
        elif "0" <= c <= "9" and not increment:
            if c == "0":
                raise _Broken("found an indentation indicator equal to 0", line, start, True)
            increment = int(c)
            i += 1
    i = _past(_BLANKS, text, i)
    if text[i] == "#":
        i = _past(_COMMENT, text, i)
    if text[i] != "\n" and text[i] != "\0":
        raise _Broken("did not find expected comment or line break", line, start, True)
    if text[i] == "\n":
        i += 1
        line += 1
        ls = i
    target = (indent + increment if indent >= 0 else increment) if increment else 0
    i, line, ls, target, trailing = _block_breaks(text, breaks, i, line, ls, target, indent, start)
    value = leading_break = ""
    leading_blank = False
    while i - ls == target and text[i] != "\0":
        blank = text[i] == " " or text[i] == "\t"
        if not literal and leading_break == "\n" and not leading_blank and not blank:
            # Folding: a single line break between two text lines reads as a space.
            if not trailing:
                value += " "
        else:
            value += leading_break
        value += trailing
        leading_blank = blank
        j = text.find("\n", i, end)
        if j < 0:
            j = end
        value += text[i:j]
        i = j
        leading_break = ""
        if text[i] == "\n":
            leading_break = breaks[i]
            i += 1
            line += 1
            ls = i
        i, line, ls, target, trailing = _block_breaks(text, breaks, i, line, ls, target, indent, start)
    if chomping != -1:
        value += leading_break
    if chomping == 1:
        value += trailing
    return value, i, line, ls


def _block_breaks(
    text: str, breaks: str, i: int, line: int, ls: int, target: int, indent: int, start: int
) -> tuple[int, int, int, int, str]:
    """Empty lines and indentation before a block scalar's next line; settles its indentation."""
    deepest = 0
    found = ""
    while True:
        if not target:
            i = _past(_SPACES, text, i)
        elif ls + target > i:
            i = _SPACES.match(text, i, ls + target).end()  # type: ignore[union-attr]
        col = i - ls
        if col > deepest:
            deepest = col
        if text[i] == "\t" and (not target or col < target):
            raise _Broken("found a tab character where an indentation space is expected", line, start, True)
        if text[i] != "\n":
            break
        found += breaks[i]
        i += 1
        line += 1
        ls = i
    if not target:
        target = max(deepest, indent + 1, 1)
    return i, line, ls, target, found


def _scan_tag(text: str, i: int, line: int, col: int, flow: int) -> tuple[_Token, int]:
    """A tag — ``!<uri>``, ``!handle!suffix`` or ``!suffix`` — read only to be refused."""
    suffix: bytes
    if text[i + 1] == "<":
        handle = ""
        suffix, i = _scan_uri(text, i + 2, True, "", line)
        if text[i] != ">":
            raise _Broken("did not find the expected '>'", line, line, True)
        i += 1
    else:
        handle, i = _scan_tag_handle(text, i, False, line)
        if len(handle) > 1 and handle[-1] == "!":
            suffix, i = _scan_uri(text, i, False, "", line)
        else:
            suffix, i = _scan_uri(text, i, False, handle, line)
            handle = "!"
            if not suffix.split(b"\0", 1)[0]:
                handle, suffix = "", b"!"
    if text[i] not in _BLANKZ and not (flow and text[i] == ","):
        raise _Broken("did not find expected whitespace or line break", line, line, True)
    return (_TAG_TOKEN, line, col, handle, suffix), i


def _scan_tag_handle(text: str, i: int, directive: bool, line: int) -> tuple[str, int]:
    if text[i] != "!":
        raise _Broken("did not find expected '!'", line, line, True)
    j = _past(re.compile(_ALNUM), text, i + 1)
    if text[j] == "!":
        j += 1
    elif directive and j != i + 1:
        raise _Broken("did not find expected '!'", line, line, True)
    return text[i:j], j


def _scan_uri(text: str, i: int, verbatim: bool, head: str, line: int) -> tuple[bytes, int]:
    """A tag's URI part as bytes, its %-escapes decoded (each must spell one UTF-8 character)."""
    length = len(head)
    out = bytearray(head[1:].encode())
    chars = re.compile(_VERBATIM_URI if verbatim else _URI)
    while True:
        match = chars.match(text, i)
        if match is not None:
            out += match.group().encode()
            length += match.end() - i
            i = match.end()
        if text[i] != "%":
            break
        width = 0
        while True:
            digits = text[i + 1 : i + 3]
            if text[i] != "%" or _past(re.compile(_HEX), digits, 0) != 2:
                raise _Broken("did not find URI escaped octet", line, line, True)
            octet = int(digits, 16)
            if width:
                if octet & 0xC0 != 0x80:
                    raise _Broken("found an incorrect trailing UTF-8 octet", line, line, True)
            elif octet < 0x80:
                width = 1
            elif octet & 0xE0 == 0xC0:
                width = 2
            elif octet & 0xF0 == 0xE0:
                width = 3
            elif octet & 0xF8 == 0xF0:
                width = 4
            else:
                raise _Broken("found an incorrect leading UTF-8 octet", line, line, True)
            out.append(octet)
            i += 3
            width -= 1
            if not width:
                break
        length += 1
    if not length:
        raise _Broken("did not find expected tag URI", line, line, True)
    return bytes(out), i


def _scan_directive(text: str, i: int, line: int, ls: int) -> tuple[_Token, int, int, int]:
    """A ``%YAML`` or ``%TAG`` line; any other directive name is an error, as in libyaml."""
    j = _past(re.compile(_ALNUM), text, i + 1)
    name = text[i + 1 : j]
    if not name:
        raise _Broken("could not find expected directive name", line, line, True)
    if text[j] not in _BLANKZ:
        raise _Broken("found unexpected non-alphabetical character", line, line, True)
    i = _past(_BLANKS, text, j)
    token: _Token
    if name == "YAML":
        major, i = _version_number(text, i, line)
        if text[i] != ".":
            raise _Broken("did not find expected digit or '.' character", line, line, True)
        minor, i = _version_number(text, i + 1, line)
        token = (_VERSION_DIRECTIVE, line, 0, major, minor)
    elif name == "TAG":
        handle, i = _scan_tag_handle(text, i, True, line)
        if text[i] != " " and text[i] != "\t":
            raise _Broken("did not find expected whitespace", line, line, True)
        prefix, i = _scan_uri(text, _past(_BLANKS, text, i), True, "", line)
        if text[i] not in _BLANKZ:
            raise _Broken("did not find expected whitespace or line break", line, line, True)
        token = (_TAG_DIRECTIVE, line, 0, handle, prefix)
    else:
        raise _Broken("found unknown directive name", line, line, True)
    i = _past(_BLANKS, text, i)
    if text[i] == "#":
        i = _past(_COMMENT, text, i)
    if text[i] != "\n" and text[i] != "\0":
        raise _Broken("did not find expected comment or line break", line, line, True)
    if text[i] == "\n":
        i += 1
        line += 1
        ls = i
    return token, i, line, ls


def _version_number(text: str, i: int, line: int) -> tuple[int, int]:
    j = _past(re.compile(_DIGITS), text, i)
    if j - i > 9:
        raise _Broken("found extremely long version number", line, line, True)
    if j == i:
        raise _Broken("did not find expected version number", line, line, True)
    return int(text[i:j]), j


# ---------------------------------------------------------------------------- parser


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

    def __init__(self, tokens: list[_Token], file: str) -> None:
        self.tokens = tokens
        self.file = file
        self.p = 0
        self.depth = 0
        self.faults: list[YamlFault] = []
        self.kept = self.faults
        self.handles: dict[str, bytes] = {}

    def fault(self, line: int, column: int, path: _Path, message: str) -> None:
        self.faults.append(YamlFault(self.file, line, column, message, _render(path)))

    def fail(self, context_line: int | None, problem: str, token: _Token) -> NoReturn:
        """A grammar error at ``token`` — unless the scanner stopped there, whose error it is."""
        if token[0] == _ERROR:
            raise token[3]
        raise _Broken(problem, token[1], context_line, False)

    def stream(self) -> Node | None:
        tokens = self.tokens
        root: Node | None = None
        documents = 0
        while True:
            token = tokens[self.p]
            kind = token[0]
            if documents:
                while kind == _DOCUMENT_END:
                    self.p += 1
                    token = tokens[self.p]
                    kind = token[0]
            elif kind not in (_VERSION_DIRECTIVE, _TAG_DIRECTIVE, _DOCUMENT_START, _STREAM_END):
                # The implicit document: a file that starts with its content.
                self.handles = dict(_DEFAULT_HANDLES)
                documents = 1
                root = self.node(True, False, None, False)
                self.document_end()
                continue
            if kind == _STREAM_END:
                return root
            first = token  # an explicit document starts at its first directive, or at its ---
            self.directives()
            token = tokens[self.p]
            if token[0] != _DOCUMENT_START:
                self.fail(None, "did not find expected <document start>", token)
            documents += 1
            if documents == 2:
                self.fault(first[1] + 1, first[2] + 1, None, _SECOND_DOCUMENT)
                self.faults = []  # a later document is read for errors, but nothing in it is kept
            self.p += 1
            token = tokens[self.p]
            node: Node
            if token[0] in (_VERSION_DIRECTIVE, _TAG_DIRECTIVE, _DOCUMENT_START, _DOCUMENT_END, _STREAM_END):
                node = self.empty(token, None)
            else:
                node = self.node(True, False, None, False)
            if documents == 1:
                root = node
            self.document_end()

    def document_end(self) -> None:
        if self.tokens[self.p][0] == _DOCUMENT_END:
            self.p += 1
        self.handles = {}

    def directives(self) -> None:
        tokens = self.tokens
        version = False
        declared: list[bytes] = []
        token = tokens[self.p]
        while token[0] in (_VERSION_DIRECTIVE, _TAG_DIRECTIVE):
            if token[0] == _VERSION_DIRECTIVE:
                if version:
                    self.fail(None, "found duplicate %YAML directive", token)
                if token[3] != 1 or token[4] not in (1, 2):
                    self.fail(None, "found incompatible YAML document", token)
                version = True
            else:
                if token[3] in self.handles:
                    self.fail(None, "found duplicate %TAG directive", token)
                self.handles[token[3]] = token[4]
                declared.append(token[4])
            self.p += 1
            token = tokens[self.p]
        for handle, prefix in _DEFAULT_HANDLES:
            self.handles.setdefault(handle, prefix)
        if token[0] == _DOCUMENT_START:
            for prefix in declared:  # PyYAML decodes them with the document's start
                _decoded(prefix)

    def empty(self, token: _Token, path: _Path, after: int = 0) -> Scalar:
        """The empty plain scalar YAML reads where a node is left out — a null, so a fault."""
        line, column = token[1] + 1, token[2] + 1 + after
        self.fault(line, column, path, _NULL)
        return _new(Scalar, ("", "plain", line, column))

    def node(self, block: bool, indentless: bool, path: _Path, as_key: bool) -> Node:
        tokens = self.tokens
        token = tokens[self.p]
        kind = token[0]
        if kind == _SCALAR:
            self.p += 1
            scalar: Scalar = token[3]
            if scalar[1] == "plain" and scalar[0] in _NULL_SPELLINGS:
                self.fault(scalar[2], scalar[3], path, _NULL)
            return scalar
        if not as_key:
            if kind == _NODE:
                self.p += 1
                finished: Node = token[3]
                return finished
            # A block collection with neither anchor nor tag: the commonest node after a scalar.
            if block and kind == _BLOCK_MAPPING_START:
                self.deeper(token[1])
                found_map = self.block_mapping(token[1] + 1, token[2] + 1, path, token[1])
                self.depth -= 1
                return found_map
            if block and kind == _BLOCK_SEQUENCE_START:
                self.deeper(token[1])
                found_seq = self.block_sequence(token[1] + 1, token[2] + 1, path, token[1])
                self.depth -= 1
                return found_seq
        line, column = token[1] + 1, token[2] + 1
        if kind == _ALIAS_TOKEN:
            self.p += 1
            self.fault(line, column, path, _ALIAS)
            return _new(Scalar, ("*" + token[3], "plain", line, column))
        anchored = False
        tag: _Token | None = None
        if kind == _ANCHOR_TOKEN:
            anchored = True
            self.p += 1
            token = tokens[self.p]
            if token[0] == _TAG_TOKEN:
                tag = token
                self.p += 1
                token = tokens[self.p]
        elif kind == _TAG_TOKEN:
            tag = token
            self.p += 1
            token = tokens[self.p]
            if token[0] == _ANCHOR_TOKEN:
                anchored = True
                self.p += 1
                token = tokens[self.p]
        kind = token[0]
        if tag is not None:
            if kind == _ERROR:
                raise token[3]
            prefix = self.handles.get(tag[3]) if tag[3] else b""
            if prefix is None:
                raise _Broken("found undefined tag handle", tag[1], line - 1, False)
            _decoded(prefix + tag[4])
        if anchored:
            self.fault(line, column, path, _ANCHOR)
        if tag is not None:
            self.fault(line, column, path, _TAG)
        if kind == _SCALAR:
            self.p += 1
            scalar = token[3]
            if scalar[1] == "plain" and scalar[0] in _NULL_SPELLINGS:
                self.fault(line, column, path, _NULL)
            return _new(Scalar, (scalar[0], scalar[1], line, column))
        if not (
            kind in (_NODE, _FLOW_SEQUENCE_START, _FLOW_MAPPING_START)
            or (block and kind in (_BLOCK_SEQUENCE_START, _BLOCK_MAPPING_START))
            or (indentless and kind == _BLOCK_ENTRY)
        ):
            if anchored or tag is not None:
                self.fault(line, column, path, _NULL)
                return _new(Scalar, ("", "plain", line, column))
            self.fail(line - 1, "did not find expected node content", token)
        if as_key:
            self.fault(line, column, path, _COLLECTION_KEY)
        if kind == _NODE:
            self.p += 1
            found = token[3]
            return _new(type(found), (found[0], line, column, True))  # type: ignore[no-any-return]
        # An error inside a collection cites the line its own token opened on.
        self.deeper(token[1])
        collection: Node
        if kind == _BLOCK_MAPPING_START:
            collection = self.block_mapping(line, column, path, token[1])
        elif kind == _FLOW_MAPPING_START:
            collection = self.flow_mapping(line, column, path, token[1])
        elif kind == _BLOCK_SEQUENCE_START:
            collection = self.block_sequence(line, column, path, token[1])
        elif kind == _FLOW_SEQUENCE_START:
            collection = self.flow_sequence(line, column, path, token[1])
        else:
            collection = self.indentless_sequence(line, column, path)
        self.depth -= 1
        return collection

    def deeper(self, line: int) -> None:
        """One more collection open: past :data:`HELD_DEPTH`, the read ends at ``line``."""
        self.depth += 1
        if self.depth > HELD_DEPTH:
            raise _TooDeep(line)

    def take_key(self, key: Node, seen: set[str], path: _Path) -> _Path:
        """Refuse a merge key or a repeated key; the path of the key's value, or the map's own."""
        if not isinstance(key, Scalar):
            return path
        name = key[0]
        if name == "<<" and key[1] == "plain":
            self.fault(key[2], key[3], (path, "<<"), _MERGE_KEY)
        elif name in seen:
            message = f"{quote(name)} is already a key of this mapping — each key is written once"
            self.fault(key[2], key[3], (path, name), message)
        seen.add(name)
        return (path, name)

    def block_mapping(self, line: int, column: int, path: _Path, opened: int) -> Map:
        tokens = self.tokens
        p = self.p + 1
        entries: list[tuple[Scalar, Node]] = []
        seen: set[str] = set()
        key: Node
        value: Node
        while True:
            token = tokens[p]
            kind = token[0]
            if kind == _PAIR:
                p += 1
                pair_key: Scalar = token[3]
                name = pair_key[0]
                if name in seen or name in _ODD_KEYS:
                    if name in _NULL_SPELLINGS:
                        self.fault(pair_key[2], pair_key[3], path, _NULL)
                    if name in seen or name == "<<":
                        self.take_key(pair_key, seen, path)
                seen.add(name)
                value = token[5]  # the scanner never reads a null in whole, so it needs no check here
                if value is None:
                    kind = tokens[p][0]
                    if kind not in (_KEY, _PAIR, _VALUE, _BLOCK_END):
                        self.p = p
                        value = self.node(True, True, (path, name), False)
                        p = self.p
                    else:
                        value = self.empty((_VALUE, token[1], token[4]), (path, name), 1)
                entries.append((pair_key, value))
            elif kind == _KEY:
                if tokens[p + 1][0] not in (_KEY, _PAIR, _VALUE, _BLOCK_END):
                    self.p = p + 1
                    key = self.node(True, True, path, True)
                    p = self.p
                else:
                    key = self.empty(token, path, 1)
                    p += 1
                value_path = self.take_key(key, seen, path)
                token = tokens[p]
                if token[0] == _VALUE:
                    if tokens[p + 1][0] not in (_KEY, _PAIR, _VALUE, _BLOCK_END):
                        self.p = p + 1
                        value = self.node(True, True, value_path, False)
                        p = self.p
                    else:
                        value = self.empty(token, value_path, 1)
                        p += 1
                else:
                    value = self.empty(token, value_path)
                if isinstance(key, Scalar):
                    entries.append((key, value))
            elif kind == _BLOCK_END:
                self.p = p + 1
                return _new(Map, (tuple(entries), line, column, False))
            else:
                self.fail(opened, "did not find expected key", token)

    def block_sequence(self, line: int, column: int, path: _Path, opened: int) -> Seq:
        tokens = self.tokens
        self.p += 1
        items: list[Node] = []
        while True:
            token = tokens[self.p]
            kind = token[0]
            if kind == _BLOCK_ENTRY:
                self.p += 1
                if tokens[self.p][0] not in (_BLOCK_ENTRY, _BLOCK_END):
                    items.append(self.node(True, False, (path, len(items)), False))
                else:
                    items.append(self.empty(token, (path, len(items)), 1))
            elif kind == _BLOCK_END:
                self.p += 1
                return _new(Seq, (tuple(items), line, column, False))
            else:
                self.fail(opened, "did not find expected '-' indicator", token)

    def indentless_sequence(self, line: int, column: int, path: _Path) -> Seq:
        """A sequence whose ``-`` sits at its mapping key's column; it ends at anything else."""
        tokens = self.tokens
        items: list[Node] = []
        while True:
            token = tokens[self.p]
            if token[0] != _BLOCK_ENTRY:
                return _new(Seq, (tuple(items), line, column, False))
            self.p += 1
            if tokens[self.p][0] not in (_BLOCK_ENTRY, _KEY, _PAIR, _VALUE, _BLOCK_END):
                items.append(self.node(True, False, (path, len(items)), False))
            else:
                items.append(self.empty(token, (path, len(items)), 1))

    def flow_sequence(self, line: int, column: int, path: _Path, opened: int) -> Seq:
        tokens = self.tokens
        self.p += 1
        items: list[Node] = []
        while True:
            token = tokens[self.p]
            kind = token[0]
            if kind != _FLOW_SEQUENCE_END and items:
                if kind != _FLOW_ENTRY:
                    self.fail(opened, "did not find expected ',' or ']'", token)
                self.p += 1
                token = tokens[self.p]
                kind = token[0]
            if kind == _FLOW_SEQUENCE_END:
                self.p += 1
                return _new(Seq, (tuple(items), line, column, True))
            if kind == _KEY:
                items.append(self.flow_pair(token, (path, len(items))))
            else:
                items.append(self.node(False, False, (path, len(items)), False))

    def flow_pair(self, key_token: _Token, path: _Path) -> Map:
        """``[a: b]``: a one-entry mapping standing as a flow sequence's item."""
        tokens = self.tokens
        self.p += 1
        token = tokens[self.p]
        kind = token[0]
        if kind not in (_VALUE, _FLOW_ENTRY, _FLOW_SEQUENCE_END):
            key = self.node(False, False, path, True)
        elif kind == _FLOW_SEQUENCE_END:
            key = self.empty(token, path)
        else:
            self.p += 1  # libyaml steps over a ':' or ',' that follows a bare '?'
            key = self.empty(token, path, 1)
        value_path = self.take_key(key, set(), path)
        token = tokens[self.p]
        if token[0] == _VALUE:
            self.p += 1
            token = tokens[self.p]
            if token[0] not in (_FLOW_ENTRY, _FLOW_SEQUENCE_END):
                value = self.node(False, False, value_path, False)
            else:
                value = self.empty(token, value_path)
        else:
            value = self.empty(token, value_path)
        entries = ((key, value),) if isinstance(key, Scalar) else ()
        return _new(Map, (entries, key_token[1] + 1, key_token[2] + 1, True))

    def flow_mapping(self, line: int, column: int, path: _Path, opened: int) -> Map:
        tokens = self.tokens
        self.p += 1
        entries: list[tuple[Scalar, Node]] = []
        seen: set[str] = set()
        first = True
        while True:
            token = tokens[self.p]
            kind = token[0]
            if kind != _FLOW_MAPPING_END and not first:
                if kind != _FLOW_ENTRY:
                    self.fail(opened, "did not find expected ',' or '}'", token)
                self.p += 1
                token = tokens[self.p]
                kind = token[0]
            if kind == _FLOW_MAPPING_END:
                self.p += 1
                return _new(Map, (tuple(entries), line, column, True))
            first = False
            if kind == _KEY:
                self.p += 1
                token = tokens[self.p]
                if token[0] not in (_VALUE, _FLOW_ENTRY, _FLOW_MAPPING_END):
                    key = self.node(False, False, path, True)
                else:
                    key = self.empty(token, path)
                value_path = self.take_key(key, seen, path)
                token = tokens[self.p]
                if token[0] == _VALUE:
                    self.p += 1
                    token = tokens[self.p]
                    if token[0] not in (_FLOW_ENTRY, _FLOW_MAPPING_END):
                        value = self.node(False, False, value_path, False)
                    else:
                        value = self.empty(token, value_path)
                else:
                    value = self.empty(token, value_path)
            else:
                key = self.node(False, False, path, True)
                value_path = self.take_key(key, seen, path)
                value = self.empty(tokens[self.p], value_path)
            if isinstance(key, Scalar):
                entries.append((key, value))

"""The YAML reader's first stage: text in, the token list libyaml's scanner would make out.

The scanner decides *after the fact* whether a scalar was a mapping key: a "simple key"
is only known to be one when its ``:`` turns up on the same line, so each flow level
keeps its possible key (:class:`_Key`) and the KEY token is put in before it then.
Indentation opens and closes block collections, tabs separate only where they cannot be
taken for indentation, and flow context changes what may start a plain scalar — all as
in libyaml, whose problems it reports with the lines it cites.

Speed comes from reading the commonest shapes whole — a ``key: value`` line, a one-line
flow collection of plain scalars — into the very tokens (or nodes) the token-at-a-time
path would make; anything else takes that path. Each kind of token has a method of its
own on :class:`_Scanner`, which holds the position and the indentation between them.
"""

from __future__ import annotations

import re
from sys import intern, version_info

from hyper.core.pattern import compiled
from hyper.yaml.nodes import Map, Node, Scalar, Seq, Style, named
from hyper.yaml.tokens import (
    ALIAS,
    ANCHOR,
    BLOCK_END,
    BLOCK_ENTRY,
    BLOCK_MAPPING_START,
    BLOCK_SEQUENCE_START,
    DOCUMENT_END,
    DOCUMENT_START,
    ERROR,
    FLOW_ENTRY,
    FLOW_MAPPING_END,
    FLOW_MAPPING_START,
    FLOW_SEQUENCE_END,
    FLOW_SEQUENCE_START,
    HELD_DEPTH,
    KEY,
    NODE,
    NULL_SPELLINGS,
    PAIR,
    SCALAR,
    STREAM_END,
    TAG,
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
    from collections.abc import Iterator
    from typing import TypeAlias


@named
class _Key(tuple[bool, int, int, int, int]):
    """A possible simple key: whether it must be one, its token's number, and where it starts."""

    __slots__ = ()
    required: bool
    number: int
    start: int
    line: int
    column: int


_Keys: TypeAlias = tuple[_Key | None, ...]
"""The possible simple key of each flow level, outermost (block context) first."""

_BLANKZ = " \t\n\0"
_NOT_PLAIN_START = " \t\n\0-?:,[]{}#&*!|>'\"%@`"
_ANCHOR_END = " \t\n\0?:,]}%@`"
_DEEPEST = 1000
"""libyaml reads collections nested up to 1000 deep (block and flow levels together)…"""
_DEEPEST_BLOCK = 999
"""…and up to 999 block levels alone."""
_TOO_DEEP = "exceeded maximum nesting depth"  # libyaml's own problem, so cited as the others are
_PAD = "\0" * 12
"""libyaml reads a NUL as the end of the stream; padding lets every look-ahead index."""

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
"""C0 and C1 controls but tab, line feed, carriage return and NEL. libyaml refuses them
and U+FFFE and U+FFFF (UTF-8 text holds no surrogates); those two are looked for apart,
as a character class holding them costs ten times as much to compile."""
_SPACES = re.compile(" *")
_BLANKS = re.compile("[ \t]*")
_COMMENT = re.compile("[^\n\0]*")
# Patterns that not every document needs are kept as text and compiled where first used,
# through :func:`~hyper.core.pattern.compiled`: compiling all of them on import cost more
# than reading a typical artefact does, and every command that reads one pays the import.
# Those compiled on import are the few cheap ones above and :data:`_SIMPLE_PAIR`, which
# reads the commonest line of all: a ``hyper.yaml`` needs no other.
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
_BLOCK_WORDS = rf"{_BLOCK_WORD_TEXT}(?:[ \t]+(?!#){_BLOCK_WORD_TEXT})*"
_FLOW_WORDS = rf"{_FLOW_WORD_TEXT}(?:[ \t]+(?!#){_FLOW_WORD_TEXT})*"
"""A plain scalar's words on one line (a ``#`` after a blank starts a comment)."""
_NEXT_LINES = r"(?: *\n)*( *)(?=[^ \t\n])"
"""Blank lines after a plain scalar's first line, and the next line's indentation."""
_KEY_VALUE = (
    rf"({_BLOCK_WORD_TEXT}(?:[ \t]+(?!#){_BLOCK_WORD_TEXT})*)[ \t]*(:)(?=[ \t\n\0])"
    rf"(?:[ \t]+((?:[^-?:,\[\]{{}}#&*!|>'\"%@` \t\n\0]|[-?:](?=[^ \t\n\0]))"
    rf"[^ \t\n\0:]*(?::(?=[^ \t\n\0])[^ \t\n\0:]*)*(?:[ \t]+(?!#){_BLOCK_WORD_TEXT})*"
    r"|'(?:[^'\n\0]|'')*'(?!')|\"[^\"\\\n\0]*\"))?[ \t]*"
    r"(?:(\n(?: *\n)*)( *)(?=[^ \t\n]))?"
)
"""A block ``key:`` (1) and its ``:`` (2); the value (3) where it is a plain scalar or a
one-line quoted one without escapes; the line breaks (4) and indentation (5) after it."""
_SIMPLE_CHAR = r"[0-9A-Za-z_./$=+@,\[\]{}-]"
_SIMPLE_WORD = rf"{_SIMPLE_CHAR}*(?::{_SIMPLE_CHAR}+)*"
"""A simple word after its first character: a ``:`` inside it, as in ``sha256:…``, is
content, since a word character follows it, and so is a flow indicator, as in
``/v1/servers/{id}``: in block context none of them ends a plain scalar."""
_SIMPLE_PAIR = re.compile(
    rf"([0-9A-Za-z_][0-9A-Za-z_.-]*)(:)(?=[ \n])"
    rf"(?:(?: +([0-9A-Za-z_./$]{_SIMPLE_WORD}(?:[ \t]+{_SIMPLE_CHAR}{_SIMPLE_WORD})*|'[^'\n\0]*'|\"[^\"\\\n\0]*\"))?"
    r"[ \t]*(?=[\n\0])(?:(\n(?: *\n)*)( *)(?=[^ \t\n]))?|[ \t]*(?=[\[{]))"
)
"""The commonest ``key: value`` lines — a key of letters, digits and ``_.-``, and a value of
simple words, a quoted one without escapes or quotes inside, or none — with exactly the
groups and the end :data:`_KEY_VALUE` would match: a subset of it that Python's ``re``
reads in half the time. Every other line is left to :data:`_KEY_VALUE`."""
_FLOW_PLAIN_TEXT = (
    r"(?:[^-?:,\[\]{}#&*!|>'\"%@` \t\n\0]|-(?=[^ \t\n\0]))[^ \t\n\0:,\[\]{}#]*(?:[ \t]+[^ \t\n\0:,\[\]{}#]+)*"
)
_FLOW_ITEM_TEXT = rf"(?:{_FLOW_PLAIN_TEXT}|'[^'\n\0]*'(?!')|\"[^\"\\\n\0]*\")"
_SIMPLE_SCALAR = rf"[ \t]*({_FLOW_ITEM_TEXT})[ \t]*([,:\]}}])"
"""A flow scalar — plain without ``:`` or ``#``, or quoted without escapes — and the
indicator after it: what :func:`_simple_flow` reads as an item, a key or a value. An item
ends where it does whatever indicator follows (none of its characters is one), so one
pattern serves all three, and :func:`_simple_flow` refuses an indicator out of place:
compiling a pattern costs more than a small document's whole reading, and one pattern
for each of the three cost three compilations."""
_POSSESSIVE = version_info >= (3, 11, 5)
"""Whether ``re`` matches a possessive repetition rightly: before 3.11.5 it could match where
the repeated part backtracks (gh-106052). The patterns repeat possessively only where giving a
turn back could never help a match, so a greedy repetition accepts the same text, only slower;
before 3.11.5 they are written greedy. (An atomic group around a greedy repetition would do
as well, but ``re`` runs it at the cost of the greedy one.)"""
MANY = "*+" if _POSSESSIVE else "*"
"""Zero or more, possessively where ``re`` gets that right (:data:`_POSSESSIVE`)."""
_SOME = "++" if _POSSESSIVE else "+"
"""One or more, possessively where ``re`` gets that right (:data:`_POSSESSIVE`)."""
_FLAT_ITEM_TEXT = (
    r"(?>(?:[^-?:,\[\]{}#&*!|>'\"%@` \x00-\x1f\x7f-\x9f]|-(?=[^ \x00-\x1f\x7f-\x9f]))"
    rf"[^ :,\[\]{{}}#\x00-\x1f\x7f-\x9f]*(?: +[^ :,\[\]{{}}#\x00-\x1f\x7f-\x9f]+){MANY}"
    r"|'[^',:\x00-\x1f\x7f-\x9f]*'|\"[^\",:\\\x00-\x1f\x7f-\x9f]*\")"
)


def _flat_text(value: str) -> str:
    """A flat flow sequence or mapping whose items, and whose entries' values, are ``value``."""
    return (
        rf"\[(?:{value}(?:, (?!\])|(?=\]))){_SOME}\]|\{{(?:{_FLAT_ITEM_TEXT}: {value}(?:, (?!\}})|(?=\}}))){_SOME}\}}"
    )


FLAT_FLOW_TEXT = _flat_text(rf"(?:{_FLAT_ITEM_TEXT}|{_flat_text(_FLAT_ITEM_TEXT)})")
"""The commonest flow collections, written as a formatter writes them: items of
:data:`_FLOW_ITEM_TEXT` without a tab or a control or a ``,`` or ``:`` in a quoted one,
each ``, `` apart, an entry's key and value ``: `` apart, no blanks inside the brackets;
an item or a value may itself be such a collection of scalars, one level deep, as in
``{zone_id: z, name: {item: $}}``. So ``str.split`` cuts one exactly (:func:`flat_node`),
where :func:`_simple_flow` would match item by item. Only :mod:`hyper.yaml.lines` matches
it, inside its line pattern. An item is matched atomically: none can end but where it
does (it holds no ``,``, ``:`` or bracket, nor a blank at its end), so giving characters
back could not help a match, and a collection of another kind is refused without retrying
every shorter item; nor does a nested collection compete with an item, since no item
starts with a bracket. Each item is written once at each level, with a ``, `` that never
comes before the closing bracket, since the size of a pattern is what compiling it costs.
The items, and a plain item's words, repeat possessively (:data:`MANY`, :data:`_SOME`): no
item can be given back to help a match, as only ``, `` and another item or the closing
bracket may follow one, and ``re`` keeps no backtracking state for each, which was a fifth
of matching a line."""
_FLOW_NESTING = 16
"""How deep :func:`_simple_flow` follows collections nested on one line; deeper ones (and
any that would pass libyaml's nesting limit) are left to the tokens, which enforce it."""
_ONE_LINE_SINGLE = r"((?:[^'\n\0]|'')*)'(?!')"
_ONE_LINE_DOUBLE = r'([^"\\\n\0]*)"'
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


def scan(text: str) -> list[Token]:
    """The tokens of ``text``; where it stops being YAML, ending in an :class:`ErrorToken`.

    A character libyaml's reader refuses raises :class:`Broken` before any token is
    made, as libyaml checks characters before it scans them.
    """
    control = _CONTROL.search(text)
    bad = [found for found in (text.find("\ufffe"), text.find("\uffff")) if found >= 0]
    if control is not None:
        bad.append(control.start())
    if bad:
        reason = f"unacceptable character #x{ord(text[min(bad)]):04x}: control characters are not allowed"
        raise Broken(reason, 0, None, True)
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
    return _Scanner(padded, padded if breaks is text else breaks + _PAD, len(text)).tokens_of_text()


def _past(pattern: re.Pattern[str], text: str, i: int) -> int:
    """Where a run of ``pattern``, which also matches nothing, ends when it starts at ``i``."""
    return pattern.match(text, i).end()  # type: ignore[union-attr]


def _pair_value(
    text: str, match: re.Match[str], written: str, i: int, broken_at: int, line: int, ls: int, col: int
) -> Scalar | None:
    """A pair's value, written as ``written``, where it ends on its line, read whole; ``None``
    where the tokens must read it. ``i`` is where the pair's line ends."""
    value_col = match.start(3) - ls
    opener = written[0]
    if opener == "'" or opener == '"':
        # A quoted value ends with its closing quote, whatever follows.
        if broken_at < 0 and text[i] not in "#\0":
            return None
        written = written[1:-1]
        if opener == "'":
            written = written.replace("''", "'")
        return Scalar((written, _QUOTE_STYLES[opener], line + 1, value_col + 1))
    if opener in "~nN" and written in NULL_SPELLINGS:
        return None  # a null is left to the token path, whose parser refuses it
    # A plain one ends with its line where the line ends the text, or in a comment, or
    # where the next is indented too little to go on.
    ends = text[i] in "#\0" if broken_at < 0 else len(match.group(5)) <= col or text[match.end()] in "#\0"
    return Scalar((written, "plain", line + 1, value_col + 1)) if ends else None


class _Scanner:
    """The scan under way: where it is, the block indentation, and each flow level's possible key.

    libyaml scans lazily, so its parser may report a grammar error before the scanner
    ever reaches a later malformed character. To report what it reports, the error
    token goes where the lazy scanner would have surfaced it: after the tokens it had
    released (``released``, with the keys then pending), which stop short of any token
    a simple key might still precede.
    """

    __slots__ = (
        "breaks", "end", "flow", "i", "indent", "indents", "keys", "line", "ls",
        "released", "released_keys", "ska", "text", "tokens",
    )  # fmt: skip

    def __init__(self, text: str, breaks: str, end: int) -> None:
        self.text = text
        self.breaks = breaks
        self.end = end
        self.tokens: list[Token] = []
        self.i = 0
        self.line = 0
        self.ls = 0
        """Where the current line starts, so that a column is ``i - ls``."""
        self.indent = -1
        self.indents: list[int] = []
        self.flow = 0
        self.ska = True
        """May a simple key start here?"""
        self.keys: _Keys = (None,)
        self.released_keys: _Keys = self.keys
        self.released = 0

    def tokens_of_text(self) -> list[Token]:
        """Each turn reads up to the next token and that token (or a run of pairs)."""
        tokens = self.tokens
        text = self.text
        try:
            while True:
                self.released_keys = self.keys
                self.released = len(tokens)
                i = self.i
                c = text[i]
                if c in " \t#\n\ufeff":
                    self.skip()
                    i = self.i
                    c = text[i]
                col = i - self.ls
                if not self.flow and self.indent > col:
                    self.close_blocks(col, self.line, col)
                nxt = text[i + 1]
                if (
                    c not in _NOT_PLAIN_START
                    or (c == "-" and nxt not in _BLANKZ)
                    or (not self.flow and (c == "?" or c == ":") and nxt not in _BLANKZ)
                ) and not (
                    col == 0 and (c == "." or c == "-") and nxt == c and text[i + 2] == c and text[i + 3] in _BLANKZ
                ):
                    # A plain scalar, the commonest token, so it is tried first. (``---`` and
                    # ``...`` at a line's start are document markers only before a blank.)
                    if self.ska and self.plain_key(col):
                        continue
                    self.plain_scalar(col)
                elif self.token(c, col):
                    return tokens
                # libyaml looks for stale keys again before it hands a token over.
                keys = self.keys
                if self.flow:
                    if any(keys):
                        self.keys = _unstale(keys, self.line, self.i)
                elif keys[0] is not None and (keys[0].line < self.line or keys[0].start + 1024 < self.i):
                    self.keys = _unstale(keys, self.line, self.i)
        except Broken as err:
            numbers = [key.number for key in self.released_keys if key is not None]
            del tokens[min(numbers, default=self.released) :]
            tokens.append(ErrorToken((ERROR, 0, 0, err)))
            return tokens

    def token(self, c: str, col: int) -> bool:
        """The indicator, quoted or block scalar, or marker starting with ``c``; whether it ended the stream."""
        nxt = self.text[self.i + 1]
        if c == ":" and (self.flow or nxt in _BLANKZ):
            self.value(col)
        elif c == "-" and nxt in _BLANKZ:
            self.block_entry(col)
        elif c == ",":
            self.flow_entry(col)
        elif c == "[" or c == "{":
            self.flow_start(c, col)
        elif c == "]" or c == "}":
            self.flow_end(c, col)
        elif c == "'" or c == '"':
            self.quoted(c, col)
        elif (c == "|" or c == ">") and not self.flow:
            self.block_scalar(c, col)
        elif c == "?" and (self.flow or nxt in _BLANKZ):
            self.key(col)
        elif c == "*" or c == "&":
            self.anchor_or_alias(c, col)
        elif c == "!":
            self.tag(col)
        elif c == "\0":
            self.stream_end(col)
            return True
        elif col == 0 and (c == "%" or c == "-" or c == "."):
            # A directive, or a document marker: the plain scalar let no other through.
            self.directive_or_marker(c)
        else:
            raise Broken("found character that cannot start any token", self.line, self.line, True)
        return False

    def skip(self) -> None:
        """Skip blanks, comments and line breaks up to the next token; a tab separates only
        where it cannot be taken for indentation."""
        text = self.text
        i, line, ls, flow, ska = self.i, self.line, self.ls, self.flow, self.ska
        c = text[i]
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
        self.i, self.line, self.ls, self.ska = i, line, ls, ska
        if flow or self.keys[0] is not None:
            self.unstale()

    def unstale(self) -> None:
        """Give up the possible keys no ``:`` can follow any more (see :func:`_unstale`)."""
        keys = self.keys
        if self.flow:
            if any(keys):
                self.keys = _unstale(keys, self.line, self.i)
        else:
            key = keys[0]
            if key is not None and (key.line < self.line or key.start + 1024 < self.i):
                self.keys = _unstale(keys, self.line, self.i)

    def close_blocks(self, col: int, line: int, at: int) -> None:
        """End every block collection indented past ``col``; each BLOCK-END stands at ``line``, ``at``."""
        append = self.tokens.append
        while self.indent > col:
            append(Mark((BLOCK_END, line, at)))
            self.indent = self.indents.pop()

    def opens_block(self, col: int) -> bool:
        """Whether a block collection opens at ``col``, past the indentation; its indentation
        is then pushed, and libyaml's bound on block levels is held."""
        if self.indent >= col:
            return False
        if len(self.indents) >= _DEEPEST_BLOCK:
            raise Broken(_TOO_DEEP, self.line, self.line, True)
        self.indents.append(self.indent)
        self.indent = col
        return True

    def save_key(self, col: int) -> None:
        if self.ska:
            self.keys = _saved(self.keys, self.flow, self.indent, len(self.tokens), self.i, self.line, col)

    # ------------------------------------------------------------------ plain scalars

    def plain_key(self, col: int) -> bool:
        """Where a simple key may start, a plain scalar may be one. In block context, a run of
        ``key: value`` lines is read whole into pair tokens (and then, while the next line
        holds a sibling key, that one too): whether it was. Else the scalar is a possible
        key, read as a plain scalar — a sibling's line then, in a step of its own.

        The commonest lines of all, so the loop keeps its position in locals."""
        key = self.keys[-1]
        if key is not None and key.required:
            raise Broken("could not find expected ':'", self.line, key.line, True)
        text, tokens, i, line, ls = self.text, self.tokens, self.i, self.line, self.ls
        # A pair's key and ':' are on one line: a line without one is no pair.
        match = None
        if key is None and not self.flow and text.find(":", i, text.find("\n", i)) >= 0:
            match = _SIMPLE_PAIR.match(text, i) or compiled(_KEY_VALUE).match(text, i)
        read = False
        while match is not None and match.start(2) <= i + 1024:
            if self.indent < col and self.opens_block(col):
                tokens.append(Mark((BLOCK_MAPPING_START, line, col)))
            key_node = Scalar((intern(match.group(1)), "plain", line + 1, col + 1))  # see flat_node
            written = match.group(3)
            broken_at = match.start(4)
            i = match.end() if broken_at < 0 else broken_at
            value: Node | None = None
            if written is None:
                if broken_at < 0 and text[i] in "[{":
                    value, i = self.flow_value(i, line, ls)
                tokens.append(PairToken((PAIR, line, col, key_node, match.start(2) - ls, value)))
                break
            opener = written[0]
            if opener in "'\"~nN":
                value = _pair_value(text, match, written, i, broken_at, line, ls, col)
            elif text[i] in "#\0" if broken_at < 0 else len(match.group(5)) <= col or text[match.end()] in "#\0":
                # A plain value ends with its line where the line ends the text, or in a
                # comment, or where the next is indented too little to go on.
                value = Scalar((written, "plain", line + 1, match.start(3) - ls + 1))
            tokens.append(PairToken((PAIR, line, col, key_node, match.start(2) - ls, value)))
            if value is None:
                i = match.start(3)
                break
            if broken_at < 0:
                break
            i = match.end()
            ls = match.start(5)
            line += text.count("\n", broken_at, ls)
            read = True
            c = text[i]
            if i - ls != col or c in _NOT_PLAIN_START or c == "." or c == "\ufeff":
                self.i, self.line, self.ls, self.ska = i, line, ls, True
                return True
            match = _SIMPLE_PAIR.match(text, i) or compiled(_KEY_VALUE).match(text, i)
        else:
            if read:
                self.i, self.line, self.ls = i, line, ls
                self.released_keys = self.keys
                self.released = len(tokens)
            required = not self.flow and self.indent == col
            self.keys = (*self.keys[:-1], _Key((required, len(tokens), i, line, col)))
            return False
        self.i, self.line, self.ls, self.ska = i, line, ls, False
        return True

    def flow_value(self, i: int, line: int, ls: int) -> tuple[Seq | Map | None, int]:
        """A one-line flow collection at ``i``, alone on the rest of a pair's line, read whole
        (``None`` for any other), and where the pair ends."""
        text = self.text
        found = _simple_flow(text, i, line, ls, _room(len(self.indents)))
        if found is not None:
            rest = _line_rest(text, found[0])
            if text[rest] in "\n\0":
                return found[1], rest
        return None, i

    def plain_scalar(self, col: int) -> None:
        """A plain scalar token. Most end with their first line, which is read here; the rest
        are read again, in full, by :func:`_scan_plain`."""
        text, i, line = self.text, self.i, self.line
        match = compiled(_FLOW_WORDS if self.flow else _BLOCK_WORDS).match(text, i)
        j = _BLANKS.match(text, match.end()).end()  # type: ignore[union-attr]
        c = text[j]
        below = compiled(_NEXT_LINES).match(text, j + 1) if c == "\n" and not self.flow else None
        if below is not None and (below.end() - below.start(1) <= self.indent or text[below.end()] in "#\0"):
            self.i = below.end()
            self.ls = below.start(1)
            self.line += text.count("\n", j, self.ls)
            self.ska = True
            value = match.group()  # type: ignore[union-attr]
        elif c != "\n" and not (self.flow and c == ":" and text[j + 1] in ",?[]{}"):
            self.i = j
            self.ska = False
            value = match.group()  # type: ignore[union-attr]
        else:
            value, self.i, self.line, self.ls, self.ska = _scan_plain(
                text, self.breaks, i, line, self.ls, self.indent, self.flow
            )
        self.tokens.append(ScalarToken((SCALAR, line, col, Scalar((value, "plain", line + 1, col + 1)))))

    # ------------------------------------------------------------------ indicators

    def value(self, col: int) -> None:
        """A ``:``. Where a possible simple key waits, it was one: its KEY goes in before it."""
        tokens, line, flow = self.tokens, self.line, self.flow
        key = self.keys[-1]
        if key is not None:
            tokens.insert(key.number, Mark((KEY, key.line, key.column)))
            if not flow and self.opens_block(key.column):
                tokens.insert(key.number, Mark((BLOCK_MAPPING_START, key.line, key.column)))
            self.keys = (*self.keys[:-1], None)
            self.ska = False
        else:
            if not flow:
                if not self.ska:
                    raise Broken("mapping values are not allowed in this context", line, None, True)
                if self.opens_block(col):
                    tokens.append(Mark((BLOCK_MAPPING_START, line, col)))
            self.ska = not flow
        tokens.append(Mark((VALUE, line, col)))
        self.i += 1

    def block_entry(self, col: int) -> None:
        if not self.flow:
            if not self.ska:
                raise Broken("block sequence entries are not allowed in this context", self.line, None, True)
            if self.indent < col and self.opens_block(col):
                self.tokens.append(Mark((BLOCK_SEQUENCE_START, self.line, col)))
        if self.keys[-1] is not None:
            self.keys = _removed(self.keys, self.line)
        self.ska = True
        self.tokens.append(Mark((BLOCK_ENTRY, self.line, col)))
        self.i += 1

    def key(self, col: int) -> None:
        """A ``?``: an explicit key."""
        if not self.flow:
            if not self.ska:
                raise Broken("mapping keys are not allowed in this context", self.line, None, True)
            if self.opens_block(col):
                self.tokens.append(Mark((BLOCK_MAPPING_START, self.line, col)))
        if self.keys[-1] is not None:
            self.keys = _removed(self.keys, self.line)
        self.ska = not self.flow
        self.tokens.append(Mark((KEY, self.line, col)))
        self.i += 1

    def flow_entry(self, col: int) -> None:
        if self.keys[-1] is not None:
            self.keys = _removed(self.keys, self.line)
        self.ska = True
        self.tokens.append(Mark((FLOW_ENTRY, self.line, col)))
        self.i += 1

    def flow_start(self, c: str, col: int) -> None:
        """A ``[`` or ``{``: in a value, a one-line collection read whole where it can be."""
        found = None
        if not self.flow and not self.ska:
            found = _simple_flow(self.text, self.i, self.line, self.ls, _room(len(self.indents)))
        if found is not None:
            self.i, node = found
            self.tokens.append(NodeToken((NODE, self.line, col, node)))
            return
        self.save_key(col)
        if len(self.indents) + self.flow >= _DEEPEST:
            raise Broken(_TOO_DEEP, self.line, self.line, True)
        self.flow += 1
        self.keys = (*self.keys, None)
        self.ska = True
        self.tokens.append(Mark((FLOW_SEQUENCE_START if c == "[" else FLOW_MAPPING_START, self.line, col)))
        self.i += 1

    def flow_end(self, c: str, col: int) -> None:
        if self.keys[-1] is not None:
            self.keys = _removed(self.keys, self.line)
        if self.flow:
            self.flow -= 1
            self.keys = self.keys[:-1]
        self.ska = False
        self.tokens.append(Mark((FLOW_SEQUENCE_END if c == "]" else FLOW_MAPPING_END, self.line, col)))
        self.i += 1

    def anchor_or_alias(self, c: str, col: int) -> None:
        self.save_key(col)
        self.ska = False
        text, i = self.text, self.i
        j = _past(compiled(_ALNUM), text, i + 1)
        if j == i + 1 or text[j] not in _ANCHOR_END:
            raise Broken("did not find expected alphabetic or numeric character", self.line, self.line, True)
        self.tokens.append(NameToken((ALIAS if c == "*" else ANCHOR, self.line, col, text[i + 1 : j])))
        self.i = j

    def tag(self, col: int) -> None:
        self.save_key(col)
        self.ska = False
        token, self.i = _scan_tag(self.text, self.i, self.line, col, self.flow)
        self.tokens.append(token)

    # ------------------------------------------------------------------ scalars and markers

    def quoted(self, c: str, col: int) -> None:
        self.save_key(col)
        self.ska = False
        line = self.line
        value, self.i, self.line, self.ls = _scan_quoted(self.text, self.breaks, self.i, line, self.ls, c == "'")
        self.tokens.append(ScalarToken((SCALAR, line, col, Scalar((value, _QUOTE_STYLES[c], line + 1, col + 1)))))

    def block_scalar(self, c: str, col: int) -> None:
        """A ``|`` or ``>`` scalar."""
        if self.keys[-1] is not None:
            self.keys = _removed(self.keys, self.line)
        self.ska = True
        line = self.line
        value, self.i, self.line, self.ls = _scan_block_scalar(
            self.text, self.breaks, self.i, line, self.ls, self.indent, c == "|", self.end
        )
        style: Style = "literal" if c == "|" else "folded"
        self.tokens.append(ScalarToken((SCALAR, line, col, Scalar((value, style, line + 1, col + 1)))))

    def stream_end(self, col: int) -> None:
        if col:
            self.line += 1  # the end of the stream is read as the start of a new line
        if not self.flow:
            self.close_blocks(-1, self.line, 0)
        if self.keys[-1] is not None:
            self.keys = _removed(self.keys, self.line)
        self.tokens.append(Mark((STREAM_END, self.line, 0)))
        if any(self.keys):
            _unstale(self.keys, self.line, self.i)

    def directive_or_marker(self, c: str) -> None:
        """A ``%`` directive, or a ``---`` or ``...`` at a line's start: every block ends before it."""
        if not self.flow:
            self.close_blocks(-1, self.line, 0)
        if self.keys[-1] is not None:
            self.keys = _removed(self.keys, self.line)
        self.ska = False
        if c == "%":
            token, self.i, self.line, self.ls = _scan_directive(self.text, self.i, self.line, self.ls)
            self.tokens.append(token)
        else:
            self.tokens.append(Mark((DOCUMENT_START if c == "-" else DOCUMENT_END, self.line, 0)))
            self.i += 3


def _unstale(keys: _Keys, line: int, i: int) -> _Keys:
    """Drop the keys no ``:`` can follow any more: a simple key is one line, under 1024 characters."""
    kept: list[_Key | None] = []
    for key in keys:
        if key is not None and (key.line < line or key.start + 1024 < i):
            if key.required:
                raise Broken("could not find expected ':'", line, key.line, True)
            key = None
        kept.append(key)
    return tuple(kept)


def _removed(keys: _Keys, line: int) -> _Keys:
    """The current level's possible key given up — an error where one was required there."""
    key = keys[-1]
    if key is not None and key.required:
        raise Broken("could not find expected ':'", line, key.line, True)
    return (*keys[:-1], None)


def _saved(keys: _Keys, flow: int, indent: int, number: int, i: int, line: int, col: int) -> _Keys:
    """A possible simple key here; in block context, at the indentation, it must be one."""
    key = keys[-1]
    if key is not None and key.required:
        raise Broken("could not find expected ':'", line, key.line, True)
    return (*keys[:-1], _Key((not flow and indent == col, number, i, line, col)))


def _room(blocks: int) -> int:
    """How many flow levels may still open inside one opened inside ``blocks`` block
    collections: never past :data:`HELD_DEPTH`, so a collection read in place is held to
    it as the parser is."""
    return min(_FLOW_NESTING, HELD_DEPTH - 1 - blocks)


def flow_line(rest: str, line: int, column: int, blocks: int) -> Seq | Map | None:
    """The one-line flow collection that ``rest`` — a block line from its ``[`` or ``{``,
    at 0-based ``line`` and ``column``, inside ``blocks`` block collections — is, read as
    :meth:`_Scanner.flow_value` reads a pair's; ``None`` where it is not all such a collection.

    For :mod:`hyper.yaml.lines`, which has the line's text but not the document's: the
    line is padded as the scanner pads the document, and it starts ``column`` characters
    before ``rest`` does, so each node's column is the one it has in the document."""
    text = rest + _PAD
    found = _simple_flow(text, 0, line, -column, _room(blocks))
    if found is None or text[_line_rest(text, found[0])] != "\0":
        return None
    return found[1]


def _line_rest(text: str, i: int) -> int:
    """Where a line's blanks and comment after ``i`` end: at its line break, or the text's end."""
    i = _past(_BLANKS, text, i)
    return _past(_COMMENT, text, i) if text[i] == "#" else i


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
        scalar = compiled(_SIMPLE_SCALAR)
        while True:
            match = scalar.match(text, j)
            if match is not None:
                closer = match.group(2)
                item = _flow_scalar(match.group(1), match.start(1) - ls, line)
                if item is None or (closer != "," and closer != "]"):
                    return None
                items.append(item)
                j = match.end()
            else:
                nested = _nested_flow(text, j, line, ls, deeper, "]")
                if nested is None:
                    return None
                j, node, closer = nested
                items.append(node)
            if closer == "]":
                break
    else:
        scalar = compiled(_SIMPLE_SCALAR)
        names: set[str] = set()
        while True:
            # An entry: a scalar key, its ``:`` and a blank, and a scalar or a nested collection.
            match = scalar.match(text, j)
            if match is None or match.group(2) != ":" or text[match.end()] not in " \t":
                return None
            key = _flow_scalar(match.group(1), match.start(1) - ls, line)
            j = _past(_BLANKS, text, match.end())
            match = scalar.match(text, j)
            value: Node | None
            if match is not None:
                closer = match.group(2)
                if closer != "," and closer != "}":
                    return None
                value = _flow_scalar(match.group(1), match.start(1) - ls, line)
                j = match.end()
            else:
                nested = _nested_flow(text, j, line, ls, deeper, "}")
                if nested is None:
                    return None
                j, value, closer = nested
            if key is None or value is None or key.value in names or (key.value == "<<" and key.style == "plain"):
                return None
            names.add(key.value)
            entries.append((key, value))
            if closer == "}":
                break
    if sequence:
        return j, Seq((tuple(items), line + 1, i - ls + 1, True))
    return j, Map((tuple(entries), line + 1, i - ls + 1, True))


def flat_node(written: str, line: int, column: int) -> Seq | Map | None:
    """The node of ``written``, a flow collection of :data:`FLAT_FLOW_TEXT` at 0-based
    ``line`` and ``column``, read as :func:`_simple_flow` would read it: the same nodes at
    the same columns. ``None`` for one holding a null, a repeated key or the merge key,
    which :func:`_simple_flow` declines too.

    A plain key's text is interned, here and wherever a block key is read whole: the same
    few keys are written in every artefact of a kind, and ``check`` holds every tree at
    once, so one string per spelling (kept by the interpreter only while a node holds it)
    is most of a kilobyte less per artefact, for one lookup per key.

    Each scalar is read in place rather than by :func:`_flow_scalar`, and a sequence's nulls
    are looked for all at once: a call per item was 7% of what reading these collections
    cost (ADR 0035, amended). A nested collection is cut by the same ``split`` into pieces,
    joined again up to the piece that ends with its closing bracket (no scalar in it ends
    with one: a plain one holds no bracket, a quoted one ends with its quote), and read by
    this function in turn; a null in it is declined by the outer sequence's look or by the
    inner read, either of which :func:`_simple_flow` would decline too."""
    at = column + 2  # 1-based, of the first item
    row = line + 1
    parts = written[1:-1].split(", ")
    pieces = iter(parts)
    if written[0] == "[":
        if not NULL_SPELLINGS.isdisjoint(parts):
            return None
        items: list[Node] = []
        for part in pieces:
            opener = part[0]
            if opener == "[" or opener == "{":
                part, item = _gathered(part, pieces, line, at - 1)
                if item is None:
                    return None
                items.append(item)
            else:
                style = _QUOTE_STYLES.get(opener)
                items.append(Scalar((part, "plain", row, at) if style is None else (part[1:-1], style, row, at)))
            at += len(part) + 2
        return Seq((tuple(items), row, column + 1, True))
    entries: list[tuple[Scalar, Node]] = []
    names: set[str] = set()
    for part in pieces:
        name, _, value = part.partition(": ")
        style = _QUOTE_STYLES.get(name[0])
        if style is None:
            if name in NULL_SPELLINGS or name == "<<":
                return None
            key = Scalar((intern(name), "plain", row, at))
        else:
            key = Scalar((name[1:-1], style, row, at))
        if key.value in names:
            return None
        names.add(key.value)
        at += len(name) + 2
        opener = value[0]
        if opener == "[" or opener == "{":
            value, node = _gathered(value, pieces, line, at - 1)
            if node is None:
                return None
            entries.append((key, node))
        else:
            style = _QUOTE_STYLES.get(opener)
            if style is None:
                if value in NULL_SPELLINGS:
                    return None
                entries.append((key, Scalar((value, "plain", row, at))))
            else:
                entries.append((key, Scalar((value[1:-1], style, row, at))))
        at += len(value) + 2
    return Map((tuple(entries), row, column + 1, True))


def _gathered(first: str, pieces: Iterator[str], line: int, column: int) -> tuple[str, Node | None]:
    """The nested collection that opens ``first``, a piece of :func:`flat_node`'s ``split``:
    it and the pieces after it up to the one that closes it, joined as they were written, and
    the node :func:`flat_node` reads from that text at ``column`` (``None`` where it declines).
    The text comes back too, since the caller steps its column past it."""
    closer = "]" if first[0] == "[" else "}"
    while not first.endswith(closer):
        first += ", " + next(pieces)
    return first, flat_node(first, line, column)


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
        return Scalar((text[1:-1], style, line + 1, col + 1))
    if text in NULL_SPELLINGS:
        return None
    return Scalar((text, "plain", line + 1, col + 1))


def _scan_plain(
    text: str, breaks: str, i: int, line: int, ls: int, indent: int, flow: int
) -> tuple[str, int, int, int, bool]:
    """A plain scalar, folded across lines; last, whether it ended after a line break."""
    start = line
    word = compiled(_FLOW_WORD_TEXT if flow else _BLOCK_WORD_TEXT)
    floor = indent + 1
    value = ""
    between = _Between(False)  # blanks since the last word, kept only if another word follows
    while True:
        if i == ls and (text.startswith("---", i) or text.startswith("...", i)) and text[i + 3] in _BLANKZ:
            break
        if text[i] == "#":
            break
        match = word.match(text, i)
        if match is not None:
            value += between.joint()
            between = _Between(False)
            value += match.group()
            i = match.end()
        c = text[i]
        if flow and c == ":" and text[i + 1] in ",?[]{}":
            raise Broken("found unexpected ':'", line, start, True)
        if c != " " and c != "\t" and c != "\n":
            break
        i, line, ls = between.read(text, breaks, i, line, ls, floor, start)
        if not flow and i - ls < floor:
            break
    return value, i, line, ls, between.folded


class _Between:
    """The blanks and line breaks between two runs of a plain or quoted scalar's text, and
    what they read as once the next run comes (YAML's line folding)."""

    __slots__ = ("folded", "leading", "spaces", "trailing")

    def __init__(self, folded: bool) -> None:
        self.folded = folded
        """Whether a line break was met (or, in a double-quoted scalar, escaped)."""
        self.spaces = ""
        self.leading = ""
        self.trailing = ""

    def read(self, text: str, breaks: str, i: int, line: int, ls: int, floor: int, start: int) -> tuple[int, int, int]:
        """Read blanks and breaks from ``i``; where the text resumes, on which line, and its start.

        A tab on a continuation line left of ``floor`` (a plain scalar's indentation) is an error."""
        while True:
            c = text[i]
            if c == " " or c == "\t":
                j = _past(_BLANKS, text, i)
                if self.folded:
                    tab = text.find("\t", i, j)
                    if tab >= 0 and tab - ls < floor:
                        raise Broken("found a tab character that violates indentation", line, start, True)
                else:
                    self.spaces += text[i:j]
                i = j
            elif c == "\n":
                if self.folded:
                    self.trailing += breaks[i]
                else:
                    self.spaces = ""
                    self.leading = breaks[i]
                    self.folded = True
                i += 1
                line += 1
                ls = i
            else:
                return i, line, ls

    def joint(self) -> str:
        """The blanks where no break came; else a lone newline reads as a space, and where more
        breaks follow it, the first is dropped and the rest kept; a first break of another
        kind (a Unicode line or paragraph separator) is kept."""
        if not self.folded:
            return self.spaces
        return (self.trailing or " ") if self.leading == "\n" else self.leading + self.trailing


def _scan_quoted(text: str, breaks: str, i: int, line: int, ls: int, single: bool) -> tuple[str, int, int, int]:
    """A single- or double-quoted scalar with its escapes, folded across lines."""
    match = compiled(_ONE_LINE_SINGLE if single else _ONE_LINE_DOUBLE).match(text, i + 1)
    if match is not None:
        value = match.group(1)
        if single and "''" in value:
            value = value.replace("''", "'")
        return value, match.end(), line, ls
    start = line
    closer = "'" if single else '"'
    run = compiled(_SINGLE_RUN if single else _DOUBLE_RUN)
    i += 1
    parts: list[str] = []  # joined once: a value grown piece by piece re-copies itself
    while True:
        if i == ls and (text.startswith("---", i) or text.startswith("...", i)) and text[i + 3] in _BLANKZ:
            raise Broken("found unexpected document indicator", line, start, True)
        if text[i] == "\0":
            raise Broken("found unexpected end of stream", line, start, True)
        i, escaped_break = _quoted_run(text, i, line, start, single, run, parts)
        if escaped_break:
            line += 1
            ls = i
        if text[i] == closer:
            break
        between = _Between(escaped_break)
        i, line, ls = between.read(text, breaks, i, line, ls, 0, start)
        parts.append(between.joint())
    return "".join(parts), i + 1, line, ls


def _quoted_run(
    text: str, i: int, line: int, start: int, single: bool, run: re.Pattern[str], parts: list[str]
) -> tuple[int, bool]:
    """A quoted scalar's text up to a blank, a break or its closing quote, added to ``parts``:
    where it stops, and whether it stopped after an escaped line break."""
    while True:
        c = text[i]
        if c == " " or c == "\t" or c == "\n" or c == "\0":
            return i, False
        if single:
            if c == "'":
                if text[i + 1] != "'":
                    return i, False
                parts.append("'")
                i += 2
                continue
        elif c == '"':
            return i, False
        elif c == "\\":
            escaped, i, escaped_break = _escape(text, i, line, start)
            parts.append(escaped)
            if escaped_break:
                return i, True
            continue
        match = run.match(text, i)
        parts.append(match.group())  # type: ignore[union-attr]
        i = match.end()  # type: ignore[union-attr]


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
        raise Broken("found unknown escape character", line, start, True)
    digits = text[i + 2 : i + 2 + width]
    if _past(compiled(_HEX), digits, 0) != width:
        raise Broken("did not find expected hexdecimal number", line, start, True)
    code = int(digits, 16)
    if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
        raise Broken("found invalid Unicode character escape code", line, start, True)
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
                raise Broken("found an indentation indicator equal to 0", line, start, True)
            increment = int(c)
            i += 1
    i, line, ls = _line_end(text, i, line, ls)
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
            raise Broken("found a tab character where an indentation space is expected", line, start, True)
        if text[i] != "\n":
            break
        found += breaks[i]
        i += 1
        line += 1
        ls = i
    if not target:
        target = max(deepest, indent + 1, 1)
    return i, line, ls, target, found


def _scan_tag(text: str, i: int, line: int, col: int, flow: int) -> tuple[TagToken, int]:
    """A tag — ``!<uri>``, ``!handle!suffix`` or ``!suffix`` — read only to be refused."""
    suffix: bytes
    if text[i + 1] == "<":
        handle = ""
        suffix, i = _scan_uri(text, i + 2, True, "", line)
        if text[i] != ">":
            raise Broken("did not find the expected '>'", line, line, True)
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
        raise Broken("did not find expected whitespace or line break", line, line, True)
    return TagToken((TAG, line, col, handle, suffix)), i


def _scan_tag_handle(text: str, i: int, directive: bool, line: int) -> tuple[str, int]:
    if text[i] != "!":
        raise Broken("did not find expected '!'", line, line, True)
    j = _past(compiled(_ALNUM), text, i + 1)
    if text[j] == "!":
        j += 1
    elif directive and j != i + 1:
        raise Broken("did not find expected '!'", line, line, True)
    return text[i:j], j


def _scan_uri(text: str, i: int, verbatim: bool, head: str, line: int) -> tuple[bytes, int]:
    """A tag's URI part as bytes, its %-escapes decoded (each must spell one UTF-8 character)."""
    length = len(head)
    out = bytearray(head[1:].encode())
    chars = compiled(_VERBATIM_URI if verbatim else _URI)
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
            if text[i] != "%" or _past(compiled(_HEX), digits, 0) != 2:
                raise Broken("did not find URI escaped octet", line, line, True)
            octet = int(digits, 16)
            if width:
                if octet & 0xC0 != 0x80:
                    raise Broken("found an incorrect trailing UTF-8 octet", line, line, True)
            elif octet < 0x80:
                width = 1
            elif octet & 0xE0 == 0xC0:
                width = 2
            elif octet & 0xF0 == 0xE0:
                width = 3
            elif octet & 0xF8 == 0xF0:
                width = 4
            else:
                raise Broken("found an incorrect leading UTF-8 octet", line, line, True)
            out.append(octet)
            i += 3
            width -= 1
            if not width:
                break
        length += 1
    if not length:
        raise Broken("did not find expected tag URI", line, line, True)
    return bytes(out), i


def _scan_directive(text: str, i: int, line: int, ls: int) -> tuple[VersionToken | TagDirectiveToken, int, int, int]:
    """A ``%YAML`` or ``%TAG`` line; any other directive name is an error, as in libyaml."""
    j = _past(compiled(_ALNUM), text, i + 1)
    name = text[i + 1 : j]
    if not name:
        raise Broken("could not find expected directive name", line, line, True)
    if text[j] not in _BLANKZ:
        raise Broken("found unexpected non-alphabetical character", line, line, True)
    i = _past(_BLANKS, text, j)
    token: VersionToken | TagDirectiveToken
    if name == "YAML":
        major, i = _version_number(text, i, line)
        if text[i] != ".":
            raise Broken("did not find expected digit or '.' character", line, line, True)
        minor, i = _version_number(text, i + 1, line)
        token = VersionToken((VERSION_DIRECTIVE, line, 0, major, minor))
    elif name == "TAG":
        handle, i = _scan_tag_handle(text, i, True, line)
        if text[i] != " " and text[i] != "\t":
            raise Broken("did not find expected whitespace", line, line, True)
        prefix, i = _scan_uri(text, _past(_BLANKS, text, i), True, "", line)
        if text[i] not in _BLANKZ:
            raise Broken("did not find expected whitespace or line break", line, line, True)
        token = TagDirectiveToken((TAG_DIRECTIVE, line, 0, handle, prefix))
    else:
        raise Broken("found unknown directive name", line, line, True)
    i, line, ls = _line_end(text, i, line, ls)
    return token, i, line, ls


def _line_end(text: str, i: int, line: int, ls: int) -> tuple[int, int, int]:
    """The rest of a block scalar's header or a directive's line: blanks, a comment, and the
    break, past which the next line starts; anything else there is an error."""
    i = _past(_BLANKS, text, i)
    if text[i] == "#":
        i = _past(_COMMENT, text, i)
    if text[i] == "\n":
        return i + 1, line + 1, i + 1
    if text[i] != "\0":
        raise Broken("did not find expected comment or line break", line, line, True)
    return i, line, ls


def _version_number(text: str, i: int, line: int) -> tuple[int, int]:
    j = _past(compiled(_DIGITS), text, i)
    if j - i > 9:
        raise Broken("found extremely long version number", line, line, True)
    if j == i:
        raise Broken("did not find expected version number", line, line, True)
    return int(text[i:j]), j

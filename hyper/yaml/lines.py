"""The reader's fast path: a document of the commonest shapes, read line by line straight into nodes.

Most artefacts are nothing but block mappings and sequences written one entry a line —
``key: value``, ``key:`` over a nested block, ``- value``, ``- key: value`` — with one-line
plain or quoted scalars, one-line flow collections, blank lines and comments. For such a
document the scanner's tokens are a detour: one pattern (:data:`_LINE`) cuts the
text into lines and each line into its parts in C, and :class:`_Tree` keeps the block
collections open at each indentation and builds the nodes as the full reader would —
the same values, styles, flow flags, lines and columns.

Why it cannot disagree with the full reader (ADR 0035): it never decides anything the
full reader might decide otherwise. :func:`read` answers ``None`` — and the caller reads
the document the full way — the moment any line is not certainly of a shape above:
a tab, a control or line-breaking character, an anchor, alias, tag, block scalar, ``?``,
document marker or directive, a scalar that might go on to the next line, a value or item
left out (a null), a plain null, a repeated key, an indentation no open collection
stands at, a key past libyaml's 1024-character bound, nesting deeper than
:data:`_DEEPEST`. What it does answer holds no fault at all, so every fault, every error
and every edge case is the full reader's own. A differential test holds the two readers
to the same answer on generated and mutated documents and on every example file.
"""

from __future__ import annotations

import re
from sys import intern

from hyper.yaml.nodes import Map, Node, Scalar, Seq
from hyper.yaml.scanner import FLAT_FLOW_TEXT, MANY, flat_node, flow_line
from hyper.yaml.tokens import HELD_DEPTH, NULL_SPELLINGS

_DEEPEST = HELD_DEPTH // 4
"""The deepest block nesting read here; deeper documents are left to the full reader, which
holds the depth bounds. Far past any artefact, and far enough under :data:`HELD_DEPTH`
that a flow collection read inside it never meets that bound either."""

_UNREAD = ("\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff")
"""Characters past Latin-1 that break a line or that libyaml refuses. They are looked for
apart, and only in text that is not ASCII, because a character class holding them costs
ten times as much to compile; :data:`_LINE` refuses every other control and break."""

# Character classes, as the text of a class's inside: what a line may hold, and what a
# word may. Controls (tab and line feed among them), DEL and the C1 controls (NEL among
# them) are in neither, so a line holding one matches only as ``other``.
_TEXT = r"^\x00-\x1f\x7f-\x9f"
_WORD = r"^\x00-\x20\x7f-\x9f"
_KEY = r"[0-9A-Za-z_][0-9A-Za-z_.-]{0,999}"
"""A plain key of letters, digits and ``_.-``: none of the null spellings but the three of
letters, which :func:`read` refuses, and no merge key. At most 1,000 characters: libyaml
reads a simple key of up to 1,024, and a line with a longer one is of no shape read here."""
# How ``re`` spends its time, which shapes the patterns below: a repetition of a group sets
# up its count on every line it is reached, even where the group matches nothing, and an
# alternative that starts with a literal character is passed over at the cost of one test.
_RUNS = rf"[{_WORD}:]*(?::[{_WORD}]*[{_WORD}:]|)"
"""The rest of a plain word: non-blanks, a ``:`` only where a non-blank follows it, so none
at its end. A run without colons, then an alternative led by a ``:`` rather than repeated
runs each led by colons, which cost every word a repetition. A failed match backtracks in
linear time: the alternative can end only at each character of the word."""
_PLAIN = (
    rf"(?:[^-?:,\[\]{{}}#&*!|>'\"%@`{_WORD[1:]}]|-(?=[{_WORD}])){_RUNS}"
    rf"(?: +(?!#):*[{_WORD}:]{_RUNS}){MANY}"
)
"""A plain scalar on one line in block context: it starts with no indicator (``-`` only
before a non-blank), holds no ``:`` before a blank or the line's end, and no ``#`` after
a blank. Its further words are taken possessively (:data:`~hyper.yaml.scanner.MANY`):
giving one back could not help the line match, since what follows a plain scalar is blanks,
a comment, and the line's end, and a word never starts with ``#``; ``re`` keeps no
backtracking state for them."""
_SINGLE = rf"'(?:[{_TEXT}']|'')*'"
_DOUBLE = rf'"[{_TEXT}"\\]*"'
"""Quoted scalars closed on their line; a double-quoted one without escapes."""
_TAIL = rf" *(?:#(?<![^ \n]#)[{_TEXT}]*|)"
"""The end of a line: blanks, and a comment, whose ``#`` follows a blank or starts the line
(looked at behind the ``#``, so that a line without one passes over the comment at once)."""
_FLAT = rf"({FLAT_FLOW_TEXT})"
"""A flow collection :func:`~hyper.yaml.scanner.flat_node` reads (a tab or a control leaves
it to the next alternative); where the line does not end after it but for a comment, the
line is matched again as any other flow collection."""
_VALUE = rf"(?:({_PLAIN})|({_SINGLE}|{_DOUBLE})|{_FLAT}|([\[{{][{_TEXT}]*)|)"
_LINE = rf"( *)(?:(- +|)(?:({_KEY}):(?=[ \n])|)( *){_VALUE}{_TAIL}|([^\n]+))\n"
"""One line: its indentation (1); an entry's ``-`` and the blanks after it (2); a key (3)
before its ``:``; the blanks (4) before a plain scalar (5), a quoted one (6), a flow
collection of the commonest kind (7), or any other, which is read to the line's end (8);
or else the line, of no shape read here (9). Each line matches, and matches in one way
only (a plain scalar holds no ``: ``, and none starts with ``-`` and a blank), so
``findall`` hands over every line of the text, in order. Every line ends with its line
feed: :func:`read` gives a last line without one its own, which costs a copy of a rare
document, where matching either end (a line feed or the end of the text) cost 2% of the
whole reading, on every line. Each optional part is written
``(x|)`` rather than ``(x)?``: ``re`` reads an alternative faster than a repetition, and
this pattern reads every character of every document."""
_ROWS = re.compile(_LINE).findall
"""The rows of a text, one per line. Compiled on import, as this module is imported only once
a process has read enough documents to pay for it (:data:`hyper.yaml.parse.FAST_AFTER`):
compiling it costs about what reading forty documents fast saves. Held compiled, rather than
asked of ``re``'s cache per document, which cost about 3,300 instructions each."""


def read(text: str) -> Node | None:
    """The tree of ``text`` where every line of it is of a shape read here; else ``None``.

    ``text`` is a whole document as :func:`hyper.yaml.parse.parse` decoded it. ``None``
    answers nothing about the text: the full reader must read it. The loop reads the
    commonest line — another entry of the collection the line before went on — and the
    line that opens a collection itself, and leaves a line that closes collections to
    :func:`_back`. The document is held as if it were the value of a key left of every
    column: its first line opens its collection as the line after ``key:`` opens the key's.
    """
    if not text.isascii() and any(unread in text for unread in _UNREAD):
        return None
    document = _Open(0, -1, False, None, False)  # a sequence, which takes the one collection as its item
    stack = [document]
    top = document
    opens = True
    """Whether the next line opens a collection: the document's, or the value of ``owner``."""
    owner: Scalar | None = None
    """The key whose value is the nested block the next line opens; ``None`` for the document's."""
    rows = _ROWS(text if text.endswith("\n") else text + "\n")
    for number, (indent, dash, key, gap, plain, quoted, flat, flow, other) in enumerate(rows, 1):
        if not (dash or key):
            if other or plain or quoted or flat or flow:
                return None  # a line of no shape read here, or a scalar alone on its line
            continue  # a blank line, or a comment
        column = len(indent)
        if opens:
            # One indented deeper, or a sequence at its key's own column; after any other
            # line the key's value was left out: a null, which the full reader refuses.
            if not (column > top.column or (column == top.column and dash)) or len(stack) > _DEEPEST:
                return None
            top = _Open(number, column, not dash, owner, column == top.column)
            stack.append(top)
            opens = False
        elif column != top.column or top.indentless:
            found = _back(stack, column, dash != "")
            if found is None:
                return None
            top = found
        if dash:
            if top.entries is not None:
                return None  # at a mapping's column, only a key goes on
            column += len(dash)
            if not key:
                item = _value(number, column, plain, quoted, flat, flow, len(stack) - 1)
                if item is None:
                    return None
                top.items.append(item)
                continue
            if len(stack) > _DEEPEST:
                return None
            top = _Open(number, column, True, None, False)  # a mapping as the entry: ``- key: value``
            stack.append(top)
        entries = top.entries
        if entries is None or key in entries or key in NULL_SPELLINGS:
            return None  # at a sequence's column, only an entry goes on; a repeated or null key is a fault
        name = Scalar((intern(key), "plain", number, column + 1))  # see flat_node on why interned
        if plain:  # the commonest value, so built here
            if plain in NULL_SPELLINGS:
                return None
            entries[key] = (name, Scalar((plain, "plain", number, column + len(key) + 2 + len(gap))))
        elif flat:  # the next commonest
            collection = flat_node(flat, number - 1, column + len(key) + 1 + len(gap))
            if collection is None:
                return None
            entries[key] = (name, collection)
        elif quoted or flow:
            value = _value(number, column + len(key) + 1 + len(gap), "", quoted, "", flow, len(stack) - 1)
            if value is None:
                return None
            entries[key] = (name, value)
        else:
            owner = name
            opens = True
    if opens:
        return None  # no collection at all, or the last key's value left out
    while len(stack) > 1:
        stack.pop().close(stack[-1])
    return document.items[0]


def _value(number: int, column: int, plain: str, quoted: str, flat: str, flow: str, blocks: int) -> Node | None:
    """The scalar or flow collection written at 0-based ``column`` on line ``number``, inside
    ``blocks`` block collections; ``None`` for a null, for nothing, and for a flow collection
    not read whole (see :func:`~hyper.yaml.scanner.flat_node` and :func:`~hyper.yaml.scanner.flow_line`)."""
    if plain:
        return None if plain in NULL_SPELLINGS else Scalar((plain, "plain", number, column + 1))
    if quoted:
        if quoted[0] == "'":
            return Scalar((quoted[1:-1].replace("''", "'"), "single", number, column + 1))
        return Scalar((quoted[1:-1], "double", number, column + 1))
    if flat:
        return flat_node(flat, number - 1, column)
    if flow:
        return flow_line(flow, number - 1, column, blocks)
    return None


def _back(stack: list[_Open], column: int, entry: bool) -> _Open | None:
    """Close the collections a line at ``column`` ends: the collection it goes on in, or
    ``None`` where none stands at its column (the document's own stands left of all)."""
    while True:
        top = stack[-1]
        if not (top.column > column or (top.indentless and not entry and top.column == column)):
            return top if top.column == column else None
        stack.pop()
        top.close(stack[-1])


class _Open:
    """A block collection still open: its column, what it holds so far, and where it goes."""

    __slots__ = ("column", "entries", "indentless", "items", "line", "owner")

    def __init__(self, line: int, column: int, mapping: bool, owner: Scalar | None, indentless: bool) -> None:
        self.line = line
        self.column = column
        self.items: list[Node] = []
        """A sequence's items."""
        self.entries: dict[str, tuple[Scalar, Node]] | None = {} if mapping else None
        """A mapping's entries by their keys' text, in order; ``None`` for a sequence. A key
        whose value is a nested block is put in when the block closes, which is before the
        mapping's next key is read, so the order is the document's."""
        self.owner = owner
        """The key of the mapping entry this collection is the value of; ``None`` for an item."""
        self.indentless = indentless
        """A sequence whose ``-`` stands at its key's column, which ends at any other line there."""

    def close(self, into: _Open) -> None:
        """End this collection and put its node in ``into``, the collection it was opened in."""
        if self.entries is None:
            node: Node = Seq((tuple(self.items), self.line, self.column + 1, False))
        else:
            node = Map((tuple(self.entries.values()), self.line, self.column + 1, False))
        if self.owner is None:
            into.items.append(node)
        else:
            assert into.entries is not None  # an owner is a key of the mapping it was read in
            into.entries[self.owner.value] = (self.owner, node)

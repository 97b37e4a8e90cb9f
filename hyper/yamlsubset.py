"""The strict YAML subset every artefact is written in, read into a position-carrying tree.

Why an event-level reader and not ``yaml.safe_load``: the authoring format reads a
scalar's meaning off the schema at its position, never off YAML's implicit typing
(``yes``, ``on``, ``0x1`` and ``1e3`` stay text), and it refuses constructs a
composed tree has already erased — an anchor, an alias, an explicit tag, a merge
key, a duplicate key. PyYAML's event stream still carries every one of those, with
the source position of each node, so the tree is built here from events: every
value a string, every node with its 1-based line and column, every refused
construct a :class:`YamlFault` at the node it occurs on.

The C event parser (libyaml) is used where PyYAML was built with it: it is the
parser the reference's go-yaml was ported from, so node positions agree with the
reference's, and it is several times faster than the pure-Python one, which is
what loading a few thousand artefacts for ``check`` needs.

Nothing here raises. A file that will not parse at all is one fault and no tree;
a file that parses but uses refused constructs is a tree *and* its faults, so the
schema check can still read the rest of the file (one broken line does not hide
every other problem in it).
"""

from __future__ import annotations

from typing import Any, Literal

import yaml
from yaml.scanner import ScannerError

from hyper.yamlnodes import ERROR_CODE, Map, Node, Parsed, Scalar, Seq, Style, YamlFault

__all__ = ["ERROR_CODE", "Map", "Node", "Parsed", "Scalar", "Seq", "Style", "YamlFault", "load", "parse"]

_STYLES: dict[str | None, Style] = {
    None: "plain",
    "": "plain",
    "'": "single",
    '"': "double",
    "|": "literal",
    ">": "folded",
}

_NULL_SPELLINGS = frozenset({"", "~", "null", "Null", "NULL"})
"""The plain scalars YAML would read as null. The vocabulary has no null at all."""

# One sentence per refused construct, each naming what the reader must change.
_SECOND_DOCUMENT = "a file holds one YAML document, and a second one starts here"
_ALIAS = "an alias is outside the YAML the authoring format admits"
_ANCHOR = "an anchor is outside the YAML the authoring format admits"
_TAG = "an explicit tag is outside the YAML the authoring format admits"
_NULL = "the scalar vocabulary has no null — write the value out, or quote it to mean the text"
_COLLECTION_KEY = "a mapping key must be a scalar, never a list or a mapping"
_MERGE_KEY = "a merge key (<<) is outside the YAML the authoring format admits"

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(data: bytes, file: str) -> Node | YamlFault | None:
    """The tree, ``None`` for an empty file, or the first fault found. Never raises.

    Strict: any refused construct answers its fault, even where the rest of the file
    parsed. A reader that only wants what the file legibly says (the version-pin
    gate, a surface stating facts) reads :func:`parse`'s ``root`` instead.
    """
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
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        return _broken(YamlFault(file, line, 1, "the file is not UTF-8 text, which every artefact must be"))
    try:
        return _Builder(file).build(data)
    except yaml.MarkedYAMLError as err:
        return _broken(YamlFault(file, _error_line(err), 1, _error_message(err)))
    except yaml.YAMLError as err:
        return _broken(YamlFault(file, 1, 1, f"the file is not well-formed YAML: {_reason(err)}"))
    except Exception:  # the parser's own failure modes are not ours to surface as tracebacks
        return _broken(YamlFault(file, 1, 1, "the file could not be read as YAML"))


def _broken(fault: YamlFault) -> Parsed:
    return Parsed(root=None, faults=(fault,), ok=False)


def _error_line(err: yaml.MarkedYAMLError) -> int:
    """The line a hard parse error is cited at, reckoned the way the reference reckons it.

    The reference reports its parser's own ``line N`` prefix, which is the context
    mark's zero-based line for a parser error and the one-based line for a scanner
    error, falling back to the problem mark, and to line 1 where neither names a
    line. The rule is odd but the line is a machine-read member of a problem row, so
    it is reproduced rather than improved on.
    """
    scanner = isinstance(err, ScannerError)
    for mark in (err.context_mark, err.problem_mark):
        if mark is not None and mark.line != 0:
            return mark.line + 1 if scanner else mark.line
    return 1


def _error_message(err: yaml.MarkedYAMLError) -> str:
    return f"the file is not well-formed YAML: {_reason(err)}"


def _reason(err: yaml.YAMLError) -> str:
    """The parser's own one-line reason (its wording names the YAML construct it tripped on)."""
    problem = getattr(err, "problem", None)
    if not isinstance(problem, str) or not problem.strip():
        problem = next(iter(str(err).splitlines()), "")
    return problem.strip() or "the parser gave no reason"


def _join(field: str, name: str) -> str:
    return name if not field else f"{field}.{name}"


class _Frame:
    """One open collection while its events are being read."""

    __slots__ = ("column", "field", "flow", "items", "kind", "line", "pending", "seen")

    def __init__(self, kind: str, line: int, column: int, flow: bool, field: str) -> None:
        self.kind = kind
        self.line = line
        self.column = column
        self.flow = flow
        self.field = field
        self.items: list[object] = []
        # For a mapping: the key awaiting its value — a Scalar, or None while a key is
        # expected, or False where the key was refused and its value is to be dropped.
        self.pending: Scalar | Literal[False] | None = None
        self.seen: set[str] = set()


def _field_of(parent: _Frame | None) -> str:
    """The path of the node about to be read, in the reference's field notation."""
    if parent is None:
        return ""
    if parent.kind == "seq":
        return f"{parent.field}[{len(parent.items)}]"
    if isinstance(parent.pending, Scalar):
        return _join(parent.field, parent.pending.value)
    return parent.field


class _Builder:
    """Turns one event stream into a tree and the faults found in it."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.faults: list[YamlFault] = []

    def fault(self, line: int, column: int, field: str, message: str) -> None:
        self.faults.append(YamlFault(self.file, line, column, message, field))

    def build(self, data: bytes) -> Parsed:
        loader = _Loader(data)
        try:
            return self._read(loader)
        finally:
            loader.dispose()

    def _read(self, loader: Any) -> Parsed:
        root: Node | None = None
        documents = 0
        stack: list[_Frame] = []
        skipping = False  # inside a second or later document: parsed for errors, not kept
        get_event = loader.get_event
        scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
        closing = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
        ignored = (yaml.StreamStartEvent, yaml.DocumentEndEvent)
        styles, nulls = _STYLES, _NULL_SPELLINGS
        while True:
            event = get_event()
            kind = type(event)
            if kind is scalar_event and not skipping:
                mark = event.start_mark
                parent = stack[-1] if stack else None
                style = styles.get(event.style, "plain")
                scalar = Scalar(event.value, style, mark.line + 1, mark.column + 1)
                if event.anchor is not None or event.tag is not None or (style == "plain" and event.value in nulls):
                    self._node_faults(event, scalar.line, scalar.column, parent)
                if parent is None:
                    root = scalar
                elif parent.kind == "map" and parent.pending is None:
                    self._take_key(parent, scalar)
                else:
                    self._attach(parent, scalar)
                continue
            if kind in closing:
                if skipping:
                    continue
                frame = stack.pop()
                node: Node
                if frame.kind == "map":
                    node = Map(tuple(frame.items), frame.line, frame.column, frame.flow)  # type: ignore[arg-type]
                else:
                    node = Seq(tuple(frame.items), frame.line, frame.column, frame.flow)  # type: ignore[arg-type]
                if stack:
                    self._attach(stack[-1], node)
                else:
                    root = node
                continue
            if kind is yaml.StreamEndEvent:
                break
            if kind is yaml.DocumentStartEvent:
                documents += 1
                if documents == 2:
                    mark = event.start_mark
                    self.fault(mark.line + 1, mark.column + 1, "", _SECOND_DOCUMENT)
                skipping = documents > 1
                continue
            if skipping or kind in ignored:
                continue

            mark = event.start_mark
            line, column = mark.line + 1, mark.column + 1
            parent = stack[-1] if stack else None
            as_key = parent is not None and parent.kind == "map" and parent.pending is None
            if kind is alias_event:
                self.fault(line, column, _field_of(parent), _ALIAS)
                placeholder = Scalar(f"*{event.anchor}", "plain", line, column)
                if parent is None:
                    root = placeholder
                elif as_key:
                    self._take_key(parent, placeholder)
                else:
                    self._attach(parent, placeholder)
                continue
            # a collection opens
            field = _field_of(parent)
            if event.anchor is not None or event.tag is not None:
                self._node_faults(event, line, column, parent)
            if as_key:
                self.fault(line, column, field, _COLLECTION_KEY)
            opened = "map" if kind is yaml.MappingStartEvent else "seq"
            stack.append(_Frame(opened, line, column, bool(event.flow_style), field))
        return Parsed(root=root, faults=tuple(self.faults), ok=True)

    def _node_faults(self, event: Any, line: int, column: int, parent: _Frame | None) -> None:
        """The refused constructs one node carries: each is its own occurrence."""
        field = _field_of(parent)
        if event.anchor is not None:
            self.fault(line, column, field, _ANCHOR)
        if event.tag is not None:
            self.fault(line, column, field, _TAG)
        if (
            isinstance(event, yaml.ScalarEvent)
            and _STYLES.get(event.style) == "plain"
            and event.value in _NULL_SPELLINGS
        ):
            self.fault(line, column, field, _NULL)

    def _take_key(self, frame: _Frame, key: Scalar) -> None:
        if key.style == "plain" and key.value == "<<":
            self.fault(
                key.line,
                key.column,
                _join(frame.field, "<<"),
                _MERGE_KEY,
            )
        elif key.value in frame.seen:
            from hyper.check.nodes import quote  # not at the top: that module reads this one's types

            self.fault(
                key.line,
                key.column,
                _join(frame.field, key.value),
                f"{quote(key.value)} is already a key of this mapping"
                " — each key is written once",
            )
        frame.seen.add(key.value)
        frame.pending = key

    @staticmethod
    def _attach(frame: _Frame, node: Node) -> None:
        if frame.kind == "seq":
            frame.items.append(node)
            return
        if frame.pending is None:
            # A collection standing as a key: refused when it opened; its value is dropped.
            frame.pending = False
            return
        if isinstance(frame.pending, Scalar):
            frame.items.append((frame.pending, node))
        frame.pending = None

"""Which working-tree lines the range touched, and where each removed line is cited.

The page renders the working tree and never a removed line, so every number here is
a working-tree line — except the keys of ``anchors``, which are the baseline's own
numbers of lines that are gone. A line is marked where it is new or differs; a
removed line standing against an added one in the same edit is a modification, cited
at the added line; a removed line with nothing against it is a deletion, cited at the
opening line of the structure that enclosed it — a removed ``bound:`` at its Step's
``- id:``, a removed Step at ``steps:`` — which is the line a reader edits to put it
back, rather than whatever text happens to sit next to the gap.

Which lines survived is the longest common subsequence of the two sides, after the
shared head and tail are set aside: an artefact is edited a few lines at a time far
more often than it is rewritten, so the ordinary case costs one scan.
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple
from hyper.review.nodes import root_line
from hyper.yaml.subset import Map, Node, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence


class Touched(NamedTuple):
    lines: frozenset[int]
    anchors: dict[int, int]
    """Baseline line number of each removed line to the working-tree line it is cited at."""

    def marked(self, line: int) -> bool:
        return line in self.lines


NOTHING = Touched(frozenset(), {})


class _Structure(NamedTuple):
    opening: int
    indent: int
    sequence: bool


class _Gap(NamedTuple):
    start: int
    end: int
    """Baseline indices removed: ``[start, end)``."""
    added: int
    added_end: int
    """Working indices added: ``[added, added_end)``."""
    after: int
    """The working line (1-based) the gap stands after; 0 before the first line."""


def read_touched(baseline: Sequence[str], working: Sequence[str], root: Node | None) -> Touched:
    kept = common_lines(baseline, working)
    matched = {pair[1] for pair in kept}
    lines = {i + 1 for i in range(len(working)) if i not in matched}
    anchors: dict[int, int] = {}
    structures: list[_Structure] | None = None
    for gap in _gaps(kept, len(baseline), len(working)):
        paired = min(gap.end - gap.start, gap.added_end - gap.added)
        for i in range(paired):
            anchors[gap.start + 1 + i] = gap.added + 1 + i
        if gap.start + paired >= gap.end:
            continue
        if structures is None:
            structures = _structures(root, len(working))
        after = gap.added_end if gap.added_end > gap.added else gap.after
        anchor = _anchor(baseline[gap.start + paired : gap.end], structures, after)
        if anchor == 0:
            continue
        lines.add(anchor)
        for line in range(gap.start + paired + 1, gap.end + 1):
            anchors[line] = anchor
    return Touched(frozenset(lines), anchors)


def common_lines(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """The pairs of indices a longest common subsequence of ``a`` and ``b`` matches."""
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    middle_a, middle_b = a[head : len(a) - tail], b[head : len(b) - tail]
    rows, columns = len(middle_a), len(middle_b)
    # table[i][j]: the longest common run of middle_a[i:] and middle_b[j:], filled from the end.
    table = [[0] * (columns + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        here, below = table[i], table[i + 1]
        line = middle_a[i]
        for j in range(columns - 1, -1, -1):
            if line == middle_b[j]:
                here[j] = below[j + 1] + 1
            else:
                here[j] = below[j] if below[j] >= here[j + 1] else here[j + 1]
    pairs = [(i, i) for i in range(head)]
    i = j = 0
    while i < rows and j < columns:
        if middle_a[i] == middle_b[j]:
            pairs.append((head + i, head + j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    pairs.extend((len(a) - tail + k, len(b) - tail + k) for k in range(tail))
    return pairs


def _gaps(kept: Sequence[tuple[int, int]], baseline: int, working: int) -> list[_Gap]:
    """Every edit between two surviving lines that removed something."""
    gaps: list[_Gap] = []
    next_baseline = next_working = precedes = 0
    for to_baseline, to_working in [*kept, (baseline, working)]:
        if to_baseline > next_baseline:
            gaps.append(_Gap(next_baseline, to_baseline, next_working, to_working, precedes))
        next_baseline, next_working, precedes = to_baseline + 1, to_working + 1, to_working + 1
    return gaps


def _structures(root: Node | None, count: int) -> list[_Structure]:
    """The working tree's collections, each with the line that opens it, in walk order."""
    found: list[_Structure] = []
    pending: list[tuple[Node, int]] = [] if root is None else [(root, root_line(root))]
    while pending:
        node, opening = pending.pop()
        if opening < 1 or opening > count:
            continue
        if isinstance(node, Map) and node.entries:
            found.append(_Structure(opening, node.entries[0][0].column - 1, False))
            pending.extend((value, key.line) for key, value in reversed(node.entries))
        elif isinstance(node, Seq) and node.items:
            found.append(_Structure(opening, node.items[0].column - 1, True))
            pending.extend((item, item.line) for item in reversed(node.items))
    return found


def _anchor(removed: Sequence[str], structures: Sequence[_Structure], after: int) -> int:
    shape = _shape(removed)
    nearest = 0
    for structure in structures:
        if structure.opening > after or structure.opening <= nearest:
            continue
        if shape is not None and (structure.indent, structure.sequence) != shape:
            continue
        nearest = structure.opening
    if nearest == 0 and shape is not None:
        return _anchor((), structures, after)
    if nearest == 0 and structures:
        return structures[0].opening
    return nearest


def _shape(removed: Sequence[str]) -> tuple[int, bool] | None:
    """Where a deletion's first line of content stood: its column, and whether it opened an entry."""
    for line in removed:
        text = line.rstrip(" \t")
        if not text.strip():
            continue
        indent = len(text) - len(text.lstrip(" "))
        rest, sequence = text[indent:], False
        while rest.startswith("- "):
            indent, rest, sequence = indent + 2, rest[2:], True
        return indent, sequence
    return None

"""The review as a person reads it: header, rule, the artefact's lines with their gutter,
then ``AUTHORITY`` and ``FLAGS``.

Geometry, all widths in code points. Every line opens with two spaces. The marker
column is as wide as the widest marker drawn or the kind's heading, whichever is
wider, and is followed by two spaces and a bar; nothing is truncated, a Target name
being an identity. The header's first line pads the path to a fixed column so two
reviews state their range in the same place. With a range the change column (``~`` or
a space) stands between the bar and the source; without one it takes no width at
all. A blank source line ends at the bar (or the mark). The page is not sized to any
terminal.
"""

from __future__ import annotations

from hyper.review.authority import block
from hyper.review.columns import GAP, widths
from hyper.review.compose import Review
from hyper.review.marks import Flag

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

INDENT: Final = "  "
PATH_COLUMN: Final = 40
REVISION_DIGITS: Final = 7
FLAGS_CAPTION: Final = "FLAGS   an index of the gutter above — each row points at a line it marked"
FLAGS_EMPTY: Final = "nothing the gutter marked raises a flag"


def render(review: Review) -> str:
    header = _header_lines(review)
    heading = review.header.kind.word
    width = max([len(heading), *(len(line.marker) for line in review.gutter)])

    def gutter(marker: str) -> str:
        return f"{INDENT}{marker.ljust(width + len(GAP))}│"

    lines = [f"{gutter(heading if i == 0 else '')}{GAP}{fact}" for i, fact in enumerate(header)]
    lines.append(f"{INDENT}{'─' * (width + len(GAP))}┼{'─' * (max(len(fact) for fact in header) + len(GAP))}")
    by_line = {line.line: line for line in review.gutter}
    for number, content in enumerate(review.source, start=1):
        drawn = by_line.get(number)
        prefix = gutter(drawn.marker if drawn is not None else "") + " "
        if review.ranged:
            prefix += ("~" if drawn is not None and drawn.changed else " ") + " "
        lines.append(prefix + content if content else prefix.rstrip(" "))
    lines.extend(block(review.header.kind, review.authority))
    lines.extend(_flags_block(review.flags))
    return "".join(f"{line}\n" for line in lines)


def _header_lines(review: Review) -> list[str]:
    header = review.header
    if header.absence is not None:
        stated = header.absence.sentence
    else:
        stated = f"{header.baseline[:REVISION_DIGITS]} → working tree"
    if header.path:
        path = header.path
        first = (path.ljust(PATH_COLUMN) if len(path) < PATH_COLUMN else path + GAP) + stated
    else:
        first = stated
    read = header.gloss
    if read is None:
        return [first]
    parts = [read.phrase, read.rate.text]
    if header.last_run is not None:
        parts.append(header.last_run.age)
    parts.extend(read.facts)
    return [first, " · ".join(parts)]


def _cells(flag: Flag) -> list[str]:
    return [flag.name.upper(), f"line {flag.cites}", flag.coordinate, flag.text]


def _flags_block(flags: tuple[Flag, ...]) -> list[str]:
    lines = ["", f"{INDENT}{FLAGS_CAPTION}"]
    if not flags:
        return [*lines, f"{INDENT}{FLAGS_EMPTY}"]
    sized = widths(_cells(flag) for flag in flags)
    text_column = len(INDENT) + sum(width + len(GAP) for width in sized[:3] if width)
    for flag in flags:
        cells = _cells(flag)
        drawn = [cell.ljust(sized[i]) for i, cell in enumerate(cells) if sized[i]]
        lines.append(f"{INDENT}{GAP.join(drawn)}".rstrip(" "))
        lines.extend((" " * text_column + line).rstrip(" ") for line in flag.before)
        for i, line in enumerate(flag.after):
            lead = " " * (text_column - 2) + "→ " if i == 0 else " " * text_column
            lines.append((lead + line).rstrip(" "))
    return lines

"""The page table: cells aligned the way Go's ``text/tabwriter`` aligns them.

Every page in hyper is laid out by this one function so that two-space gaps, the
unpadded last cell and the absence of trailing whitespace hold everywhere. Widths
are counted in code points. Columns are aligned per *column block* — a run of
consecutive lines that all have a cell in that column before their last — exactly
as tabwriter does, because labelled-value blocks and ragged tables depend on it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence

_PADDING = 2


def _format(lines: Sequence[Sequence[str]], widths: list[int], line0: int, line1: int, out: list[str]) -> None:
    column = len(widths)
    this = line0
    while this < line1:
        if column >= len(lines[this]) - 1:
            this += 1
            continue
        _write(lines, widths, line0, this, out)
        line0 = this
        width = 0
        while this < line1 and column < len(lines[this]) - 1:
            width = max(width, len(lines[this][column]) + _PADDING)
            this += 1
        widths.append(width)
        _format(lines, widths, line0, this, out)
        widths.pop()
        line0 = this
    _write(lines, widths, line0, line1, out)


def _write(lines: Sequence[Sequence[str]], widths: Sequence[int], line0: int, line1: int, out: list[str]) -> None:
    for cells in lines[line0:line1]:
        parts: list[str] = []
        for j, cell in enumerate(cells):
            if j < len(widths):
                parts.append(cell.ljust(widths[j]))
            else:
                parts.append(cell)
        out.append("".join(parts).rstrip())


def _stack(rows: Sequence[Sequence[str]]) -> list[list[str]]:
    """Open every row holding a multi-line cell into one physical line per segment."""
    physical: list[list[str]] = []
    for cells in rows:
        segments = [cell.split("\n") for cell in cells]
        depth = max((len(s) for s in segments), default=1)
        for k in range(depth):
            physical.append([s[k] if k < len(s) else "" for s in segments])
    return physical


def table(rows: Sequence[Sequence[str]], indent: str = "") -> str:
    """Lay out ``rows`` (header included, if any); every line ends in a newline.

    No rows, no output: a command writes its own empty-state sentence instead.
    """
    if not rows:
        return ""
    lines = _stack(rows)
    out: list[str] = []
    _format(lines, [], 0, len(lines), out)
    return "".join(f"{indent}{line}".rstrip() + "\n" for line in out)


def labelled(pairs: Sequence[tuple[str, str]], indent: str = "") -> str:
    """A block of labelled values, one fact per line; an empty value writes no line at all."""
    return table([[label, value] for label, value in pairs if value], indent)

"""Fenced blocks read out of a Markdown file, so a test can run what a page tells a reader to type."""

from __future__ import annotations

import re
from pathlib import Path

from hyper.core.namedtuple import NamedTuple

_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
_HEADING = re.compile(r"^#{1,6} (.+)$", re.M)


class Block(NamedTuple):
    """One fenced block: its info word, the heading it sits under, and its text."""

    language: str
    heading: str
    text: str


def blocks(path: Path) -> list[Block]:
    source = path.read_text(encoding="utf-8")
    headings = [(match.start(), match.group(1).strip()) for match in _HEADING.finditer(source)]
    found = []
    for match in _FENCE.finditer(source):
        heading = next((title for at, title in reversed(headings) if at < match.start()), "")
        found.append(Block(match.group(1), heading, match.group(2)))
    return found

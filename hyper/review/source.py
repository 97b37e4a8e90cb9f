"""An artefact's bytes as the lines a review renders and compares.

A line is everything between two newlines, carriage returns and trailing spaces
included: the page shows the bytes about to be approved, not a tidied copy. A
final newline closes the last line rather than opening an empty one, so line
numbers agree with every editor and with the positions the YAML reader reports.
"""

from __future__ import annotations


def source_lines(data: bytes) -> list[str]:
    if not data:
        return []
    lines = data.decode("utf-8", "replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines

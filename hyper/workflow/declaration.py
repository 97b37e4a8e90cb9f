"""``hyper.yaml`` with the two facts ``project`` derives — ``version:`` and ``digest:`` — written into it.

The declaration is a reviewed artefact that carries two derived facts, not a
generated file, so it is edited rather than rewritten: each value's own span is
replaced and every other byte — comments, blank lines, ``retention:``, the author's
quoting, a comment after the value — stands as it was. Writing the facts it already
holds changes nothing, so re-projecting leaves no diff here.

A repository with no declaration gets one holding ``kind:``, ``version:`` and
``digest:`` and no ``retention:``: a repository that has stated no policy has not
agreed to lose anything, and ``project`` states none for it.

Neither value is judged: the version is what the build says it is and the digest is
what the release published.
"""

from __future__ import annotations

from hyper.artefact.declaration import KIND, PATH
from hyper.yaml import subset as yamlsubset


def pinned(data: bytes | None, version: str, digest: str) -> bytes:
    """The declaration's new bytes; ``data`` is ``None`` where the repository holds none."""
    if data is None:
        return f"kind: {KIND}\nversion: {version}\ndigest: {digest}\n".encode()
    text = data.decode("utf-8", "surrogateescape")
    # One key at a time: the second span is found in the bytes the first edit produced.
    for key, value in (("version", version), ("digest", digest)):
        text = _with(text, key, value)
    return text.encode("utf-8", "surrogateescape")


def _with(text: str, key: str, value: str) -> str:
    """``text`` with the top-level ``key`` carrying ``value``.

    A key the file lacks is appended on a line of its own. A key holding anything
    other than a non-empty scalar on one line — a mapping, nothing, a value spelled
    across lines — is left as it stands: what is wrong with it is ``check``'s to say,
    and not a spelling to invent here.
    """
    root = yamlsubset.parse(text.encode("utf-8", "surrogateescape"), PATH).root
    entry = root.get(key) if isinstance(root, yamlsubset.Map) else None
    if entry is None:
        return (text if text == "" or text.endswith("\n") else text + "\n") + f"{key}: {value}\n"
    held = entry[1]
    if not isinstance(held, yamlsubset.Scalar) or held.value == "":
        return text
    lines = text.split("\n")
    at, start = held.line - 1, held.column - 1
    if not 0 <= at < len(lines) or not 0 <= start <= len(lines[at]):
        return text
    line = lines[at]
    found = line.find(held.value, start)
    if found < 0:
        return text
    lines[at] = line[:found] + value + line[found + len(held.value) :]
    return "\n".join(lines)

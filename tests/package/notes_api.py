"""The docs' worked HTTP example's service: a tiny notes API over HTTPS with a test CA.

It answers the four requests the ``notes`` Manifest in ``docs/quickstart.md`` makes —
list (two pages, cursor-paginated), create, issue a token, delete — from memory, so
a test can follow the docs to a completed Run without any network. Its CA is written
to a file, as a private CA is handed to hyper (``SSL_CERT_FILE``, docs/operations.md).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.capability.tls import Reply, Seen, serving

TOKEN = "docs-example-token"


class Notes:
    """The service's state: notes by id, in creation order."""

    def __init__(self) -> None:
        self.notes: dict[str, dict[str, str]] = {
            "n1": {"id": "n1", "title": "draft-outline", "created_at": "2026-11-01T09:00:00Z"},
        }

    def answer(self, seen: Seen) -> Reply:
        if seen.headers.get("authorization") != f"Bearer {TOKEN}":
            return _json(401, {"error": "unauthorised"})
        url = urllib.parse.urlsplit(seen.target)
        query = dict(urllib.parse.parse_qsl(url.query))
        if seen.method == "GET" and url.path == "/v1/notes":
            ordered = list(self.notes.values())
            page = 1 if query.get("cursor") == "page-2" else 0
            body: dict[str, object] = {"notes": ordered[page::2], "next": "page-2" if page == 0 else None}
            return _json(200, body)
        if seen.method == "POST" and url.path == "/v1/notes":
            title = json.loads(seen.body)["title"]
            note = {"id": f"n{len(self.notes) + 1}", "title": title, "created_at": "2026-12-01T09:00:00Z"}
            self.notes[note["id"]] = note
            return _json(201, note)
        if seen.method == "POST" and url.path == "/v1/tokens":
            label = json.loads(seen.body)["label"]
            return _json(201, {"label": label, "token": "tok-" + label, "expires_at": "2026-12-02T09:00:00Z"})
        if seen.method == "DELETE" and url.path.startswith("/v1/notes/"):
            gone = self.notes.pop(url.path.rsplit("/", 1)[1], None)
            return _json(204 if gone else 404, None)
        return _json(404, {"error": "no such route"})


def _json(status: int, body: object) -> Reply:
    if body is None:
        return Reply(status)
    return Reply(status, (("Content-Type", "application/json"),), json.dumps(body).encode())


@contextmanager
def notes_api(ca_file: Path) -> Iterator[tuple[int, Notes]]:
    """The service listening on ``localhost`` at a free port; its CA written to ``ca_file``."""
    notes = Notes()
    with serving(notes.answer, ["localhost"]) as server:
        ca_file.write_bytes(server.ca_pem)
        yield server.port, notes

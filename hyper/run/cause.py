"""What an answer a read projected from was, said where the projection alone would hide it.

A read never halts on what came back (a 401 is an answer), so the one sentence a failed or
surprising read gets is the projection's — "the collection path did not resolve". Said
alone it hides the fact the reader acts on next: the credential was refused, the handshake
failed. This module words that fact from the response object and the fault, and from
nothing else: the status and its standard phrase, the fault's own narration (which carries
no credential), and the count of attempts a retry Pattern made. Never a header, never a body.

Nothing here is recorded: the Step file and the rows keep their closed shapes, and these
sentences reach the page, stderr and the MCP text block only.
"""

from __future__ import annotations

from hyper.capability import HOST, STATUS, Answer

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def status_of(response: Mapping[str, Any]) -> int | None:
    """The HTTP status a response object carries; ``None`` where it carries none (no answer, or ``shell``)."""
    status = response.get(STATUS)
    return status if isinstance(status, int) and not isinstance(status, bool) else None


def ordinary(status: int) -> bool:
    return 200 <= status <= 299


def answered(response: Mapping[str, Any], status: int) -> str:
    """``api.example.com answered 401 Unauthorized``. The phrase comes from ``http``'s status
    enumeration, imported here: only an answer that is not 2xx is said, and defining the
    enumeration is start-up cost every ``shell`` Run would otherwise pay (ADR 0006)."""
    import http  # deferred: start-up cost

    host = response.get(HOST) or "the host"
    try:
        phrase = f" {http.HTTPStatus(status).phrase}"
    except ValueError:
        phrase = ""
    return f"{host} answered {status}{phrase}"


def of(answer: Answer) -> str:
    """Why what came back could not be what the Operation describes, or ``""`` where it was an
    ordinary answer: the transport fault, else the first non-2xx status among the pages."""
    attempts = answer.pattern.get("attempts", 0)
    after = f" (after {attempts} attempts)" if attempts > 1 else ""
    if answer.fault is not None:
        return f"no answer came back{after}: {answer.fault.text}"
    for page in (*answer.pages, answer.response):
        status = status_of(page)
        if status is not None and not ordinary(status):
            return f"{answered(page, status)}{after}"
    return ""

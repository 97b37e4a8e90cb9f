"""The three closed Patterns hyper performs around a call: retry, polling, pagination.

A Manifest parameterises them and never implements them, and the set is closed: no
Manifest adds a fourth or widens one. None of them may change an Operation's Kind or
how many Records it affects.

**They nest, innermost first**: a retry repeats one request whose failure provably
preceded it; a poll repeats that request until its ``until:`` holds; a pagination walks
the collection one such answer at a time. Each learns whether there is another call to
make only from the answer before it, so all three are serial by construction — there is
nothing for an Operation's ``concurrency:`` to govern inside them.

* **retry** follows only a failure marked *unsent* (connection refused, a name that did
  not resolve, a failed handshake). Never a timeout, never a reset mid-flight, never a
  status: a status is an answer. No backoff: the attempts follow one another.
* **polling** waits its ``interval:`` *between* calls, never before the first, and has
  no limit of its own: the Operation's deadline bounds every poll.
* **pagination** writes a cursor read from the response, or a page number hyper
  increments, into one query parameter or header — never a next-page URL, which would be
  reach arriving from data. Both forms end when the collection comes back empty; a
  cursor walk also ends when the cursor stops resolving or comes back ``null``.

The account (``attempts``, ``pages``, ``polls``) says what it took to reach the answer.
Each counter is reduced where its own *single call* is defined — per request, per page,
per member — and a count of one says nothing, so it is left out: an Operation that did
no more than the one call every Operation makes carries no account at all.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hyper.artefact import scalars
from hyper.capability import Fault, Response
from hyper.capability.projection import collection, resolve, text
from hyper.core.namedtuple import NamedTuple
from hyper.yaml.subset import Map, Node, Scalar

if TYPE_CHECKING:
    from hyper.artefact import manifest


class Into(NamedTuple):
    """Where a pagination Pattern writes: one query parameter, or one header."""

    header: bool
    name: str


class Pagination(NamedTuple):
    cursor: str
    """The response path the next token is read from; ``""`` on the ``page:`` form."""
    start: int
    """The ``page:`` form's first number, written on the first call."""
    into: Into


class Polling(NamedTuple):
    interval: int
    until: Node | None


class Patterns(NamedTuple):
    pagination: Pagination | None = None
    polling: Polling | None = None
    attempts: int | None = None
    """The retry Pattern's ``attempts:``; ``None`` where no retry is declared."""


class Page(NamedTuple):
    """What one call carries for the walk: nothing on the first call of a cursor walk."""

    into: Into | None = None
    value: str = ""
    number: int = 0


class Exchange(NamedTuple):
    """One request's outcome: the response object, and the fault beside it where there is one."""

    response: Response
    fault: Fault | None = None

    @property
    def unsent(self) -> bool:
        return self.fault is not None and self.fault.reason == "unsent"

    @property
    def halts(self) -> bool:
        """A fault that stops the walk: the deadline (or an ``until:`` that cannot compare)."""
        return self.fault is not None and self.fault.reason in ("deadline", "refused")


class Walk(NamedTuple):
    """Every page's response in order (the last one separately) and what it took."""

    response: Response
    fault: Fault | None
    earlier: tuple[Response, ...]
    account: dict[str, int]


def _value(node: Node | None, key: str) -> Node | None:
    if not isinstance(node, Map):
        return None
    entry = node.get(key)
    return entry[1] if entry is not None else None


def _text(node: Node | None) -> str:
    return node.value if isinstance(node, Scalar) else ""


def read(declared: manifest.Patterns | None) -> Patterns:
    """An Operation's ``patterns:`` block; what is illegible reads as not declared (check reports it)."""
    if declared is None:
        return Patterns()
    pagination: Pagination | None = None
    if isinstance(declared.pagination, Map):
        cursor, page = _value(declared.pagination, "cursor"), _value(declared.pagination, "page")
        form = cursor if cursor is not None else page
        into = _value(form, "into")
        header = _value(into, "header")
        where = Into(True, _text(header)) if header is not None else Into(False, _text(_value(into, "query")))
        start = scalars.integer(_text(_value(page, "from"))) if cursor is None else 0
        if form is not None and where.name:
            pagination = Pagination(_text(_value(cursor, "from")), start or 0, where)
    polling: Polling | None = None
    if isinstance(declared.polling, Map):
        interval = scalars.duration_seconds(_text(_value(declared.polling, "interval")))
        polling = Polling(interval or 0, _value(declared.polling, "until"))
    attempts: int | None = None
    if declared.retry is not None:
        attempts = max(scalars.integer(_text(_value(declared.retry, "attempts"))) or 1, 1)
    return Patterns(pagination, polling, attempts)


def _beyond_one(count: int) -> int:
    return count if count > 1 else 0


Send = Callable[[Page], Exchange]
"""Makes one request carrying the page position; the deadline is the sender's to enforce."""
Members = Callable[[Response], int]
"""How many members the collection ``record.over`` names holds in one page's response."""


class _Account:
    def __init__(self) -> None:
        self.attempts = self.pages = self.polls = 0

    def written(self) -> dict[str, int]:
        counts = {"attempts": self.attempts, "pages": self.pages, "polls": self.polls}
        return {name: count for name, count in counts.items() if count}


def walk(
    patterns: Patterns,
    send: Send,
    members: Members,
    instant: _dt.datetime,
    remaining: Callable[[], float | None],
    pause: Callable[[float], None],
) -> Walk:
    """Every call one member's Patterns make, from the first page to the last.

    ``remaining`` answers the seconds left before the Operation's deadline (``None``: no
    deadline); a polling wait, made with ``pause`` on the deadline's own clock, ends early at
    it, and the next call then reports it.
    """
    account = _Account()
    earlier: list[Response] = []
    fetched = 0
    at = _first(patterns.pagination)
    while True:
        exchange = _polled(patterns, send, at, instant, remaining, pause, account)
        if exchange.halts:
            break
        fetched += 1 if patterns.pagination is not None else 0
        if patterns.pagination is None or members(exchange.response) == 0:
            break
        following = _next(patterns.pagination, at, exchange.response)
        if following is None:
            break
        earlier.append(exchange.response)
        at = following
    account.pages = _beyond_one(fetched)
    return Walk(exchange.response, exchange.fault, tuple(earlier), account.written())


def _first(pagination: Pagination | None) -> Page:
    if pagination is None or pagination.cursor:
        return Page()
    return Page(pagination.into, str(pagination.start), pagination.start)


def _next(pagination: Pagination, at: Page, response: Response) -> Page | None:
    if not pagination.cursor:
        number = at.number + 1
        return Page(pagination.into, str(number), number)

    found, token = resolve(pagination.cursor, response)
    if not found or token is None:
        return None
    return Page(pagination.into, text(token))


def _polled(
    patterns: Patterns,
    send: Send,
    at: Page,
    instant: _dt.datetime,
    remaining: Callable[[], float | None],
    pause: Callable[[float], None],
    account: _Account,
) -> Exchange:
    answered = 0
    try:
        while True:
            exchange = _retried(patterns, send, at, account)
            if exchange.halts or patterns.polling is None:
                return exchange
            answered += 1
            from hyper.capability.until import holds  # deferred: start-up cost

            held, mismatch = holds(patterns.polling.until, exchange.response, instant)
            if mismatch:
                # No Refusal exists after the call went out: the walk halts, naming the field.
                return Exchange(exchange.response, Fault("deadline", mismatch))
            if held:
                return exchange
            _wait(patterns.polling.interval, remaining(), pause)
    finally:
        account.polls += _beyond_one(answered)


def _retried(patterns: Patterns, send: Send, at: Page, account: _Account) -> Exchange:
    made = 0
    attempts = patterns.attempts or 1
    try:
        for attempt in range(1, attempts + 1):
            exchange = send(at)
            made += 1 if patterns.attempts is not None else 0
            if exchange.halts or not exchange.unsent or attempt >= attempts:
                return exchange
        raise AssertionError("unreachable: the last attempt returns")
    finally:
        account.attempts += _beyond_one(made)


def _wait(interval: int, left: float | None, pause: Callable[[float], None]) -> None:
    """The interval between two polls, cut short by the deadline (nothing records it)."""
    seconds = float(interval) if left is None else max(0.0, min(float(interval), left))
    if seconds > 0:
        pause(seconds)


def write(
    page: Page, query: tuple[tuple[str, str], ...], headers: tuple[tuple[str, str], ...]
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The request's query and headers with the page's position written: replacing a parameter
    of the same name where the Manifest authored one (its order kept), appending otherwise."""
    if page.into is None:
        return query, headers
    target = headers if page.into.header else query
    replaced = False
    written: list[tuple[str, str]] = []
    for name, value in target:
        if name == page.into.name and not replaced:
            written.append((name, page.value))
            replaced = True
        elif name != page.into.name:
            written.append((name, value))
    if not replaced:
        written.append((page.into.name, page.value))
    return (query, tuple(written)) if page.into.header else (tuple(written), headers)


def collection_size(over: str) -> Members:
    """The pagination terminator for an Operation projecting over ``over`` (``""``: no collection)."""

    def size(response: Any) -> int:
        if not over:
            return 0
        found = collection(over, response)
        return len(found) if found is not None else 0

    return size

"""Where a command's answer goes.

A command body writes into a :class:`Destination` and never learns which surface
called it. The CLI's :class:`Streams` writes the page or the NDJSON stream on stdout
and everything a person reads about the invocation — Refusals, usage sentences,
narration — on stderr. The MCP surface's :class:`Collected` keeps the same things
as values and hands them back as one :class:`hyper_mcp.Answer`, which is what lets
the envelope carry the CLI's exact rows and sentences without re-deciding them.
"""

from __future__ import annotations

from hyper.core.basefaults import StreamFault

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import BinaryIO, Protocol

    from hyper.core.row import Row
    from hyper_mcp import Answer
else:
    Protocol = object  # the checker holds Destination as a Protocol; at run time it is a plain base


class Destination(Protocol):
    @property
    def as_json(self) -> bool: ...

    @property
    def draws(self) -> bool:
        """Whether the page is read: not by ``--json``, nor by an MCP tool whose reading shows
        none. Where it is not, a command may hand :meth:`answer` an empty page undrawn."""

    def answer(self, rows: Sequence[Row], terminal: Row, page: str) -> None:
        """The command's answer: its rows, the terminal row, and the page drawn from them."""

    def page_only(self, page: str) -> None:
        """An answer with no rows on any surface (``version``, ``completions``)."""

    def refusal(self, rendering: str) -> None:
        """A Refusal's rendering, every line newline-terminated."""

    def usage(self, text: str) -> None:
        """A usage error's sentence(s), every line newline-terminated."""

    def narrate(self, text: str) -> None:
        """A line of narration (progress, truncation), newline-terminated."""


class Streams:
    """The CLI: stdout for the answer, stderr for what is said about it."""

    def __init__(self, stdout: BinaryIO, stderr: BinaryIO, as_json: bool = False) -> None:
        self._stdout = stdout
        self._stderr = stderr
        self._as_json = as_json

    @property
    def as_json(self) -> bool:
        return self._as_json

    @property
    def draws(self) -> bool:
        return not self._as_json

    def with_form(self, as_json: bool) -> Streams:
        return Streams(self._stdout, self._stderr, as_json)

    def _out(self, data: bytes) -> None:
        try:
            self._stdout.write(data)
            self._stdout.flush()
        except (OSError, ValueError) as exc:
            raise StreamFault(str(exc)) from exc

    def _err(self, text: str) -> None:
        try:
            self._stderr.write(text.encode())
            self._stderr.flush()
        except (OSError, ValueError):
            pass  # nowhere left to say it

    def answer(self, rows: Sequence[Row], terminal: Row, page: str) -> None:
        if self._as_json:
            self._out(b"".join(r.encode() + b"\n" for r in (*rows, terminal)))
        else:
            self._out(page.encode())

    def page_only(self, page: str) -> None:
        self._out(page.encode())

    def refusal(self, rendering: str) -> None:
        self._err(rendering)

    def usage(self, text: str) -> None:
        self._err(text)

    def narrate(self, text: str) -> None:
        self._err(text)


class Collected:
    """One tool call's answer, kept as values for the envelope."""

    def __init__(self, as_json: bool = False, draws: bool = True) -> None:
        self._as_json = as_json
        self._draws = draws
        self.rows: tuple[bytes, ...] = ()
        self.terminal: bytes | None = None
        self.rendering = ""
        self.refusals: list[str] = []
        self.usages: list[str] = []
        self.narration: list[str] = []

    @property
    def as_json(self) -> bool:
        return self._as_json

    @property
    def draws(self) -> bool:
        return self._draws

    def answer(self, rows: Sequence[Row], terminal: Row, page: str) -> None:
        self.rows = tuple(r.encode() for r in rows)
        self.terminal = terminal.encode()
        self.rendering = page

    def page_only(self, page: str) -> None:
        self.rendering = page

    def refusal(self, rendering: str) -> None:
        self.refusals.append(rendering)

    def usage(self, text: str) -> None:
        self.usages.append(text)

    def narrate(self, text: str) -> None:
        self.narration.append(text)

    def to_answer(self, exit_code: int) -> Answer:
        from hyper_mcp import Answer  # deferred: start-up cost

        return Answer(
            rows=self.rows,
            terminal=self.terminal,
            rendering=self.rendering,
            refusal="".join(self.refusals),
            usage="".join(self.usages),
            narration="".join(self.narration),
            exit=exit_code,
        )

"""The Secret sink: the only place a value an Operation declared ``secret:`` is ever put.

It is a directory, not a file, because one Run can hold many secrets along three independent
axes — several secret-producing Steps, one Step expanding over members, one Operation
declaring several ``secret:`` fields — so each value is addressed by the triple (Step
position, Record name, field) as the path ``<nnnn>/<name>/<field>``. The filesystem carries
that structure, so a wrapper reads a value with ``cat`` and needs no parser; nothing in
``hyper`` reads it back, and it never reaches the Store.

The two hostile segments go through the Store's own encoder, so the name ``hyper records``
shows and the directory ``cat`` opens are spelled the same way.

Modes are set with ``chmod`` after each create rather than only requested: the process umask
subtracts from a requested mode, and the promise is exactly ``0700`` for every directory and
``0600`` for every file, not *at most* those.
"""

from __future__ import annotations

import contextlib
import os

from hyper.capability import projection
from hyper.core.faults import SinkUnwritten
from hyper.core.namedtuple import NamedTuple
from hyper.store.paths import encode_segment, step_number

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping


DIRECTORY_MODE = 0o700
FILE_MODE = 0o600


class Sink(NamedTuple):
    """The directory the invocation named, already absolute: the surface resolved it, so the
    engine reads no working directory of its own."""

    root: str

    def create(self) -> None:
        """Makes the sink itself. It must not already exist — a directory this Run did not make
        may hold an earlier Run's files, which a reader would take for this Run's — and its
        parent must: ``hyper`` makes the sink, not the path leading to it. Called before Step 1,
        so a sink that cannot be made stops a Run that has touched nothing yet."""
        try:
            os.mkdir(self.root, DIRECTORY_MODE)
            os.chmod(self.root, DIRECTORY_MODE)
        except OSError as failed:
            raise SinkUnwritten(f"the secret sink {self.root} could not be made: {failed.strerror}") from None

    def write(self, step: int, name: str, secrets: Mapping[str, object]) -> None:
        """Puts one Record's secret fields down as ``<nnnn>/<name>/<field>``, at the Step that
        produced them, so a Run halting later keeps what it already minted. A file holds the
        value's bytes alone — no newline a credential never had; a non-string value as its
        compact JSON, the way every other surface shows a projected value."""
        if not secrets:
            return
        step_dir = os.path.join(self.root, step_number(step))
        record_dir = os.path.join(step_dir, encode_segment(name))
        try:
            for made in (step_dir, record_dir):
                with contextlib.suppress(FileExistsError):  # an earlier member of this Step made it
                    os.mkdir(made, DIRECTORY_MODE)
                os.chmod(made, DIRECTORY_MODE)
            for field, value in secrets.items():
                path = os.path.join(record_dir, encode_segment(field))
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
                with os.fdopen(descriptor, "wb") as file:
                    file.write(projection.text(value).encode("utf-8"))
                os.chmod(path, FILE_MODE)
        except OSError as failed:
            raise SinkUnwritten(f"the secret sink could not be written: {failed.strerror}") from None

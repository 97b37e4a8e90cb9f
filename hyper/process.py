"""Everything hyper reads from the process, as one injectable value.

A command body never calls ``os.environ``, ``os.getcwd``, the clock or the run-id mint
directly: it asks the :class:`Process` it was handed. The real process supplies the
real readings (:func:`real`); the corpus supplies fixed ones, which is what makes
every golden case reproducible byte for byte.

Values on the start-up path of every command are ``NamedTuple``s rather than attrs
classes: ADR 0006 has the measurement.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import subprocess


def _utc_now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC)


def _real_user() -> str:
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _real_hostname() -> str:
    import socket

    return socket.gethostname()


def _real_launch(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
    import subprocess

    return subprocess.Popen(*args, **kwargs)


Launcher = Callable[..., "subprocess.Popen[bytes]"]
"""Starts a child process; the signature is :class:`subprocess.Popen`'s."""


class Process(NamedTuple):
    """The process as hyper may read it.

    ``environ`` is the whole environment: a name it does not hold is unset, and the
    empty string is a value. ``mint`` hands out Run ids given the instant they are
    minted at (UUIDv7 carries the clock, and the corpus fixes both).
    """

    environ: Mapping[str, str]
    getwd: Callable[[], str]
    now: Callable[[], _dt.datetime]
    mint: Callable[[_dt.datetime], str]
    user: Callable[[], str]
    hostname: Callable[[], str]
    launch: Launcher = _real_launch

    def lookup_env(self, name: str) -> str | None:
        return self.environ.get(name)

    def nonempty_env(self, name: str) -> str | None:
        """An environment value, with the empty string read as unset."""
        value = self.environ.get(name)
        return value if value else None


def real() -> Process:
    """The running process's own readings."""
    from hyper.runid import mint_v7

    return Process(
        environ=dict(os.environ),
        getwd=os.getcwd,
        now=_utc_now,
        mint=mint_v7,
        user=_real_user,
        hostname=_real_hostname,
    )

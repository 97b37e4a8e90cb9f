"""The root of hyper's faults, and those a command can meet before it reaches the Store.

These are the invocation's faults (exit 2) and the repository files' that a discovery
command, ``check``, ``version`` or ``review`` can be stopped by. They are defined apart from
the Store's, the Run's and the release host's, and from the invocation's that only other
commands meet (a window, a ref, a template, a supplied response, a failed write), so that
such a command defines nine exception classes at start-up rather than all forty (ADR 0006). :mod:`hyper.core.faults`
re-exports every one, and stays the module the rest of hyper imports its faults from
(ADR 0028); a module on a discovery command's path imports them from here.
"""

from __future__ import annotations

import errno

from hyper.core import exit as codes

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import ClassVar


class Fault(Exception):
    """The root of hyper's faults; ``exit`` is the code it answers where it stops a command."""

    exit: ClassVar[int] = codes.PROBLEMS


# --- the invocation: usage errors, exit 2 ---------------------------------------------------


class Misuse(Fault):
    """The invocation's to fix: a usage error. ``text`` is what the command's usage sentence says."""

    exit = codes.USAGE

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class UsageFault(Misuse):
    """An argv that parses to no invocation: the whole stderr text, every line newline-terminated."""


class RootFault(Misuse):
    """No repository could be resolved; the text is the usage sentence's body."""


class StreamFault(Misuse):
    """Writing the answer itself failed (a closed pipe, a full disk)."""


class PinUnreadable(Misuse):
    """``hyper.yaml`` exists and the operating system would not let us read it."""


class PathFault(Misuse):
    """A path positional that names nothing checkable; the text is the sentence after ``hyper check:``."""


# --- the repository's files --------------------------------------------------------------------


class Unheld(Fault, OSError):
    """A file hyper declines to read; ``strerror`` is the reason, a clause in lower case."""

    def __init__(self, reason: str) -> None:
        super().__init__(errno.EPERM, reason)


class MarkerFault(Fault, ValueError):
    """A truncation marker that breaks one of its rules, naming the member at fault."""

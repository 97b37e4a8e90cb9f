"""Making hyper's own process unreadable to the other processes of its user (Linux).

A credential named by a Target sits in hyper's environment from exec, and changing
``os.environ`` never rewrites ``/proc/self/environ``. ``withhold:`` keeps it out of every
child's environment, but a child of the same user could still read hyper's:
``tr '\\0' '\\n' < /proc/$PPID/environ``. A non-dumpable process (``prctl(PR_SET_DUMPABLE,
0)``, as ssh-agent makes itself) has its ``/proc`` entries owned by root and refuses
``ptrace``, so only root can. docs/operations/threat-model.md says what this does not cover.

Only the commands that hold a credential while starting children or calling out (``run``,
``probe``, ``mcp``) pay for ``ctypes``, so a discovery command starts no slower.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final


PR_SET_DUMPABLE: Final = 4
PR_GET_DUMPABLE: Final = 3


def forbid_dumps() -> None:
    """Non-dumpable from here on, where the platform has the switch; nothing elsewhere."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        return  # a libc without prctl: the environment stays as readable as it was

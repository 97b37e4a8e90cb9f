"""Writing a file into the repository: whole or not at all, and never through a link out.

The bytes go to a temporary file beside the destination, which is then renamed over it:
a reader — or a machine that loses power — sees the old file or the new one, never half
of one. A rename replaces a link rather than writing through it, so a ``providers/x.yaml``
linked to a file elsewhere is replaced by the new file and the file elsewhere is left
alone. The directory is resolved first and held to the repository, so a linked
``providers/`` leading out is refused before anything is made, and it is opened and proven
to be that directory before anything is written in it.
"""

from __future__ import annotations

import itertools
import os

from hyper.core.faults import Unheld
from hyper.fs.read import inside, open_held, real_root

_TEMPORARY = itertools.count()
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def write_all(descriptor: int, data: bytes) -> None:
    """Every byte of ``data`` to ``descriptor``: ``os.write`` may write fewer than asked."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def make_held_directory(root: str, relative: str) -> str:
    """``relative`` under ``root`` made where missing, and answered resolved; :class:`Unheld`,
    with nothing made, where it resolves outside the repository."""
    directory = os.path.realpath(os.path.join(root, *relative.split("/")))
    if not inside(directory, real_root(root)):
        raise Unheld("the directory is a link leading outside the repository")
    os.makedirs(directory, exist_ok=True)
    return directory


def replace_held(root: str, relative: str, data: bytes, mode: int = 0o644) -> None:
    """``relative`` (a repository path with ``/``) under ``root`` holds exactly ``data``.

    Its directory is made where missing; :class:`Unheld` where it resolves outside the
    repository. The directory is then opened and proven to lie in the repository, and the
    temporary file is made and renamed relative to that opened directory, so no path is
    walked again once it was held. A new file is created ``mode`` less the umask."""
    *parents, name = relative.split("/")
    directory = make_held_directory(root, "/".join(parents))
    held = open_held(root, directory, os.O_RDONLY | _DIRECTORY)
    try:
        temporary = f".{name}.{os.getpid()}.{next(_TEMPORARY)}.tmp"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode, dir_fd=held)
        try:
            try:
                write_all(descriptor, data)
            finally:
                os.close(descriptor)
            os.replace(temporary, name, src_dir_fd=held, dst_dir_fd=held)
        except BaseException:
            import contextlib  # deferred: only a write that failed needs it, and a Store reader imports this module

            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=held)
            raise
    finally:
        os.close(held)

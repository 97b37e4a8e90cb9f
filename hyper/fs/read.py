"""Reading a file the repository holds: resolved, regular, bounded.

A path is resolved (every link followed) before anything opens it, and held to the
repository's own resolved root: a link whose target lies inside — a monorepo's shared
Provider — reads as its target; one leading out reads as nothing. What is opened is then
proven to be what was resolved (:func:`open_held`), so a link swapped in between is not
followed either. Only a regular file is opened, so ``/dev/zero`` cannot grow hyper to
gigabytes and a FIFO cannot hold it forever, and only :data:`CAP` bytes of it are ever read.

A refusal is an :class:`OSError` whose ``strerror`` says why, so every caller that already
reports "could not be read: <reason>" reports these too, under the code it already uses.
"""

from __future__ import annotations

import errno
import functools
import os
import stat

from hyper.core.faults import Unheld

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

CAP: Final = 4 * 1024 * 1024
"""The most bytes any file hyper reads may hold: the reference's own Manifest cap
(4194304), so ``install`` never writes a Manifest ``check`` then declines to read."""

_CLOEXEC: Final = getattr(os, "O_CLOEXEC", 0)
_READ: Final = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY


@functools.lru_cache(maxsize=16)
def real_root(root: str) -> str:
    """The repository root with every link resolved: what a resolved path is held to."""
    return os.path.realpath(root)


def inside(path: str, root: str) -> bool:
    """Whether the resolved ``path`` is ``root`` itself or lies under it."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolve_held(root: str, path: str) -> str:
    """``path`` (absolute, or relative to the process's directory) resolved, or :class:`Unheld`
    where that lands outside the repository at ``root``."""
    real = os.path.realpath(path)
    if not inside(real, real_root(root)):
        raise Unheld("it is a link leading outside the repository")
    return real


def resolve_relative(root: str, relative: str) -> str:
    """``relative`` (a repository path with ``/``) under ``root``, resolved and held as
    :func:`resolve_held` holds it.

    Most paths have no link below the root, and for them the resolution is the resolved root
    joined with the path: one ``lstat`` a component proves it, where resolving the whole path
    again walks every directory above the root too (most of what reading a small file cost).
    A link, a ``.``/``..`` component or any error takes the full resolution, so what is
    answered — and what is raised — is what resolving the whole path gives.
    """
    parts = relative.split("/")
    if "" not in parts and "." not in parts and ".." not in parts:
        path = real_root(root)
        try:
            for part in parts:
                path = os.path.join(path, part)
                if stat.S_ISLNK(os.lstat(path).st_mode):
                    break
            else:
                return path
        except OSError:
            pass
    return resolve_held(root, os.path.join(root, *parts))


def read_held(root: str, relative: str) -> bytes:
    """The bytes of ``relative`` (a repository path with ``/``) under ``root``, held as above."""
    real = resolve_relative(root, relative)
    seen = os.stat(real)
    _regular(seen.st_mode)
    descriptor = open_held(root, real, _READ)
    try:
        status = os.fstat(descriptor)  # what was opened, should the path have changed since
        _regular(status.st_mode)
        if (status.st_dev, status.st_ino) != (seen.st_dev, seen.st_ino):
            raise Unheld("it was replaced by another file while it was being opened")
        if status.st_size > CAP:
            raise Unheld(_over())
        chunks: list[bytes] = []
        held = 0
        while chunk := os.read(descriptor, CAP + 1 - held):
            chunks.append(chunk)
            held += len(chunk)
            if held > CAP:
                raise Unheld(_over())
    finally:
        os.close(descriptor)
    return b"".join(chunks)


def open_held(root: str, real: str, flags: int) -> int:
    """``real`` — already resolved and held to ``root`` — opened with ``flags``, and proven to
    lie in the repository still: a link swapped in between the resolving and the opening is
    never followed out.

    The last component is opened without following a link (``O_NOFOLLOW``); an earlier one
    swapped for a link is caught by asking the kernel where the opened file lies
    (``/proc/self/fd`` on Linux) or, where it cannot say, by resolving the path again."""
    try:
        descriptor = os.open(real, flags | os.O_NOFOLLOW | _CLOEXEC)
    except OSError as failed:
        if failed.errno in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR):  # a link where none was
            raise Unheld(_SWAPPED) from None
        raise
    if not inside(_where(descriptor, real), real_root(root)):
        os.close(descriptor)
        raise Unheld(_SWAPPED)
    return descriptor


def _where(descriptor: int, real: str) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{descriptor}")
    except OSError:
        return os.path.realpath(real)


_SWAPPED: Final = "it was swapped for a link leading elsewhere while it was being opened"


def _regular(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    if stat.S_ISFIFO(mode):
        raise Unheld("it is a FIFO, not a regular file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise Unheld("it is a device, not a regular file")
    raise Unheld("it is not a regular file")


def _over() -> str:
    return f"it is larger than the {CAP} bytes a file hyper reads may hold"

"""Reading a file the repository holds: resolved, regular, bounded.

A path is resolved (every link followed) before anything opens it, and held to the
repository's own resolved root: a link whose target lies inside — a monorepo's shared
Provider — reads as its target; one leading out reads as nothing. Only a regular file is
opened, so ``/dev/zero`` cannot grow hyper to gigabytes and a FIFO cannot hold it forever,
and only :data:`CAP` bytes of it are ever read.

A refusal is an :class:`OSError` whose ``strerror`` says why, so every caller that already
reports "could not be read: <reason>" reports these too, under the code it already uses.
"""

from __future__ import annotations

import errno
import functools
import os
import stat
from typing import Final

from hyper.core.faults import Unheld

CAP: Final = 4 * 1024 * 1024
"""The most bytes any file hyper reads may hold: the reference's own Manifest cap
(4194304), so ``install`` never writes a Manifest ``check`` then declines to read."""

_FLAGS: Final = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


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
    _regular(os.stat(real).st_mode)
    descriptor = os.open(real, _FLAGS)
    try:
        status = os.fstat(descriptor)  # what was opened, should the path have changed since
        _regular(status.st_mode)
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

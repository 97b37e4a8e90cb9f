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

from hyper.core.basefaults import Unheld

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

CAP: Final = 4 * 1024 * 1024
"""The most bytes any file hyper reads may hold: the reference's own Manifest cap
(4194304), so ``install`` never writes a Manifest ``check`` then declines to read."""

_CLOEXEC: Final = getattr(os, "O_CLOEXEC", 0)
_READ: Final = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY
_DIRECTORY: Final = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_DIRECTORY", 0)
_FURTHER: Final = 64 * 1024
"""How much each read asks for past the size ``fstat`` gave: a file that grows while it is
read is read on to its end (or the cap), and the read that finds the end allocates little."""


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
        return _read_open(descriptor, (seen.st_dev, seen.st_ino))
    finally:
        os.close(descriptor)


def read_directory(root: str, relative: str, wanted: Callable[[str], bool]) -> list[tuple[str, bytes | OSError]]:
    """The entries of the directory ``relative`` under ``root`` that are not directories
    themselves (a link is not followed to tell) and whose names ``wanted`` takes, by name byte
    order, each with its bytes or the :class:`OSError` :func:`read_held` raises for it.

    Loading a repository reads every file of a few directories, and resolving, proving and
    opening each file by its whole path was most of what reading one cost. So the directory is
    opened once, without following a link, and proven to be the resolved path under the
    resolved root; each regular entry is then opened relative to that descriptor with
    ``O_NOFOLLOW``, so no path is walked per file and no link is followed, and what was opened
    is checked by ``fstat`` as :func:`read_held` checks it. An entry that is a link or not a
    regular file, and a directory that is a link, lies under one or cannot be proven, are read
    by :func:`read_held` itself, so every answer but the plain file's is its answer. Raises
    :class:`OSError` where the directory cannot be listed.
    """
    held = _held_directory(root, relative)
    if held is None:
        with os.scandir(os.path.join(root, *relative.split("/"))) as entries:
            names = [entry.name for entry in entries if not entry.is_dir(follow_symlinks=False) and wanted(entry.name)]
        return [(name, attempt_held(root, f"{relative}/{name}")) for name in sorted(names, key=os.fsencode)]
    try:
        with os.scandir(held) as entries:
            listed = [
                (entry.name, entry.is_file(follow_symlinks=False))
                for entry in entries
                if not entry.is_dir(follow_symlinks=False) and wanted(entry.name)
            ]
        listed.sort(key=lambda named: os.fsencode(named[0]))
        return [
            (name, _attempt_at(held, name) if regular else attempt_held(root, f"{relative}/{name}"))
            for name, regular in listed
        ]
    finally:
        os.close(held)


def _held_directory(root: str, relative: str) -> int | None:
    """The directory ``relative`` opened, where it is no link and lies under no link: exactly
    its path under the resolved root. ``None`` otherwise, or where it cannot be opened."""
    path = os.path.join(real_root(root), *relative.split("/"))
    try:
        held = _open(path, _DIRECTORY)
    except OSError:
        return None
    if _where(held, path) != path:
        os.close(held)
        return None
    return held


def attempt_held(root: str, relative: str) -> bytes | OSError:
    """:func:`read_held`'s bytes, or the :class:`OSError` it raised: for a caller reporting a
    file not read beside the ones read, rather than stopping at it."""
    try:
        return read_held(root, relative)
    except OSError as failed:
        return failed


def _attempt_at(directory: int, name: str) -> bytes | OSError:
    """The regular file ``name`` in the held ``directory``, or why it was not read."""
    try:
        descriptor = _open(name, _READ, directory)
    except OSError as failed:
        return failed
    try:
        return _read_open(descriptor, None)
    except OSError as failed:
        return failed
    finally:
        os.close(descriptor)


def _read_open(descriptor: int, seen: tuple[int, int] | None) -> bytes:
    """What the open ``descriptor`` holds: a regular file, the one ``seen`` where a ``stat``
    looked before it was opened, within the cap.

    The first read asks for the size ``fstat`` gave and a byte more, so one read takes a
    file; asking for the whole cap each time made the interpreter allocate and shrink 4 MiB
    per read, which cost more than the reading."""
    status = os.fstat(descriptor)  # what was opened, should the path have changed since
    _regular(status.st_mode)
    if seen is not None and (status.st_dev, status.st_ino) != seen:
        raise Unheld("it was replaced by another file while it was being opened")
    if status.st_size > CAP:
        raise Unheld(_over())
    chunks: list[bytes] = []
    held = 0
    asked = status.st_size + 1
    while chunk := os.read(descriptor, min(asked, CAP + 1 - held)):
        chunks.append(chunk)
        held += len(chunk)
        if held > CAP:
            raise Unheld(_over())
        asked = _FURTHER
    return b"".join(chunks)


def open_held(root: str, real: str, flags: int) -> int:
    """``real`` — already resolved and held to ``root`` — opened with ``flags``, and proven to
    lie in the repository still: a link swapped in between the resolving and the opening is
    never followed out.

    The last component is opened without following a link (``O_NOFOLLOW``); an earlier one
    swapped for a link is caught by asking the kernel where the opened file lies
    (``/proc/self/fd`` on Linux) or, where it cannot say, by resolving the path again."""
    descriptor = _open(real, flags)
    if not inside(_where(descriptor, real), real_root(root)):
        os.close(descriptor)
        raise Unheld(_SWAPPED)
    return descriptor


def _open(path: str, flags: int, directory: int | None = None) -> int:
    """``path`` opened with ``flags`` and never through a link at its last component."""
    try:
        return os.open(path, flags | os.O_NOFOLLOW | _CLOEXEC, dir_fd=directory)
    except OSError as failed:
        if failed.errno in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR):  # a link where none was
            raise Unheld(_SWAPPED) from None
        raise


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

"""Files on disk, held to the repository: which hyper reads, and where it may write (ADR 0011).

:mod:`hyper.fs.read` answers a file's bytes only when its resolved path lies inside the
repository, it is a regular file and it is no larger than :data:`hyper.fs.read.CAP`.
:mod:`hyper.fs.write` replaces a file atomically, never through a link leading out.
"""

"""One read of a repository: every artefact file, parsed once, and the namespaces built from them.

Every command that asks about a repository reads it through :func:`load_repository`,
so no two of them can disagree about what reading one means — which files are
artefacts, which file a name resolves to, what a broken file contributes. The one
exception is ``providers``, which asks for the Provider namespace alone: it reads it
through :func:`load_extensions`, which lists and reads the files by the same functions
and judges a Manifest's membership by the same rule, and parses nothing else.

The rules it holds:

- An artefact is ``hyper.yaml``, or a ``.yaml`` file directly inside ``definitions/``,
  ``procedures/``, ``targets/`` or ``providers/`` (no nesting; ``.yml`` is not one).
  A missing directory is no artefacts, not an error.
- Each file is read once; its bytes are kept, because a Manifest's digest and
  ``hyper operation``'s verbatim lines come from bytes no tree holds.
- A file that cannot be read or will not parse carries exactly one problem and
  contributes no name anywhere; a file that parses with refused constructs carries
  one problem per construct and is still read. Nothing stops the repository.
- Names resolve against what an artefact *declares*, byte-exact, never its filename.
  Where two files declare one name the later one read wins (the order is fixed:
  the built-in, then the four directories in turn, each by filename).
- The Provider namespace is the built-in ``shell`` and every ``providers/`` file,
  less any file taking a built-in's name (the built-in stands) and any declaring a
  schema version above the one this hyper reads (its shape is unknown here). Both
  files are still loaded and checked; they only name nothing.
- The built-in is the first artefact loaded, under ``<built-in>/shell``, and counts
  among the artefacts a clean ``check`` reports.
"""

from __future__ import annotations

import gc
import os

from hyper.core.namedtuple import NamedTuple
from hyper.fs.read import attempt_held, read_directory
from hyper.yaml import subset as yamlsubset
from hyper.yaml.access import member
from hyper.yaml.parsed import parse
from hyper.yaml.subset import Node, Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Final, TypeVar

    from hyper.artefact.declaration import RepositoryDeclaration
    from hyper.artefact.manifest import Manifest
    from hyper.artefact.target import TargetDeclaration
    from hyper.core.problem import Problem

    T = TypeVar("T")

DIRECTORIES: Final = ("definitions", "procedures", "targets", "providers")
"""The four artefact directories, in the order they are read."""
WORKFLOWS: Final = ".github/workflows"
WORKFLOW_PREFIX: Final = "hyper-"
WORKFLOW_SUFFIX: Final = ".yml"
LOCK: Final = f"{WORKFLOWS}/hyper-requirements.txt"
"""The dependency lock ``hyper project`` writes beside its workflows (ADR 0019)."""


class LoadedFile(NamedTuple):
    """One artefact as read: its bytes, its tree, and what reading it found."""

    path: str
    """Relative to the repository root with forward slashes, or ``<built-in>/shell``."""
    data: bytes
    root: Node | None
    ok: bool
    """False where the file could not be read or is not YAML: no later check reads it."""
    problems: tuple[Problem, ...]

    @property
    def directory(self) -> str:
        """The artefact directory the file sits in; ``""`` for ``hyper.yaml`` and the built-in."""
        head, sep, _ = self.path.partition("/")
        return head if sep and head in DIRECTORIES else ""


class Unreadable(NamedTuple):
    """The repository itself could not be listed; the message is one sentence for stderr."""

    message: str


class Repository(NamedTuple):
    root: str
    files: tuple[LoadedFile, ...]
    """Every artefact loaded, the built-in first: what a clean ``check`` counts."""
    manifest_files: tuple[Manifest, ...]
    """Every Manifest that parsed — the built-in, then ``providers/`` — namespace member or not."""
    target_files: tuple[TargetDeclaration, ...]
    """Every ``targets/`` declaration that parsed, namespace member or not."""
    manifests: Mapping[str, Manifest]
    """The Provider namespace."""
    targets: Mapping[str, TargetDeclaration]
    """The Target namespace."""
    definitions: Mapping[str, LoadedFile]
    """The Definition namespace: name to the file declaring it."""
    procedures: Mapping[str, LoadedFile]
    """The Procedure namespace: name to the file declaring it."""
    declaration: RepositoryDeclaration | None
    """``hyper.yaml`` where it exists and parsed; ``None`` otherwise."""
    workflows: Mapping[str, bytes]
    """``.github/workflows/hyper-*.yml`` by path: what ``hyper project`` wrote, byte for byte."""
    lock: bytes | None = None
    """The dependency lock beside them, byte for byte; ``None`` where none stands or it cannot be read."""

    @property
    def problems(self) -> tuple[Problem, ...]:
        """What reading found, file by file: unreadable files and the YAML subset's faults."""
        return tuple(problem for loaded in self.files for problem in loaded.problems)

    def file(self, path: str) -> LoadedFile | None:
        for loaded in self.files:
            if loaded.path == path:
                return loaded
        return None


def declared_name(root: Node | None, key: str) -> str:
    """The name an artefact declares under its top-level ``key``; ``""`` where it names none."""
    named = member(root, key)
    return named.value if isinstance(named, Scalar) else ""


def load_repository(root: str, declared: bytes | None = None) -> Repository | Unreadable:
    """Read the repository at ``root`` (an absolute directory), ``hyper.yaml`` as ``declared``
    where the caller has read it already (the version-pin gate has, for every gated command:
    :attr:`hyper.cli.context.Context.declared`). Never raises."""
    return _uncollected(lambda: _load(root, declared))


def load_extensions(root: str) -> dict[str, Manifest] | Unreadable:
    """The Provider namespace but the built-in, read exactly as :func:`load_repository` reads
    it, for a command that lists the namespace and needs nothing else (``providers``). Every
    artefact directory is listed as it lists them, so one that cannot be is the same
    :class:`Unreadable`; only ``providers/`` is parsed. Never raises."""
    return _uncollected(lambda: _extensions(root))


def _uncollected(read: Callable[[], T]) -> T:
    """``read()`` with the cycle collector held off while trees are built.

    A large repository is hundreds of thousands of small tracked objects, none of them in a
    cycle; left on, the collector rescans the growing heap over and over and takes longer than
    the parsing. Reference counting still frees everything. (A ``try`` rather than a context
    manager: contextlib is not otherwise on a discovery command's path, and deferring it saves
    start-up cost.)
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return read()
    finally:
        if enabled:
            gc.enable()


def _listed(root: str) -> list[tuple[str, bytes | OSError]] | Unreadable:
    """Every file of the four artefact directories, in the order they are read, each read."""
    read: list[tuple[str, bytes | OSError]] = []
    for directory in DIRECTORIES:
        listed = _list(root, directory)
        if isinstance(listed, Unreadable):
            return listed
        read.extend((f"{directory}/{name}", data) for name, data in listed)
    return read


def _extensions(root: str) -> dict[str, Manifest] | Unreadable:
    read = _listed(root)
    if isinstance(read, Unreadable):
        return read
    written = [_load_file(path, data) for path, data in read if path.startswith("providers/")]
    if not written:
        return {}  # most repositories hold no Extension, and need no Manifest model to say so
    from hyper.artefact.manifest import read_manifest

    manifests: dict[str, Manifest] = {}
    for loaded in written:
        if loaded.ok:
            manifest = read_manifest(loaded.path, loaded.data, loaded.root)
            if manifest.names_a_provider:
                manifests[manifest.declared_name] = manifest
    return manifests


def _load(root: str, declared: bytes | None) -> Repository | Unreadable:
    # The artefact model, imported here rather than with the module: ``providers`` reads
    # the namespace through :func:`load_extensions` and never needs most of it.
    from hyper.artefact import builtin
    from hyper.artefact.declaration import PATH as DECLARATION_PATH
    from hyper.artefact.declaration import read_declaration
    from hyper.artefact.manifest import BUILTIN_PATH, read_manifest
    from hyper.artefact.target import read_target

    read = _listed(root)
    if isinstance(read, Unreadable):
        return read
    if declared is not None:
        read.append((DECLARATION_PATH, declared))
    elif os.path.isfile(os.path.join(root, DECLARATION_PATH)):
        read.append((DECLARATION_PATH, attempt_held(root, DECLARATION_PATH)))

    shell = builtin.shell()
    files: list[LoadedFile] = [LoadedFile(BUILTIN_PATH, shell.data, shell.root, True, ())]
    files.extend(_load_file(path, data) for path, data in read)

    manifest_files: list[Manifest] = [shell]
    target_files: list[TargetDeclaration] = []
    manifests: dict[str, Manifest] = {"shell": shell}
    targets: dict[str, TargetDeclaration] = {}
    definitions: dict[str, LoadedFile] = {}
    procedures: dict[str, LoadedFile] = {}
    declaration: RepositoryDeclaration | None = None
    for loaded in files[1:]:
        if not loaded.ok:
            continue
        directory = loaded.directory
        if directory == "providers":
            manifest = read_manifest(loaded.path, loaded.data, loaded.root)
            manifest_files.append(manifest)
            if manifest.names_a_provider:
                manifests[manifest.declared_name] = manifest
        elif directory == "targets":
            target = read_target(loaded.path, loaded.root)
            target_files.append(target)
            if target.declared_name:
                targets[target.declared_name] = target
        elif directory == "definitions":
            if name := declared_name(loaded.root, "definition"):
                definitions[name] = loaded
        elif directory == "procedures":
            if name := declared_name(loaded.root, "procedure"):
                procedures[name] = loaded
        elif loaded.path == DECLARATION_PATH:
            declaration = read_declaration(loaded.root)

    return Repository(
        root=root,
        files=tuple(files),
        manifest_files=tuple(manifest_files),
        target_files=tuple(target_files),
        manifests=manifests,
        targets=targets,
        definitions=definitions,
        procedures=procedures,
        declaration=declaration,
        workflows=_workflows(root),
        lock=_lock(root),
    )


def _list(root: str, directory: str) -> list[tuple[str, bytes | OSError]] | Unreadable:
    """The ``.yaml`` entries of one artefact directory, by filename byte order, each read."""
    try:
        return read_directory(root, directory, _is_artefact)
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        return Unreadable(f"{directory}: is not a directory")
    except OSError as exc:
        return Unreadable(f"{directory}: {exc.strerror or exc}")


def _is_artefact(name: str) -> bool:
    return name.endswith(".yaml")


def _load_file(path: str, data: bytes | OSError) -> LoadedFile:
    if isinstance(data, OSError):
        from hyper.core.problem import Problem  # deferred: a readable repository never makes one

        reason = data.strerror or str(data)
        problem = Problem(path, 1, 1, "", yamlsubset.ERROR_CODE, f"the file could not be read: {reason}")
        return LoadedFile(path, b"", None, False, (problem,))
    parsed = parse(data, path)
    return LoadedFile(path, data, parsed.root, parsed.ok, tuple(f.to_problem() for f in parsed.faults))


def _lock(root: str) -> bytes | None:
    try:
        with open(os.path.join(root, *LOCK.split("/")), "rb", buffering=0) as handle:
            return handle.read()
    except OSError:
        return None  # absent or unreadable, it is no lock the workflows can install from


def _workflows(root: str) -> dict[str, bytes]:
    try:
        listed = read_directory(root, WORKFLOWS, _is_workflow)
    except OSError:
        return {}
    # By name as text, as ``project`` lists the ones it removes; an unreadable workflow reads
    # as none, and projection-stale names the file.
    listed.sort(key=lambda named: named[0])
    return {f"{WORKFLOWS}/{name}": data for name, data in listed if not isinstance(data, OSError)}


def _is_workflow(name: str) -> bool:
    return name.startswith(WORKFLOW_PREFIX) and name.endswith(WORKFLOW_SUFFIX)

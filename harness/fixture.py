"""Building a case's git repository in a temporary directory, and reading it back.

A checked-in corpus cannot carry a ``.git``, so a case that needs a real repository
has one built for it per run: its repository copied out, ``git init``-ed on
``main`` and committed whole, a ``hyper-store`` branch seeded beside it, an
``origin`` wired where asked. Nothing is built inside the corpus.

Every git child gets the same small, complete environment — fixed identity, fixed
dates taken from the case's clock, no user or system configuration — so a fixture
is the same objects on every machine: the same code commit id (which goldens quote
as ``repo_revision``) and the same blob ids (``definition_revision``…). The Store
seed is written as a parentless commit straight into the object database through
an index of its own, every file at mode 100644, which is how hyper itself writes
the Store.
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

import attrs

from harness.case import Fixture
from harness.fault import CaseFault
from hyper.workflow.lock import LOCK, lock
from hyper_mcp.instructions import instructions

CODE_BRANCH: Final = "main"
STORE_BRANCH: Final = "hyper-store"
STORE_REF: Final = f"refs/heads/{STORE_BRANCH}"
IDENTITY_NAME: Final = "hyper golden fixture"
IDENTITY_EMAIL: Final = "fixture@hyper.invalid"
CODE_MESSAGE: Final = "the fixture's working tree"
BASELINE_MESSAGE: Final = "the fixture's earlier revision"
STORE_MESSAGE: Final = f"the fixture's {STORE_BRANCH}"
ABSENT_BRANCH: Final = f"no {STORE_BRANCH} branch\n"
WORKFLOWS: Final = ".github/workflows"
DECLARATION: Final = "hyper.yaml"
ORIENTATION: Final = "AGENTS.md"
PROVIDERS: Final = "providers"
SINK: Final = "sink"
"""The Secret sink a case names as ``../sink``: beside the copy, so outside its working tree."""


class GitFault(CaseFault):
    """A git command the fixture needed failed; the case cannot be built."""


def git_environment(home: Path, instant: _dt.datetime) -> dict[str, str]:
    """The whole environment of every fixture git child: nothing else is inherited.

    Git dates are whole seconds, so the instant's sub-seconds are dropped here and
    only here; the command under test still sees the full instant.
    """
    stamp = instant.astimezone(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "GIT_CONFIG_GLOBAL": str(home / "absent-global-config"),
        "GIT_CONFIG_SYSTEM": str(home / "absent-system-config"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": IDENTITY_NAME,
        "GIT_AUTHOR_EMAIL": IDENTITY_EMAIL,
        "GIT_COMMITTER_NAME": IDENTITY_NAME,
        "GIT_COMMITTER_EMAIL": IDENTITY_EMAIL,
        "GIT_AUTHOR_DATE": stamp,
        "GIT_COMMITTER_DATE": stamp,
        "GIT_TERMINAL_PROMPT": "0",
        "TZ": "UTC",
        "LC_ALL": "C",
    }


@attrs.frozen
class Git:
    """Runs git with the fixture's environment; a failure is the harness's, not the case's."""

    env: Mapping[str, str]

    def run(self, cwd: Path, *args: str, stdin: bytes = b"", env: Mapping[str, str] | None = None) -> bytes:
        try:
            done = subprocess.run(
                ["git", *args],
                cwd=cwd,
                env=dict(env if env is not None else self.env),
                input=stdin,
                capture_output=True,
                check=False,
            )
        except FileNotFoundError:
            raise GitFault("git is not on PATH; the corpus builds its fixtures with it") from None
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip()
            raise GitFault(f"git {' '.join(args)} failed: {message}")
        return done.stdout

    def text(self, cwd: Path, *args: str, stdin: bytes = b"", env: Mapping[str, str] | None = None) -> str:
        return self.run(cwd, *args, stdin=stdin, env=env).decode("utf-8").strip()

    def succeeds(self, cwd: Path, *args: str) -> bool:
        done = subprocess.run(["git", *args], cwd=cwd, env=dict(self.env), capture_output=True, check=False)
        return done.returncode == 0


@attrs.frozen
class Repository:
    """A materialised fixture: the working copy and, where wired, its bare origin."""

    root: Path
    origin: Path | None
    git: Git


def files_under(directory: Path) -> list[str]:
    """Every file below ``directory``, relative, forward-slashed, sorted: tree order."""
    found: list[str] = []
    for here, dirs, files in os.walk(directory):
        dirs.sort()
        for name in files:
            found.append((Path(here) / name).relative_to(directory).as_posix())
    return sorted(found)


def _copy_tree(source: Path, into: Path) -> None:
    """Copy keeping executable bits (git records them) and symlinks as symlinks."""
    shutil.copytree(source, into, symlinks=True, dirs_exist_ok=True)


def _overwrite(source: Path, into: Path) -> None:
    """Write ``source``'s files over ``into``'s as plain files, replacing what is there."""
    for rel in files_under(source):
        target = into / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink() or target.exists():
            target.unlink()
        target.write_bytes((source / rel).read_bytes())
        target.chmod(0o644)


def _empty_working_tree(root: Path) -> None:
    for entry in root.iterdir():
        if entry.name == ".git":
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def commit_files(git: Git, repo: Path, scratch: Path, seed: Path | None, parent: str | None) -> str:
    """A commit whose tree is ``parent``'s overlaid with ``seed``'s files, all at 100644.

    Nothing is checked out: blobs are hashed into the object database in one call
    and entered into a private index in another, so the cost is four git children
    however many files the seed holds.
    """
    env = {**git.env, "GIT_INDEX_FILE": str(scratch / f"index-{os.urandom(4).hex()}")}
    if parent is not None:
        git.run(repo, "read-tree", parent, env=env)
    paths = files_under(seed) if seed is not None else []
    if paths and seed is not None:
        listing = "".join(f"{seed / rel}\n" for rel in paths).encode("utf-8")
        blobs = git.text(repo, "hash-object", "-w", "--no-filters", "--stdin-paths", stdin=listing, env=env)
        entries = "".join(f"100644 {blob}\t{rel}\0" for blob, rel in zip(blobs.split("\n"), paths, strict=True))
        git.run(repo, "update-index", "--add", "-z", "--index-info", stdin=entries.encode("utf-8"), env=env)
    tree = git.text(repo, "write-tree", env=env)
    command = ["commit-tree", tree, "-m", STORE_MESSAGE]
    if parent is not None:
        command += ["-p", parent]
    return git.text(repo, *command, env=env)


def commit_working_tree(git: Git, root: Path, message: str) -> None:
    git.run(root, "add", "--all")
    git.run(root, "commit", "--quiet", "--message", message, "--allow-empty")


def materialise(fixture: Fixture, instant: _dt.datetime, base: Path) -> Repository:
    """Build the case's repository under ``base`` (a fresh temporary directory)."""
    if fixture.repo is None:
        raise CaseFault("materialises a repository it does not carry")
    home = base / "home"
    home.mkdir()
    git = Git(git_environment(home, instant))
    root = base / "repo"
    root.mkdir()

    if fixture.code_baseline is not None:
        _copy_tree(fixture.code_baseline, root)
        git.run(root, "init", "--quiet", f"--initial-branch={CODE_BRANCH}")
        commit_working_tree(git, root, BASELINE_MESSAGE)
        _empty_working_tree(root)
        _copy_tree(fixture.repo, root)
    else:
        _copy_tree(fixture.repo, root)
        git.run(root, "init", "--quiet", f"--initial-branch={CODE_BRANCH}")
    commit_working_tree(git, root, CODE_MESSAGE)

    if fixture.uncommitted is not None:
        _overwrite(fixture.uncommitted, root)

    store_root: str | None = None
    if fixture.store_seed is not None:
        store_root = commit_files(git, root, base, fixture.store_seed, None)
        git.run(root, "update-ref", STORE_REF, store_root)

    origin: Path | None = None
    if fixture.remote:
        origin = base / "origin.git"
        git.run(base, "init", "--quiet", "--bare", str(origin))
        git.run(root, "remote", "add", "origin", str(origin))
        git.run(root, "push", "--quiet", "origin", f"refs/heads/{CODE_BRANCH}:refs/heads/{CODE_BRANCH}")
        if fixture.remote_store is not None:
            seeded = commit_files(git, root, base, fixture.remote_store, None)
            git.run(root, "push", "--quiet", "origin", f"{seeded}:{STORE_REF}")
        if fixture.remote_ahead is not None:
            ahead = commit_files(git, root, base, fixture.remote_ahead, store_root)
            git.run(root, "push", "--quiet", "origin", f"{ahead}:{STORE_REF}")

    if fixture.store_unpushed is not None and store_root is not None:
        unpushed = commit_files(git, root, base, fixture.store_unpushed, store_root)
        git.run(root, "update-ref", STORE_REF, unpushed, store_root)

    if fixture.reject_pushes and origin is not None:
        install_rejecting_hook(origin)

    if fixture.unfetchable_remote and origin is not None:
        git.run(root, "remote", "set-url", "--push", "origin", str(origin))
        git.run(root, "remote", "set-url", "origin", str(base / "no-such-remote.git"))

    return Repository(root=root, origin=origin, git=git)


def install_rejecting_hook(origin: Path) -> None:
    """A pre-receive hook on origin: another writer advances the Store, then the push is refused.

    Git quarantines incoming objects and forbids ref updates inside a receive hook,
    so the quarantine variables are dropped first; the advancing commit is built
    only from objects origin already holds. The identity is set in the environment
    because a pusher's ``GIT_AUTHOR_*`` reach the hook and would win over ``-c``.
    """
    script = (
        "#!/bin/sh\n"
        "unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES\n"
        "GIT_AUTHOR_NAME=other GIT_AUTHOR_EMAIL=other@elsewhere.invalid\n"
        "GIT_COMMITTER_NAME=other GIT_COMMITTER_EMAIL=other@elsewhere.invalid\n"
        "export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL\n"
        f"tree=$(git rev-parse {STORE_REF}^{{tree}})\n"
        f"advanced=$(git commit-tree \"$tree\" -p {STORE_REF} -m 'another writer got there first')\n"
        f'git update-ref {STORE_REF} "$advanced"\n'
        "exit 1\n"
    )
    hook = origin / "hooks" / "pre-receive"
    hook.write_text(script, encoding="utf-8")
    hook.chmod(0o755)


def _section(path: str, data: bytes) -> bytes:
    return f"=== {path} ({len(data)} bytes)\n".encode() + data


def render_sink(root: Path) -> bytes:
    """The Secret sink's tree in path order, every node with its permission bits — the sink's
    promise is about the directories as much as the files — and each file's bytes followed by
    a newline of the golden's own, the value itself carrying none."""
    if not root.exists():
        return f"no {SINK}\n".encode()
    return f"=== ./ ({_mode(root)})\n".encode() + _sink_below(root, root)


def _sink_below(root: Path, here: Path) -> bytes:
    """Depth first, so each directory's contents follow its own header."""
    rendered = b""
    for path in sorted(here.iterdir(), key=lambda child: child.name):
        rel = path.relative_to(root).as_posix()
        if path.is_dir():
            rendered += f"=== {rel}/ ({_mode(path)})\n".encode() + _sink_below(root, path)
        else:
            data = path.read_bytes()
            rendered += f"=== {rel} ({_mode(path)}, {len(data)} bytes)\n".encode() + data + b"\n"
    return rendered


def _mode(path: Path) -> str:
    return f"{path.stat().st_mode & 0o7777:04o}"


def render_store(git: Git, gitdir: Path) -> bytes:
    """The Store branch's files, sorted by path, each under a header naming its length.

    Commits are not rendered: no answer hyper gives depends on commit ids, authors
    or dates, so a golden pinning them would pin a fact nobody states.
    """
    if not git.succeeds(gitdir, "rev-parse", "--verify", "--quiet", STORE_REF):
        return ABSENT_BRANCH.encode()
    listing = git.run(gitdir, "ls-tree", "-r", "-z", STORE_REF)
    entries: list[tuple[str, str]] = []
    for record in listing.decode("utf-8").split("\0"):
        if not record:
            continue
        meta, _, path = record.partition("\t")
        entries.append((path, meta.split()[2]))
    entries.sort()
    blobs = _cat_blobs(git, gitdir, [blob for _, blob in entries])
    return b"".join(_section(path, data) for (path, _), data in zip(entries, blobs, strict=True))


def _cat_blobs(git: Git, gitdir: Path, blobs: Sequence[str]) -> list[bytes]:
    """Every blob's bytes from one ``cat-file --batch`` child."""
    if not blobs:
        return []
    out = git.run(gitdir, "cat-file", "--batch", stdin="".join(f"{b}\n" for b in blobs).encode())
    found: list[bytes] = []
    at = 0
    for _ in blobs:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        start = header_end + 1
        found.append(out[start : start + size])
        at = start + size + 1
    return found


def render_tree(root: Path, version: str, git: Git) -> bytes:
    """What ``project`` and ``install`` write: ``.github/workflows/`` in path order, ``hyper.yaml``,
    ``AGENTS.md`` — named rather than shown where it is the orientation ``version`` would
    write, since that text is held by its own tests and would otherwise sit in every case —
    then the ``providers/`` files the command wrote. The dependency lock is named the same way
    where it is the build's own: it moves with the dependencies, not with anything a case says."""
    workflows = root / WORKFLOWS
    if workflows.is_dir():
        rendered = b""
        for rel in files_under(workflows):
            path, data = f"{WORKFLOWS}/{rel}", (workflows / rel).read_bytes()
            named = path == LOCK and data == lock()
            rendered += f"=== {path} (the build's lock, verbatim)\n".encode() if named else _section(path, data)
    else:
        rendered = f"no {WORKFLOWS}/ directory\n".encode()
    declaration = root / DECLARATION
    if declaration.is_file():
        rendered += _section(DECLARATION, declaration.read_bytes())
    else:
        rendered += f"no {DECLARATION}\n".encode()
    orientation = root / ORIENTATION
    if orientation.is_file():
        data = orientation.read_bytes()
        if data == instructions(version).encode("utf-8"):
            rendered += f"=== {ORIENTATION} (the orientation, verbatim)\n".encode()
        else:
            rendered += _section(ORIENTATION, data)
    return rendered + _written_providers(root, git)


def _written_providers(root: Path, git: Git) -> bytes:
    """The ``providers/`` files that differ from the case's commit, or ``no providers/ directory``.

    Only what the command changed is shown: the Manifests a case stands on are its inputs,
    already checked in beside it, and would otherwise be repeated in every golden.
    """
    if not (root / PROVIDERS).is_dir():
        return f"no {PROVIDERS}/ directory\n".encode()
    listing = git.run(root, "status", "--porcelain", "-z", "--untracked-files=all", "--", PROVIDERS)
    entries = listing.decode("utf-8").split("\0")
    changed = sorted({entry[3:] for entry in entries if entry[3:].startswith(f"{PROVIDERS}/")})
    return b"".join(_section(path, (root / path).read_bytes()) for path in changed if (root / path).is_file())


def under_any_git_root(path: Path) -> bool:
    return any((parent / ".git").exists() for parent in (path, *path.parents))

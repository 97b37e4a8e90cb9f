"""Driving one case through hyper and collecting what it produced.

The case's files become a :class:`hyper.core.process.Process` and a
:class:`hyper.core.version.BuildFacts`; nothing of the machine the suite runs on reaches
the command except the git binary the fixture is built with. The command runs
in-process, through the same entry point the console script calls (or, for a
``call`` case, through the MCP surface's in-process driver), so a golden is a
statement about hyper and not about the harness.

What a run produced is returned as bytes per golden file name; comparing them with
what the case holds is :mod:`harness.golden`'s job.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import os
import shutil
import subprocess
import tempfile
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, BinaryIO

import attrs

from harness import fixture, serve
from harness.case import Case, Inputs, ToolCall
from harness.fault import CaseFault
from harness.fixture import Repository
from harness.stopwatch import Stopwatches
from hyper.core.process import Dialer, Process
from hyper.core.version import BuildFacts


class MintExhausted(RuntimeError):
    """The command minted more Run ids than its case's ``mint`` lists."""


@attrs.frozen
class Invocation:
    """A case resolved into how it is driven: arguments, working directory, environment."""

    args: tuple[str, ...]
    """For an argv case, the command line hyper's entry point receives."""
    wd: Path
    env: Mapping[str, str]
    repository: Repository | None
    """The materialised copy, where the case asked for one."""


@attrs.frozen
class Produced:
    """What one run produced, by golden name, and what went wrong beside the goldens."""

    goldens: Mapping[str, bytes]
    forbidden: frozenset[str] = frozenset()
    """Goldens the case must not hold: the other half of envelope/error."""
    problems: tuple[str, ...] = ()
    """Failures no golden records: an extra mint, an exception, a corpus that moved."""


CliMain = Callable[[Sequence[str], BinaryIO, BinaryIO, Process, BuildFacts], int]
"""hyper's entry point: argv without the program name, two byte streams, the process, the build."""

McpCall = Callable[[ToolCall, Process, BuildFacts], tuple[str, bytes]]
"""Drives one tool call; answers ``("envelope.golden" | "error.golden", bytes)``."""


@attrs.frozen
class Surfaces:
    """The two doors a case is driven through; tests of the harness substitute their own."""

    cli: CliMain
    mcp: McpCall


def hyper_surfaces() -> Surfaces:
    """hyper's own entry point and MCP surface, imported when a case first needs them."""

    def cli(args: Sequence[str], out: BinaryIO, err: BinaryIO, process: Process, facts: BuildFacts) -> int:
        from hyper.cli.main import main  # deferred: until a case first needs the CLI

        return main(args, out, err, process, facts)

    return Surfaces(cli=cli, mcp=call_tool)


def facts_of(inputs: Inputs) -> BuildFacts:
    """The build the case runs as; a fact it does not state keeps the build's default."""
    named = inputs.facts
    default = BuildFacts()

    def text(key: str, otherwise: str | None) -> str | None:
        value = named.get(key)
        return value if isinstance(value, str) else otherwise

    version = text("version", default.version)
    return BuildFacts(
        version=version if version is not None else default.version,
        commit=text("commit", default.commit),
        built=text("built", default.built),
        modified=bool(named.get("modified", default.modified)),
        toolchain=text("toolchain", default.toolchain),
        os=text("os", default.os),
        arch=text("arch", default.arch),
    )


def resolve(case: Case, inputs: Inputs, scratch: Path) -> Invocation:
    """Materialise what the case asks for under ``scratch`` and say how it is driven.

    The working directory is the case directory, or the repository root where the
    case has one, or ``wd`` (relative to the copy's root for a materialised case,
    to the case directory otherwise). ``--repo-dir <root>`` goes right after the
    command word unless the root is to be found by walking up; a call case has no
    argv to carry it, so it gets ``HYPER_REPO_DIR`` instead.
    """
    fx = inputs.fixture
    env = dict(inputs.env)
    repository: Repository | None = None
    root: Path | None = None
    if fx.materialised:
        repository = fixture.materialise(fx, inputs.instant, scratch)
        root = repository.root
    elif fx.repo is not None:
        root = fx.repo.resolve()

    wd = case.dir
    args = inputs.argv or ()
    if root is not None:
        wd = root
        if not fx.find_root:
            if inputs.call is not None:
                env["HYPER_REPO_DIR"] = str(root)
            elif args:
                args = (args[0], "--repo-dir", str(root), *args[1:])
    if fx.no_git_root:
        outside = scratch / "outside"
        outside.mkdir()
        if fixture.under_any_git_root(outside):
            raise CaseFault(f"asks to stand under no git root, and {scratch} lies inside a git repository")
        wd = outside
    if inputs.wd is not None:
        base = root if (fx.materialised and root is not None) else case.dir
        wd = Path(os.path.normpath(base / inputs.wd))
    return Invocation(args=tuple(args), wd=wd, env=env, repository=repository)


def process_of(
    case: Case, inputs: Inputs, invocation: Invocation, problems: list[str], dial: Dialer, watches: Stopwatches
) -> Process:
    """The case's process: its env, wd, clock, Run ids, actor, host, bin/ launcher, serve/ dialer
    and the stopwatches its deadlines run on."""
    instant = inputs.instant
    ids = list(inputs.mint)
    minted = 0

    def mint(_at: _dt.datetime) -> str:
        nonlocal minted
        minted += 1
        if minted > len(ids):
            problems.append(f"minted Run id {minted} and mint lists {len(ids)}; a case names every id it mints")
            raise MintExhausted(f"the case's mint lists {len(ids)} Run ids")
        return ids[minted - 1]

    return Process(
        environ=dict(invocation.env),
        getwd=lambda: str(invocation.wd),
        now=lambda: instant,
        mint=mint,
        user=lambda: inputs.actor,
        hostname=lambda: inputs.hostname,
        launch=launcher(case.dir / "bin"),
        dial=dial,
        monotonic=watches.read,
        pause=watches.pause,
    )


def launcher(bin_dir: Path) -> Callable[..., subprocess.Popen[bytes]]:
    """The real launcher with name resolution confined to the case's ``bin/``.

    argv is left as written (a Record names the argv as run); only the file
    executed is chosen here. A name ``bin/`` does not hold — or any name, for a case
    with no ``bin/`` — cannot be started at all, whatever the machine's PATH holds.
    The one exception is ``git`` where ``bin/`` holds none: the Store is git plumbing,
    so hyper's own git children run the git the fixture was built with.
    """
    fixture_git = shutil.which("git")

    def launch(args: Sequence[str], *rest: Any, **options: Any) -> subprocess.Popen[bytes]:
        argv = list(args)
        chosen = bin_dir / argv[0] if argv else bin_dir
        if argv and argv[0] == "git" and fixture_git is not None and not chosen.exists():
            options["executable"] = fixture_git
        else:
            options["executable"] = str(chosen)
        return subprocess.Popen(argv, *rest, **options)

    return launch


def digest(paths: Sequence[Path]) -> str:
    """One digest over every path and file's bytes below ``paths``."""
    sum_ = hashlib.sha256()
    for top in paths:
        if not top.exists():
            continue
        for here, dirs, files in os.walk(top):
            dirs.sort()
            sum_.update(f"D {here}\n".encode())
            for name in sorted(files):
                path = Path(here) / name
                sum_.update(f"F {path}\n".encode())
                if not path.is_symlink():
                    sum_.update(path.read_bytes())
    return sum_.hexdigest()


def watched(case: Case, inputs: Inputs) -> list[Path]:
    """What a run must leave as it found it: the case directory and the fixtures it borrows."""
    paths = [case.dir]
    fx = inputs.fixture
    for borrowed in (fx.repo, fx.store_seed):
        if borrowed is not None and not borrowed.is_relative_to(case.dir):
            paths.append(borrowed)
    return paths


@contextmanager
def _scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="hyper-corpus-") as name:
        yield Path(name).resolve()


def drive(case: Case, inputs: Inputs, surfaces: Surfaces | None = None) -> Produced:
    """Run ``case`` once, in a scratch directory of its own that is removed afterwards."""
    before = digest(watched(case, inputs))
    with _scratch() as scratch, ExitStack() as stack:
        invocation = resolve(case, inputs, scratch)
        problems: list[str] = []
        watches = Stopwatches()
        hosts = serve.read_served(case.dir / "serve")
        served = stack.enter_context(serve.serving(hosts, inputs.instant, problems, watches))
        process = process_of(case, inputs, invocation, problems, served, watches)
        facts = facts_of(inputs)
        doors = surfaces or hyper_surfaces()
        goldens: dict[str, bytes] = {}
        forbidden: frozenset[str] = frozenset()
        harness_wd = os.getcwd()
        try:
            if inputs.call is not None:
                kind, body = doors.mcp(inputs.call, process, facts)
                goldens[kind] = body
                forbidden = frozenset({"envelope.golden", "error.golden"} - {kind})
            else:
                goldens.update(_run_cli(doors.cli, invocation.args, process, facts))
        except MintExhausted:
            pass  # recorded in problems where it happened
        except (CaseFault, KeyboardInterrupt):
            raise
        except BaseException:  # SystemExit too: a command may not end the harness's process
            problems.append("hyper raised:\n" + traceback.format_exc())
        finally:
            if os.getcwd() != harness_wd:
                os.chdir(harness_wd)
                problems.append("the command changed the process's working directory; it reads wd from Process")
        goldens.update(_branch_goldens(inputs, invocation, facts.version))
    if digest(watched(case, inputs)) != before:
        problems.append("the run changed the checked-in case or a fixture it borrows")
    return Produced(goldens=goldens, forbidden=forbidden, problems=tuple(problems))


def _run_cli(main: CliMain, args: Sequence[str], process: Process, facts: BuildFacts) -> dict[str, bytes]:
    stdout, stderr = io.BytesIO(), io.BytesIO()
    code = main(list(args), stdout, stderr, process, facts)
    return {
        "stdout.golden": stdout.getvalue(),
        "stderr.golden": stderr.getvalue(),
        "exit.golden": f"{code}\n".encode(),
    }


def _branch_goldens(inputs: Inputs, invocation: Invocation, version: str) -> dict[str, bytes]:
    """The opt-in goldens the case holds, rendered from the repository after the run."""
    repo = invocation.repository
    if repo is None:
        return {}
    rendered: dict[str, bytes] = {}
    if "store.golden" in inputs.goldens:
        rendered["store.golden"] = fixture.render_store(repo.git, repo.root)
    if "remote.golden" in inputs.goldens and repo.origin is not None:
        rendered["remote.golden"] = fixture.render_store(repo.git, repo.origin)
    if "tree.golden" in inputs.goldens:
        rendered["tree.golden"] = fixture.render_tree(repo.root, version, repo.git)
    if "sink.golden" in inputs.goldens:
        rendered["sink.golden"] = fixture.render_sink(repo.root.parent / fixture.SINK)
    return rendered


def call_tool(call: ToolCall, process: Process, facts: BuildFacts) -> tuple[str, bytes]:
    """One tool call over the real server, in process: a handshake, the call, the frames read back.

    The golden is what came back off the wire — the envelope rendered with each row
    as the bytes the server wrote, or the JSON-RPC error's message.
    """
    # deferred: until a call case first needs the server (and the SDK beneath it)
    from hyper.cli.main import dispatch
    from hyper.cli.mcp import server
    from hyper_mcp.driver import call_blocking
    from hyper_mcp.envelope import render_envelope_golden

    outcome = call_blocking(server(facts.version, dispatch(process, facts)), call.tool, call.arguments)
    if outcome.envelope is None:
        return "error.golden", f"{outcome.error}\n".encode()
    return "envelope.golden", render_envelope_golden(outcome.envelope).encode()

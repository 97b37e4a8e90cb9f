"""The start-up budget, held as what a command loads rather than how long it takes (ADR 0006).

Timings belong to ``benchmarks/``; what a test can hold without ever flaking is the
list of modules a command pulls in. Each module named here cost a measured share of
``hyper providers``'s whole budget when it was last on the path, and none of them is
needed to read a repository and state facts about it.
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hyper.core.ids import mint_v7
from hyper.core.process import Process
from hyper.store.branch import Store, Write
from hyper.store.journal import RunFile, Trigger
from hyper.store.provenance import RunProvenance
from hyper.store.sync import init
from tests.loaded import ROOT, modules_loaded_at_entry, modules_loaded_by

HEAVY = (
    "yaml",  # PyYAML: hyper.yaml.parse reads the subset; PyYAML is the tests' oracle only
    "attr",  # attrs: values on the start-up path are NamedTuples
    "hashlib",  # binds OpenSSL; hyper.core.digest uses CPython's own SHA-256
    "_hashlib",
    "fractions",  # only a Cadence's rate needs it, and check never renders one
    "datetime",  # only a clock reading, --since or a timestamp position needs it
    "importlib.metadata",  # the version is read off the .dist-info directly
    "typing",  # annotations are the checker's: a start-up module imports typing only under TYPE_CHECKING
    "collections.abc",  # the same: its abstract types appear in annotations only
    "contextlib",  # no discovery command or check holds a context manager of its own
    "threading",  # nothing is spawned; the parse table's lock is _thread's, which threading.Lock is
)

BARE = ("re", "enum", "collections", "functools")
"""What ``version`` alone leaves out: it reads the .dist-info and prints, and parses no YAML."""

CHILDLESS = (
    "signal",  # its enumerations were most of `version`'s own start-up; only a command with a child needs it
    "subprocess",  # with locale, selectors and threading: a command that starts no child never imports them
    "selectors",
    "locale",
    "json",  # a discovery command decodes no JSON
    "importlib",  # the import statement's own machinery loads a command's module; the package is a cost
    "warnings",  # importlib's
    "pathlib",  # paths are strings on the start-up path
    "dataclasses",
    "inspect",
    "hyper.core.faults",  # the Store's, the Run's and the release host's: basefaults holds the rest
)
"""What a discovery command leaves out beyond :data:`HEAVY`, from the console script on."""

READER = (
    "yaml",
    "attr",
    "orjson",  # a reader parses with the standard library and writes nothing
    "hashlib",  # a reader checks and digests nothing on the Store
    "_hashlib",
    "hyper.core.digest",  # nor the artefacts: a review states no Manifest's digest
    "_sha256",
    "typing",
    "importlib",
    "importlib.metadata",
    "dataclasses",
    "inspect",
    "pathlib",
    "fractions",
    "zlib",  # loose objects are written, never read, in-process: the reader is git's cat-file
    "struct",
    "tempfile",
    "shutil",
    "socket",  # every transport is refused, and no credential resolved
    "ssl",
    "random",
    "subprocess",  # the one git child is spawned by hyper.core.spawn, without subprocess's machinery
    "_posixsubprocess",
    "threading",  # subprocess's, and the memos' temporary names: a reader saves no memo
    "contextlib",  # subprocess's, and a failed write's clean-up: a reader writes nothing
    "selectors",
    "select",
    "locale",
    "hyper.store.sync",  # the Store's writing side: a review syncs, locks, compacts and records nothing
    "hyper.store.lock",
    "hyper.store.retention",
    "hyper.store.exchange",  # nor pushes or fetches
    "hyper.store.record",  # a review reads Journal entries, never a Record version
    "hyper.store.step",  # nor a Step file, where the Run file names the artefact
    "hyper.store.identities",
    "hyper.store.summaries",  # nor keeps the Store's memos, but a review its Journal memo (adr/0031)
    "hyper.store.checked",
    "hyper.store.objectfiles",  # a reader writes no object file, flushes nothing and edits no tree
    "hyper.store.durability",
    "hyper.store.tree",
    "hyper.store.level",  # nor builds a tree level to edit (adr/0006, 2026-12-03)
    "bisect",
    "hyper.store.delta",  # nor writes a pack delta
    "hyper.fs.write",
    "warnings",  # os.get_exec_path's: the child's PATH is read by hyper.core.spawn itself
    "hyper.core.faults",  # a reader's faults are hyper.core.readfaults': none of the writer's, the Run's
    "hyper.yaml.lines",  # the fast path starts after FAST_AFTER documents, and a review reads fewer
    "hyper.artefact.procedure",  # a review draws predicates with hyper.artefact.operators and builds no Procedure
    "hyper.run",
    "hyper.check",
    "hyper.cli.commands.check",  # check's page is imported only for an artefact that will not load
    "hyper.core.problem",  # nor a Problem: every file read and parsed, and none broke the subset
    "hyper.capability",
    "hyper.inspect",
    "hyper.workflow",
    "hyper.registry",
    "hyper_mcp",
)
"""What ``review`` of a loading artefact with a range never imports: it reads the artefact,
one Store entry and one blob through one git child, and renders."""

RUN = (
    "attr",  # the Run's own values are NamedTuples and slotted classes
    "orjson",  # a shell command's text is the Store's string writer's; a short Run encodes below its threshold
    "dataclasses",  # orjson's
    "inspect",
    "uuid",
    "concurrent.futures",  # only an Expansion calling members at once starts a pool
    "logging",  # concurrent.futures's
    "queue",
    "typing",  # annotations are the checker's on the Run's path as on every other
    "importlib",  # inspect's, and orjson's through it
    "socket",  # the host name a Trigger carries is os.uname()'s
    "urllib.parse",  # a Record's path segment is read back by hyper.store.paths
    "ipaddress",
    "decimal",  # only a number compared needs them
    "fractions",
    "http",  # its status enumeration is built only to say a non-2xx answer
    "hyper.capability.http",
    "hyper_mcp",
)
"""What a read Run of the quickstart's Procedure never imports, from the console script on:
one ``shell`` Step that calls one member, on a Store with and without its Record."""


@pytest.mark.parametrize(
    "argv",
    [
        ["version"],
        ["providers"],
        ["provider", "shell"],
        ["operation", "shell", "read"],
        ["targets"],
        ["check"],
    ],
)
def test_a_discovery_command_loads_nothing_heavy(argv: list[str]) -> None:
    repository = [] if argv == ["version"] else ["--repo-dir", "examples/quickstart"]
    code, modules, stderr = modules_loaded_by([*argv, *repository])
    assert code == 0, stderr
    assert sorted(set(HEAVY) & modules) == []


@pytest.mark.parametrize("argv", [["version"], ["providers", "--repo-dir", "examples/quickstart"]])
def test_the_console_script_of_a_discovery_command_loads_no_child_machinery(argv: list[str]) -> None:
    code, modules = modules_loaded_at_entry(argv)
    assert code == 0
    assert sorted((set(CHILDLESS) | set(HEAVY)) & modules) == []


PROVIDERS = (
    "hyper.artefact.manifest",  # the namespace of a repository holding no Extension reads no Manifest
    "hyper.artefact.scalars",
    "hyper.artefact.target",  # nor the other artefacts: only providers/ is parsed
    "hyper.artefact.declaration",
    "hyper.core.digest",  # the built-in's digest, summary and count are this build's constants
    "_sha256",
    "hyper.cli.commands.provider",
)
"""What ``providers`` never imports on the quickstart, beyond :data:`CHILDLESS` and :data:`HEAVY`."""


def test_providers_reads_the_namespace_and_parses_no_built_in() -> None:
    code, modules = modules_loaded_at_entry(["providers", "--repo-dir", "examples/quickstart"])
    assert code == 0
    assert "hyper.render.table" in modules  # the page was drawn
    assert sorted(set(PROVIDERS) & modules) == []


JSON_ROWS = (
    "orjson",  # a short answer's rows are spelled by hyper.core.row, byte for byte as orjson would
    "json",
    "hyper.core.deepjson",
    "hyper.core.faults",  # deepjson's
)
"""What ``providers --json`` never imports on the quickstart, beyond :data:`CHILDLESS` and :data:`HEAVY`."""


def test_a_short_json_answer_imports_no_json_library() -> None:
    code, modules = modules_loaded_at_entry(["providers", "--json", "--repo-dir", "examples/quickstart"])
    assert code == 0
    assert "hyper.core.row" in modules
    assert sorted((set(JSON_ROWS) | set(CHILDLESS) | set(HEAVY)) & modules) == []


CHECK = (
    "hyper.core.readfaults",  # the Store's faults: check's PathFault is hyper.core.basefaults'
    "hyper.cadence",  # a repository that declares no Cadence reads no grammar
    "hyper.workflow",  # nor projects a workflow, nor compares a lock
    "hyper.render.table",  # a clean repository draws no table
    "hyper.core.digest",  # only an installed Manifest records a digest
)
"""What ``check`` of the quickstart — clean, no Cadence, no Extension — never imports, from the
console script on, beyond :data:`CHILDLESS` and :data:`HEAVY`."""


def test_check_of_a_young_repository_loads_only_what_its_rules_meet() -> None:
    code, modules = modules_loaded_at_entry(["check", "--repo-dir", "examples/quickstart"])
    assert code == 0
    assert "hyper.check.procedure" in modules  # its Procedure was checked
    assert sorted((set(CHECK) | set(CHILDLESS) | set(HEAVY)) & modules) == []


def test_check_defines_no_enumeration_of_its_own(tmp_path: Path) -> None:
    """Over a repository whose Procedures declare Cadences and project workflows, no module of
    hyper's that ``check`` loads imports ``enum`` (the grammar's two cost it 1.4M instructions)."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "corpus" / "check" / "projection-current" / "repo", root)
    declaration = root / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", "version: 0.1.0"))  # the child's build
    code, modules = modules_loaded_at_entry(["check", "--repo-dir", str(root)])
    assert code in (0, 1)
    ours = [name for name in modules if name.split(".")[0] == "hyper"]
    assert "hyper.cadence.grammar" in ours and "hyper.workflow.template" in ours  # the Cadences were read and projected
    assert [name for name in sorted(ours) if _imports_enum(name)] == []


def test_a_repository_declaration_compiles_no_pattern_on_first_use() -> None:
    """The scanner compiles on import only the patterns a ``hyper.yaml`` of ``key: value``
    lines needs, a ``sha256:`` digest's colon included; every other is compiled on first use."""
    from hyper.core.pattern import compiled
    from hyper.yaml.parse import parse

    compiled.cache_clear()
    parsed = parse((ROOT / "examples" / "quickstart" / "hyper.yaml").read_bytes(), "hyper.yaml")
    assert parsed.ok
    assert compiled.cache_info().currsize == 0


CHILDLESS_ARGV = {
    "version": ["version"],
    "completions": ["completions", "bash"],
    "providers": ["providers"],
    "provider": ["provider", "shell"],
    "operation": ["operation", "shell", "read"],
    "targets": ["targets"],
    "check": ["check"],
}
"""A command line of each command ``hyper.cli.main`` spells as starting no child."""


def test_the_childless_list_names_only_commands_that_start_no_child(tmp_path: Path) -> None:
    """``entry`` leaves SIGINT to Python for the commands in ``_CHILDLESS``, which is safe only
    while none of them starts a child or holds a half-made write: each, run from the console
    script over the quickstart and over the five-artefact demo (Extensions, Targets with
    credentials, a Procedure), never imports ``subprocess`` (every child hyper starts goes
    through it) or ``signal``. A word added to the list needs a line here, so it is run too."""
    from hyper.cli.main import _CHILDLESS

    assert sorted(CHILDLESS_ARGV) == sorted(_CHILDLESS)
    demo = tmp_path / "demo"
    shutil.copytree(ROOT / "corpus" / "five-artefact-demo" / "repo", demo)
    declaration = demo / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", "version: 0.1.0"))  # the child's build
    for repository in ("examples/quickstart", str(demo)):
        for word, argv in CHILDLESS_ARGV.items():
            where = [] if word in ("version", "completions") else ["--repo-dir", repository]
            code, modules = modules_loaded_at_entry([*argv, *where])
            assert code in (0, 1), (word, repository)
            assert sorted({"subprocess", "signal"} & modules) == [], (word, repository)


def test_version_loads_no_regular_expression_engine() -> None:
    code, modules, stderr = modules_loaded_by(["version"])
    assert code == 0, stderr
    assert sorted((set(BARE) | set(HEAVY)) & modules) == []


def _reviewed(tmp_path: Path) -> Path:
    """The worked example committed, with one Run of its Procedure on the Store."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "corpus" / "review" / "fixtures" / "worked-example" / "repo", root)
    declaration = root / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", "version: 0.1.0"))  # the child's build
    for argv in (
        ["init", "-q"],
        ["add", "--all"],
        ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qm", "t"],
    ):
        subprocess.run(["git", *argv], cwd=root, env=env, check=True)
    now = _dt.datetime(2026, 8, 6, 9, 41, 14, tzinfo=_dt.UTC)
    process = Process(
        environ=env, getwd=lambda: str(root), now=lambda: now, mint=mint_v7, user=lambda: "t", hostname=lambda: "t"
    )
    init(str(root), process, now)
    run = RunFile(
        mint_v7(now),
        "retire-preview-envs",
        Trigger("cron", "local", "t", "t"),
        now,
        False,
        RunProvenance("0.1.0", "0" * 40, "0" * 40),
    )
    with Store.open(str(root), process, now) as store:
        store.append([Write(run.at.run_path, run.encode())], "a Run")
    return root


def test_a_review_reads_its_range_and_loads_no_writer(tmp_path: Path) -> None:
    """A review opens its range off the Store, checks nothing there, and digests only the
    Journal's summaries memo (its key through the built-in BLAKE2b, adr/0046, and its files'
    digests through the built-in SHA-256: adr/0031, 2026-12-02 session 7); over the memo an
    earlier command left, it saves none, and nothing of the Store's writing side, the Run
    engine or the MCP adapter comes with it."""
    root = _reviewed(tmp_path)
    argv = ["review", "--repo-dir", str(root), "procedures/retire-preview-envs.yaml"]
    assert modules_loaded_by(argv)[0] == 0  # as a user's second command finds the memo
    code, modules, stderr = modules_loaded_by(argv)
    assert code == 0, stderr
    assert "hyper.store.reading" in modules  # the range was looked for on the Store
    memo = {"hyper.store.summaries", "hyper.store.checked", "hyper.core.digest", "_sha256", "_sha2", "_blake2"}
    assert _under(READER, modules - memo) == []


def test_a_review_defines_no_enumeration_of_its_own(tmp_path: Path) -> None:
    """No module of hyper's that a review loads imports ``enum``: defining one ``enum.Enum``
    cost the review's start-up 0.8–1.1M instructions, and a ``Literal`` alias is held as
    closely by the checker (ADR 0006, 2026-12-03). ``enum`` itself still comes with ``re``."""
    root = _reviewed(tmp_path)
    argv = ["review", "--repo-dir", str(root), "procedures/retire-preview-envs.yaml"]
    code, modules, stderr = modules_loaded_by(argv)
    assert code == 0, stderr
    ours = [name for name in modules if name.split(".")[0] == "hyper"]
    assert "hyper.store.paths" in ours and "hyper.review.facts" in ours  # the modules that defined one before
    assert [name for name in sorted(ours) if _imports_enum(name)] == []


def _imports_enum(module: str) -> bool:
    init = ROOT.joinpath(*module.split("."), "__init__.py")
    source = (init if init.exists() else ROOT.joinpath(*module.split(".")).with_suffix(".py")).read_text()
    return any(line.strip().startswith(("import enum", "from enum ")) for line in source.splitlines())


def _under(names: tuple[str, ...], modules: set[str]) -> list[str]:
    """The modules that are one of ``names`` or inside one of them (a package's submodules)."""
    return sorted({module for module in modules for name in names if module == name or module.startswith(name + ".")})


def _quickstart(tmp_path: Path) -> Path:
    """The quickstart example committed, with a Store."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    root = tmp_path / "quickstart"
    shutil.copytree(ROOT / "examples" / "quickstart", root)
    for argv in (
        ["init", "-q"],
        ["add", "--all"],
        ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qm", "t"],
    ):
        subprocess.run(["git", *argv], cwd=root, env=env, check=True)
    now = _dt.datetime.now(_dt.UTC)
    process = Process(
        environ=env, getwd=lambda: str(root), now=lambda: now, mint=mint_v7, user=lambda: "t", hostname=lambda: "t"
    )
    init(str(root), process, now)
    return root


def test_a_read_run_loads_none_of_what_its_steps_do_not_use(tmp_path: Path) -> None:
    """The first Run finds no Record; the second reads the first's back, its name's path
    segment escaped (the command text is JSON), which is where the Run's ledger decodes one."""
    root = _quickstart(tmp_path)
    for _ in range(2):
        code, modules = modules_loaded_at_entry(["run", "--repo-dir", str(root), "say-hello"])
        assert code == 0
        assert "hyper.run.step" in modules  # a Step was performed
        assert _under(RUN, modules) == []

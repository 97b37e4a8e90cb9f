"""The golden corpus, driven case by case, its fences, and the harness that drives it.

Three parts, in the order they run:

1. every case under ``corpus/`` against its goldens (``pytest --update`` rewrites
   them instead), and ``corpus/mcp/tools.golden`` against what ``tools/list``
   publishes;
2. the corpus-wide fences (:mod:`harness.fences`), read from the files the
   first part just checked or wrote;
3. the harness itself, against throwaway corpora in temporary directories with
   stand-in surfaces, so what it promises (the fixture's commit ids, where
   ``--repo-dir`` goes, what a fault looks like) is held without depending on any
   command being built.

The last test checks that nothing above changed the checked-in corpus.
"""

from __future__ import annotations

import datetime as _dt
import io
import os
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

import orjson
import pytest

from harness import fences, fixture
from harness.case import Case, ToolCall, discover, read
from harness.drive import Surfaces, digest
from harness.fault import CaseFault
from harness.golden import Mode, judge
from harness.runner import run_directory
from hyper.core.process import Process
from hyper.core.version import BuildFacts

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
CASES = discover(CORPUS)
TOOLS_GOLDEN = CORPUS / fences.TOOLS_GOLDEN
_CORPUS_AT_COLLECTION = digest([CORPUS])


# --- 1. the corpus ----------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_case(case: Case, update: bool) -> None:
    verdict = judge(case, Mode.UPDATE if update else Mode.CHECK, strict=True)
    assert verdict.passed, f"{case.name}\n{verdict.report()}"


def test_tools_golden(update: bool) -> None:
    from hyper.cli.mcp import EXITS
    from hyper_mcp.tools import hyper_table, render_tools_golden

    rendered = render_tools_golden(hyper_table(EXITS).published()).encode()
    if update:
        TOOLS_GOLDEN.write_bytes(rendered)
        return
    assert TOOLS_GOLDEN.is_file(), "corpus/mcp/tools.golden is missing; run pytest --update"
    assert rendered == TOOLS_GOLDEN.read_bytes()


TOOLS_LIST_GOLDEN = CORPUS / fences.TOOLS_LIST_GOLDEN
TOOLS_LIST_VERSION = "2025-06-18"


def test_tools_list_golden(update: bool) -> None:
    """The ``tools/list`` response frame, byte for byte, to a client that negotiated 2025-06-18."""
    import anyio

    from hyper.cli.mcp import server
    from hyper_mcp import Answer, Call
    from hyper_mcp.driver import connected

    def never(call: Call) -> Answer:
        raise AssertionError("tools/list runs no command")

    async def listed() -> bytes:
        async with connected(server("1.4.0", never)) as session:
            await session.handshake(TOOLS_LIST_VERSION)
            return await session.request("tools/list")

    frame = anyio.run(listed)
    if update:
        TOOLS_LIST_GOLDEN.write_bytes(frame)
        return
    assert TOOLS_LIST_GOLDEN.is_file(), f"{TOOLS_LIST_GOLDEN.name} is missing; run pytest --update"
    assert frame == TOOLS_LIST_GOLDEN.read_bytes()


# --- 2. the fences ----------------------------------------------------------------


@pytest.fixture(scope="module")
def fence_results() -> dict[str, fences.Judged]:
    """Every fence, read once, after the cases above have been checked or rewritten."""
    return {name: fence(CORPUS) for name, fence in fences.FENCES}


@pytest.mark.parametrize("name", [name for name, _ in fences.FENCES])
def test_fence(name: str, fence_results: dict[str, fences.Judged]) -> None:
    judged = fence_results[name]
    assert not judged.violations, "\n".join(judged.violations)
    if judged.judged == 0:
        pytest.skip(f"{name}: the corpus holds nothing this fence applies to yet")


# --- 3. the harness, against throwaway corpora ---------------------------------------

EMPTY_FIXTURE_COMMIT = "6116a3ac4be303b7da96f7d408ada2d64501a60a"
EMPTY_STORE_COMMIT = "5e659765175c4d4aac02e0bb5c644a1924ab02f6"


def _write(directory: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith("/"):
            path.mkdir(exist_ok=True)
            continue
        path.write_bytes(content.encode() if isinstance(content, str) else content)


def _case(root: Path, name: str, files: dict[str, str | bytes]) -> Case:
    directory = root / name
    directory.mkdir(parents=True)
    _write(directory, files)
    return Case(root=root, dir=directory, name=name)


def _materialised(case: Case, tmp_path: Path) -> fixture.Repository:
    """The case's repository, built in a scratch directory as the harness builds it."""
    inputs = read(case)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    return fixture.materialise(inputs.fixture, inputs.instant, scratch)


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True, text=True).stdout.strip()


def _git_in(cwd: Path, env: Mapping[str, str], *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=dict(env), capture_output=True, check=True, text=True)
    return done.stdout.strip()


Seen = dict[str, object]


def _echo_surfaces(seen: list[Seen], effect: Callable[[Process], None] | None = None) -> Surfaces:
    """Stand-ins for both doors: they record what they were handed and answer a little."""

    def cli(args: Sequence[str], out: BinaryIO, err: BinaryIO, process: Process, facts: BuildFacts) -> int:
        if effect is not None:
            effect(process)
        seen.append(
            {
                "args": list(args),
                "wd": process.getwd(),
                "env": dict(process.environ),
                "now": process.now(),
                "user": process.user(),
                "host": process.hostname(),
                "version": facts.version,
            }
        )
        out.write(b"out\n")
        err.write(b"err\n")
        return 3

    def mcp(call: ToolCall, process: Process, facts: BuildFacts) -> tuple[str, bytes]:
        seen.append({"tool": call.tool, "arguments": call.arguments, "wd": process.getwd(), "env": process.environ})
        if call.tool == "broken":
            return "error.golden", b"broken: no such tool\n"
        return "envelope.golden", b'{"content": [], "isError": false}\n'

    return Surfaces(cli=cli, mcp=mcp)


def test_no_corpus_directory_is_empty() -> None:
    """git keeps no empty directory, so one here would be missing from every clone and a case
    that passes in this tree would fail in CI's."""
    empty = [str(Path(here).relative_to(CORPUS)) for here, dirs, files in os.walk(CORPUS) if not dirs and not files]
    assert empty == []


def test_an_empty_fixture_commits_to_the_reference_ids(tmp_path: Path) -> None:
    case = _case(tmp_path, "c/empty", {"argv": "hyper check\n", "git": "", "repo/": "", "store/": ""})
    repository = _materialised(case, tmp_path)
    assert _git(repository.root, "rev-parse", "HEAD") == EMPTY_FIXTURE_COMMIT
    assert _git(repository.root, "rev-parse", fixture.STORE_REF) == EMPTY_STORE_COMMIT
    assert _git(repository.root, "rev-parse", "--abbrev-ref", "HEAD") == "main"


def test_a_materialised_case_runs_against_a_git_copy_with_repo_dir_after_the_command(tmp_path: Path) -> None:
    case = _case(
        tmp_path,
        "providers/c",
        {
            "argv": "hyper providers --json\n",
            "git": "",
            "repo/hyper.yaml": "version: 1.4.0\n",
            "repo/bin/x": "#!/bin/sh\n",
        },
    )
    os.chmod(case.dir / "repo/bin/x", 0o755)
    seen: list[Seen] = []
    verdict = judge(case, Mode.UPDATE, surfaces=_echo_surfaces(seen))
    assert verdict.passed, verdict.report()
    (call,) = seen
    args = call["args"]
    assert isinstance(args, list)
    assert args[0] == "providers" and args[1] == "--repo-dir" and args[3:] == ["--json"]
    root = Path(args[2])
    assert call["wd"] == str(root)
    assert not root.is_relative_to(tmp_path)
    assert not root.exists(), "the scratch directory outlives its case"
    assert (case.dir / "exit.golden").read_bytes() == b"3\n"
    assert (case.dir / "stdout.golden").read_bytes() == b"out\n"


def test_the_code_commit_holds_the_whole_tree_with_its_modes(tmp_path: Path) -> None:
    case = _case(
        tmp_path,
        "c/modes",
        {
            "argv": "hyper check\n",
            "git": "",
            "repo/hyper.yaml": "v\n",
            "repo/bin/x": "#!/bin/sh\n",
            "repo/a/b.yaml": "b\n",
        },
    )
    os.chmod(case.dir / "repo/bin/x", 0o755)
    repository = _materialised(case, tmp_path)
    listing = _git(repository.root, "ls-tree", "-r", "HEAD")
    modes = {line.split("\t")[1]: line.split()[0] for line in listing.splitlines()}
    assert modes == {"a/b.yaml": "100644", "bin/x": "100755", "hyper.yaml": "100644"}
    assert _git(repository.root, "log", "--format=%an <%ae> %cn %ad %s", "--date=unix") == (
        "hyper golden fixture <fixture@hyper.invalid> hyper golden fixture 1775122874 the fixture's working tree"
    )
    assert _git(repository.root, "status", "--porcelain") == ""


def test_a_store_seed_is_one_parentless_commit_at_mode_100644(tmp_path: Path) -> None:
    case = _case(
        tmp_path,
        "c/store",
        {
            "argv": "hyper runs\n",
            "repo/hyper.yaml": "v\n",
            "store/journal/b.json": "{}\n",
            "store/journal/a.json": b"no newline",
            "store/run.sh": "#!/bin/sh\n",
            "now": "2019-07-04T12:00:00.5+02:00\n",
        },
    )
    os.chmod(case.dir / "store/run.sh", 0o755)
    repository = _materialised(case, tmp_path)
    root = repository.root
    assert _git(root, "rev-list", "--count", fixture.STORE_REF) == "1"
    listing = _git(root, "ls-tree", "-r", fixture.STORE_REF)
    assert [line.split()[0] for line in listing.splitlines()] == ["100644"] * 3
    assert _git(root, "log", "-1", "--format=%ad %s", "--date=iso-strict", fixture.STORE_REF) == (
        "2019-07-04T10:00:00+00:00 the fixture's hyper-store"
    )
    assert fixture.render_store(repository.git, root) == (
        b"=== journal/a.json (10 bytes)\nno newline=== journal/b.json (3 bytes)\n{}\n=== run.sh (10 bytes)\n#!/bin/sh\n"
    )
    assert read(case).instant.microsecond == 500000, "the process's clock keeps what git drops"


def test_branch_goldens_render_an_absent_branch_and_the_tree(tmp_path: Path) -> None:
    case = _case(
        tmp_path,
        "c/branches",
        {"argv": "hyper project\n", "git": "", "repo/hyper.yaml": "v\n", "store.golden": "", "tree.golden": ""},
    )
    assert judge(case, Mode.UPDATE, surfaces=_echo_surfaces([])).passed
    assert (case.dir / "store.golden").read_bytes() == b"no hyper-store branch\n"
    assert (case.dir / "tree.golden").read_bytes() == (
        b"no .github/workflows/ directory\n=== hyper.yaml (2 bytes)\nv\nno providers/ directory\n"
    )


def test_baseline_uncommitted_and_the_remote_pieces(tmp_path: Path) -> None:
    case = _case(
        tmp_path,
        "c/history",
        {
            "argv": "hyper run p\n",
            "repo/hyper.yaml": "two\n",
            "code-baseline/hyper.yaml": "one\n",
            "code-baseline/gone.yaml": "x\n",
            "uncommitted/hyper.yaml": "dirty\n",
            "store/a": "root\n",
            "store-unpushed/b": "local\n",
            "remote": "",
            "remote-ahead/c": "theirs\n",
            "unfetchable-remote": "",
        },
    )
    repository = _materialised(case, tmp_path)
    root, origin = repository.root, repository.origin
    assert origin is not None
    assert _git(root, "log", "--format=%s", "main").splitlines() == [
        "the fixture's working tree",
        "the fixture's earlier revision",
    ]
    assert _git(root, "ls-tree", "--name-only", "HEAD") == "hyper.yaml"
    assert (root / "hyper.yaml").read_text() == "dirty\n"
    local = _git(root, "ls-tree", "--name-only", fixture.STORE_REF).splitlines()
    remote = _git(origin, "ls-tree", "--name-only", fixture.STORE_REF).splitlines()
    assert (local, remote) == (["a", "b"], ["a", "c"])
    assert _git(root, "rev-parse", f"{fixture.STORE_REF}~1") == _git(origin, "rev-parse", f"{fixture.STORE_REF}~1")
    env = dict(repository.git.env)
    fetch = subprocess.run(["git", "fetch", "origin"], cwd=root, env=env, capture_output=True, check=False)
    assert fetch.returncode != 0
    push = subprocess.run(["git", "push", "origin", "main:other"], cwd=root, env=env, capture_output=True, check=False)
    assert push.returncode == 0, push.stderr


def test_rejected_pushes_advance_the_remote_first(tmp_path: Path) -> None:
    case = _case(
        tmp_path,
        "c/rejected",
        {
            "argv": "hyper run p\n",
            "repo/x": "x\n",
            "store/a": "a\n",
            "remote": "",
            "remote-ahead/b": "b\n",
            "reject-pushes": "",
        },
    )
    repository = _materialised(case, tmp_path)
    assert repository.origin is not None
    root, env = repository.root, dict(repository.git.env)
    _git_in(root, env, "fetch", "origin", f"{fixture.STORE_REF}:refs/remotes/origin/store")
    before = _git_in(root, env, "rev-parse", "refs/remotes/origin/store")
    above = _git_in(root, env, "commit-tree", f"{before}^{{tree}}", "-p", before, "-m", "mine")
    push = subprocess.run(
        ["git", "push", "origin", f"{above}:{fixture.STORE_REF}"], cwd=root, env=env, capture_output=True, check=False
    )
    assert push.returncode != 0
    after = _git(repository.origin, "log", "-1", "--format=%an %P", fixture.STORE_REF)
    assert after == f"other {before}"


def test_cases_without_git_run_off_the_checked_in_tree(tmp_path: Path) -> None:
    plain = _case(tmp_path, "version/plain", {"argv": "hyper version\n"})
    with_repo = _case(tmp_path, "targets/here", {"argv": "hyper targets --limit 2\n", "repo/hyper.yaml": "v\n"})
    shared = _case(tmp_path, "targets/shared", {"argv": "hyper targets\n", "repo-from": "../here/repo\n", "wd": "..\n"})
    seen: list[Seen] = []
    surfaces = _echo_surfaces(seen)
    for case in (plain, with_repo, shared):
        assert judge(case, Mode.UPDATE, surfaces=surfaces).passed
    repo = str(with_repo.dir / "repo")
    assert [s["args"] for s in seen] == [
        ["version"],
        ["targets", "--repo-dir", repo, "--limit", "2"],
        ["targets", "--repo-dir", repo],
    ]
    assert [s["wd"] for s in seen] == [str(plain.dir), repo, str(shared.dir.parent)]


def test_find_root_and_no_git_root_pass_no_repo_dir(tmp_path: Path) -> None:
    found = _case(
        tmp_path,
        "check/walk",
        {"argv": "hyper check\n", "git": "", "find-root": "", "repo/sub/x": "x\n", "wd": "sub\n"},
    )
    nowhere = _case(tmp_path, "check/nowhere", {"argv": "hyper check\n", "no-git-root": ""})
    seen: list[Seen] = []
    roots: list[bool] = []

    def look_up(process: Process) -> None:
        wd = Path(process.getwd())
        roots.append((wd.parent / ".git").is_dir() and not fixture.under_any_git_root(wd.parent.parent))

    for case in (found, nowhere):
        assert judge(case, Mode.UPDATE, surfaces=_echo_surfaces(seen, effect=look_up)).passed
    assert [s["args"] for s in seen] == [["check"], ["check"]]
    assert Path(str(seen[0]["wd"])).name == "sub"
    assert roots[0], "a find-root case stands in a subdirectory of a git root with nothing above it"
    assert not fixture.under_any_git_root(Path(str(seen[1]["wd"])))


def test_the_process_is_the_cases_own(tmp_path: Path) -> None:
    case = _case(
        tmp_path,
        "targets/env",
        {
            "argv": "hyper targets\n",
            "env": "TOKEN=a=b\nEMPTY=\n\n",
            "now": "2026-01-01T00:00:00Z\n",
            "actor": "ada\n",
            "hostname": "box\n",
            "version": "9.9.9\n",
        },
    )
    seen: list[Seen] = []
    assert judge(case, Mode.UPDATE, surfaces=_echo_surfaces(seen)).passed
    (call,) = seen
    assert call["env"] == {"TOKEN": "a=b", "EMPTY": ""}
    assert call["now"] == _dt.datetime(2026, 1, 1, tzinfo=_dt.UTC)
    assert (call["user"], call["host"], call["version"]) == ("ada", "box", "9.9.9")
    default = _case(tmp_path, "targets/default", {"argv": "hyper targets\n"})
    assert judge(default, Mode.UPDATE, surfaces=_echo_surfaces(seen)).passed
    assert seen[1]["now"] == _dt.datetime(2026, 4, 2, 9, 41, 14, 221000, tzinfo=_dt.UTC)
    assert (seen[1]["user"], seen[1]["host"], seen[1]["version"], seen[1]["env"]) == ("igor", "thinkpad", "1.4.0", {})


def test_facts_json_is_read_strictly(tmp_path: Path) -> None:
    whole = _case(
        tmp_path, "version/whole", {"argv": "hyper version\n", "facts.json": '{"commit": "abc", "modified": true}'}
    )
    facts = read(whole).facts
    assert facts == {"commit": "abc", "modified": True}
    for name, files in {
        "both": {"facts.json": "{}", "version": "1.0.0\n"},
        "unknown": {"facts.json": '{"go": "1.25"}'},
        "typed": {"facts.json": '{"modified": "yes"}'},
    }.items():
        case = _case(tmp_path, f"version/{name}", {"argv": "hyper version\n", **files})
        with pytest.raises(CaseFault):
            read(case)


def test_minting_more_than_listed_fails_the_case(tmp_path: Path) -> None:
    run_id = "01991ea6-b118-7c93-8d41-6b2f7ae05c19"
    minted: list[str] = []

    def mint_twice(process: Process) -> None:
        minted.append(process.mint(process.now()))
        minted.append(process.mint(process.now()))

    case = _case(tmp_path, "run/mints", {"argv": "hyper run p\n", "mint": f"{run_id}\n"})
    verdict = judge(case, Mode.UPDATE, surfaces=_echo_surfaces([], effect=mint_twice))
    assert minted == [run_id]
    assert not verdict.passed and "minted Run id 2" in verdict.report()


def test_bin_is_the_only_place_a_command_is_found(tmp_path: Path) -> None:
    out: list[bytes] = []

    def launch(process: Process) -> None:
        for name in ("hello", "ls"):
            try:
                child = process.launch([name, "there"], stdout=subprocess.PIPE)
            except FileNotFoundError:
                out.append(b"not started\n")
                continue
            out.append(child.communicate()[0])

    case = _case(tmp_path, "run/bin", {"argv": "hyper run p\n", "bin/hello": '#!/bin/sh\necho "$0 $1"\n'})
    os.chmod(case.dir / "bin/hello", 0o755)
    assert judge(case, Mode.UPDATE, surfaces=_echo_surfaces([], effect=launch)).passed
    assert out == [f"{case.dir / 'bin/hello'} there\n".encode(), b"not started\n"]


def test_a_call_case_gets_its_repository_from_the_environment(tmp_path: Path) -> None:
    own = _case(tmp_path, "mcp/providers/own", {"call": '{"tool": "providers", "arguments": {}}', "repo/x": "x\n"})
    borrowed = _case(
        tmp_path, "mcp/providers/borrowed", {"call": '{"tool": "providers"}', "env": "HYPER_REPO_DIR=../own/repo\n"}
    )
    spelled = _case(tmp_path, "mcp/probe/spelled", {"call": '{"tool": "probe", "arguments": {"n": 1.0, "e": 1e2}}'})
    seen: list[Seen] = []
    for case in (own, borrowed, spelled):
        assert judge(case, Mode.UPDATE, surfaces=_echo_surfaces(seen)).passed
    assert seen[0]["env"] == {"HYPER_REPO_DIR": str(own.dir / "repo")}
    assert seen[0]["wd"] == str(own.dir / "repo")
    assert seen[1]["env"] == {"HYPER_REPO_DIR": "../own/repo"}
    assert seen[1]["wd"] == str(borrowed.dir)
    assert seen[1]["arguments"] == b"{}"
    assert seen[2]["arguments"] == b'{"n": 1.0, "e": 1e2}'


def test_update_writes_what_came_back_and_removes_the_other_half(tmp_path: Path) -> None:
    case = _case(tmp_path, "mcp/broken/c", {"call": '{"tool": "broken", "arguments": {}}', "envelope.golden": "old\n"})
    assert judge(case, Mode.UPDATE, surfaces=_echo_surfaces([])).passed
    assert not (case.dir / "envelope.golden").exists()
    assert (case.dir / "error.golden").read_bytes() == b"broken: no such tool\n"
    assert judge(case, Mode.CHECK, surfaces=_echo_surfaces([])).passed
    (case.dir / "envelope.golden").write_bytes(b"stale\n")
    verdict = judge(case, Mode.CHECK, surfaces=_echo_surfaces([]))
    assert not verdict.passed and "stale" in verdict.report()


def test_strict_checking_fails_a_missing_golden_and_lenient_lists_it(tmp_path: Path) -> None:
    case = _case(tmp_path, "version/partial", {"argv": "hyper version\n", "stdout.golden": "out\n"})
    strict = judge(case, Mode.CHECK, strict=True, surfaces=_echo_surfaces([]))
    assert not strict.passed and "stderr.golden: missing" in strict.report()
    lenient = judge(case, Mode.CHECK, strict=False, surfaces=_echo_surfaces([]))
    assert lenient.passed and lenient.unchecked == ("stderr.golden", "exit.golden")


def test_a_run_that_touches_its_case_fails(tmp_path: Path) -> None:
    case = _case(tmp_path, "check/writes", {"argv": "hyper check\n", "repo/x": "x\n"})

    def scribble(process: Process) -> None:
        Path(process.getwd(), "new").write_text("oops")

    verdict = judge(case, Mode.UPDATE, surfaces=_echo_surfaces([], effect=scribble))
    assert not verdict.passed and "changed the checked-in case" in verdict.report()


@pytest.mark.parametrize(
    ("files", "fault"),
    [
        ({"argv": "hyper version\n", "call": "{}"}, "both an argv and a call"),
        ({"argv": "version\n"}, "beginning with hyper"),
        ({"call": "[1]"}, "not an object"),
        ({"call": '{"tool": "x", "argumentz": {}}'}, "argumentz"),
        ({"call": "{nope"}, "not JSON"),
        ({"argv": "hyper x\n", "env": "NOVALUE\n"}, "NAME=value"),
        ({"argv": "hyper x\n", "now": "yesterday\n"}, "RFC 3339"),
        ({"argv": "hyper x\n", "now": "2026-04-02T09:41:14\n"}, "offset"),
        ({"argv": "hyper x\n", "mint": "not-an-id\n"}, "UUIDv7"),
        ({"argv": "hyper x\n", "envv": "A=b\n"}, "envv"),
        ({"argv": "hyper x\n", "git/": ""}, "is a directory"),
        ({"argv": "hyper x\n", "store": "x"}, "is a file"),
        ({"argv": "hyper x\n", "git": ""}, "no repository"),
        ({"argv": "hyper x\n", "repo-from": "../nowhere\n"}, "not a directory"),
        ({"argv": "hyper x\n", "repo/x": "x", "store/a": "a", "store-from": "store\n"}, "one seed"),
        ({"argv": "hyper x\n", "repo/x": "x", "no-git-root": ""}, "no git root"),
        ({"argv": "hyper x\n", "repo/x": "x", "find-root": ""}, "walking up"),
        ({"argv": "hyper x\n", "store.golden": ""}, "store.golden"),
        ({"argv": "hyper x\n", "repo/x": "x", "tree.golden": ""}, "tree.golden"),
        ({"argv": "hyper\n", "repo/x": "x"}, "no command"),
        ({"argv": "hyper x\n", "serve/h.json": "{}"}, "serve/"),
        ({"argv": "hyper mcp\n"}, "call cases"),
        ({"argv": "hyper x\n", "envelope.golden": ""}, "envelope"),
        ({"call": '{"tool": "t"}', "exit.golden": "0\n"}, "call case"),
        ({"call": '{"tool": "t"}', "repo/x": "x", "env": "HYPER_REPO_DIR=.\n"}, "HYPER_REPO_DIR"),
    ],
)
def test_a_malformed_case_is_a_fault_not_a_crash(tmp_path: Path, files: dict[str, str | bytes], fault: str) -> None:
    case = _case(tmp_path, "x/c", files)
    verdict = judge(case, surfaces=_echo_surfaces([]))
    assert verdict.fault is not None and fault in verdict.fault, verdict.fault


def test_the_runner_reports_each_case_and_a_tally(tmp_path: Path) -> None:
    good = _case(tmp_path, "a/good", {"argv": "hyper a\n", "stdout.golden": "out\n", "exit.golden": "3\n"})
    bad = _case(tmp_path, "a/bad", {"argv": "hyper a\n", "stdout.golden": "other\n", "stderr.golden": "err\n"})
    _case(tmp_path, "a/faulty", {"argv": "hyper a\n", "env": "oops\n", "stdout.golden": "out\n"})
    _case(tmp_path, "a/empty", {"argv": "hyper a\n"})

    def raises(process: Process) -> None:
        if process.getwd().endswith("raises"):
            raise RuntimeError("boom")
        if process.getwd().endswith("exits"):
            os.chdir(tmp_path)
            raise SystemExit(4)

    _case(tmp_path, "a/raises", {"argv": "hyper a\n", "stdout.golden": "out\n"})
    _case(tmp_path, "a/exits", {"argv": "hyper a\n", "stdout.golden": "out\n"})
    here = os.getcwd()
    out = io.StringIO()
    code = run_directory(tmp_path, out, write_actual=True, surfaces=_echo_surfaces([], effect=raises))
    text = out.getvalue()
    assert code == 1
    assert os.getcwd() == here
    assert text.splitlines()[-1] == "1 passed, 5 failed"
    starts = [line.split()[:2] for line in text.splitlines() if not line.startswith(" ")][:-1]
    assert starts == [
        ["fail", "a/bad"],
        ["fail", "a/empty"],
        ["fail", "a/exits"],
        ["fail", "a/faulty"],
        ["pass", "a/good"],
        ["fail", "a/raises"],
    ]
    assert "SystemExit: 4" in text and "changed the process's working directory" in text
    assert "RuntimeError: boom" in text and "NAME=value" in text and "holds no golden" in text
    assert (bad.dir / "stdout.golden.actual").read_bytes() == b"out\n"
    assert (bad.dir / "exit.golden.actual").read_bytes() == b"3\n"
    assert not (bad.dir / "stderr.golden.actual").exists()
    assert sorted(p.name for p in good.dir.iterdir()) == [
        "argv",
        "exit.golden",
        "stderr.golden.actual",
        "stdout.golden",
    ]
    (bad.dir / "stdout.golden").write_bytes(b"out\n")
    (bad.dir / "exit.golden").write_bytes(b"3\n")
    assert run_directory(bad.dir.parent / "..", io.StringIO(), surfaces=_echo_surfaces([])) == 1
    assert run_directory(tmp_path / "nothing-here", io.StringIO()) == 1


def test_the_command_line_runner(tmp_path: Path) -> None:
    _case(tmp_path, "version/v", {"argv": "hyper version\n", "version": "1.4.0\n"})
    from harness.__main__ import main

    out = io.StringIO()
    assert main(["run", str(tmp_path), "--write-actual"], out) == 1
    assert out.getvalue().splitlines()[-1] == "0 passed, 1 failed"
    assert (tmp_path / "version/v/stdout.golden.actual").read_bytes().startswith(b"hyper 1.4.0\n")
    with pytest.raises(SystemExit) as exited:
        main(["run", str(tmp_path / "absent")], io.StringIO())
    assert exited.value.code == 2


# --- the fences, against corpora built to break them ---------------------------------


def _corpus(root: Path, files: dict[str, str | bytes]) -> Path:
    _write(root, {"README.md": "r\n", **files})
    return root


def test_the_pairing_fences_hold_rows_truncation_and_sentences(tmp_path: Path) -> None:
    stream = (
        b'{"type":"provider","name":"a","digest":"d"}\n'
        b'{"type":"result","truncated":{"axis":"name","returned":1,"dropped":1,"hint":"narrow with --limit"}}\n'
    )
    envelope = {
        "content": [{"type": "text", "text": "1 Provider"}],
        "structuredContent": {
            "rows": [{"type": "provider", "digest": "d", "name": "a"}],
            "truncated": {"axis": "name", "returned": 1, "dropped": 2, "hint": "pass --limit"},
        },
        "isError": False,
    }
    root = _corpus(
        tmp_path,
        {
            "providers/README.md": "r\n",
            "providers/cut-json/argv": "hyper providers --json\n",
            "providers/cut-json/stdout.golden": stream,
            "providers/cut-json/stderr.golden": "",
            "providers/cut-json/exit.golden": "0\n",
            "providers/bad-name/argv": "hyper providers x\n",
            "providers/bad-name/stdout.golden": "",
            "providers/bad-name/stderr.golden": "hyper providers: takes no positional\n",
            "providers/bad-name/exit.golden": "2\n",
            "mcp/README.md": "r\n",
            "mcp/providers/cut/call": '{"tool": "providers", "arguments": {"limit_dir": 1}}',
            "mcp/providers/cut/envelope.golden": orjson.dumps(envelope),
            "mcp/providers/bad-name/call": '{"tool": "providers", "arguments": {}}',
            "mcp/providers/bad-name/error.golden": "something else\n",
        },
    )
    rows = fences.an_envelope_is_the_stream_less_its_terminal_row(root)
    assert rows.judged == 1
    assert any("row 1" in v for v in rows.violations)
    assert any("names a flag" in v for v in rows.violations)
    assert any("marker" in v for v in rows.violations)
    sentences = fences.an_error_golden_is_the_twins_stderr(root)
    assert sentences.judged == 1 and "bad-name" in sentences.violations[0]
    named = fences.no_call_names_a_repository(root)
    assert named.violations == ("mcp/providers/cut calls providers with 'limit_dir'; no tool takes a repository",)

    envelope["structuredContent"] = {
        "rows": [{"type": "provider", "name": "a", "digest": "d"}],
        "truncated": {"axis": "name", "returned": 1, "dropped": 1, "hint": "narrow with `limit`"},
    }
    _write(root, {"mcp/providers/cut/envelope.golden": orjson.dumps(envelope)})
    _write(root, {"mcp/providers/bad-name/error.golden": "hyper providers: takes no positional\n"})
    assert fences.an_envelope_is_the_stream_less_its_terminal_row(root) == fences.Judged(1, ())
    assert fences.an_error_golden_is_the_twins_stderr(root) == fences.Judged(1, ())

    # A twin that answered without a word on stderr is a disagreement, not a pass.
    _write(root, {"providers/bad-name/stderr.golden": "", "providers/bad-name/exit.golden": "0\n"})
    quiet = fences.an_error_golden_is_the_twins_stderr(root)
    assert quiet.judged == 1 and "bad-name" in quiet.violations[0]

    # An ordinary answer whose twin declined (no stream at all) is a disagreement too.
    _write(root, {"providers/cut-json/stdout.golden": "", "providers/cut-json/exit.golden": "2\n"})
    envelope["structuredContent"] = {"rows": [], "truncated": False}
    _write(root, {"mcp/providers/cut/envelope.golden": orjson.dumps(envelope)})
    declined = fences.an_envelope_is_the_stream_less_its_terminal_row(root)
    assert declined.judged == 1 and "declined" in declined.violations[0]


def test_the_shape_fences_find_what_is_out_of_place(tmp_path: Path) -> None:
    root = _corpus(
        tmp_path,
        {
            "providers/README.md": "r\n",
            "providers/x/argv": "hyper targets\n",
            "providers/x/stdout.golden": "page\n",
            "providers/x/exit.golden": "77\n",
            "usage/typo/argv": "hyper providerz\n",
            "targets/orphan/stdout.golden": "",
            "targets/sub/.git/HEAD": "x",
            "mcp/run/c/call": '{"tool": "runs"}',
            "mcp/run/c/envelope.golden": "{}",
            "mcp/run/c/error.golden": "e\n",
        },
    )
    judged = {name: fence(root) for name, fence in fences.FENCES}
    assert judged["a case sits under its command"].violations == (
        "mcp/run/c calls runs; it belongs at mcp/runs/<case>",
        "providers/x runs `hyper targets`; it belongs in a directory named targets",
    )
    assert "providers/x lacks stderr.golden" in judged["every argv case holds its three"].violations
    assert any("usage/typo lacks" in v for v in judged["every argv case holds its three"].violations)
    assert judged["a call case holds one golden"].violations == (
        "mcp/run/c holds ['envelope.golden', 'error.golden']; a call is answered one way",
    )
    assert "targets/orphan/stdout.golden sits in no case; it needs an argv or a call beside it" in (
        judged["every golden is driven"].violations
    )
    assert any(".git" in v for v in judged["no .git and no .actual"].violations)
    assert set(judged["every subtree has a README"].violations) == {
        "mcp/ has no README.md saying what its cases are for",
        "targets/ has no README.md saying what its cases are for",
        "usage/ has no README.md saying what its cases are for",
    }
    assert judged["stdout carries only the answer"].violations == ("providers/x exits 77 and writes on stdout",)
    assert any("no content block" in v for v in judged["envelope goldens are envelopes"].violations)


# --- and last: the run left the corpus as it found it -------------------------------


def test_the_run_left_the_corpus_unchanged(update: bool) -> None:
    if update:
        pytest.skip("--update rewrites the corpus by design")
    assert digest([CORPUS]) == _CORPUS_AT_COLLECTION, "a case wrote into the checked-in corpus"

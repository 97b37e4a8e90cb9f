"""Finding golden cases on disk and reading what each one asks for.

A case is a directory, and everything about it is a file in it: the corpus has no
registry, so a case is driven by having been written. The reading is strict. A
misspelt input, a marker written as a directory, two inputs that contradict each
other — each is a :class:`CaseFault` naming the case, because an input the harness
quietly ignored is a case asserting less than its directory claims, which is the
one failure a golden file cannot show.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

import attrs
import orjson

from harness.fault import CaseFault
from harness.serve import read_served
from hyper.core.ids import is_run_id
from hyper_mcp.rawjson import object_spans

DEFAULT_INSTANT: Final = "2026-04-02T09:41:14.221Z"
"""The clock a case runs at unless it names one; also the date on its fixture commits."""

DEFAULT_VERSION: Final = "1.4.0"
"""The version a case's hyper reports unless it names one: what fixture repositories pin."""

DEFAULT_ACTOR: Final = "igor"
DEFAULT_HOSTNAME: Final = "thinkpad"

CLI_GOLDENS: Final = ("stdout.golden", "stderr.golden", "exit.golden")
MCP_GOLDENS: Final = ("envelope.golden", "error.golden")
BRANCH_GOLDENS: Final = ("store.golden", "remote.golden", "tree.golden", "sink.golden")
"""Goldens a case opts into by holding the file; nothing writes one a case lacks."""

_FILE_INPUTS: Final = frozenset(
    {
        "argv",
        "call",
        "env",
        "wd",
        "now",
        "mint",
        "actor",
        "hostname",
        "version",
        "facts.json",
        "repo-from",
        "store-from",
        "git",
        "remote",
        "reject-pushes",
        "unfetchable-remote",
        "find-root",
        "no-git-root",
        "README.md",
    }
)
_DIR_INPUTS: Final = frozenset(
    {
        "repo",
        "store",
        "remote-store",
        "remote-ahead",
        "store-unpushed",
        "uncommitted",
        "code-baseline",
        "bin",
        "serve",
    }
)
_GOLDENS: Final = frozenset({*CLI_GOLDENS, *MCP_GOLDENS, *BRANCH_GOLDENS})
_FACT_KEYS: Final[dict[str, type]] = {
    "version": str,
    "commit": str,
    "built": str,
    "modified": bool,
    "toolchain": str,
    "os": str,
    "arch": str,
}


@attrs.frozen
class ToolCall:
    """A case's ``call``: the tool and its arguments exactly as the file spells them."""

    tool: str
    arguments: bytes
    """Raw JSON, sent as written: the server, not the harness, judges a malformed call.

    An absent ``arguments`` is sent as ``{}``."""


@attrs.frozen
class Case:
    """One case directory, before anything in it is read."""

    root: Path
    """The corpus root the case was found under."""
    dir: Path
    name: str
    """The case's path below the root, with forward slashes: its id everywhere."""

    @property
    def is_call(self) -> bool:
        return (self.dir / "call").is_file()


@attrs.frozen
class Fixture:
    """The repository a case stands in, and what git state to build around it."""

    repo: Path | None
    """The directory copied or stood in: ``repo/``, or what ``repo-from`` names."""
    repo_from: bool
    store_seed: Path | None
    store_from: bool
    git: bool
    remote: bool
    remote_store: Path | None
    remote_ahead: Path | None
    store_unpushed: Path | None
    uncommitted: Path | None
    code_baseline: Path | None
    reject_pushes: bool
    unfetchable_remote: bool
    find_root: bool
    no_git_root: bool

    @property
    def materialised(self) -> bool:
        """Driven against a temporary git copy rather than off the checked-in tree."""
        return self.repo is not None and (self.git or self.store_seed is not None or self.remote)


@attrs.frozen
class Inputs:
    """Everything a case asked for, read and checked, nothing yet built."""

    argv: tuple[str, ...] | None
    """The command line without the program name; ``None`` for a call case."""
    call: ToolCall | None
    env: Mapping[str, str]
    wd: str | None
    instant: _dt.datetime
    mint: tuple[str, ...]
    actor: str
    hostname: str
    facts: Mapping[str, str | bool]
    """The build facts by field name; an absent field keeps the build's default."""
    fixture: Fixture
    goldens: frozenset[str]
    """The golden files the case holds now."""


def discover(root: Path) -> list[Case]:
    """Every case under ``root`` in path order: a directory holding ``argv`` or ``call``.

    Fixture trees inside a case (``repo/``, ``store/``…) are not searched, so a
    repository that happens to hold a file named ``argv`` is not mistaken for a case.
    """
    root = root.resolve()
    found: list[Case] = []
    for here, dirs, files in os.walk(root):
        dirs.sort()
        if "argv" in files or "call" in files:
            path = Path(here)
            found.append(Case(root=root, dir=path, name=path.relative_to(root).as_posix()))
            dirs[:] = [d for d in dirs if d not in _DIR_INPUTS]
        dirs[:] = [d for d in dirs if d != ".git"]
    return sorted(found, key=lambda case: case.name)


def read(case: Case) -> Inputs:
    """Read and cross-check every input of ``case``; raise :class:`CaseFault` on any mistake."""
    entries = _entries(case)
    has_argv, has_call = "argv" in entries, "call" in entries
    if has_argv and has_call:
        raise CaseFault("holds both an argv and a call; a case drives one surface")
    argv = _argv(case) if has_argv else None
    call = _call(case) if has_call else None
    fixture = _fixture(case, entries)
    goldens = frozenset(name for name in entries if name in _GOLDENS)
    inputs = Inputs(
        argv=argv,
        call=call,
        env=_env(case),
        wd=_text(case, "wd"),
        instant=_instant(case),
        mint=_mint(case),
        actor=_text(case, "actor") or DEFAULT_ACTOR,
        hostname=_text(case, "hostname") or DEFAULT_HOSTNAME,
        facts=_facts(case),
        fixture=fixture,
        goldens=goldens,
    )
    _cross_check(inputs, entries)
    if "serve" in entries:
        read_served(case.dir / "serve")
    return inputs


def _entries(case: Case) -> set[str]:
    names: set[str] = set()
    for entry in os.scandir(case.dir):
        name = entry.name
        if name in _FILE_INPUTS or name in _GOLDENS:
            if not entry.is_file():
                raise CaseFault(f"{name} is a directory; it is read as a file")
        elif name in _DIR_INPUTS:
            if not entry.is_dir():
                raise CaseFault(f"{name} is a file; it is read as a directory")
        elif name.endswith(".actual"):
            continue
        else:
            raise CaseFault(f"holds {name}, which is no input or golden the harness knows")
        names.add(name)
    return names


def _raw(case: Case, name: str) -> str | None:
    path = case.dir / name
    if not path.is_file():
        return None
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CaseFault(f"{name} is not UTF-8 text: {error}") from None


def _text(case: Case, name: str) -> str | None:
    """A one-value input, whitespace-trimmed; absent or blank reads as not given."""
    raw = _raw(case, name)
    if raw is None or not raw.strip():
        return None
    return raw.strip()


def _argv(case: Case) -> tuple[str, ...]:
    words = (_raw(case, "argv") or "").split()
    if not words or words[0] != "hyper":
        raise CaseFault(f"argv is {' '.join(words)!r}; it is a whole command line beginning with hyper")
    return tuple(words[1:])


def _call(case: Case) -> ToolCall:
    raw = (case.dir / "call").read_bytes()
    value = _json_object(raw, "call", '; it is {"tool": …, "arguments": {…}}')
    unknown = sorted(set(value) - {"tool", "arguments"})
    if unknown:
        raise CaseFault(f"call carries {', '.join(unknown)}; a call is a tool and its arguments")
    tool = value.get("tool")
    if not isinstance(tool, str) or not tool:
        raise CaseFault("call names no tool")
    return ToolCall(tool=tool, arguments=_raw_arguments(raw) if "arguments" in value else b"{}")


def _json_object(raw: bytes, name: str, shape: str = "") -> dict[str, object]:
    """The input file ``name`` read as a JSON object; ``shape`` follows the fault where one helps its author."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise CaseFault(f"{name} is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise CaseFault(f"{name} is not an object{shape}")
    return value


def _raw_arguments(raw: bytes) -> bytes:
    """The ``arguments`` value exactly as the file spells it: ``1.0`` stays ``1.0``."""
    text = raw.decode("utf-8").strip()
    start, end = dict(object_spans(text))["arguments"]
    return text[start:end].encode("utf-8")


def _env(case: Case) -> dict[str, str]:
    env: dict[str, str] = {}
    for line in (_raw(case, "env") or "").split("\n"):
        if not line.strip():
            continue
        name, sep, value = line.partition("=")
        if not sep or not name:
            raise CaseFault(f"env line {line!r} is not NAME=value; a variable left unset is a line not written")
        env[name] = value
    return env


def parse_instant(text: str) -> _dt.datetime:
    """An RFC 3339 instant with its offset; sub-seconds kept."""
    try:
        instant = _dt.datetime.fromisoformat(text)
    except ValueError:
        raise CaseFault(f"now is {text!r}; it is an RFC 3339 instant") from None
    if instant.tzinfo is None or "T" not in text:
        raise CaseFault(f"now is {text!r}; an RFC 3339 instant carries a date, a time and an offset")
    return instant


def _instant(case: Case) -> _dt.datetime:
    return parse_instant(_text(case, "now") or DEFAULT_INSTANT)


def _mint(case: Case) -> tuple[str, ...]:
    ids = tuple(line.strip() for line in (_raw(case, "mint") or "").split("\n") if line.strip())
    for run_id in ids:
        if not is_run_id(run_id):
            raise CaseFault(f"mint names {run_id!r}, which is not a lower-case UUIDv7")
    return ids


def _facts(case: Case) -> dict[str, str | bool]:
    raw = (case.dir / "facts.json").read_bytes() if (case.dir / "facts.json").is_file() else None
    named = _text(case, "version")
    if raw is None:
        return {"version": named or DEFAULT_VERSION}
    if named is not None or (case.dir / "version").is_file():
        raise CaseFault("holds both facts.json and version; the build's version is stated once")
    value = _json_object(raw, "facts.json")
    facts: dict[str, str | bool] = {}
    for key, member in value.items():
        kind = _FACT_KEYS.get(key)
        if kind is None:
            raise CaseFault(f"facts.json carries {key!r}; it takes only {', '.join(_FACT_KEYS)}")
        if not isinstance(member, (str, bool)) or not isinstance(member, kind):
            raise CaseFault(f"facts.json's {key} is {member!r}; it is a {kind.__name__}")
        facts[key] = member
    return facts


def _named_dir(case: Case, input_name: str) -> Path | None:
    named = _text(case, input_name)
    if named is None:
        return None
    source = (case.dir / named).resolve()
    if not source.is_dir():
        raise CaseFault(f"names {input_name} {named}, which is not a directory")
    return source


def _fixture(case: Case, entries: set[str]) -> Fixture:
    def own(name: str) -> Path | None:
        return case.dir / name if name in entries else None

    repo_from = _named_dir(case, "repo-from")
    store_from = _named_dir(case, "store-from")
    if own("repo") and repo_from:
        raise CaseFault("carries a repo/ and names a repo-from; a case stands in one repository")
    if own("store") and store_from:
        raise CaseFault("carries a store/ and names a store-from; a branch is built from one seed")
    return Fixture(
        repo=own("repo") or repo_from,
        repo_from=repo_from is not None,
        store_seed=own("store") or store_from,
        store_from=store_from is not None,
        git="git" in entries,
        remote="remote" in entries,
        remote_store=own("remote-store"),
        remote_ahead=own("remote-ahead"),
        store_unpushed=own("store-unpushed"),
        uncommitted=own("uncommitted"),
        code_baseline=own("code-baseline"),
        reject_pushes="reject-pushes" in entries,
        unfetchable_remote="unfetchable-remote" in entries,
        find_root="find-root" in entries,
        no_git_root="no-git-root" in entries,
    )


def _cross_check(inputs: Inputs, entries: set[str]) -> None:
    for fault in _faults(inputs, entries):
        raise CaseFault(fault)


def _faults(inputs: Inputs, entries: set[str]) -> Iterator[str]:
    fx = inputs.fixture
    has_repo = fx.repo is not None
    if inputs.argv is None and inputs.call is None:
        yield "holds neither argv nor call"
    if not has_repo and (fx.git or fx.store_seed or fx.remote or fx.remote_store):
        yield "asks for a git fixture and carries no repository to build it from"
    if fx.uncommitted and not fx.materialised:
        yield "carries uncommitted/ and materialises no repository for it to differ from"
    if fx.code_baseline and not fx.materialised:
        yield "carries code-baseline/ and materialises no repository to commit above it"
    if fx.remote_store and not fx.remote:
        yield "seeds remote-store/ and wires no origin; add a remote marker"
    if fx.remote_ahead and not fx.remote:
        yield "seeds remote-ahead/ and wires no origin; add a remote marker"
    if fx.remote_ahead and not fx.store_seed:
        yield "seeds remote-ahead/ and no Store for it to sit above"
    if fx.remote_ahead and fx.remote_store:
        yield "seeds the remote Store twice, as remote-store/ and as remote-ahead/"
    if fx.store_unpushed and not fx.store_seed:
        yield "seeds store-unpushed/ and no Store for it to sit above"
    if fx.unfetchable_remote and not fx.remote:
        yield "breaks origin's fetch URL and wires no origin"
    if fx.reject_pushes and not fx.remote:
        yield "rejects pushes to origin and wires no origin"
    if fx.reject_pushes and not fx.remote_ahead:
        yield "rejects pushes and seeds no remote-ahead/ for the hook to advance"
    if fx.reject_pushes and fx.unfetchable_remote:
        yield "both breaks origin's fetch URL and rejects its pushes; those are two cases"
    if fx.no_git_root and has_repo:
        yield "asks to stand under no git root and carries a repository"
    if fx.find_root and not fx.materialised:
        yield "asks for the root to be found by walking up and materialises no repository"
    if "store.golden" in inputs.goldens and not fx.materialised:
        yield "holds store.golden and materialises no repository"
    if "store.golden" in inputs.goldens and fx.store_from:
        yield "holds store.golden and names a store-from; a shared seed belongs to no one case"
    if "remote.golden" in inputs.goldens and not fx.remote:
        yield "holds remote.golden and wires no origin"
    if "tree.golden" in inputs.goldens and not fx.materialised:
        yield "holds tree.golden and materialises no repository; the command would write into the corpus"
    if "tree.golden" in inputs.goldens and fx.repo_from:
        yield "holds tree.golden and names a repo-from; a shared repository belongs to no one case"
    if "sink.golden" in inputs.goldens and not fx.materialised:
        yield "holds sink.golden and materialises no repository; the sink sits beside the copy"
    if inputs.argv == ("mcp",):
        yield "runs `hyper mcp`, which would serve on the harness's own stdin; drive the server with call cases"
    if inputs.argv == () and has_repo and not fx.find_root:
        yield "carries a repository and names no command to put --repo-dir after"
    if inputs.call is not None and has_repo and "HYPER_REPO_DIR" in inputs.env:
        yield "carries a repository and sets HYPER_REPO_DIR; the harness points it at the repository"
    if inputs.call is not None and any(name in inputs.goldens for name in CLI_GOLDENS):
        yield "is a call case holding stdout/stderr/exit goldens; a call answers an envelope or an error"
    if inputs.argv is not None and any(name in inputs.goldens for name in MCP_GOLDENS):
        yield "is an argv case holding an envelope or error golden; those answer a call"

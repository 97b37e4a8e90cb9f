"""``hyper check``: the page, the stream, exit codes, and how path positionals are read."""

from __future__ import annotations

import datetime as dt
import gc
import io
import weakref
from pathlib import Path

import orjson
import pytest

from hyper.cli import commands
from hyper.cli.main import main
from hyper.core.process import Process
from hyper.core.version import BuildFacts
from tests.check.repos import write

FACTS = BuildFacts(version="0.0.1-alpha")

QUICKSTART: dict[str, str | bytes] = {
    "hyper.yaml": (
        "kind: repository-declaration\nversion: 0.0.1-alpha\n"
        "digest: sha256:9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f\nretention: 90d\n"
    ),
    "targets/local.yaml": (
        "kind: target-declaration\ntarget: local\nclass: local\nkinds: [read, mutate]\ncapabilities: [shell]\n"
    ),
    "definitions/host-ops.yaml": (
        "kind: definition\ndefinition: host-ops\nprovider: shell\nkinds: [read]\ntargets: [local]\n"
    ),
    "procedures/say-hello.yaml": (
        "kind: procedure\nprocedure: say-hello\ntargets: [local]\nsteps:\n  - id: greet\n"
        "    definition: host-ops\n    operation: read\n    target: local\n    args:\n"
        "      command: [echo, hello from hyper]\n"
    ),
}


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(commands.BUILT, "check", "hyper.cli.commands.check")


def hyper(root: Path, *argv: str, wd: Path | None = None) -> tuple[int, str, str]:
    process = Process(
        environ={"HYPER_REPO_DIR": str(root)},
        getwd=lambda: str(wd or root),
        now=lambda: dt.datetime(2026, 4, 2, tzinfo=dt.UTC),
        mint=lambda at: "01991ea6-b118-7c93-8d41-6b2f7ae05c19",
        user=lambda: "igor",
        hostname=lambda: "thinkpad",
    )
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["check", *argv], out, err, process, FACTS)
    return code, out.getvalue().decode(), err.getvalue().decode()


def test_the_quickstart_checks_clean(tmp_path: Path) -> None:
    assert hyper(write(tmp_path, QUICKSTART)) == (0, "checked 5 artefacts: no problems found\n", "")


def test_the_placeholder_digest_draws_one_sentence_and_no_problem(tmp_path: Path) -> None:
    declaration = QUICKSTART["hyper.yaml"]
    assert isinstance(declaration, str)
    files = {**QUICKSTART, "hyper.yaml": declaration.replace("9f" * 32, "0" * 64)}
    code, out, err = hyper(write(tmp_path, files))
    assert (code, out) == (0, "checked 5 artefacts: no problems found\n")
    assert err.startswith("hyper check: hyper.yaml pins the all-zero placeholder digest") and err.count("\n") == 1


def test_a_clean_stream_is_the_result_row_alone(tmp_path: Path) -> None:
    assert hyper(write(tmp_path, QUICKSTART), "--json") == (0, '{"type":"result","truncated":false}\n', "")


def test_one_artefact_is_counted_in_the_singular(tmp_path: Path) -> None:
    code, out, _ = hyper(write(tmp_path, {"hyper.yaml": QUICKSTART["hyper.yaml"]}))
    assert (code, out) == (0, "checked 2 artefacts: no problems found\n")


FAULTY: dict[str, str | bytes] = {
    **QUICKSTART,
    "definitions/broken.yaml": "kind: definition\ndefinition: broken\nprovider: nowhere\ntargets: [local]\n",
    "procedures/later.yaml": 'kind: procedure\nprocedure: later\ntargets: [local]\ncadence: "0 3 * * *"\nsteps: []\n',
}


def test_problems_page_and_stream(tmp_path: Path) -> None:
    root = write(tmp_path, FAULTY)
    code, out, err = hyper(root)
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0].split() == ["FILE", "LINE", "FIELD", "ERROR_CODE", "MESSAGE"]
    assert lines[1].startswith(".github/workflows/hyper-later.yml  ")
    assert lines[1].split()[1] == "projection-stale"  # line 0 renders as an empty cell
    assert lines[2].split()[:4] == ["definitions/broken.yaml", "3", "provider", "artefact-absent"]
    code, out, _ = hyper(root, "--json")
    rows = [orjson.loads(line) for line in out.splitlines()]
    assert code == 1 and rows[-1] == {"type": "result", "truncated": False}
    assert list(rows[1]) == ["type", "file", "line", "column", "field", "error_code", "message"]
    assert rows[1]["line"] == 3 and rows[1]["column"] == 11


def test_paths_narrow_the_report_and_not_the_load(tmp_path: Path) -> None:
    root = write(tmp_path, FAULTY)
    code, out, _ = hyper(root, "--json", "definitions")
    assert code == 1 and [orjson.loads(line)["type"] for line in out.splitlines()] == ["problem", "result"]
    code, out, _ = hyper(root, "procedures/say-hello.yaml")
    assert (code, out) == (0, "checked 7 artefacts: no problems found\n")


def test_paths_are_read_against_the_repository_root(tmp_path: Path) -> None:
    root = write(tmp_path / "repo", FAULTY)
    (tmp_path / "elsewhere").mkdir()
    code, _, err = hyper(root, "definitions/broken.yaml", wd=tmp_path / "elsewhere")
    assert (code, err) == (1, "")


@pytest.mark.parametrize(
    ("path", "sentence"),
    [
        ("definitions/typo.yaml", "hyper check: definitions/typo.yaml: no such file or directory\n"),
        ("../elsewhere/definitions/a.yaml", "hyper check: ../elsewhere/definitions/a.yaml: outside the repository\n"),
        ("", "hyper check: an empty path names no file\n"),
    ],
)
def test_a_path_naming_nothing_checkable_is_a_usage_error(tmp_path: Path, path: str, sentence: str) -> None:
    assert hyper(write(tmp_path, FAULTY), path) == (2, "", sentence)


def test_the_pin_gate_comes_before_the_paths(tmp_path: Path) -> None:
    root = write(tmp_path, {**QUICKSTART, "hyper.yaml": "kind: repository-declaration\nversion: 9.9.9\ndigest: d\n"})
    code, out, err = hyper(root, "definitions/typo.yaml")
    assert (code, out) == (77, "") and "version-pin-mismatch" in err


def test_check_leaves_nothing_frozen_for_a_long_lived_caller(tmp_path: Path) -> None:
    """``hyper mcp`` runs check in its own process: a cycle made before the call stays collectable."""

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    frozen = gc.get_freeze_count()
    alive = weakref.ref(Cycle())
    assert hyper(write(tmp_path, QUICKSTART))[0] == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    gc.collect()
    assert alive() is None

"""The four discovery commands on the paths the corpus does not pin.

The ordinary answers (the five-artefact demo, the built-in, the widget Operations,
truncation by ``--limit``, the usage errors) are corpus cases under ``corpus/``;
what is here needs a repository built on the fly or a property checked over every
output at once.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from pathlib import Path

import orjson
import pytest

from hyper.cli import commands
from hyper.cli.main import main
from hyper.cli.tree import LISTING_LIMIT
from hyper.core.version import BuildFacts
from tests.fixed import fixed_process

FACTS = BuildFacts(version="1.4.0")
PIN = "kind: repository-declaration\nversion: 1.4.0\ndigest: sha256:00\n"
DISCOVERY = ("providers", "provider", "operation", "targets")

WIDGET = """\
kind: provider
provider: {name}
schema-version: 1
class: widgetco
capabilities: [http]
operations:
  list_widgets:
    kind: read
    deadline: 30s
    http: {{method: GET, host: "{{from-target}}", path: /widgets}}
    record: {{identity: $.id}}
"""


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in DISCOVERY:
        monkeypatch.setitem(commands.BUILT, name, f"hyper.cli.commands.{name}")


def repository(root: Path, files: dict[str, str]) -> Path:
    for rel, body in {"hyper.yaml": PIN, **files}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    return root


def hyper(root: Path, *argv: str, **env: str) -> tuple[int, str, str]:
    process = fixed_process(str(root), env, dt.datetime(2026, 4, 2, tzinfo=dt.UTC))
    out, err = io.BytesIO(), io.BytesIO()
    code = main([argv[0], "--repo-dir", str(root), *argv[1:]], out, err, process, FACTS)
    return code, out.getvalue().decode(), err.getvalue().decode()


def rows(stdout: str) -> list[dict[str, object]]:
    return [orjson.loads(line) for line in stdout.splitlines()]


def test_the_default_limit_is_named_when_it_cuts(tmp_path: Path) -> None:
    files = {f"providers/p{i:02}.yaml": WIDGET.format(name=f"p{i:02}") for i in range(LISTING_LIMIT)}
    code, out, err = hyper(repository(tmp_path, files), "providers", "--json")
    assert code == 0
    answer = rows(out)
    assert len(answer) == LISTING_LIMIT + 1 and answer[-1] == {"type": "result", "truncated": True}
    assert "shell" not in [r.get("name") for r in answer]  # p00..p49 sort before it
    assert err == (
        f"hyper providers: returned {LISTING_LIMIT} of {LISTING_LIMIT + 1} Providers; 1 dropped by the default "
        f"limit of {LISTING_LIMIT} — name a larger --limit for the rest\n"
    )


def test_no_credential_value_reaches_any_output(tmp_path: Path) -> None:
    root = repository(
        tmp_path,
        {"targets/t.yaml": "kind: target-declaration\ntarget: t\nauth:\n  token: {env: T_TOKEN}\n"},
    )
    for argv in (("targets",), ("targets", "--json")):
        code, out, err = hyper(root, *argv, T_TOKEN="s3cr3t-value")
        assert code == 0 and "s3cr3t-value" not in out + err
        assert "T_TOKEN" in out
    assert rows(hyper(root, "targets", "--json", T_TOKEN="")[1])[0]["credentials"] == [
        {"slot": "token", "env": "T_TOKEN", "presence": "empty"}  # set to nothing is not set
    ]
    assert rows(hyper(root, "targets", "--json")[1])[0] == {
        "type": "target",
        "name": "t",
        "credentials": [{"slot": "token", "env": "T_TOKEN", "presence": "absent"}],
    }


@pytest.mark.parametrize(
    "command", [("providers",), ("provider", "shell"), ("operation", "shell", "read"), ("targets",)]
)
def test_a_repository_that_cannot_be_listed_is_a_usage_error(tmp_path: Path, command: tuple[str, ...]) -> None:
    root = repository(tmp_path, {"providers": "a file where a directory belongs\n"})
    code, out, err = hyper(root, *command)
    assert (code, out) == (2, "")
    assert err.startswith(f"hyper {command[0]}: providers") and err.endswith("\n")


def test_an_installed_manifest_states_its_origin(tmp_path: Path) -> None:
    origin = "origin:\n  ref: registry.example/widget@1\n  digest: sha256:abc\n"
    root = repository(tmp_path, {"providers/w.yaml": WIDGET.format(name="w") + origin})
    code, out, _ = hyper(root, "provider", "--json", "w")
    assert code == 0
    header = rows(out)[0]
    assert list(header) == [
        "type",
        "auth_scheme",
        "capabilities_required",
        "digest",
        "schema_version",
        "origin_ref",
        "origin_digest",
    ]
    assert (header["origin_ref"], header["origin_digest"]) == ("registry.example/widget@1", "sha256:abc")
    page = hyper(root, "provider", "w")[1]
    assert "ORIGIN REF      registry.example/widget@1\nORIGIN DIGEST   sha256:abc\n" in page


def test_a_manifest_stating_little_states_only_that(tmp_path: Path) -> None:
    text = "kind: provider\nprovider: vague\nauth: nope\noperations:\n  o:\n    deadline: soon\n"
    root = repository(tmp_path, {"providers/vague.yaml": text})
    header, operation, _ = rows(hyper(root, "provider", "--json", "vague")[1])
    assert list(header) == ["type", "digest"]
    assert operation == {"type": "operation", "name": "o", "kind": "", "opaque": False, "summary": "projects no Record"}
    detail = rows(hyper(root, "operation", "--json", "vague", "o")[1])[0]
    assert detail["derived"] == {"patterns_resolved": [], "concurrency_limit": 1}
    code, page, _ = hyper(root, "operation", "vague", "o")
    assert code == 0 and page == "  o:\n    deadline: soon\n\nDEADLINE           soon\nCONCURRENCY LIMIT  1\n"


def test_a_source_without_a_final_newline_is_ended_on_the_page_only(tmp_path: Path) -> None:
    root = repository(tmp_path, {"providers/w.yaml": WIDGET.format(name="w").rstrip("\n")})
    detail = rows(hyper(root, "operation", "--json", "w", "list_widgets")[1])[0]
    assert isinstance(detail["source"], str) and detail["source"].endswith("{identity: $.id}")
    page = hyper(root, "operation", "w", "list_widgets")[1]
    assert "    record: {identity: $.id}\n\nCAPABILITIES" in page


def test_a_declared_read_concurrency_is_the_limit(tmp_path: Path) -> None:
    text = WIDGET.format(name="w").replace("deadline: 30s", "deadline: 30s\n    concurrency: 8")
    root = repository(tmp_path, {"providers/w.yaml": text})
    detail = rows(hyper(root, "operation", "--json", "w", "list_widgets")[1])[0]
    assert isinstance(detail["derived"], dict) and detail["derived"]["concurrency_limit"] == 8


def test_the_built_in_row_is_the_one_its_manifest_would_give() -> None:
    """``providers`` spells the built-in's row from the build's constants; read through the
    Manifest model like any Extension, it is the same row."""
    from hyper.artefact import builtin
    from hyper.cli.commands.providers import provider_row, shell_row

    assert shell_row() == provider_row("shell", builtin.shell())


def test_a_providers_page_nobody_reads_is_not_drawn(tmp_path: Path) -> None:
    """Through an MCP tool whose reading shows no page, ``providers`` draws none; its rows, its
    terminal row and all it says are the same as when it does."""
    import attrs

    from hyper.cli.main import dispatch
    from hyper_mcp import Call

    root = repository(tmp_path, {"providers/w.yaml": WIDGET.format(name="w")})
    answered = dispatch(fixed_process(str(root), {}, dt.datetime(2026, 4, 2, tzinfo=dt.UTC)), FACTS)
    drawn, undrawn = (answered(Call(("providers", "--repo-dir", str(root)), drawn=d)) for d in (True, False))
    assert drawn.rendering.startswith("NAME ") and len(drawn.rows) == 2
    assert undrawn == attrs.evolve(drawn, rendering="")


@pytest.mark.parametrize(
    "argv",
    [("provider", "shell"), ("operation", "shell", "destroy"), ("targets",), ("check",)],
    ids=lambda argv: argv[0],
)
def test_hyper_yaml_is_read_once_for_the_gate_and_the_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...]
) -> None:
    root = repository(tmp_path, {})
    opened: list[str] = []
    open_ = os.open

    def counted(path: str, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if os.path.basename(path) == "hyper.yaml":
            opened.append(path)
        return open_(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", counted)
    code, _, err = hyper(root, *argv)
    assert (code, err) == (0, "")
    assert len(opened) == 1


def test_the_load_reads_the_bytes_the_gate_judged(tmp_path: Path) -> None:
    # A fault the gate ignores (hyper.yaml's other keys are check's) is one check reports.
    root = repository(tmp_path, {})
    assert hyper(root, "check")[0] == 0
    (root / "hyper.yaml").write_text(PIN + "retention:\n")
    code, out, _ = hyper(root, "check", "--json")
    assert code == 1
    assert {row["file"] for row in rows(out) if row["type"] == "problem"} == {"hyper.yaml"}

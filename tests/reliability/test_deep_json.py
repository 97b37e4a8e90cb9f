"""JSON nested 1,500, 9,999 and 10,001 levels deep through ``run``, ``probe --response``,
``records`` and ``changes`` (issue #12 §6, ADR 0030): read and written to Go's ten thousand,
refused past it with a sentence, never a traceback, and no Run's entry left open.

A level is one array or object of the document being decoded: the response body for ``run``,
the response object for ``probe --response``, the Record's file for ``records`` and ``changes``.
"""

from __future__ import annotations

import io
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest

from hyper.cli.main import main
from hyper.core.deepjson import GO_DEPTH
from hyper.store.canonical import encode
from tests.probe.test_probe import HOST, PROVIDER, _hyper, _repository
from tests.run.support import ECHO, FACTS, Answered, build, entry_files, process, scripts, serve
from tests.run.test_run import FLEET
from tests.store.support import reference_store, seed

DEPTHS = (1_500, 9_999, 10_001)
TOO_DEEP = f"nest more than {GO_DEPTH} levels deep, deeper than hyper reads"


def _nested(levels: int) -> bytes:
    """A list ``levels`` deep: the innermost is empty."""
    return b"[" * levels + b"]" * levels


def _main(argv: list[str], root: Path, the_process: object) -> tuple[int, bytes, bytes]:
    out, err = io.BytesIO(), io.BytesIO()
    code = main([argv[0], "--repo-dir", str(root), *argv[1:]], out, err, the_process, FACTS)  # type: ignore[arg-type]
    return code, out.getvalue(), err.getvalue()


def _fleet(field: str) -> dict[str, str]:
    artefacts = dict(FLEET)
    artefacts["providers/fleet.yaml"] = artefacts["providers/fleet.yaml"].replace(
        "status: $.status\n", f"status: $.status\n        deep: {field}\n"
    )
    artefacts["procedures/sweep.yaml"] = artefacts["procedures/sweep.yaml"].replace("[n1, n2, n3, n4, n5, n6]", "[n1]")
    return artefacts


def _recorded(root: Path) -> list[bytes]:
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "hyper-store", "records/fleet/"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return [
        subprocess.run(["git", "show", f"hyper-store:{n}"], cwd=root, check=True, capture_output=True).stdout
        for n in names
    ]


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_run_reads_a_deep_body_and_records_from_it(tmp_path: Path, levels: int) -> None:
    """The body ``{"ok": true, "deep": [...]}`` nests ``levels`` deep. At 1,500 its ``deep``
    member is recorded whole and read back by ``records`` and ``changes``; deeper, only ``ok``
    is recorded, since the canonical file of a value ten thousand deep is some 200 MB of
    indentation. Past ten thousand the body is no JSON hyper reads: an absent member, as a
    body that is no JSON at all is, so ``ok`` resolves to nothing."""
    whole = levels < 2_000
    root = build(tmp_path, _fleet("$.body.deep" if whole else "$.body.ok"))
    body = b'{"ok":true,"deep":' + _nested(levels - 1) + b"}"
    with serve(tmp_path, lambda _: Answered(200, body)) as served:
        the_process = process(root, scripts(tmp_path, echo=ECHO))._replace(dial=served.dial)
        code, _, err = _main(["run", "sweep"], root, the_process)
        assert (code, b"Traceback" in err) == (0, False), err
        assert entry_files(root).count("outcome.json") == 1
        [record] = _recorded(root)
        if whole:
            assert record.count(b"[") == levels - 1
        else:
            assert (b'"deep": true' in record) == (levels <= GO_DEPTH), record
        for argv in (["records"], ["changes", "--json"]):  # the other two readings: the test below
            code, out, err = _main(argv, root, the_process)
            assert (code, err) == (0, b""), (argv, err)
            assert b"n1" in out


def test_a_record_no_reader_could_read_back_is_not_written_and_the_run_closes(tmp_path: Path) -> None:
    """A body as deep as the reader admits, recorded whole: its Record is two levels deeper."""
    root = build(tmp_path, _fleet("$.body"))
    with serve(tmp_path, lambda _: Answered(200, _nested(GO_DEPTH))) as served:
        the_process = process(root, scripts(tmp_path, echo=ECHO))._replace(dial=served.dial)
        code, out, err = _main(["run", "sweep"], root, the_process)
    said = f"the Record fleet/fleet-health/n1 and its fields {TOO_DEEP}".encode()
    assert code == 1 and said in out and err.endswith(b"hyper run: " + said + b"\n"), err
    assert entry_files(root) == ["outcome.json", "run.json"]
    assert (
        b'"outcome": "failed"'
        in subprocess.run(
            ["git", "show", f"hyper-store:journal/{_entry(root)}/outcome.json"],
            cwd=root,
            check=True,
            capture_output=True,
        ).stdout
    )
    assert _recorded(root) == []


def _entry(root: Path) -> str:
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "hyper-store", "journal/"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return names[0].removeprefix("journal/").rsplit("/", 1)[0]


@pytest.mark.parametrize("levels", DEPTHS)
def test_probe_reads_a_deep_response_sample_or_refuses_it_in_a_sentence(tmp_path: Path, levels: int) -> None:
    root = _repository(tmp_path)
    (root / "providers" / "api.yaml").write_text(
        PROVIDER.replace(
            "fields: {ok: $.body.ok, token: $.body.token}\n    secret: [token]\n",
            "fields: {ok: $.body.ok, deep: $.body.deep}\n",
        )
    )
    sample = b'{"host":"' + HOST.encode() + b'","body":{"ok":true,"deep":' + _nested(levels - 2) + b"}}"
    (root / "samples" / "deep.json").write_bytes(sample)

    def never(host: str, port: int, timeout: float | None) -> object:
        raise AssertionError("a supplied response dials nothing")

    for extra in ([], ["--json"]):
        code, out, err = _hyper(root, never, "api", "status", "--response", "samples/deep.json", *extra)  # type: ignore[arg-type]
        if levels <= GO_DEPTH:
            assert (code, err) == (0, ""), err
            assert out.count("[") >= levels - 2
        else:
            assert (code, out) == (2, "")
            said = "the supplied response is not one JSON value: arrays and objects"
            assert err == f"hyper probe: --response samples/deep.json: {said} {TOO_DEEP}\n"


@pytest.mark.parametrize("levels", (1_500, 10_001))
def test_records_and_changes_read_a_deep_record_or_name_it(tmp_path: Path, levels: int) -> None:
    """A Record file nesting ``levels`` deep, as another writer left it. 9,999 is held at the
    reader (tests/store/test_deepjson.py): its canonical file is some 200 MB. Past ten
    thousand the refusal comes before the canonical check, so the file needs no indentation."""
    root = build(tmp_path)
    files = reference_store()
    name = next(n for n in files if n.startswith("records/cloudflare-prod/legacy-dns/preview-8"))
    value = orjson.loads(files[name])
    value["fields"]["zone"] = "PLACEHOLDER"
    zone = b'{"a":' * (levels - 2) + b'"example.com"' + b"}" * (levels - 2)  # the file and fields: two levels
    shallow = encode(value)
    files[name] = encode(_deepened(value, levels - 2)) if levels < 2_000 else shallow.replace(b'"PLACEHOLDER"', zone)
    seed(root, files)
    the_process = process(root, tmp_path / "bin")
    for argv in (["records"], ["records", "--json"]):
        code, out, err = _main(argv, root, the_process)
        assert b"Traceback" not in err
        if levels <= GO_DEPTH:
            assert code == 0 and b"preview-8" in out, err
        else:
            assert (code, out) == (1, b"")
            assert err.startswith(f"hyper records: {name}: arrays and objects {TOO_DEEP}".encode()), err
    for argv in (["changes"], ["changes", "--json"]):
        code, _, err = _main(argv, root, the_process)
        assert (code, err) == (0, b"")


def _deepened(value: dict[str, Any], levels: int) -> dict[str, Any]:
    deep: object = "example.com"
    for _ in range(levels):
        deep = {"a": deep}
    value["fields"]["zone"] = deep
    return value

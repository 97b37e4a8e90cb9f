"""JSON read to Go's depth without Python recursion, and refused past it with a sentence (ADR 0012)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from hyper.cli.main import main
from hyper.core.faults import TooDeep
from hyper.store.canonical import parse
from hyper.store.deepjson import GO_DEPTH, _loop, loads
from tests.run.support import FACTS, build, process
from tests.store.support import reference_store, seed

SAMPLES = (
    '{"a": [1, 2.5, -3e2, "x\\u00e9\\n", true, false, null, {}, []], "b": {"c": "d"}, "b": 2}',
    "[]", '"s"', "12", "-0.0", ' [ 1 , { "k" : [ ] } ] ',
)


def _refuse(name: str) -> Any:
    raise ValueError(name)


@pytest.mark.parametrize("text", SAMPLES)
def test_the_loop_reads_what_the_standard_library_reads(text: str) -> None:
    assert _loop(text, _refuse, 100) == json.loads(text)


@pytest.mark.parametrize("text", ["[1,]", '{"a" 1}', "[1 2]", "[", '{"a":1', "nul", "[1]x", "", "NaN", "[01]"])
def test_the_loop_refuses_what_the_standard_library_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        _loop(text, _refuse, 100)


def test_ten_thousand_levels_read_and_one_more_is_refused() -> None:
    deepest = "[" * GO_DEPTH + "]" * GO_DEPTH
    value = loads(deepest, _refuse)
    for _ in range(GO_DEPTH - 1):
        value = value[0]
    assert value == []
    with pytest.raises(TooDeep, match="more than 10000 levels deep"):
        loads("[" * (GO_DEPTH + 1) + "]" * (GO_DEPTH + 1), _refuse)
    with pytest.raises(ValueError, match="more than 10000 levels deep"):
        parse(("{\"a\":" * (GO_DEPTH + 1) + "1" + "}" * (GO_DEPTH + 1)).encode())


def test_a_record_nested_deeper_than_the_writer_is_a_sentence_not_a_traceback(tmp_path: Path) -> None:
    root = build(tmp_path)
    files = reference_store()
    name = next(n for n in files if n.startswith("records/cloudflare-prod/legacy-dns/preview-8"))
    files[name] = files[name].replace(b'"zone": "example.com"', b'"zone": ' + b'{"a":' * 1500 + b"1" + b"}" * 1500)
    seed(root, files)
    said = f"hyper records: {name}: the file nests deeper than hyper's canonical writer reaches".encode()
    for argv, wanted in ((["records"], 1), (["records", "--json"], 1), (["changes"], 0)):
        out, err = io.BytesIO(), io.BytesIO()
        code = main([*argv, "--repo-dir", str(root)], out, err, process(root, tmp_path / "bin"), FACTS)
        assert code == wanted, err.getvalue()
        assert err.getvalue().startswith(said) if wanted else err.getvalue() == b""

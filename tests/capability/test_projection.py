"""The ``$.`` resolver, the template filler and the host reach: the pieces a Run and a Probe share."""

from __future__ import annotations

import pytest

from hyper.capability import projection, reach
from hyper.capability.projection import FieldPath, Position, Projection
from hyper.capability.template import body, fill
from hyper.core.faults import TemplateFault
from hyper.yaml.subset import parse

RESPONSE = {
    "host": "api.example",
    "status": 200,
    "headers": {"content-type": "application/json", "x-rate": "9"},
    "body": {"error": None, "items": [{"id": "a", "n": 1}, {"id": "b"}], "odd key": {"x.y": 2}, "text": "hi"},
}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("$", ()),
        ("$.body.items", ("body", "items")),
        ('$.headers["content-type"]', ("headers", "content-type")),
        ('$.body["odd key"]["x.y"]', ("body", "odd key", "x.y")),
        ("$.body.", None),
        ("body.items", None),
        ("$.body[0]", None),
        ("$..x", None),
    ],
)
def test_the_grammar_is_members_and_nothing_else(path: str, expected: tuple[str, ...] | None) -> None:
    assert projection.segments(path) == expected


def test_resolved_to_null_is_not_resolved_to_nothing() -> None:
    assert projection.resolve("$.body.error", RESPONSE) == (True, None)
    assert projection.resolve("$.body.missing", RESPONSE) == (False, None)
    assert projection.resolve("$.body.text.length", RESPONSE) == (False, None)  # a scalar has no members
    assert projection.resolve('$.headers["x-rate"]', RESPONSE) == (True, "9")
    assert projection.resolve("$", RESPONSE) == (True, RESPONSE)


def test_a_collection_that_is_not_a_list_is_empty_and_one_that_is_absent_is_none() -> None:
    assert projection.collection("$.body.items", RESPONSE) == [{"id": "a", "n": 1}, {"id": "b"}]
    assert projection.collection("$.body.text", RESPONSE) == []
    assert projection.collection("$.body.nothing", RESPONSE) is None


def test_an_identity_is_a_path_or_a_template() -> None:
    assert projection.identity("$.host", {}, RESPONSE) == "api.example"
    assert projection.identity("$.status", {}, RESPONSE) == "200"
    assert projection.identity("$.body.error", {}, RESPONSE) == "null"
    assert projection.identity("$.body.nothing", {}, RESPONSE) is None
    assert projection.identity("{name}", {"name": "preview-42"}, RESPONSE) == "preview-42"
    assert projection.identity("{name}", {}, RESPONSE) is None
    assert projection.identity("", {}, RESPONSE) is None


def test_a_reading_names_each_missing_position_once() -> None:
    read = Projection("$.id", (FieldPath("id", "$.id"), FieldPath("n", "$.n")), "$.body.items")
    reading = read.against({}, RESPONSE)
    assert [r.name for r in reading.records] == ["a", "b"]
    assert reading.records[1].fields == {"id": "b"}
    assert reading.unresolved == (Position("n", "$.n"),) and reading.over_is_list
    landed = Projection("$.id", (FieldPath("id", "$.id"),), "$.body.text").against({}, RESPONSE)
    assert landed.records == () and not landed.over_is_list
    assert landed.unresolved == (Position("identity:", "$.id"), Position("id", "$.id"))
    missing = Projection("$.id", (), "$.body.nothing").against({}, RESPONSE)
    assert missing.unresolved == (Position("over:", "$.body.nothing"),)


def test_fields_keep_the_manifests_order() -> None:
    paths = (FieldPath("z", "$.status"), FieldPath("a", "$.host"), FieldPath("gone", "$.nope"))
    assert list(projection.fields(paths, RESPONSE)) == ["z", "a"]


def test_text_is_a_string_as_itself_and_anything_else_as_compact_json() -> None:
    assert projection.text("a & <b>") == "a & <b>"
    assert projection.text({"b": [1, True, None]}) == '{"b":[1,true,null]}'
    assert projection.text(2**70) == str(2**70)


def test_a_hole_nothing_fills_is_a_fault_not_an_empty_string() -> None:
    assert fill("path:", "/zones/{zone}/x{n}", {"zone": "z", "n": 1.5}) == "/zones/z/x1.5"
    assert fill("path:", "/{flag}", {"flag": False}) == "/false"
    with pytest.raises(TemplateFault, match='"zone"'):
        fill("path:", "/zones/{zone}", {})


def _node(text: str):  # type: ignore[no-untyped-def]
    parsed = parse(text.encode(), "x.yaml")
    assert parsed.root is not None
    return parsed.root


def test_a_body_types_each_scalar_by_what_the_reviewer_reads() -> None:
    tree = _node('{a: "{n}", b: "n={n}", c: 010, d: 1.50, e: "1.50", f: [true, FALSE], g: {h: 0o17, i: text}}\n')
    assert (
        body(tree, {"n": 7}) == b'{"a":7,"b":"n=7","c":10,"d":1.5,"e":"1.50","f":[true,false],"g":{"h":15,"i":"text"}}'
    )
    with pytest.raises(TemplateFault):
        body(_node("{a: .inf}\n"), {})


def test_the_one_host_is_where_the_candidates_meet_the_grant() -> None:
    enumerations = {"region": ("eu", "us")}
    assert reach.resolve("{from-target}", {}, ["a.example"], "", {}) == reach.Reach("granted", "a.example")
    assert reach.resolve("{from-target}", {}, ["a", "b"], "", {}).verdict == "undecidable"
    assert reach.resolve("{from-target}", {}, ["a", "b"], "host", {"host": "b"}) == reach.Reach("granted", "b")
    assert reach.resolve("{from-target}", {}, ["a", "b"], "host", {"host": "c"}) == reach.Reach("outside", "c")
    assert reach.resolve("api.{region}.example", enumerations, ["api.eu.example"], "", {}).host == "api.eu.example"
    assert reach.resolve("api.{nope}.example", enumerations, ["x"], "", {}).verdict == "illegible"
    assert reach.resolve("{from-target}", {}, [], "", {}) == reach.Reach("outside", "")
    assert reach.resolve("fixed.example", {}, [], "", {}) == reach.Reach("outside", "fixed.example")

"""One slip, and the row it leads with says what to fix (#17).

The reference reports every row a slip causes, in file-then-line order, and so does hyper;
what is ours is that the leading row names the remedy."""

from __future__ import annotations

from hyper.check.schema import STRING, Schema, check, prop
from hyper.yaml.subset import parse

PATH = Schema("object", properties=(prop("path", STRING, required=True),))


def _messages(text: str) -> list[str]:
    parsed = parse(text.encode(), "p.yaml")
    return [problem.message for problem in check(parsed.root, PATH, "p.yaml")]


def test_an_unquoted_hole_says_to_quote_it() -> None:
    assert _messages("path: {id}\n") == [
        "this position takes a string, and {id} unquoted is a YAML mapping of keys with no value — quote a value"
        ' that starts with {: "{id}"'
    ]


def test_two_unquoted_holes_are_quoted_together() -> None:
    assert _messages("path: {zone, id}\n")[0].endswith('"{zone, id}"')


def test_a_mapping_with_values_is_no_hole() -> None:
    assert _messages("path: {id: 7}\n") == ["this position takes a string"]


def test_a_block_mapping_is_no_hole() -> None:
    assert _messages("path:\n  id: x\n") == ["this position takes a string"]


def test_a_quoted_hole_is_a_string() -> None:
    assert _messages('path: "{id}"\n') == []

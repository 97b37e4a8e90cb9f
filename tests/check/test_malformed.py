"""Whatever an artefact file holds, ``check`` answers with problems or a clean run — never a traceback.

Files are generated three ways: valid artefacts bent at a random position (the likeliest
way to reach the deep rules with a wrong shape), arbitrary YAML trees built from the
format's own key vocabulary, and raw bytes (non-UTF-8, control characters, truncated
YAML). Huge scalars and deep nesting are in the trees on purpose.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hyper.check import codes
from tests.check.repos import BASE, PROVIDER, check, procedure
from tests.depth import examples

_KEY_WORDS = (
    "kind definition provider procedure target targets kinds destroy steps id operation args over bound when "
    "require values assets observations field step equals not_equals in exists absent starts_with older_than "
    "greater_than command item path capabilities hosts auth env class operations http shell record identity "
    "fields input properties type items enum patterns pagination cursor page from into query header polling "
    "until retry attempts secret origin ref digest schema-version enumerations method host host-input headers "
    "body deadline repeatability concurrency cadence version retention opaque-destroy name prefix basic"
)
KEYS = tuple(_KEY_WORDS.split())
WORDS = [
    "read", "mutate", "destroy", "http", "shell", "{from-target}", "{id}", "{nope}", "$", "$.id", "$.body.x",
    "local", "p", "t", "ro", "box", "reader", "writer", "get", "list", "put", "delete", "true", "false", "0",
    "-1", "2", "99999999999999999999", "10s", "1d12h", "@daily", "0 3 * * *", "", "Host", "a\u00e9\u4e2d",
    "x" * 5000,
]  # fmt: skip

SAMPLES: list[Any] = [
    yaml.safe_load(text)
    for text in (
        *BASE.values(),
        PROVIDER,
        *procedure(
            "go",
            "  - id: all\n    definition: reader\n    operation: list\n    target: t\n"
            "  - id: one\n    definition: reader\n    operation: get\n    target: t\n"
            "    args: {id: {step: all, path: $.id}}\n    when: {step: all, field: name, in: [a, b]}\n"
            "  - id: gone\n    definition: writer\n    operation: delete\n    target: t\n"
            "    over: {values: [a, b]}\n    bound: 2\n    args: {id: {item: $}}\n"
            "  - id: sub\n    procedure: go\n  - id: sound\n    require: {step: all, field: id, exists: true}\n",
            cadence="0 3 * * 1",
        ).values(),
    )
]
LOCATIONS = ("hyper.yaml", "definitions/x.yaml", "procedures/x.yaml", "providers/x.yaml", "targets/x.yaml")

scalars = st.one_of(st.sampled_from(WORDS), st.text(max_size=20), st.integers().map(str))
trees = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(min_size=1, max_size=8)), inner, max_size=5),
    ),
    max_leaves=30,
)


def _bend(tree: Any, path: list[int], replacement: Any) -> Any:
    """``tree`` with the node ``path`` leads to (choices taken modulo each level's width) replaced."""
    if not path or not isinstance(tree, (dict, list)) or not tree:
        return replacement
    head, rest = path[0], path[1:]
    if isinstance(tree, list):
        i = head % len(tree)
        return [*tree[:i], _bend(tree[i], rest, replacement), *tree[i + 1 :]]
    key = list(tree)[head % len(tree)]
    return {**tree, key: _bend(tree[key], rest, replacement)}


bent = st.builds(_bend, st.sampled_from(SAMPLES), st.lists(st.integers(min_value=0, max_value=50), max_size=6), trees)
deep = st.integers(min_value=50, max_value=3000).map(lambda depth: "kind: " + "[" * depth + "]" * depth + "\n")
texts = st.one_of(
    bent.map(lambda tree: yaml.safe_dump(tree, allow_unicode=True)),
    trees.map(lambda tree: yaml.safe_dump(tree, allow_unicode=True)),
    deep,
)
contents = st.one_of(texts.map(str.encode), st.binary(max_size=200), texts.map(lambda t: t.encode()[: len(t) // 2]))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(LOCATIONS), contents, min_size=1, max_size=3))
def test_any_file_is_answered_with_problems_or_a_clean_run(files: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        found = check(Path(directory), dict(files))
    for problem in found:
        assert problem.error_code in codes.CODES
        assert problem.line >= 0 and problem.column >= 0
        assert problem.message

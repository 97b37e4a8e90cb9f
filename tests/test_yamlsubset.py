"""The strict YAML subset: the tree it builds, the constructs it refuses, and that it never raises."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hyper.yaml import subset as yamlsubset
from hyper.yaml.subset import ERROR_CODE, Map, Parsed, Scalar, Seq, YamlFault, load, parse
from tests.depth import examples


def faults(src: str) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.field) for f in parse(src.encode(), "f.yaml").faults]


def tree(src: str) -> yamlsubset.Node | None:
    parsed = parse(src.encode(), "f.yaml")
    assert parsed.ok and not parsed.faults, parsed.faults
    return parsed.root


def test_scalars_stay_text_whatever_yaml_would_type_them() -> None:
    root = tree("a: yes\nb: 0x1\nc: 1e3\nd: on\ne: 0755\nf: 2026-01-01\ng: true\n")
    assert isinstance(root, Map)
    assert [v.value for _, v in root.entries if isinstance(v, Scalar)] == [
        "yes",
        "0x1",
        "1e3",
        "on",
        "0755",
        "2026-01-01",
        "true",
    ]


def test_positions_are_one_based_and_point_at_the_node() -> None:
    root = tree("kind: provider\nops:\n  - {a: 'x'}\n  - [1, 2]\n")
    assert isinstance(root, Map)
    assert (root.line, root.column, root.flow) == (1, 1, False)
    key, value = root.entries[0]
    assert (key.line, key.column, value.line, value.column) == (1, 1, 1, 7)
    ops = root.value("ops")
    assert isinstance(ops, Seq) and (ops.line, ops.column) == (3, 3)
    first, second = ops.items
    assert isinstance(first, Map) and first.flow and (first.line, first.column) == (3, 5)
    assert first.scalar("a") == Scalar(("x", "single", 3, 9))
    assert isinstance(second, Seq) and second.flow


@pytest.mark.parametrize(
    ("src", "style"),
    [
        ("a: x", "plain"),
        ("a: 'x'", "single"),
        ('a: "x"', "double"),
        ("a: |\n  x\n", "literal"),
        ("a: >\n  x\n", "folded"),
    ],
)
def test_scalar_styles(src: str, style: str) -> None:
    root = tree(src)
    assert isinstance(root, Map)
    value = root.scalar("a")
    assert value is not None and value.style == style


def test_map_helpers() -> None:
    root = tree("a: 1\nb: [x]\n")
    assert isinstance(root, Map)
    assert root.keys() == ("a", "b")
    assert root.get("a") == (Scalar(("a", "plain", 1, 1)), Scalar(("1", "plain", 1, 4)))
    assert root.scalar("b") is None and isinstance(root.value("b"), Seq)
    assert root.get("zz") is None and root.value("zz") is None


def test_empty_and_comment_only_files_are_no_document() -> None:
    assert parse(b"", "f.yaml") == Parsed(None, (), True)
    assert load(b"# nothing here\n", "f.yaml") is None


def test_each_refused_construct_is_its_own_fault_at_its_node() -> None:
    src = "a: &x 1\nb: *x\n<<: {c: 1}\nd: !!str 3\na: 2\ne: [~, &y {f: }]\ng: null\nh: 'null'\n"
    assert faults(src) == [
        (1, 4, "a"),  # anchor
        (2, 4, "b"),  # alias
        (3, 1, "<<"),  # merge key
        (4, 4, "d"),  # tag
        (5, 1, "a"),  # duplicate key, on the second spelling
        (6, 5, "e[0]"),  # ~
        (6, 8, "e[1]"),  # anchor on a collection
        (6, 15, "e[1].f"),  # a key with no value
        (7, 4, "g"),  # null spelled out
    ]


def test_a_fault_keeps_the_tree_so_later_checks_still_read_it() -> None:
    parsed = parse(b"a:\nb: 2\n", "f.yaml")
    assert parsed.ok and len(parsed.faults) == 1
    assert isinstance(parsed.root, Map) and parsed.root.keys() == ("a", "b")
    assert isinstance(load(b"a:\nb: 2\n", "f.yaml"), YamlFault)


def test_a_second_document_is_refused_and_only_the_first_is_kept() -> None:
    parsed = parse(b"a: 1\n---\nb: 2\n", "f.yaml")
    assert [(f.line, f.column) for f in parsed.faults] == [(2, 1)]
    assert isinstance(parsed.root, Map) and parsed.root.keys() == ("a",)


def test_a_collection_as_key_is_refused_and_dropped() -> None:
    parsed = parse(b"? [k]\n: v\nz: 1\n", "f.yaml")
    assert [f.line for f in parsed.faults] == [1]
    assert isinstance(parsed.root, Map) and parsed.root.keys() == ("z",)


def test_a_quoted_merge_key_is_an_ordinary_key() -> None:
    root = tree("'<<': 1\n")
    assert isinstance(root, Map) and root.keys() == ("<<",)


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"a: [1\n", 1),
        (b"a:\n\tb: 1\n", 2),
        (b"k: v\n  bad: x\n", 2),
        (b"a: 1\nb: 2\nc: \xff\n", 3),
        (b"a: \x01\n", 1),
    ],
)
def test_a_file_that_is_not_yaml_is_one_fault_and_no_tree(data: bytes, line: int) -> None:
    parsed = parse(data, "dir/f.yaml")
    assert not parsed.ok and parsed.root is None and len(parsed.faults) == 1
    fault = parsed.faults[0]
    assert (fault.file, fault.line, fault.column) == ("dir/f.yaml", line, 1)
    assert fault.message


def test_a_byte_order_mark_is_skipped() -> None:
    root = tree("\ufeffa: b\n")
    assert isinstance(root, Map) and root.entries[0][0].column == 1


def test_a_fault_reads_as_a_problem_row() -> None:
    fault = parse(b"a: ~\n", "targets/x.yaml").faults[0]
    problem = fault.to_problem()
    assert (problem.file, problem.line, problem.column, problem.field, problem.error_code) == (
        "targets/x.yaml",
        1,
        4,
        "a",
        ERROR_CODE,
    )
    assert ERROR_CODE == "strict-yaml-violation"


_YAMLISH = st.text(
    alphabet=st.sampled_from(list("ab:- \n\t'\"[]{},#&*!?|>~%@`\\<0\x00\x85\u2028\ufeffé")),
    max_size=60,
)


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=80), _YAMLISH.map(lambda s: s.encode("utf-8", "surrogatepass"))))
def test_any_bytes_answer_a_value_and_never_raise(data: bytes) -> None:
    answer = load(data, "f.yaml")
    assert answer is None or isinstance(answer, (Scalar, Seq, Map, YamlFault))
    parsed = parse(data, "f.yaml")
    assert parsed.ok or (parsed.root is None and len(parsed.faults) == 1)
    for fault in parsed.faults:
        assert fault.line >= 1 and fault.column >= 1 and fault.message

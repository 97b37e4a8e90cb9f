"""Which lines the range touched, and where deletions are cited."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hyper.review.source import source_lines
from hyper.review.touched import common_lines, read_touched
from hyper.yaml import subset as yamlsubset
from tests.depth import examples

STEP = """kind: procedure
procedure: p
targets: [local]
steps:
  - id: one
    definition: d
    operation: o
    target: local
    bound: 3

  - id: two
    definition: d
    operation: o
    target: local
"""


def touched(before: str, after: str) -> tuple[list[int], dict[int, int]]:
    parsed = yamlsubset.parse(after.encode(), "procedures/p.yaml")
    result = read_touched(source_lines(before.encode()), source_lines(after.encode()), parsed.root)
    return sorted(result.lines), result.anchors


def test_an_unchanged_file_touches_nothing() -> None:
    assert touched(STEP, STEP) == ([], {})


def test_a_changed_line_is_marked_and_the_old_one_cited_there() -> None:
    lines, anchors = touched(STEP, STEP.replace("bound: 3", "bound: 5"))
    assert lines == [9]
    assert anchors == {9: 9}


def test_a_new_line_is_marked() -> None:
    lines, anchors = touched(STEP, STEP.replace("steps:\n", "# note\nsteps:\n"))
    assert lines == [4]
    assert anchors == {}


def test_a_removed_key_is_cited_at_its_steps_opening_line() -> None:
    lines, anchors = touched(STEP, STEP.replace("    bound: 3\n", ""))
    assert lines == [5]
    assert anchors == {9: 5}


def test_a_removed_step_is_cited_at_the_sequence_key() -> None:
    removed = STEP[: STEP.index("\n  - id: two")] + "\n"
    lines, anchors = touched(STEP, removed)
    assert lines == [4]
    assert set(anchors.values()) == {4}
    assert sorted(anchors) == [11, 12, 13, 14]


def test_a_removed_top_level_key_is_cited_at_the_first_line() -> None:
    lines, anchors = touched(STEP, STEP.replace("targets: [local]\n", ""))
    assert lines == [1]
    assert anchors == {3: 1}


def test_two_lines_removed_against_one_added_pair_from_the_top() -> None:
    before = "a: 1\nb: 2\nc: 3\nd: 4\n"
    after = "a: 1\nx: 9\nd: 4\n"
    lines, anchors = touched(before, after)
    assert lines == [1, 2]  # the rewrite, and the anchor of the surplus deletion
    assert anchors == {2: 2, 3: 1}


def _lcs_length(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    return table[0][0]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from("abc\n"), max_size=12), st.lists(st.sampled_from("abc\n"), max_size=12))
def test_the_survivors_are_a_longest_common_subsequence(a: list[str], b: list[str]) -> None:
    pairs = common_lines(a, b)
    assert len(pairs) == _lcs_length(a, b)
    assert all(a[i] == b[j] for i, j in pairs)
    assert [i for i, _ in pairs] == sorted({i for i, _ in pairs})
    assert [j for _, j in pairs] == sorted({j for _, j in pairs})


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.sampled_from(["k: 1", "k: 2", "  - x", ""]), max_size=10),
    st.lists(st.sampled_from(["k: 1", "k: 2", "  - x", ""]), max_size=10),
)
def test_every_citation_is_a_line_of_the_working_tree(a: list[str], b: list[str]) -> None:
    before, after = "".join(f"{line}\n" for line in a), "".join(f"{line}\n" for line in b)
    lines, anchors = touched(before, after)
    assert all(1 <= line <= len(b) for line in lines)
    assert all(1 <= anchor <= len(b) and anchor in lines for anchor in anchors.values())
    assert all(1 <= removed <= len(a) for removed in anchors)

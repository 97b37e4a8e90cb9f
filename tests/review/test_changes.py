"""Which facts moved across a range, and in which direction."""

from __future__ import annotations

import pytest

from hyper.review import kinds
from hyper.review.changes import change_flags
from hyper.review.facts import facts_of, read_selector
from hyper.review.marks import Flag
from hyper.review.source import source_lines
from hyper.review.touched import read_touched
from hyper.yaml import subset as yamlsubset

REVISION = "a91f0c2e" + "0" * 32

PROCEDURE = """kind: procedure
procedure: p
targets: [local]
cadence: "0 3 * * 1"
steps:
  - id: retire
    definition: d
    operation: o
    target: local
    over:
      assets:
        - field: name
          starts_with: preview-
    bound: 3
"""


def flags(kind: kinds.Kind, before: str, after: str) -> list[Flag]:
    root = yamlsubset.parse(after.encode(), "f.yaml").root
    touched = read_touched(source_lines(before.encode()), source_lines(after.encode()), root)
    return change_flags(kind, "f.yaml", before.encode(), root, touched, touched.lines, REVISION)


def named(found: list[Flag]) -> list[tuple[str, int, str, str]]:
    return [(flag.name, flag.cites, flag.coordinate, flag.text) for flag in found]


@pytest.mark.parametrize(
    ("before", "after", "name"),
    [
        ("bound: 3", "bound: 5", "widened"),
        ("bound: 5", "bound: 3", "narrowed"),
        ("bound: 3", "bound: +3", "changed"),
        ("bound: 3", "bound: many", "changed"),
    ],
)
def test_a_bound_moves_by_its_magnitude(before: str, after: str, name: str) -> None:
    found = flags(kinds.PROCEDURE, PROCEDURE.replace("bound: 3", before), PROCEDURE.replace("bound: 3", after))
    assert [flag.name for flag in found] == [name]
    assert found[0].step == "retire"
    assert found[0].cites == 14


def test_an_absent_bound_is_unbounded() -> None:
    without = PROCEDURE.replace("    bound: 3\n", "")
    assert named(flags(kinds.PROCEDURE, PROCEDURE, without)) == [
        ("widened", 6, "step retire", "bound 3 → – since a91f0c2")
    ]
    assert named(flags(kinds.PROCEDURE, without, PROCEDURE)) == [
        ("narrowed", 14, "step retire", "bound – → 3 since a91f0c2")
    ]


def test_a_set_moves_by_inclusion() -> None:
    wider = PROCEDURE.replace("targets: [local]", "targets: [local, staging]")
    other = PROCEDURE.replace("targets: [local]", "targets: [staging]")
    assert named(flags(kinds.PROCEDURE, PROCEDURE, wider)) == [
        ("widened", 3, "targets", "local → local · staging since a91f0c2")
    ]
    assert [flag.name for flag in flags(kinds.PROCEDURE, wider, PROCEDURE)] == ["narrowed"]
    assert [flag.name for flag in flags(kinds.PROCEDURE, PROCEDURE, other)] == ["changed"]


def test_a_reordered_set_moves_no_fact() -> None:
    two = PROCEDURE.replace("targets: [local]", "targets: [local, staging]")
    assert flags(kinds.PROCEDURE, two, two.replace("[local, staging]", "[staging, local]")) == []


def test_a_selector_and_a_cadence_only_ever_change_and_stack_both_sides() -> None:
    moved = PROCEDURE.replace("starts_with: preview-", "equals: preview").replace("0 3 * * 1", "0 3 * * *")
    found = flags(kinds.PROCEDURE, PROCEDURE, moved)
    assert [(flag.name, flag.coordinate) for flag in found] == [("changed", "cadence"), ("changed", "step retire")]
    cadence, over = found
    assert cadence.text == "0 3 * * 1 → 0 3 * * * since a91f0c2"
    assert cadence.before[0] == "03:00 UTC every Monday · ≈4.3 runs/month"
    assert cadence.after[0].startswith("03:00 UTC every day · ")
    assert over.text == "over assets → assets since a91f0c2"
    assert (over.before, over.after) == (("name starts_with preview-",), ("name equals preview",))


def test_a_step_on_one_side_only_draws_no_flag() -> None:
    renamed = PROCEDURE.replace("id: retire", "id: sweep").replace("bound: 3", "bound: 9")
    assert flags(kinds.PROCEDURE, PROCEDURE, renamed) == []


def test_a_baseline_that_will_not_parse_draws_no_flag() -> None:
    assert flags(kinds.PROCEDURE, "steps: [unclosed\n", PROCEDURE) == []


def test_a_credential_variable_changes_and_names_its_slot() -> None:
    target = "kind: target-declaration\ntarget: t\nauth:\n  token: {env: OLD}\n"
    assert named(flags(kinds.TARGET, target, target.replace("OLD", "NEW"))) == [
        ("changed", 4, "credential token", "OLD → NEW since a91f0c2")
    ]


def test_a_repository_declaration_states_no_fact() -> None:
    assert facts_of(kinds.REPOSITORY, yamlsubset.parse(b"kind: repository-declaration\n", "hyper.yaml").root) == []


def test_a_selector_reads_as_its_form_and_members() -> None:
    over = yamlsubset.parse(b"values: [b, a]\n", "f.yaml").root
    assert read_selector(over) == ("values", ("b", "a"))
    predicates = yamlsubset.parse(b"assets:\n  - {field: z, in: [1, 2]}\n  - {field: a, exists: true}\n", "f.yaml").root
    assert read_selector(predicates) == ("assets", ("a exists", "z in [1, 2]"))

from hyper.render.refusal import Citation, Edit, Member, about_invocation, citing_artefact

SOURCE = """kind: procedure
procedure: retire-stale
targets: [cloudflare-prod]
steps:
  - id: retire
    definition: legacy-dns
    operation: delete_dns_record
    target: cloudflare-prod
    over:
      assets:
        - field: created_on
          older_than: 14d
    bound: 2
"""


def test_about_the_invocation_is_two_lines_a_member() -> None:
    assert about_invocation([Member("store-absent", "no Store"), Member("x", "y")]) == (
        "refused: store-absent\n  no Store\nrefused: x\n  y\n"
    )


def test_the_caret_form_draws_the_excerpt_the_notes_and_the_edits() -> None:
    member = Citation(
        error_code="bound-exceeded",
        message="expansion resolved 4 assets on cloudflare-prod",
        file="procedures/retire-stale.yaml",
        line=13,
        field="steps[0].bound",
        source=SOURCE,
        notes=("checked at expansion, before the first call", "nothing overrides this but an edit"),
        edits=(
            Edit("procedures/retire-stale.yaml", 13, "steps[0].bound", "2", "≥ 4"),
            Edit("procedures/retire-stale.yaml", 12, "steps[0].over", "14d", "30d", "expands to 1"),
        ),
    )
    assert citing_artefact([member]) == (
        "refused: bound-exceeded\n"
        "\n"
        "  procedures/retire-stale.yaml:13\n"
        "   11 │         - field: created_on\n"
        "   12 │           older_than: 14d\n"
        "   13 │     bound: 2\n"
        "      │            ^ expansion resolved 4 assets on cloudflare-prod\n"
        "      │\n"
        "      = checked at expansion, before the first call\n"
        "      = nothing overrides this but an edit\n"
        "\n"
        "EDIT ONE OF\n"
        "FILE                          LINE  FIELD           FROM  TO\n"
        "procedures/retire-stale.yaml  13    steps[0].bound  2     ≥ 4\n"
        "procedures/retire-stale.yaml  12    steps[0].over   14d   30d  expands to 1\n"
    )


def test_context_shows_a_shallower_line_and_nothing_above_it() -> None:
    member = Citation("x", "m", "procedures/p.yaml", 5, source=SOURCE)
    assert citing_artefact([member]).splitlines()[2:6] == [
        "  procedures/p.yaml:5",
        "    4 │ steps:",
        "    5 │   - id: retire",
        "      │         ^ m",
    ]


def test_context_stops_at_the_sequence_item_a_key_sits_in() -> None:
    member = Citation("x", "m", "procedures/p.yaml", 6, source=SOURCE)
    assert citing_artefact([member]).splitlines()[3:5] == [
        "    5 │   - id: retire",
        "    6 │     definition: legacy-dns",
    ]


def test_without_a_line_the_block_is_notes() -> None:
    member = Citation("projection-stale", "the file differs", "a.yml", None, "f", None, ("hyper project",))
    assert citing_artefact([member]) == (
        "refused: projection-stale\n\n  = the file differs\n  = file: a.yml\n  = field: f\n  = hyper project\n"
    )


def test_each_member_carries_its_own_edits() -> None:
    first = Citation(
        "a", "m", "providers/p.yaml", 5, "capabilities", SOURCE, edits=(Edit("providers/p.yaml", 5, "caps"),)
    )
    second = Citation("b", "n", "x.yaml", None, "f", None, ("note",))
    third = Citation(
        "c", "o", "providers/long-name.yaml", 6, "ops", SOURCE, edits=(Edit("providers/long-name.yaml", 6, "ops"),)
    )
    page = citing_artefact([first, second, third])
    assert page.count("EDIT ONE OF\n") == 2
    assert "FILE              LINE  FIELD\nproviders/p.yaml  5     caps\n\nrefused: b\n" in page
    assert page.endswith("EDIT ONE OF\nFILE                      LINE  FIELD\nproviders/long-name.yaml  6     ops\n")

"""``operation``'s verbatim range: which lines declare one Operation."""

from __future__ import annotations

from hyper.artefact.manifest import read_manifest
from hyper.yaml import subset as yamlsubset

WIDGET = """\
kind: provider
provider: widget
operations:
  list_widgets:
    kind: read
    record:
      fields: {id: $.id}

  # Archives rather than deletes.
  # Still a mutate.
  delete_widget:
    kind: mutate
    # A POST.
    http: {method: POST}
    # a note left at the end of the body

  last:
    kind: read


# trailing
"""


def source(text: str, name: str) -> str | None:
    data = text.encode()
    return read_manifest("providers/w.yaml", data, yamlsubset.parse(data, "w").root).operation_source(name)


def test_a_range_ends_before_the_next_keys_head_comment_and_drops_blank_lines() -> None:
    assert source(WIDGET, "list_widgets") == "  list_widgets:\n    kind: read\n    record:\n      fields: {id: $.id}\n"


def test_a_head_comment_at_the_keys_indentation_belongs_to_the_range() -> None:
    assert source(WIDGET, "delete_widget") == (
        "  # Archives rather than deletes.\n  # Still a mutate.\n  delete_widget:\n    kind: mutate\n"
        "    # A POST.\n    http: {method: POST}\n    # a note left at the end of the body\n"
    )


def test_the_last_operation_ends_where_the_file_dedents() -> None:
    assert source(WIDGET, "last") == "  last:\n    kind: read\n"


def test_a_file_without_a_final_newline_keeps_its_bytes() -> None:
    assert source("operations:\n  a:\n    kind: read", "a") == "  a:\n    kind: read"


def test_flow_style_operations_are_their_one_line() -> None:
    assert source("operations: {a: {kind: read}, b: {kind: mutate}}\n", "b") == (
        "operations: {a: {kind: read}, b: {kind: mutate}}\n"
    )


def test_no_such_operation() -> None:
    assert source(WIDGET, "nope") is None
    assert source("operations: [a]\n", "a") is None

"""``hyper.yaml`` is edited in place: two values move and every other byte stands."""

from __future__ import annotations

import pytest

from hyper.workflow.declaration import pinned

FROZEN = "sha256:9f2c1b7a4e6d038c5b1f92a7de40cb83f5710e2d9a6c4b83fe012d75c9a4e6b1"


def test_two_values_move_and_comments_blank_lines_and_retention_stay() -> None:
    authored = (
        "# kept by hand\n"
        "kind: repository-declaration\n"
        "version: 1.3.0  # moved by project\n"
        "digest: sha256:" + "0" * 64 + "\n"
        "\n"
        "# ninety days, as agreed\n"
        "retention: 90d\n"
    )
    expected = authored.replace("1.3.0", "1.4.0").replace("sha256:" + "0" * 64, FROZEN)
    assert pinned(authored.encode(), "1.4.0", FROZEN) == expected.encode()


def test_the_authors_quoting_is_kept() -> None:
    authored = b"kind: repository-declaration\nversion: \"1.3.0\"\ndigest: 'sha256:00'\n"
    assert pinned(authored, "1.4.0", FROZEN) == (
        b'kind: repository-declaration\nversion: "1.4.0"\ndigest: \'' + FROZEN.encode() + b"'\n"
    )


def test_no_declaration_gets_one_with_no_retention() -> None:
    created = pinned(None, "1.4.0", FROZEN)
    assert created == f"kind: repository-declaration\nversion: 1.4.0\ndigest: {FROZEN}\n".encode()


def test_writing_what_is_there_changes_no_byte() -> None:
    authored = f"kind: repository-declaration\nversion: 1.4.0\ndigest: {FROZEN}\nretention: 90d\n".encode()
    assert pinned(authored, "1.4.0", FROZEN) == authored


def test_a_missing_key_is_appended_on_its_own_line() -> None:
    assert pinned(b"kind: repository-declaration", "1.4.0", FROZEN) == (
        f"kind: repository-declaration\nversion: 1.4.0\ndigest: {FROZEN}\n".encode()
    )


@pytest.mark.parametrize(
    "authored",
    [
        f"kind: repository-declaration\nversion:\n  major: 1\ndigest: {FROZEN}\n",
        f'kind: repository-declaration\nversion: ""\ndigest: {FROZEN}\n',
    ],
)
def test_a_key_holding_no_scalar_is_left_as_it_stands(authored: str) -> None:
    assert pinned(authored.encode(), "1.4.0", FROZEN) == authored.encode()


def test_a_value_of_another_length_moves_only_itself() -> None:
    authored = b"kind: repository-declaration\nversion: 1.10.0-rc.1  # the candidate\ndigest: sha256:00\n"
    assert pinned(authored, "2.0", FROZEN) == (
        b"kind: repository-declaration\nversion: 2.0  # the candidate\ndigest: " + FROZEN.encode() + b"\n"
    )

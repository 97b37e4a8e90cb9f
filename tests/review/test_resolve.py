"""What the positional names: a path never falls back to a name, nor a name to a path."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyper.artefact.repository import Repository, load_repository
from hyper.review import kinds
from hyper.review.resolve import Found, Unresolved, resolve
from hyper.review.source import source_lines

DEMO = Path(__file__).resolve().parents[2] / "corpus" / "review" / "fixtures" / "demo" / "repo"


@pytest.fixture(scope="module")
def demo() -> Repository:
    loaded = load_repository(str(DEMO))
    assert isinstance(loaded, Repository)
    return loaded


@pytest.mark.parametrize(
    ("named", "path", "kind"),
    [
        ("retire-preview-dns", "procedures/retire-preview-dns.yaml", kinds.PROCEDURE),
        ("./procedures/retire-preview-dns.yaml", "procedures/retire-preview-dns.yaml", kinds.PROCEDURE),
        ("preview-dns", "definitions/preview-dns.yaml", kinds.DEFINITION),
        ("cloudflare-dns", "providers/cloudflare-dns.yaml", kinds.MANIFEST),
        ("cloudflare-prod", "targets/cloudflare-prod.yaml", kinds.TARGET),
        ("hyper.yaml", "hyper.yaml", kinds.REPOSITORY),
        ("shell", "", kinds.MANIFEST),
    ],
)
def test_each_form_reaches_its_artefact(demo: Repository, named: str, path: str, kind: kinds.Kind) -> None:
    found = resolve(named, demo)
    assert isinstance(found, Found)
    assert (found.path, found.kind) == (path, kind)


@pytest.mark.parametrize(
    "named",
    ["", "Retire-Preview-DNS", "retire-preview-dns.yaml", "procedures/nothing.yaml", "<built-in>/shell", "hyper"],
)
def test_a_miss_is_a_usage_sentence(demo: Repository, named: str) -> None:
    missed = resolve(named, demo)
    assert isinstance(missed, Unresolved)
    assert missed.text.startswith("hyper review: ") and missed.text.endswith("\n")


def test_source_lines_keep_every_byte_of_a_line() -> None:
    assert source_lines(b"") == []
    assert source_lines(b"a: 1  \n\n# c\n") == ["a: 1  ", "", "# c"]
    assert source_lines(b"no newline") == ["no newline"]

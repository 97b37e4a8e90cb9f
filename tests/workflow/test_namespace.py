"""Which paths ``project`` owns, read both ways."""

from __future__ import annotations

import pytest

from hyper.workflow.namespace import path, procedure_of


def test_a_procedure_path_reads_back_to_its_name() -> None:
    assert path("retire-preview-dns") == ".github/workflows/hyper-retire-preview-dns.yml"
    assert procedure_of(path("retire-preview-dns")) == "retire-preview-dns"
    assert procedure_of(".github/workflows/hyper-.yml") == ""


@pytest.mark.parametrize(
    "outside",
    [
        ".github/workflows/release.yml",
        ".github/workflows/hyper-x.yaml",
        ".github/workflows/nested/hyper-x.yml",
        "hyper-x.yml",
        ".github/hyper-x.yml",
    ],
)
def test_a_path_outside_the_namespace_names_no_procedure(outside: str) -> None:
    assert procedure_of(outside) is None

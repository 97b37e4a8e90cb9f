"""The wheel a user installs: what it holds, what it says about itself, and that it is reproducible."""

from __future__ import annotations

import email.parser
import zipfile
from pathlib import Path

import pytest

from tests.package.build import release_wheels

# The wheel is built and published once, on the interpreter release.yml names; what it holds is
# setuptools' work, not this interpreter's, so other versions leave it to ./scripts/test (ADR 0041).
pytestmark = pytest.mark.packaging


@pytest.fixture(scope="module")
def wheels() -> tuple[Path, Path]:
    return release_wheels()


def test_two_builds_from_one_commit_are_byte_identical(wheels: tuple[Path, Path]) -> None:
    one, two = wheels
    assert one.name == two.name
    assert one.read_bytes() == two.read_bytes()


def test_the_wheel_is_named_for_the_distribution(wheels: tuple[Path, Path]) -> None:
    assert wheels[0].name == "hyper_iac-0.1.0-py3-none-any.whl"


def test_the_wheel_holds_the_two_packages_and_its_metadata_only(wheels: tuple[Path, Path]) -> None:
    names = zipfile.ZipFile(wheels[0]).namelist()
    tops = {name.split("/", 1)[0] for name in names}
    assert tops == {"hyper", "hyper_mcp", "hyper_iac-0.1.0.dist-info"}
    assert not [name for name in names if "/tests/" in name or name.startswith("tests/")]
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    assert "hyper_iac-0.1.0.dist-info/licenses/LICENSE" in names
    assert "hyper/artefact/builtin/shell.yaml" in names


def test_the_wheel_carries_no_corpus_harness(wheels: tuple[Path, Path]) -> None:
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert not [name for name in names if name.startswith(("hyper/corpus/", "harness/"))]


def test_the_metadata_names_the_licence_and_renders_as_markdown(wheels: tuple[Path, Path]) -> None:
    raw = zipfile.ZipFile(wheels[0]).read("hyper_iac-0.1.0.dist-info/METADATA").decode()
    metadata = email.parser.Parser().parsestr(raw)
    assert metadata["Name"] == "hyper-iac"
    assert metadata["Version"] == "0.1.0"
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata["Keywords"]
    assert metadata.get_all("Project-URL")
    assert "Environment :: Console" in (metadata.get_all("Classifier") or [])
    assert str(metadata.get_payload()).startswith("# hyper for Python")


def test_the_console_script_is_hyper(wheels: tuple[Path, Path]) -> None:
    entry_points = zipfile.ZipFile(wheels[0]).read("hyper_iac-0.1.0.dist-info/entry_points.txt").decode()
    assert "hyper = hyper.cli.main:entry" in entry_points


def test_the_readme_renders_as_pypi_renders_it_with_no_link_that_breaks_there(wheels: tuple[Path, Path]) -> None:
    """PyPI renders the long description with readme_renderer and resolves no relative link."""
    import re

    import readme_renderer.markdown

    raw = zipfile.ZipFile(wheels[0]).read("hyper_iac-0.1.0.dist-info/METADATA").decode()
    description = str(email.parser.Parser().parsestr(raw).get_payload())
    assert readme_renderer.markdown.render(description, variant="GFM") is not None
    assert [link for link in re.findall(r"\]\(([^)]*)\)", description) if "://" not in link] == []

"""One read of a repository: which files load, what each contributes, which name means which file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hyper.artefact.manifest import BUILTIN_PATH
from hyper.artefact.repository import Repository, Unreadable, load_extensions, load_repository

WIDGET = """\
kind: provider
provider: {name}
schema-version: {version}
class: widgetco
capabilities: [http]
operations:
  list:
    kind: read
    deadline: 30s
    http: {{method: GET, host: h, path: /}}
    record: {{identity: $.id}}
"""


def write(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body.encode() if isinstance(body, str) else body)


def load(root: Path) -> Repository:
    repo = load_repository(str(root))
    assert isinstance(repo, Repository)
    return repo


def test_an_empty_directory_holds_the_built_in_alone(tmp_path: Path) -> None:
    repo = load(tmp_path)
    assert [f.path for f in repo.files] == [BUILTIN_PATH]
    assert list(repo.manifests) == ["shell"] and repo.manifests["shell"].origin_kind == "built-in"
    assert repo.targets == {} and repo.declaration is None and repo.problems == ()


def test_files_are_read_in_a_fixed_order_and_only_yaml_directly_inside(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "hyper.yaml": "kind: repository-declaration\nversion: 1.4.0\n",
            "providers/b.yaml": WIDGET.format(name="b", version=1),
            "providers/a.yaml": WIDGET.format(name="a", version=1),
            "providers/c.yml": WIDGET.format(name="c", version=1),
            "providers/nested/d.yaml": WIDGET.format(name="d", version=1),
            "targets/t.yaml": "target: t\n",
            "definitions/d.yaml": "definition: d\n",
            "procedures/p.yaml": "procedure: p\n",
            "README.md": "not an artefact\n",
        },
    )
    repo = load(tmp_path)
    assert [f.path for f in repo.files] == [
        BUILTIN_PATH,
        "definitions/d.yaml",
        "procedures/p.yaml",
        "targets/t.yaml",
        "providers/a.yaml",
        "providers/b.yaml",
        "hyper.yaml",
    ]
    assert sorted(repo.manifests) == ["a", "b", "shell"]
    assert list(repo.targets) == ["t"] and list(repo.definitions) == ["d"] and list(repo.procedures) == ["p"]
    assert repo.declaration is not None and repo.declaration.version is not None
    assert repo.declaration.version.value == "1.4.0"
    assert repo.file("providers/a.yaml") is not None and repo.file("nope") is None


def test_names_are_what_files_declare_and_the_later_file_wins(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "providers/one.yaml": WIDGET.format(name="same", version=1),
            "providers/two.yaml": WIDGET.format(name="same", version=1),
            "targets/x.yaml": "target: Local\n",
            "targets/y.yaml": "kind: target-declaration\n",
        },
    )
    repo = load(tmp_path)
    assert repo.manifests["same"].path == "providers/two.yaml"
    assert list(repo.targets) == ["Local"]
    assert [t.file for t in repo.target_files] == ["targets/x.yaml", "targets/y.yaml"]


def test_a_built_in_name_and_a_newer_schema_name_nothing_but_are_still_loaded(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "providers/shell.yaml": WIDGET.format(name="shell", version=1),
            "providers/future.yaml": WIDGET.format(name="future", version=2),
        },
    )
    repo = load(tmp_path)
    assert repo.manifests["shell"].path == BUILTIN_PATH
    assert "future" not in repo.manifests
    assert [m.path for m in repo.manifest_files] == [BUILTIN_PATH, "providers/future.yaml", "providers/shell.yaml"]


def test_a_broken_file_is_one_problem_and_no_name(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "providers/bad.yaml": "provider: bad\noperations: [\n",
            "targets/dup.yaml": "target: dup\ntarget: dup\nclass: ~\n",
        },
    )
    repo = load(tmp_path)
    assert "bad" not in repo.manifests and "dup" in repo.targets
    bad = repo.file("providers/bad.yaml")
    assert bad is not None and not bad.ok and len(bad.problems) == 1
    assert [(p.file, p.line, p.field, p.error_code) for p in repo.problems] == [
        ("targets/dup.yaml", 2, "target", "strict-yaml-violation"),
        ("targets/dup.yaml", 3, "class", "strict-yaml-violation"),
        ("providers/bad.yaml", 2, "", "strict-yaml-violation"),
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_file_is_a_problem_and_an_unlistable_directory_stops_the_read(tmp_path: Path) -> None:
    write(tmp_path, {"targets/secret.yaml": "target: s\n"})
    (tmp_path / "targets" / "secret.yaml").chmod(0)
    repo = load(tmp_path)
    assert [(p.file, p.line, p.column) for p in repo.problems] == [("targets/secret.yaml", 1, 1)]
    (tmp_path / "targets").chmod(0)
    try:
        assert isinstance(load_repository(str(tmp_path)), Unreadable)
    finally:
        (tmp_path / "targets").chmod(0o755)


def test_an_artefact_directory_that_is_a_file_stops_the_read(tmp_path: Path) -> None:
    write(tmp_path, {"targets": "not a directory\n"})
    answer = load_repository(str(tmp_path))
    assert isinstance(answer, Unreadable) and "targets" in answer.message


def test_generated_workflows_are_kept_as_bytes(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            ".github/workflows/hyper-nightly.yml": b"name: x\n",
            ".github/workflows/other.yml": b"name: y\n",
            ".github/workflows/hyper-x.yaml": b"name: z\n",
        },
    )
    assert load(tmp_path).workflows == {".github/workflows/hyper-nightly.yml": b"name: x\n"}


CORPUS_REPOSITORIES = sorted(
    str(path) for path in (Path(__file__).resolve().parents[2] / "corpus").glob("**/repo") if path.is_dir()
)


@pytest.mark.parametrize("root", CORPUS_REPOSITORIES)
def test_the_extensions_alone_are_the_namespace_a_whole_load_builds(root: str) -> None:
    """``providers`` reads the namespace through :func:`load_extensions`: over every corpus
    repository it is the whole load's namespace less the built-in, or the same Unreadable."""
    whole, extensions = load_repository(root), load_extensions(root)
    if isinstance(whole, Unreadable):
        assert extensions == whole
    else:
        assert extensions == {name: m for name, m in whole.manifests.items() if name != "shell"}


def test_the_extensions_alone_meet_a_directory_that_cannot_be_listed_as_the_whole_load_does(tmp_path: Path) -> None:
    write(tmp_path, {"targets": "not a directory", "providers/w.yaml": WIDGET.format(name="w", version=1)})
    assert load_extensions(str(tmp_path)) == load_repository(str(tmp_path)) == Unreadable("targets: is not a directory")


def test_the_extensions_alone_decline_what_the_namespace_declines(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "providers/a.yaml": WIDGET.format(name="shell", version=1),  # a built-in's name: the built-in stands
            "providers/b.yaml": WIDGET.format(name="later", version=2),  # a shape above this hyper's
            "providers/c.yaml": WIDGET.format(name="w", version=1),
            "providers/d.yaml": WIDGET.format(name="w", version=1).replace("widgetco", "other"),  # the later wins
            "providers/e.yaml": "kind: [",
        },
    )
    extensions = load_extensions(str(tmp_path))
    assert isinstance(extensions, dict)
    assert sorted(extensions) == ["w"]
    assert extensions["w"].path == "providers/d.yaml"
    assert extensions == {name: m for name, m in load(tmp_path).manifests.items() if name != "shell"}

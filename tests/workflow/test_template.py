"""The generated workflow: its structure, its two conditional blocks, and its byte stability."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hyper.workflow import WorkflowFacts, generate
from hyper.workflow.executor import CHECKOUT, RUNNER, artefact_url, checksums_url

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
    checkout, deepen, install, run, changes = job["steps"]
    assert checkout == {"uses": CHECKOUT, "with": {"persist-credentials": True}}
    assert 'git fetch --unshallow origin "$GITHUB_REF"' in deepen["run"]
    assert artefact_url("1.4.0") in install["run"]
    assert "echo '" + "0" * 64 + "  hyper.tar.gz' \\\n  | sha256sum -c -\n" in install["run"]
    assert "1.4.0" in install["name"]
    assert run["name"] == "hyper run retire-preview-dns"
    assert run["env"] == {"CLOUDFLARE_API_TOKEN": "${{ secrets.CLOUDFLARE_API_TOKEN }}"}
    assert "./hyper run retire-preview-dns | tee -a" in run["run"]
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
    run = read(FACTS._replace(variables=("B_TOKEN", "A_TOKEN", "B_TOKEN")))["jobs"]["run"]["steps"][3]
    assert list(run["env"]) == ["A_TOKEN", "B_TOKEN"]
    assert b"env:" not in generate(FACTS._replace(variables=()))


def test_the_digest_loses_its_algorithm_and_a_bare_one_is_written_whole() -> None:
    assert b"echo 'abc  hyper.tar.gz'" in generate(FACTS._replace(digest="sha256:abc"))
    assert b"echo 'abc  hyper.tar.gz'" in generate(FACTS._replace(digest="abc"))


@pytest.mark.parametrize("name", ["on", "true", "12:30", "0x1f", "~"])
def test_a_procedure_name_a_reader_would_type_is_quoted(name: str) -> None:
    parsed = read(FACTS._replace(procedure=name))
    assert parsed["name"] == name
    assert f"name: '{name}'\n".encode() in generate(FACTS._replace(procedure=name))


def test_the_version_moves_four_places_and_nothing_else() -> None:
    old = generate(FACTS._replace(version="1.3.0")).decode().splitlines()
    new = generate(FACTS).decode().splitlines()
    moved = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    assert len(moved) == 3  # the header, the install step's name, the URL line (tag and file name)
    assert checksums_url("1.4.0").endswith("/v1.4.0/checksums.txt")


def test_the_same_facts_give_the_same_bytes() -> None:
    assert generate(FACTS) == generate(WorkflowFacts(*FACTS))


@pytest.mark.skipif(not REFERENCE_SAMPLE.is_file(), reason="the reference's sample workflow is not on this machine")
def test_only_the_prose_lines_differ_from_the_reference_sample() -> None:
    ours = generate(FACTS).decode().splitlines()
    theirs = REFERENCE_SAMPLE.read_text(encoding="utf-8").splitlines()
    assert len(ours) == len(theirs)
    differing = [(a, b) for a, b in zip(ours, theirs, strict=True) if a != b]
    # the header comment, two step names that are not commands, and the sentence printed
    # when the Comparison did not render: ours are our own words (ADR 0009)
    assert len(differing) == 4
    assert [a.split(":")[0] for a, _ in differing[1:3]] == ["      - name", "      - name"]
    assert differing[3][0].lstrip().startswith("printf '")

"""Repositories from the reference's check corpus: the same rows at the same positions.

Messages are our own, so what is compared is the machine-read part of every row —
file, line, column, field, error_code — and the order they come in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hyper.core.problem import Problem
from tests.check.repos import DECLARATION, DEMO, check, workflow

Cited = tuple[str, int, int, str, str]


def cited(problems: list[Problem]) -> list[Cited]:
    return [(p.file, p.line, p.column, p.field, p.error_code) for p in problems]


def test_the_worked_example_is_clean_but_for_its_projection(tmp_path: Path) -> None:
    found = check(tmp_path, {"hyper.yaml": DECLARATION, **DEMO}, base=False)
    assert cited(found) == [(workflow("retire-preview-dns"), 0, 0, "", "projection-stale")]


def test_the_faulty_worked_example(tmp_path: Path) -> None:
    retire = str(DEMO["procedures/retire-preview-dns.yaml"]).replace("    bound: 5\n", "")
    files: dict[str, str | bytes] = {
        **DEMO,
        "hyper.yaml": DECLARATION + "unexpected: 1\n",
        "procedures/retire-preview-dns.yaml": retire,
        "definitions/preview-dns-observed.yaml": "kind: definition\ndefinition: preview-dns-observed\n"
        "provider: cloudflare-dns\nkinds: [read, mutate]\ntargets: [cloudflare-prod]\n",
        "providers/uptime.yaml": "kind: provider\nprovider: uptime\nschema-version: 1\nclass: local\n"
        "capabilities: []\noperations:\n  check_http:\n    kind: read\n    deadline: 10s\n    http:\n"
        '      method: GET\n      host: "{from-target}"\n      path: /\n      host-input: host\n'
        "    input:\n      type: object\n      properties:\n        host: {type: string}\n    record:\n"
        "      identity: $.host\n      fields:\n        host: $.host\n        status: $.status\n",
        "targets/local.yaml": "kind: target-declaration\ntarget: local\nclass: local\nkinds: [read]\n"
        "capabilities: [http]\nhosts: [status.hyper.dev]\nauth:\n  token: {env: X}\n",
    }
    assert cited(check(tmp_path, files, base=False)) == [
        (workflow("retire-preview-dns"), 0, 0, "", "projection-stale"),
        ("definitions/preview-dns-observed.yaml", 4, 9, "kinds", "definition-kinds-mixed"),
        ("hyper.yaml", 4, 1, "unexpected", "unknown-key"),
        ("procedures/retire-preview-dns.yaml", 19, 5, "steps[2].bound", "bound-missing"),
        ("providers/uptime.yaml", 11, 7, "operations.check_http.http", "capability-mismatch"),
        ("targets/local.yaml", 8, 3, "auth", "local-reserved"),
    ]


SHELL_TARGETS: dict[str, str | bytes] = {
    "hyper.yaml": DECLARATION,
    "targets/local.yaml": "kind: target-declaration\ntarget: local\nclass: local\nkinds: [read, mutate]\n"
    "capabilities: [shell]\n",
    "targets/archive.yaml": "kind: target-declaration\ntarget: archive\nclass: local\nkinds: [read]\n"
    "capabilities: [shell]\n",
    "definitions/live-ops.yaml": "kind: definition\ndefinition: live-ops\nprovider: shell\nkinds: [mutate]\n"
    "targets: [local]\n",
    "definitions/archive-audit.yaml": "kind: definition\ndefinition: archive-audit\nprovider: shell\n"
    "kinds: [read]\ntargets: [archive]\n",
}
VERIFY = """\
kind: procedure
procedure: verify-archive
targets: [archive]
steps:
  - id: archive-sound
    definition: archive-audit
    operation: read
    target: archive
    args:
      command: [sh, -c, 'sha256sum -c /srv/archive/SHA256SUMS']
"""
REQUIRE = "\n  - id: sound\n    require: {step: archive-sound, field: exit_code, equals: 0}\n"
SWAP = """
  - id: {id}
    definition: live-ops
    operation: mutate
    target: local
    bound: 1{when}
    args:
      command: [sh, -c, 'ln -sfn /srv/archive/wanted /srv/live/current']
"""
PROMOTE = """\
kind: procedure
procedure: promote
targets: [archive, local]
steps:
  - id: verify
    procedure: verify-archive
"""


def test_a_shared_check_halts_on_its_own_verdict(tmp_path: Path) -> None:
    files = {
        **SHELL_TARGETS,
        "procedures/verify-archive.yaml": VERIFY + REQUIRE,
        "procedures/promote.yaml": PROMOTE + SWAP.format(id="swap", when=""),
    }
    assert check(tmp_path, files, base=False) == []


def test_a_condition_cannot_root_across_an_invocation(tmp_path: Path) -> None:
    promote = PROMOTE + "".join(
        SWAP.format(id=f"swap-{i}", when=f"\n    when: {{step: {step}, field: exit_code, equals: 0}}")
        for i, step in enumerate(("verify", "verify.archive-sound", "archive-sound"))
    )
    files = {**SHELL_TARGETS, "procedures/verify-archive.yaml": VERIFY, "procedures/promote.yaml": promote}
    found = check(tmp_path, files, base=False)
    assert cited(found) == [
        ("procedures/promote.yaml", 13, 18, "steps[1].when.step", "reference-unresolvable"),
        ("procedures/promote.yaml", 22, 18, "steps[2].when.step", "reference-unresolvable"),
        ("procedures/promote.yaml", 31, 18, "steps[3].when.step", "reference-unresolvable"),
    ]
    assert "require:" in found[0].message and "require:" in found[1].message
    assert "require:" not in found[2].message


@pytest.mark.parametrize(
    "cadence",
    [
        "5-2 * * * *",
        "0 3 * * MON",
        "0 0 0 * *",
        "0 0 32 * *",
        "0 0 * * 7",
        "0 0 * *",
        "0 0 * * 1#2",
        "60 * * * *",
        "0 0 1 JAN *",
        "@daily",
        "0 0 ? * *",
        "0 0 * * * *",
        "0 3 * * 1 America/New_York",
        "0 0 15W * *",
        "0 24 * * *",
        "0 0 L * *",
    ],
)
def test_a_cadence_outside_the_grammar(tmp_path: Path, cadence: str) -> None:
    files: dict[str, str | bytes] = {
        "procedures/nightly.yaml": "kind: procedure\nprocedure: nightly\ntargets: [t]\n"
        f'cadence: "{cadence}"\nsteps: []\n'
    }
    assert cited(check(tmp_path, files)) == [
        (workflow("nightly"), 0, 0, "", "projection-stale"),
        ("procedures/nightly.yaml", 4, 10, "cadence", "cadence-malformed"),
    ]


def test_a_diamond_is_not_a_cycle_and_a_chain_is(tmp_path: Path) -> None:
    def invoking(name: str, *callees: str) -> dict[str, str | bytes]:
        steps = "".join(f"  - id: {callee}\n    procedure: {callee}\n" for callee in callees) or "  []\n"
        head = f"kind: procedure\nprocedure: {name}\ntargets: [t]\nsteps:\n"
        return {f"procedures/{name}.yaml": head + (steps if callees else "").rstrip("\n") + ("\n" if callees else "")}

    diamond = {**invoking("top", "left", "right"), **invoking("left", "leaf"), **invoking("right", "leaf")}
    diamond["procedures/leaf.yaml"] = "kind: procedure\nprocedure: leaf\ntargets: [t]\nsteps: []\n"
    assert check(tmp_path / "diamond", diamond) == []
    chain = {**invoking("a", "b"), **invoking("b", "c"), **invoking("c", "a")}
    assert cited(check(tmp_path / "chain", chain)) == [
        ("procedures/c.yaml", 6, 16, "steps[0].procedure", "procedure-cycle")
    ]

"""The import contracts in ``pyproject.toml`` check the whole tree, not an empty set of modules.

``lint-imports`` (run by ``./scripts/test``) passes a contract whose layers name no module
that exists, so a rename could turn the check off without a word. These tests read the same
contracts, build the same graph (grimp, import-linter's engine) and hold each contract to
modules that are there: every layer is a real package, every layer container's children are
all in some layer, and together the layers cover every module of the three packages.
"""

from __future__ import annotations

import tomllib
from typing import Any

import grimp
import pytest

from tests.loaded import ROOT

SETTINGS: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
CONTRACTS: list[dict[str, Any]] = SETTINGS["contracts"]
GRAPH = grimp.build_graph(*SETTINGS["root_packages"], include_external_packages=False)


def _layers(contract: dict[str, Any]) -> list[str]:
    return [
        f"{container}.{name.strip()}"
        for container in contract["containers"]
        for layer in contract["layers"]
        for name in layer.replace(":", "|").split("|")
    ]


def _under(module: str) -> set[str]:
    return {module} | GRAPH.find_descendants(module) if module in GRAPH.modules else set()


LAYERED = [c for c in CONTRACTS if c["type"] == "layers"]


def test_there_are_contracts_of_both_kinds() -> None:
    assert {c["type"] for c in CONTRACTS} == {"layers", "forbidden"}
    assert len(GRAPH.modules) > 150


@pytest.mark.parametrize("contract", LAYERED, ids=[c["name"] for c in LAYERED])
def test_every_layer_is_a_module_and_every_child_is_in_a_layer(contract: dict[str, Any]) -> None:
    layers = _layers(contract)
    assert [layer for layer in layers if layer not in GRAPH.modules] == []
    assert contract.get("exhaustive") is True
    for container in contract["containers"]:
        assert GRAPH.find_children(container) - set(layers) == set()


def test_the_layers_cover_every_module_of_the_tree() -> None:
    covered = {module for contract in LAYERED for layer in _layers(contract) for module in _under(layer)}
    containers = {container for contract in LAYERED for container in contract["containers"]}
    checked = {m for m in GRAPH.modules if m.split(".")[0] in containers} - containers
    assert checked - covered == set()
    assert len(covered) > 150


@pytest.mark.parametrize("contract", [c for c in CONTRACTS if c["type"] == "forbidden"], ids=lambda c: str(c["name"]))
def test_every_forbidden_contract_has_modules_to_check(contract: dict[str, Any]) -> None:
    assert all(len(_under(source)) > 5 for source in contract["source_modules"])

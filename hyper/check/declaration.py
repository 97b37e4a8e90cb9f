"""The rules over ``hyper.yaml``: the Repository declaration's own schema and ``kind:``."""

from __future__ import annotations

from hyper.artefact import declaration as artefact
from hyper.check import schemas
from hyper.check.schema import check as schema_check
from hyper.check.shape import env_rules, kind_mismatch
from hyper.core.problem import Problem
from hyper.yaml.access import member
from hyper.yaml.subset import Node


def check(root: Node | None, data: bytes) -> list[Problem]:
    problems = env_rules(artefact.PATH, root, schema_check(root, schemas.REPOSITORY_DECLARATION, artefact.PATH), data)
    return problems + kind_mismatch(artefact.PATH, member(root, "kind"), artefact.KIND)

"""The rules over a Target declaration, which it decides against itself alone.

A Target declaration is written without knowing which Provider will bind it, so the
only rules here are its own coherence: an ``http`` grant and its ``hosts:`` come
together or not at all, every credential slot names one variable, and the
conventional ``local`` stays credential-free (a Probe against it resolves nothing).
Whether it grants what a Provider needs is asked per binding, in :mod:`definition`.
"""

from __future__ import annotations

from hyper.artefact import target as artefact
from hyper.artefact.target import TargetDeclaration
from hyper.check import codes, schemas
from hyper.check.hostgrant import misshapen
from hyper.check.schema import check as schema_check
from hyper.check.shape import kind_mismatch, name_mismatch, slot_problems, stray_env_keys, without_env_unknown_keys
from hyper.core.problem import Problem
from hyper.yaml.access import at, member
from hyper.yaml.subset import Scalar, Seq


def check(read: TargetDeclaration) -> list[Problem]:
    file, root = read.file, read.root
    slots, slot_values = slot_problems(file, root)
    problems = without_env_unknown_keys(schema_check(root, schemas.TARGET_DECLARATION, file))
    problems += slots
    problems += stray_env_keys(file, root, slot_values)
    problems += kind_mismatch(file, read.kind, artefact.KIND)
    problems += name_mismatch(file, read.name, artefact.NAME_KEY)
    problems += local_reserved(read)
    problems += hosts_against_grant(read)
    problems += hosts_shaped(read)
    return problems


def local_reserved(read: TargetDeclaration) -> list[Problem]:
    if read.declared_name != artefact.LOCAL:
        return []
    problems: list[Problem] = []
    if read.auth is not None:
        problems.append(
            at(
                read.file,
                read.auth,
                "auth",
                codes.LOCAL_RESERVED,
                "the Target named local carries no auth: — local is the credential-free Target a Probe runs against",
            )
        )
    if read.class_ is not None and read.class_.value != artefact.LOCAL:
        problems.append(
            at(
                read.file,
                read.class_,
                "class",
                codes.LOCAL_RESERVED,
                f"the Target named local is class local, not {read.class_.value}",
            )
        )
    return problems


def hosts_against_grant(read: TargetDeclaration) -> list[Problem]:
    """``hosts:`` is written exactly where ``capabilities:`` grants ``http``."""
    capabilities = member(read.root, "capabilities")
    if not isinstance(capabilities, Seq):
        return []
    grants_http = "http" in read.capability_values
    hosts = member(read.root, "hosts")
    if grants_http and hosts is None:
        return [
            at(
                read.file,
                capabilities,
                "hosts",
                codes.TARGET_INCONSISTENT,
                "capabilities: grants http, and no hosts: says which hosts it reaches",
            )
        ]
    if not grants_http and hosts is not None:
        return [
            at(
                read.file,
                hosts,
                "hosts",
                codes.TARGET_INCONSISTENT,
                "hosts: is written, and capabilities: grants no http for it to apply to",
            )
        ]
    return []


def hosts_shaped(read: TargetDeclaration) -> list[Problem]:
    """Every grant is ``host[:port]``: a name or an IPv4 address, or an IPv6 address in
    brackets, then an optional port. A URL written where a host belongs would otherwise
    pass here and fail at the Run as a name that does not resolve (``https://https://…``).

    The reference has no rule for the grant's shape, so the closest of its closed set of
    codes is used: ``target-inconsistent``, the code for a ``hosts:`` at odds with itself."""
    problems: list[Problem] = []
    for at_index, (_, item) in enumerate(read.hosts or ()):
        if not isinstance(item, Scalar):
            continue
        why = misshapen(item.value)
        if why:
            problems.append(at(read.file, item, f"hosts[{at_index}]", codes.TARGET_INCONSISTENT, why))
    return problems

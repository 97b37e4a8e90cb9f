"""Which one host a call reaches: the candidate set, the grant, and where they meet.

A host is never taken from data alone. The Manifest's ``host:`` template expands to a
candidate set — ``{from-target}`` to the bound Target's ``hosts:`` grant, an
enumeration hole to that ``enumerations:`` list — and the call may reach only a
candidate the grant also holds. Where the two meet in exactly one host, that is the
host. Where they meet in several, the Operation's ``host-input:`` names an input
carrying the one meant; without one, which host a call would reach is undecidable.

The answer is a :class:`Reach` rather than an exception because its three declines
are rendered differently by each caller: a Run refuses ``host-not-granted``, a Probe
cites the ``hosts:`` line to edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from hyper.core.namedtuple import NamedTuple

Verdict = Literal["granted", "outside", "undecidable", "illegible"]


class Reach(NamedTuple):
    verdict: Verdict
    host: str = ""
    """The host reached (``granted``) or the one refused (``outside``; ``""`` where the grant
    is empty and so nothing could have been named)."""
    granted: int = 0
    """How many candidates the grant holds, for ``undecidable``."""


def resolve(
    template: str,
    enumerations: Mapping[str, tuple[str, ...]],
    grant: Sequence[str],
    host_input: str,
    inputs: Mapping[str, Any],
) -> Reach:
    """The one host a call of this Operation reaches against ``grant`` (empty: grants nothing)."""
    from hyper.check.procedure import expand_host  # deferred: start-up cost

    expanded = expand_host(template, enumerations, frozenset(grant))
    if expanded is None:
        return Reach("illegible")
    granted = [host for host in expanded if host in grant]
    if host_input:
        supplied = inputs.get(host_input)
        host = supplied if isinstance(supplied, str) else ""
        if host and host in granted:
            return Reach("granted", host)
        return Reach("outside", host)
    if len(granted) == 1:
        return Reach("granted", granted[0])
    if len(granted) > 1:
        return Reach("undecidable", granted=len(granted))
    return Reach("outside", expanded[0] if expanded else "")

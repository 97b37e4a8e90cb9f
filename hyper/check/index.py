"""The four namespaces, as the cross-artefact rules read them.

Which file a name resolves to is the loader's decision (:mod:`hyper.artefact.repository`
— byte-exact against what an artefact declares, the built-in standing over a file
that takes its name, a Manifest in an unreadable schema naming nothing). What is
here is the facts each member offers a rule, read once per ``check`` rather than
once per Step that binds it, which keeps a repository of thousands of artefacts linear.
"""

from __future__ import annotations

from hyper.artefact import definition
from hyper.artefact.repository import Repository
from hyper.check import codes
from hyper.check.facts import Provider, Target, provider_facts, target_facts
from hyper.core.namedtuple import NamedTuple
from hyper.core.problem import Problem
from hyper.yaml.access import at
from hyper.yaml.subset import Scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping


class Claim(NamedTuple):
    """A Definition as a Step bound through it sees it."""

    provider: str
    kinds: frozenset[str]
    destroy: frozenset[str]
    targets: Mapping[str, Target]
    """Its targets: members that resolve, by name: what a Step's target: may be."""

    def claims(self, kind: str) -> bool:
        return bool(self.destroy) if kind == "destroy" else kind in self.kinds


class Index(NamedTuple):
    providers: Mapping[str, Provider]
    targets: Mapping[str, Target]
    definitions: Mapping[str, Claim]
    procedures: frozenset[str]
    read_definitions: Mapping[str, definition.Definition]
    """Each resolving Definition as read for its claim, by file: its own rules read the same."""


def artefact_absent(file: str, name: Scalar, field: str, key: str, directory: str, *, built_in: str = "") -> Problem:
    """``artefact-absent`` at a name that resolves to nothing in its namespace.

    The sentence names the file that would have to exist, writing it being one fix; a
    namespace hyper also fills itself (``built_in``, the kind it ships) says so too.
    """
    shipped = f"hyper ships no such {built_in} and " if built_in else ""
    message = f"{key}: {name.value} names nothing — {shipped}there is no {directory}/{name.value}.yaml"
    return at(file, name, field, codes.ARTEFACT_ABSENT, message)


def build(repo: Repository) -> Index:
    providers = {name: provider_facts(read) for name, read in repo.manifests.items()}
    targets = {name: target_facts(read) for name, read in repo.targets.items()}
    claims: dict[str, Claim] = {}
    reads: dict[str, definition.Definition] = {}
    for name, loaded in repo.definitions.items():
        read = reads[loaded.path] = definition.read(loaded.path, loaded.root)
        claims[name] = Claim(
            provider=read.provider.value if read.provider is not None else "",
            kinds=frozenset([item.value for _, item in read.kinds]),
            destroy=read.destroy_names,
            targets={item.value: targets[item.value] for _, item in read.targets if item.value in targets},
        )
    return Index(providers, targets, claims, frozenset(repo.procedures), reads)

"""What a Step is bound to, resolved once: the Definition, the Manifest, the Operation, the
Target declaration — and the Kind, which decides the lock, the rehearsal stop and what an
answer means.

A name that resolves to nothing is unreachable from a Run (``check`` re-runs in full
before Step 1 and reports it), so it is answered as a fault naming the check rather than
guessed around.
"""

from __future__ import annotations

from hyper.artefact import definition as definition_artefact
from hyper.artefact.declaration import PATH as DECLARATION_PATH
from hyper.artefact.manifest import Manifest, Operation
from hyper.artefact.repository import LoadedFile, Repository
from hyper.artefact.target import TargetDeclaration
from hyper.check.facts import Input, input_properties
from hyper.core.faults import Unbound
from hyper.core.namedtuple import NamedTuple
from hyper.run.sequence import Sequenced
from hyper.store.provenance import StepProvenance


class Binding(NamedTuple):
    definition_file: LoadedFile
    manifest: Manifest
    operation: Operation
    target: TargetDeclaration

    @property
    def kind(self) -> str:
        return self.operation.kind_value

    @property
    def inputs(self) -> dict[str, Input]:
        return dict(input_properties(self.operation.input))

    def provenance(self, blob_id: str) -> StepProvenance:
        """The Step's half: the Definition's blob id, the Manifest's digest and, for a
        Manifest installed from elsewhere, the digest its ``origin:`` pins."""
        origin = ""
        if not self.manifest.built_in and self.manifest.origin is not None and self.manifest.origin.digest:
            origin = self.manifest.origin.digest.value
        return StepProvenance(blob_id, self.manifest.digest, origin)


def provider_of(repo: Repository, definition: str) -> Manifest | None:
    loaded = repo.definitions.get(definition)
    if loaded is None:
        return None
    provider = definition_artefact.read(loaded.path, loaded.root).provider
    return repo.manifests.get(provider.value) if provider is not None else None


def operation_of(repo: Repository, step: Sequenced) -> Operation | None:
    manifest = provider_of(repo, step.definition)
    return manifest.operation(step.operation) if manifest is not None else None


def kind_of(repo: Repository, step: Sequenced) -> str:
    """The Kind the Step's Operation declares; ``""`` where the binding does not resolve."""
    operation = operation_of(repo, step)
    return operation.kind_value if operation is not None else ""


def effectful(repo: Repository, step: Sequenced) -> bool:
    """A Kind that cannot be read counts as effectful: the safe reading of an unknown."""
    return kind_of(repo, step) != "read"


def resolve(repo: Repository, step: Sequenced) -> Binding:
    loaded = repo.definitions.get(step.definition)
    if loaded is None:
        raise Unbound(f"step {step.name} names the definition {step.definition}, which resolves to nothing")
    manifest = provider_of(repo, step.definition)
    if manifest is None:
        raise Unbound(f"step {step.name} binds {step.definition}, whose provider resolves to nothing")
    target = repo.targets.get(step.target)
    if target is None:
        raise Unbound(f"step {step.name} names the target {step.target}, which resolves to nothing")
    operation = manifest.operation(step.operation)
    if operation is None:
        raise Unbound(f"step {step.name} names the operation {step.operation}, which its provider does not declare")
    return Binding(loaded, manifest, operation, target)


def artefacts_read(
    repo: Repository, procedures: tuple[LoadedFile, ...], steps: tuple[Sequenced, ...]
) -> dict[str, bytes]:
    """The reviewed artefacts the Run read — ``repo_dirty`` is decided over exactly these: the
    Repository declaration, every Procedure walked, and per Step its Definition, its Target
    declaration and its Provider's Manifest (the built-in has no blob to differ from)."""
    files: dict[str, bytes] = {}
    by_path = {loaded.path: loaded for loaded in repo.files}  # one pass, not one scan per Step
    declaration = by_path.get(DECLARATION_PATH)
    if declaration is not None:
        files[declaration.path] = declaration.data
    for procedure in procedures:
        files[procedure.path] = procedure.data
    for step in steps:
        definition = repo.definitions.get(step.definition)
        if definition is not None:
            files[definition.path] = definition.data
        target = repo.targets.get(step.target)
        if target is not None:
            loaded = by_path.get(target.file)
            if loaded is not None:
                files[loaded.path] = loaded.data
        manifest = provider_of(repo, step.definition)
        if manifest is not None and not manifest.built_in:
            files[manifest.path] = manifest.data
    return files

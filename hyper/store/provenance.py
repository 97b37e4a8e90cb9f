"""Provenance, split by scope: a member is written at the level where it has exactly one value.

A Step file sits beside run.json and reads the Run-wide half one file over, so it carries only
its own; a Record version has no entry beside it and carries the whole.
"""

from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, row
from hyper.store.schema import Fields, Members

RUN_PROVENANCE_MEMBERS = ("hyper_version", "procedure_revision", "repo_revision")
STEP_PROVENANCE_MEMBERS = ("definition_revision", "manifest_digest")


class RunProvenance(NamedTuple):
    """The Run-wide half. ``repo_dirty`` is a marker: written only when true."""

    hyper_version: str
    procedure_revision: str
    repo_revision: str
    repo_dirty: bool = False

    def write(self, members: Members) -> None:
        members.text("hyper_version", self.hyper_version)
        members.text("procedure_revision", self.procedure_revision)
        members.text("repo_revision", self.repo_revision)
        members.mark("repo_dirty", self.repo_dirty)
        members.require("a Run's Provenance", RUN_PROVENANCE_MEMBERS)

    def to_row(self) -> Row:
        """The ``provenance`` row ``run`` and ``show`` both write for a Run."""
        return row(
            "provenance",
            hyper_version=self.hyper_version,
            procedure_revision=self.procedure_revision,
            repo_revision=self.repo_revision,
            repo_dirty=True if self.repo_dirty else None,
        )

    @classmethod
    def read(cls, fields: Fields) -> "RunProvenance":
        return cls(
            hyper_version=fields.text("hyper_version"),
            procedure_revision=fields.text("procedure_revision"),
            repo_revision=fields.text("repo_revision"),
            repo_dirty=fields.mark("repo_dirty"),
        )


class StepProvenance(NamedTuple):
    """The Step's half. ``origin_digest`` is absent for built-in and locally authored Providers."""

    definition_revision: str
    manifest_digest: str
    origin_digest: str = ""

    def write(self, members: Members) -> None:
        members.text("definition_revision", self.definition_revision)
        members.text("manifest_digest", self.manifest_digest)
        members.text("origin_digest", self.origin_digest)
        members.require("a Step's Provenance", STEP_PROVENANCE_MEMBERS)

    def to_row(self, position: int) -> Row:
        """The ``provenance`` row of the Step at ``position``, as ``run`` and ``show`` write it."""
        return row(
            "provenance",
            step=position,
            definition_revision=self.definition_revision,
            manifest_digest=self.manifest_digest,
            origin_digest=self.origin_digest or None,
        )

    @classmethod
    def read(cls, fields: Fields) -> "StepProvenance":
        return cls(
            definition_revision=fields.text("definition_revision"),
            manifest_digest=fields.text("manifest_digest"),
            origin_digest=fields.text("origin_digest"),
        )


class Provenance(NamedTuple):
    """The whole of it, which only a Record version carries."""

    run: RunProvenance
    step: StepProvenance

    def write(self, members: Members) -> None:
        self.run.write(members)
        self.step.write(members)

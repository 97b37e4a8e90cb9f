"""A Record version: one file holding a version's projected content and its metadata together.

The content nests under ``fields`` so a Provider author's field names and hyper's metadata
names can never collide. A Tombstone is an ordinary version carrying ``tombstone: true``; the
marker, never the absence of ``fields``, is what identifies one.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.namedtuple import NamedTuple
from hyper.store.canonical import SECRET_MARKER, Value
from hyper.store.paths import Identity
from hyper.store.provenance import (
    RUN_PROVENANCE_MEMBERS,
    STEP_PROVENANCE_MEMBERS,
    Provenance,
    RunProvenance,
    StepProvenance,
)
from hyper.store.schema import RECORD_SCHEMA_VERSION, Fields, Members, join, read_file, write_file

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

RecordType: TypeAlias = 'Literal["observation", "asset"]'

_VERSION_MEMBERS = (
    "target",
    "definition",
    "name",
    "record_type",
    "run_id",
    "step",
    "operation",
    "written_at",
    "provenance",
)


class Metadata(NamedTuple):
    """Everything a version says about itself but its content — the grain a series is ordered
    and a version named at, so a listing of many versions holds none of their content."""

    identity: Identity
    record_type: RecordType
    run_id: str
    step: int
    operation: str
    written_at: _dt.datetime
    provenance: Provenance
    path: str = ""
    tombstone: bool = False


class RecordVersion(NamedTuple):
    """The file: metadata and ``fields`` (``None`` where the version carries no content — a
    Tombstone opening a series, or a version whose every projected path resolved to nothing)."""

    metadata: Metadata
    fields: dict[str, Value] | None = None

    def encode(self) -> bytes:
        meta = self.metadata

        def fill(members: Members) -> None:
            members.text("target", meta.identity.target)
            members.text("definition", meta.identity.definition)
            members.text("name", meta.identity.name)
            members.text("record_type", meta.record_type)
            members.text("run_id", meta.run_id)
            members.count("step", meta.step)
            members.text("operation", meta.operation)
            members.text("path", meta.path)
            members.at("written_at", meta.written_at)
            members.block("provenance", meta.provenance.write)
            members.mark("tombstone", meta.tombstone)
            if self.fields is not None:
                members.mapping["fields"] = self.fields

        return write_file(RECORD_SCHEMA_VERSION, "a Record version", _VERSION_MEMBERS, fill)

    @classmethod
    def decode(cls, data: bytes) -> RecordVersion:
        return read_file(data, RECORD_SCHEMA_VERSION, cls._read, RecordVersion.encode)

    @classmethod
    def _read(cls, fields: Fields) -> RecordVersion:
        fields.require(*_VERSION_MEMBERS)
        block = fields.block("provenance")
        written = fields.at("written_at")
        assert block is not None and written is not None
        block.require(*RUN_PROVENANCE_MEMBERS)
        block.require(*STEP_PROVENANCE_MEMBERS)
        provenance = Provenance(RunProvenance.read(block), StepProvenance.read(block))
        join(block)
        metadata = Metadata(
            identity=Identity(fields.text("target"), fields.text("definition"), fields.text("name")),
            record_type=fields.one_of("record_type", ("observation", "asset")),
            run_id=fields.run("run_id"),
            step=fields.position("step"),
            operation=fields.text("operation"),
            written_at=written,
            provenance=provenance,
            path=fields.text("path"),
            tombstone=fields.mark("tombstone"),
        )
        return cls(metadata, fields.nested("fields"))


def suppressed_fields(fields: dict[str, Value] | None) -> tuple[str, ...]:
    """The top-level field names whose value is the secret marker, in code-point order.

    The Store says nothing else about a secret; the marker being a constant is what makes this
    comparison the whole derivation.
    """
    if not fields:
        return ()
    return tuple(sorted(name for name, value in fields.items() if value == SECRET_MARKER))

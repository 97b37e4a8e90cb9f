"""The five shapes: written byte-exact, read back strictly, and the reference's own files read
and re-written byte-identically."""

from __future__ import annotations

import datetime as _dt
import pathlib
from typing import Any

import pytest

from hyper.core.faults import IdentitySetError, SchemaUnsupported, StoreFileError
from hyper.store.canonical import encode, parse
from hyper.store.identities import Identities, concluded, read_identity_set
from hyper.store.journal import OutcomeFile, RefusalMember, RunFile, Trigger
from hyper.store.paths import Identity
from hyper.store.provenance import Provenance, RunProvenance, StepProvenance
from hyper.store.record import Metadata, RecordVersion, suppressed_fields
from hyper.store.step import (
    ClosedBy,
    HTTPAnswer,
    MemberAnswer,
    Pattern,
    Selector,
    ShellAnswer,
    StepCode,
    StepFile,
)

from .support import FIXTURES, RUN_ID

AT = _dt.datetime(2026, 8, 6, 9, 41, 12, 508000, tzinfo=_dt.UTC)
Shape = type[RunFile] | type[OutcomeFile] | type[StepFile] | type[ClosedBy] | type[RecordVersion]


def shape_of(path: pathlib.Path) -> Shape:
    name = path.name
    if "records" in path.parts:
        return RecordVersion
    if name == "run.json":
        return RunFile
    if "outcome" in name:
        return OutcomeFile
    if "closed-by" in str(path):
        return ClosedBy
    return StepFile


REFERENCE_FILES = sorted(path for path in FIXTURES.rglob("*.json") if "unsupported" not in path.parts)


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda path: str(path.relative_to(FIXTURES)))
def test_a_reference_file_reads_and_rewrites_byte_identically(path: pathlib.Path) -> None:
    data = path.read_bytes()
    assert shape_of(path).decode(data).encode() == data


def test_a_file_above_the_ceiling_is_schema_unsupported() -> None:
    path = FIXTURES / "unsupported" / "a-journal-file-this-binary-cannot-read.steps-0002.json"
    with pytest.raises(SchemaUnsupported) as raised:
        StepFile.decode(path.read_bytes())
    assert (raised.value.written, raised.value.known) == (2, 1)


def test_the_spec_run_json_example() -> None:
    run_file = RunFile(
        run_id="01991e21-3c9f-7b04-9d18-5c7e2a94f083",
        procedure="retire-preview-dns",
        trigger=Trigger("manual", "local", "igor", host="thinkpad"),
        started_at=AT,
        dry_run=False,
        provenance=RunProvenance(
            "1.4.0", "2f81ac4b6e05d3971c8a4f2b0e63d75a91c4e087", "88bc402f71d3e6a95c0428be1f7d3a09c5e64b12"
        ),
    )
    assert run_file.encode() == (
        b'{\n  "dry_run": false,\n  "procedure": "retire-preview-dns",\n  "provenance": {\n'
        b'    "hyper_version": "1.4.0",\n    "procedure_revision": "2f81ac4b6e05d3971c8a4f2b0e63d75a91c4e087",\n'
        b'    "repo_revision": "88bc402f71d3e6a95c0428be1f7d3a09c5e64b12"\n  },\n'
        b'  "run_id": "01991e21-3c9f-7b04-9d18-5c7e2a94f083",\n  "schema_version": 1,\n'
        b'  "started_at": "2026-08-06T09:41:12.508Z",\n  "trigger": {\n    "actor": "igor",\n'
        b'    "cause": "manual",\n    "executor": "local",\n    "host": "thinkpad"\n  }\n}\n'
    )
    assert RunFile.decode(run_file.encode()) == run_file
    assert run_file.trigger.text == "igor@thinkpad"
    assert Trigger("cron", "github-actions", "bot").text == "cron"
    assert Trigger("manual", "github-actions", "igor").text == "igor"


def test_the_closed_by_golden() -> None:
    closed = ClosedBy(
        step=4,
        ended_at=_dt.datetime(2026, 8, 6, 10, 12, tzinfo=_dt.UTC),
        code=StepCode("retire", "preview-dns", "delete_dns_record", "cloudflare-dns", "cloudflare-prod", "destroy"),
    )
    assert closed.encode() == (
        b'{\n  "definition": "preview-dns",\n  "disposition": "attempted-outcome-unknown",\n'
        b'  "ended_at": "2026-08-06T10:12:00.000Z",\n  "id": "retire",\n  "kind": "destroy",\n'
        b'  "operation": "delete_dns_record",\n  "provider": "cloudflare-dns",\n  "schema_version": 1,\n'
        b'  "step": 4,\n  "target": "cloudflare-prod"\n}\n'
    )
    bare = ClosedBy(step=1, ended_at=AT)
    assert ClosedBy.decode(bare.encode()) == bare
    assert bare.reading().disposition == "attempted-outcome-unknown"


def _step(**changes: Any) -> StepFile:
    base = StepFile(
        step=2,
        code=StepCode("purge", "hetzner-staging", "delete_server", "hetzner", "staging", "destroy"),
        disposition="ran",
        started_at=AT,
        ended_at=AT + _dt.timedelta(seconds=28),
        provenance=StepProvenance("4d7e118c9a03f5b26e1d84a70c3f9b52d6081e4a", "sha256:" + "9" * 64),
    )
    return base._replace(**changes)


def test_a_step_file_round_trips_every_member() -> None:
    step = _step(
        path="retire.purge",
        identities=concluded(["preview-8806", "preview-8802"], ""),
        selector=Selector(
            {"assets": [{"equals": "preview", "field": "labels.role"}]}, ("preview-8806", "preview-8802"), 8
        ),
        pattern=Pattern(attempts=3),
        answered=(
            MemberAnswer(HTTPAnswer("api.hetzner.cloud", 404), "preview-8806"),
            MemberAnswer(HTTPAnswer("api.hetzner.cloud")),
            MemberAnswer(ShellAnswer('["rm","-rf","x"]', 0)),
        ),
        projection_failed_path="$.id",
    )
    assert StepFile.decode(step.encode()) == step


def test_a_step_file_of_the_older_form_holds_its_one_answer_as_an_object() -> None:
    """An older writer held ``answered`` as one object: such a file is read, not refused as
    "'answered' is not a list", and still passes the canonical check on its own bytes."""
    written = _step(answered=(MemberAnswer(HTTPAnswer("api.hetzner.cloud", 500)),)).encode()
    held = parse(written)
    assert isinstance(held, dict) and isinstance(held["answered"], list)
    held["answered"] = held["answered"][0]
    older = encode(held)
    assert b'"answered": {' in older
    step = StepFile.decode(older)
    assert step.answered == (MemberAnswer(HTTPAnswer("api.hetzner.cloud", 500)),)
    assert step.encode() == older


def test_an_empty_expansion_and_an_empty_set_are_written() -> None:
    step = _step(identities=Identities(concluded([], "").digest, ()), selector=Selector({"values": ["x"]}, ()))
    written = step.encode()
    assert b'"expanded_to": []' in written and b'"members": []' in written
    assert StepFile.decode(written) == step


def test_an_unmoved_digest_writes_no_members() -> None:
    first = concluded(["b", "a"], "")
    assert first.members == ("a", "b")
    assert concluded(["a", "b"], first.digest) == Identities(first.digest)


def test_the_identity_set_is_read_back_across_entries() -> None:
    held = concluded(["a", "b"], "")
    again = concluded(["b", "a"], held.digest)
    assert read_identity_set("probe", [again, again, held]) == ("a", "b")
    with pytest.raises(IdentitySetError):
        read_identity_set("probe", [again])
    with pytest.raises(IdentitySetError):
        read_identity_set("probe", [Identities(concluded(["c"], "").digest), held])


def test_a_refused_outcome_carries_its_refusal_and_no_other_does() -> None:
    refused = OutcomeFile(
        "refused",
        AT,
        (
            RefusalMember(
                "bound-exceeded", "procedures/p.yaml", "expansion resolved 23", 34, "steps[2].bound", 3, "retire", 5, 23
            ),
        ),
    )
    assert OutcomeFile.decode(refused.encode()) == refused
    assert refused.head == "bound-exceeded"
    with pytest.raises(ValueError):
        OutcomeFile("refused", AT).encode()
    with pytest.raises(ValueError):
        OutcomeFile("completed", AT, refused.refusal).encode()


def _version(**changes: object) -> RecordVersion:
    meta = Metadata(
        identity=Identity("staging", "hetzner-staging", "preview-8999"),
        record_type="asset",
        run_id=RUN_ID,
        step=3,
        operation="delete_server",
        written_at=AT,
        provenance=Provenance(
            RunProvenance("1.4.0", "b" * 40, "c" * 40), StepProvenance("d" * 40, "sha256:" + "e" * 64)
        ),
        **changes,  # type: ignore[arg-type]
    )
    return RecordVersion(meta)


def test_a_tombstone_opening_a_series_carries_no_fields() -> None:
    tombstone = _version(tombstone=True)
    written = tombstone.encode()
    assert b"fields" not in written and b'"tombstone": true' in written
    assert RecordVersion.decode(written) == tombstone


def test_secret_fields_are_the_marker_and_read_back_as_it() -> None:
    from hyper.store.canonical import Secret

    version = RecordVersion(_version().metadata, {"api_key": Secret(), "region": "fsn1"})
    read = RecordVersion.decode(version.encode())
    assert read.fields == {"api_key": "<secret>", "region": "fsn1"}
    assert suppressed_fields(read.fields) == ("api_key",)


def _outcome(**members: object) -> bytes:
    import json

    return (json.dumps(members, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


_ENDED = "2026-08-06T09:41:12.508Z"


@pytest.mark.parametrize(
    ("data", "fault"),
    [
        (_outcome(schema_version=1), "carries no"),
        (b"[]\n", "JSON object"),
        (b'{"ended_at":"2026-08-06T09:41:12.508Z","outcome":"completed","schema_version":1}', "canonical"),
        (_outcome(ended_at=_ENDED, extra="x", outcome="completed", schema_version=1), "does not have"),
        (_outcome(ended_at=_ENDED, outcome="open", schema_version=1), "closed set"),
        (_outcome(ended_at="2026-08-06T09:41:12Z", outcome="completed", schema_version=1), "RFC 3339"),
        (_outcome(ended_at=_ENDED, outcome="completed", schema_version=0), "schema version"),
        (_outcome(ended_at=_ENDED, outcome="refused", schema_version=1), "refusal"),
    ],
)
def test_a_file_the_encoder_did_not_write_is_refused(data: bytes, fault: str) -> None:
    with pytest.raises(StoreFileError, match=fault):
        OutcomeFile.decode(data)


def test_a_closed_by_with_another_disposition_is_refused() -> None:
    written = ClosedBy(step=1, ended_at=AT).encode().replace(b"attempted-outcome-unknown", b"ran")
    with pytest.raises(StoreFileError):
        ClosedBy.decode(written)


def test_unsorted_members_are_refused() -> None:
    written = _step(identities=concluded(["a", "b"], "")).encode()
    swapped = written.replace(b'"a",\n      "b"', b'"b",\n      "a"')
    with pytest.raises(StoreFileError, match="sorted"):
        StepFile.decode(swapped)

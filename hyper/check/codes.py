"""Every ``error_code`` ``check`` can answer, in one table.

The table is the contract three things are held to: the rules that emit the codes,
``docs/check-rules.md`` (a test compares the two lists), and the corpus (a test
compares the codes its cases trigger against this list). A code added to a rule and
not here, or here and never emitted, fails one of those tests rather than drifting.

The version-pin codes are not members: the gate answers them before ``check`` reads
a second file, and every command shares that gate.
"""

from __future__ import annotations

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

STRICT_YAML_VIOLATION: Final = "strict-yaml-violation"
UNKNOWN_KEY: Final = "unknown-key"
SCHEMA_MISMATCH: Final = "schema-mismatch"
KIND_MISMATCH: Final = "kind-mismatch"
NAME_MISMATCH: Final = "name-mismatch"
SCHEMA_UNSUPPORTED: Final = "schema-unsupported"
CREDENTIAL_SLOT_MALFORMED: Final = "credential-slot-malformed"
HOLE_ILLEGAL: Final = "hole-illegal"
SERIES_REFERENCE: Final = "series-reference"
ARTEFACT_ABSENT: Final = "artefact-absent"
REFERENCE_UNRESOLVABLE: Final = "reference-unresolvable"
CAPABILITY_MISMATCH: Final = "capability-mismatch"
MANIFEST_INCONSISTENT: Final = "manifest-inconsistent"
TARGET_INCONSISTENT: Final = "target-inconsistent"
HEADER_RESERVED: Final = "header-reserved"
LOCAL_RESERVED: Final = "local-reserved"
IDENTITY_UNDECLARED: Final = "identity-undeclared"
TARGET_CLASS_MISMATCH: Final = "target-class-mismatch"
DEFINITION_KINDS_MIXED: Final = "definition-kinds-mixed"
KIND_NOT_GRANTED: Final = "kind-not-granted"
CAPABILITY_NOT_GRANTED: Final = "capability-not-granted"
OPERATION_NOT_CLAIMED: Final = "operation-not-claimed"
TARGET_NOT_CLAIMED: Final = "target-not-claimed"
ENVELOPE_EXCEEDED: Final = "envelope-exceeded"
OPAQUE_DESTROY_NOT_GRANTED: Final = "opaque-destroy-not-granted"
BOUND_MISSING: Final = "bound-missing"
BOUND_ILLEGAL: Final = "bound-illegal"
BOUND_NOT_POSITIVE: Final = "bound-not-positive"
HOST_NOT_GRANTED: Final = "host-not-granted"
COMMAND_MALFORMED: Final = "command-malformed"
DESTROY_UNSCOPED: Final = "destroy-unscoped"
SKIP_IF_RECORDED_UNREACHABLE: Final = "skip-if-recorded-unreachable"
BOUND_EXCEEDED: Final = "bound-exceeded"
PREDICATE_TYPE_MISMATCH: Final = "predicate-type-mismatch"
RECORD_IDENTITY_COLLISION: Final = "record-identity-collision"
CADENCE_RUN_ONCE: Final = "cadence-run-once"
CADENCE_SECRET_OUTPUT: Final = "cadence-secret-output"
PROCEDURE_CYCLE: Final = "procedure-cycle"
CADENCE_MALFORMED: Final = "cadence-malformed"
PROJECTION_STALE: Final = "projection-stale"
PROVIDER_NAME_COLLISION: Final = "provider-name-collision"
CAPABILITY_RESERVED: Final = "capability-reserved"
ORIGIN_DIGEST_MISMATCH: Final = "origin-digest-mismatch"
MANIFEST_SCHEMA_UNSUPPORTED: Final = "manifest-schema-unsupported"

RULES: Final[dict[str, str]] = {
    STRICT_YAML_VIOLATION: "a construct outside the YAML subset: a tag, anchor, alias, merge key, null, "
    "duplicate key, a second document, or text that does not parse",
    UNKNOWN_KEY: "a key the schema at its position does not define (and a bound: on a read Step, "
    "an args: key the Operation does not declare)",
    SCHEMA_MISMATCH: "a value that does not read as its position's type, a required key that is missing, "
    "a value outside its enum, or a shape the format fixes (exactly one of, a values: member)",
    KIND_MISMATCH: "kind: disagrees with the directory (or hyper.yaml) the file sits in",
    NAME_MISMATCH: "the artefact's own name disagrees with its file's basename",
    SCHEMA_UNSUPPORTED: "an Operation's input schema uses a keyword outside type, enum, properties and items",
    CREDENTIAL_SLOT_MALFORMED: "a credential slot that is not a mapping whose one key is env:, or env: "
    "written anywhere else",
    HOLE_ILLEGAL: "a template hole filled from the wrong source for its position, or written where no "
    "hole may stand (auth:, method:, a body: key)",
    SERIES_REFERENCE: "a {step:, path:} reference names an earlier Step whose Operation projects a series",
    ARTEFACT_ABSENT: "a provider:, targets: member, Step definition: or invocation procedure: names no "
    "artefact in this repository",
    REFERENCE_UNRESOLVABLE: "an operation:, destroy: member, predicate field:, or a reference's step:/path: "
    "names no member of what it points into",
    CAPABILITY_MISMATCH: "a Manifest's capabilities: differ from the Capabilities its Operations' request blocks use",
    MANIFEST_INCONSISTENT: "a Manifest disagreeing with itself (Kind against record:, Repeatability, "
    "concurrency, pagination, unreached input, hole type, path delimiter, method token, owned header, "
    "shell auth), or a binding its Auth scheme or host set cannot serve",
    TARGET_INCONSISTENT: "a Target declaration's hosts: and its http grant disagree",
    HEADER_RESERVED: "a headers: entry or an Auth header name: names a header hyper computes itself",
    LOCAL_RESERVED: "the Target named local carries auth: or a class other than local",
    IDENTITY_UNDECLARED: "a record: block declares no identity:",
    TARGET_CLASS_MISMATCH: "a Definition binds a Target whose class differs from its Provider's class",
    DEFINITION_KINDS_MIXED: "a Definition claims read beside mutate or beside destroy: Operations",
    KIND_NOT_GRANTED: "a Step's Kind is outside its Definition's claim intersected with its Target's kinds:",
    CAPABILITY_NOT_GRANTED: "a Definition binds a Target that does not grant a Capability its Provider uses",
    OPERATION_NOT_CLAIMED: "a destroy Step's Operation is not named in its Definition's destroy:",
    TARGET_NOT_CLAIMED: "a Step's target: is not among its Definition's targets:",
    ENVELOPE_EXCEEDED: "a Step, or an invoked Procedure at any depth, reaches a Target or Kind outside "
    "the Procedure's declared targets:",
    OPAQUE_DESTROY_NOT_GRANTED: "a Definition claims an opaque destroy against a Target without opaque-destroy: true",
    BOUND_MISSING: "a non-opaque destroy Step carries no bound:",
    BOUND_ILLEGAL: "an opaque destroy Step carries a bound:",
    BOUND_NOT_POSITIVE: "a Step's bound: is below 1",
    HOST_NOT_GRANTED: "a host the Operation can reach, or a values: member wired into host-input:, is "
    "outside the Target's hosts:",
    COMMAND_MALFORMED: "a shell Step's command: is empty, not a list, or starts with a reference",
    DESTROY_UNSCOPED: "a destroy Step carries no over: selector",
    SKIP_IF_RECORDED_UNREACHABLE: "a skip-if-recorded Step expands over assets:",
    BOUND_EXCEEDED: "an over: values: list is longer than the Step's bound:",
    PREDICATE_TYPE_MISMATCH: "a predicate operand of the wrong type, a predicate that cannot depend on "
    "the value, or one on a secret field",
    RECORD_IDENTITY_COLLISION: "two values: members are one identity, or every member resolves to one identity",
    CADENCE_RUN_ONCE: "a Procedure with a cadence: reaches a run-once Step at some depth",
    CADENCE_SECRET_OUTPUT: "a Procedure with a cadence: reaches a Step whose Operation declares secret:",
    PROCEDURE_CYCLE: "a nested invocation closes a cycle in the invocation graph",
    CADENCE_MALFORMED: "a cadence: outside the five-field cron grammar",
    PROJECTION_STALE: "a generated workflow is missing, differs from what hyper project writes, or is "
    "asked for by no Procedure",
    PROVIDER_NAME_COLLISION: "a providers/ Manifest takes a built-in Provider's name",
    CAPABILITY_RESERVED: "a providers/ Manifest declares or uses the shell Capability",
    ORIGIN_DIGEST_MISMATCH: "an installed Manifest's bytes no longer match its origin: digest",
    MANIFEST_SCHEMA_UNSUPPORTED: "a Manifest's schema-version is above the one this hyper reads",
}
"""Code → what it checks, in our words. Insertion order is the order the docs list them."""

CODES: Final = frozenset(RULES)

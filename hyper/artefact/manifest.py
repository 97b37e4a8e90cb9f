"""A Manifest: the whole of a Provider — data, no code — and the facts derived from it.

Every key is read into a typed value that keeps the node it came from, so a rule can
cite the exact line, and every derived fact (a summary, an effective Repeatability,
a Bound rule, a digest) is computed here once, so ``providers``, ``provider``,
``operation``, the MCP tools and the checks cannot come to disagree about one
Manifest. Reading is lenient: a misshapen key reads as not stated, and the facts
built on it drop out rather than being guessed (the schema reports the fault).

The digest is SHA-256 over the Manifest's exact bytes and never over a canonical form
of what they parse to: a reader verifies it with ``sha256sum``, and reformatting a
Manifest moves it, which is right — the reviewed artefact moved.
"""

from __future__ import annotations

from hyper.artefact import scalars as read
from hyper.core.namedtuple import NamedTuple
from hyper.yaml.access import fields, member, scalar, scalars, text
from hyper.yaml.subset import Map, Node, Scalar, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

KIND: Final = "provider"
NAME_KEY: Final = "provider"
BUILTIN_PATH: Final = "<built-in>/shell"
"""The pseudo-path the built-in shell Provider is loaded and cited under; it has no file."""
BUILTIN_NAMES: Final = frozenset({"shell"})
SCHEMA_VERSION: Final = 1
"""The Manifest shape this hyper reads; a Manifest declaring a higher one is declined."""

KINDS: Final = ("read", "mutate", "destroy")
"""The Kind set in ascending blast radius, which is the order counts are stated in."""
CAPABILITIES: Final = ("http", "shell")
PATTERNS: Final = ("pagination", "polling", "retry")
AUTH_SCHEMES: Final = ("header", "basic")
AUTH_SLOTS: Final = {"header": ("token",), "basic": ("username", "password")}
SECRET_MARKER: Final = "<secret>"
"""What stands where a credential or a secret field would be written."""

ORIGIN_BUILT_IN: Final = "built-in"
ORIGIN_EXTENSION: Final = "extension"

Member = tuple[int, Scalar]
"""A list member that is a scalar, with its index in the list."""


def listed(node: Node | None) -> tuple[Member, ...] | None:
    """A list's scalar members, ``None`` where the key is absent or not a list at all."""
    return scalars(node) if isinstance(node, Seq) else None


class HttpRequest(NamedTuple):
    """An ``http:`` block; its members are ``None`` where the block is not a mapping."""

    node: Node
    method: Scalar | None
    host: Scalar | None
    path: Scalar | None
    query: Node | None
    headers: Node | None
    body: Node | None
    host_input: Scalar | None


class Record(NamedTuple):
    """A ``record:`` mapping: what one response projects into the Store."""

    node: Map
    identity: Scalar | None
    fields: Node | None
    over: Node | None
    """Present means the response projects a series, one Record per member."""

    @property
    def field_names(self) -> tuple[str, ...]:
        return self.fields.keys() if isinstance(self.fields, Map) else ()


class Patterns(NamedTuple):
    """A ``patterns:`` mapping; each member is the raw node where written."""

    node: Map
    pagination: Node | None
    polling: Node | None
    retry: Node | None

    @property
    def resolved(self) -> tuple[str, ...]:
        """The members declared, in the set's own order rather than the author's."""
        present = {"pagination": self.pagination, "polling": self.polling, "retry": self.retry}
        return tuple(name for name in PATTERNS if present[name] is not None)


class Operation(NamedTuple):
    """One member of ``operations:``, every key kept with its node."""

    key: Scalar
    node: Node
    kind: Scalar | None
    repeatability: Scalar | None
    deadline: Scalar | None
    concurrency: Scalar | None
    patterns: Patterns | None
    input: Node | None
    http: HttpRequest | None
    shell: Node | None
    record: Record | None
    """``None`` where no ``record:`` is written or it is not a mapping: nothing projected."""
    secret: tuple[Member, ...] | None

    @property
    def name(self) -> str:
        return self.key.value

    @property
    def kind_value(self) -> str:
        """The declared Kind, ``""`` where it is illegible — never inferred from the name."""
        return self.kind.value if self.kind is not None else ""

    @property
    def opaque(self) -> bool:
        """Whether the request is the shell Capability; no artefact ever declares it."""
        return self.shell is not None

    @property
    def capability(self) -> str:
        """The one Capability the request is written under; ``""`` where both or neither are."""
        if self.http is not None and self.shell is None:
            return "http"
        if self.shell is not None and self.http is None:
            return "shell"
        return ""

    @property
    def repeatability_value(self) -> str:
        """The declared Repeatability, ``""`` where undeclared or illegible."""
        return self.repeatability.value if self.repeatability is not None else ""

    @property
    def run_once(self) -> bool:
        """Effectful with no Repeatability written: the default that has no spelling."""
        return self.repeatability_value == "" and self.kind_value in ("mutate", "destroy")

    @property
    def effective_repeatability(self) -> str:
        """The Repeatability in force: declared, else the Kind's default; ``""`` with no Kind."""
        if self.repeatability_value:
            return self.repeatability_value
        if self.kind_value not in KINDS:
            return ""
        return "run-once" if self.run_once else "repeatable"

    @property
    def bound(self) -> str:
        """Whether a Step's Bound is ``mandatory``, ``illegal`` or not required (``none``)."""
        kind = self.kind_value
        if kind == "destroy":
            return "illegal" if self.opaque else "mandatory"
        if kind in ("read", "mutate"):
            return "none"
        return ""

    @property
    def patterns_resolved(self) -> tuple[str, ...]:
        return self.patterns.resolved if self.patterns is not None else ()

    @property
    def record_cardinality(self) -> str:
        """``series`` where the record: names an ``over:``, ``one`` otherwise, ``""`` with none."""
        if self.record is None:
            return ""
        return "series" if self.record.over is not None else "one"

    @property
    def record_identity(self) -> str:
        if self.record is None or self.record.identity is None:
            return ""
        return self.record.identity.value

    @property
    def secret_fields(self) -> tuple[str, ...]:
        """The ``secret:`` names in the Manifest's own order; empty where none are declared."""
        return tuple([item.value for _, item in self.secret or ()])

    @property
    def deadline_text(self) -> str:
        return self.deadline.value if self.deadline is not None else ""

    @property
    def deadline_seconds(self) -> int | None:
        return read.duration_seconds(self.deadline_text)

    @property
    def concurrency_limit(self) -> int:
        """The declared limit on a read, and 1 everywhere else: effectful Expansion is serial."""
        if self.kind_value != "read" or self.concurrency is None:
            return 1
        declared = read.integer(self.concurrency.value)
        return 1 if declared is None else declared

    @property
    def request(self) -> str:
        """What the request is, as a listing names it: ``shell``, or ``METHOD /path``."""
        if self.opaque:
            return "shell"
        if self.http is None or self.http.method is None or self.http.path is None:
            return ""
        if not self.http.method.value or not self.http.path.value:
            return ""
        return f"{self.http.method.value} {self.http.path.value}"

    @property
    def projection(self) -> str:
        if self.record is None:
            return "projects no Record"
        if self.record.over is not None:
            return "projects a Record series"
        return "projects one Record"

    @property
    def summary(self) -> str:
        """The request, the Repeatability in force, what it projects, and any secret output.

        A clause with nothing legible behind it is dropped rather than written empty;
        what the Operation projects is always stated.
        """
        clauses = [c for c in (self.request, self.effective_repeatability) if c]
        clauses.append(self.projection)
        if self.secret_fields:
            clauses.append("secret output: " + ", ".join(self.secret_fields))
        return "; ".join(clauses)


class Auth(NamedTuple):
    """An ``auth:`` block: at most one of the two schemes, each a mapping of parameters."""

    node: Node
    header: Node | None
    basic: Node | None

    @property
    def scheme(self) -> str:
        """``header`` or ``basic`` where exactly one is named, else ``""``."""
        if self.header is not None and self.basic is None:
            return "header"
        if self.basic is not None and self.header is None:
            return "basic"
        return ""

    @property
    def owned_header(self) -> str:
        """The header the scheme writes the credential into; ``""`` where that is illegible."""
        if not isinstance(self.node, Map):
            return ""
        if self.header is not None:
            if not isinstance(self.header, Map):
                return ""
            return text(member(self.header, "name")) or ""
        if self.basic is not None:
            return "Authorization"
        return ""

    @property
    def prefix(self) -> str:
        if self.header is not None:
            return text(member(self.header, "prefix")) or ""
        return "Basic "

    @property
    def rendering(self) -> str:
        """The header the scheme composes with the credential's place marked, ``""`` if illegible.

        The composition rather than the parameters, because a prefix is concatenated
        verbatim and the trailing space in ``"Bearer "`` is invisible in the source.
        """
        owned = self.owned_header
        return f"{owned}: {self.prefix}{SECRET_MARKER}" if owned else ""

    @property
    def slots(self) -> tuple[str, ...]:
        """The credential slots a Target must fill for this scheme, in the scheme's order."""
        return AUTH_SLOTS.get(self.scheme, ())


class Origin(NamedTuple):
    node: Node
    ref: Scalar | None
    digest: Scalar | None


class Manifest(NamedTuple):
    path: str
    """``providers/<name>.yaml``, or :data:`BUILTIN_PATH` for the built-in."""
    data: bytes
    root: Node | None
    kind: Scalar | None
    name: Scalar | None
    schema_version: Scalar | None
    class_: Scalar | None
    capabilities: tuple[Member, ...] | None
    auth: Auth | None
    enumerations: Node | None
    operations: tuple[Operation, ...]
    """Every member of a legible ``operations:`` mapping, in authored order."""
    origin: Origin | None

    @property
    def declared_name(self) -> str:
        """The name the Manifest declares for itself; ``""`` where it names none legibly."""
        return self.name.value if self.name is not None else ""

    @property
    def built_in(self) -> bool:
        return self.path == BUILTIN_PATH

    @property
    def origin_kind(self) -> str:
        """``built-in`` or ``extension``, decided by where the bytes were loaded from."""
        return ORIGIN_BUILT_IN if self.built_in else ORIGIN_EXTENSION

    @property
    def digest(self) -> str:
        from hyper.core.digest import sha256  # deferred: a command that states no digest never imports it

        return sha256(self.data)

    @property
    def capability_values(self) -> tuple[str, ...]:
        """The declared Capabilities in authored order; empty where none are legible."""
        return tuple([item.value for _, item in self.capabilities or ()])

    @property
    def schema_version_value(self) -> int | None:
        return read.integer(self.schema_version.value) if self.schema_version is not None else None

    @property
    def schema_unsupported(self) -> bool:
        """Declares a shape above the one this hyper reads, which declines the whole file."""
        version = self.schema_version_value
        return version is not None and version > SCHEMA_VERSION

    @property
    def names_a_provider(self) -> bool:
        """An Extension joins the namespace unless it takes a built-in's name or declares a
        schema version above the one this hyper reads."""
        name = self.declared_name
        return bool(name) and name not in BUILTIN_NAMES and not self.schema_unsupported

    @property
    def auth_scheme(self) -> str:
        """The composed scheme, ``none`` with no ``auth:``, ``""`` where one is illegible."""
        return "none" if self.auth is None else self.auth.rendering

    def operation(self, name: str) -> Operation | None:
        """The Operation keyed ``name``, byte-exact; the first where a (refused) duplicate repeats it."""
        for op in self.operations:
            if op.name == name:
                return op
        return None

    def operation_source(self, name: str) -> str | None:
        """The Manifest lines declaring ``name``, verbatim; ``None`` where it declares no such key."""
        from hyper.artefact.source import operation_source  # only ``hyper operation`` cuts lines out

        keys = tuple([op.key for op in self.operations])
        for index, key in enumerate(keys):
            if key.value == name:
                return operation_source(self.data, keys, index)
        return None

    @property
    def operations_by_name(self) -> dict[str, Operation]:
        """One Operation per name (the later of a refused duplicate), for counting and lookup."""
        return {op.name: op for op in self.operations}

    @property
    def summary(self) -> str:
        """The Manifest in one line: class, Capabilities required, Operations counted by Kind."""
        parts: list[str] = []
        class_ = self.class_.value if self.class_ is not None else ""
        if class_:
            parts.append(f"class {class_}")
        capabilities = sorted(set(self.capability_values))
        if capabilities:
            parts.append("requires " + ", ".join(capabilities))
        counts = {kind: 0 for kind in KINDS}
        for op in self.operations_by_name.values():
            if op.kind_value in counts:
                counts[op.kind_value] += 1
        stated = [f"{n} {kind}" for kind, n in counts.items() if n]
        parts.append(", ".join(stated) if stated else "no Operations")
        return "; ".join(parts)


def _read_http(node: Node) -> HttpRequest:
    parts = fields(node, "method", "host", "path", "query", "headers", "body", "host-input")
    return HttpRequest(
        node=node,
        method=scalar(parts.get("method")),
        host=scalar(parts.get("host")),
        path=scalar(parts.get("path")),
        query=parts.get("query"),
        headers=parts.get("headers"),
        body=parts.get("body"),
        host_input=scalar(parts.get("host-input")),
    )


def _read_operation(key: Scalar, node: Node) -> Operation:
    parts = fields(
        node,
        "kind",
        "repeatability",
        "deadline",
        "concurrency",
        "patterns",
        "input",
        "http",
        "shell",
        "record",
        "secret",
    )
    record, patterns, http = parts.get("record"), parts.get("patterns"), parts.get("http")
    return Operation(
        key=key,
        node=node,
        kind=scalar(parts.get("kind")),
        repeatability=scalar(parts.get("repeatability")),
        deadline=scalar(parts.get("deadline")),
        concurrency=scalar(parts.get("concurrency")),
        patterns=Patterns(patterns, *(patterns.value(name) for name in PATTERNS))
        if isinstance(patterns, Map)
        else None,
        input=parts.get("input"),
        http=_read_http(http) if http is not None else None,
        shell=parts.get("shell"),
        record=Record(record, scalar(record.value("identity")), record.value("fields"), record.value("over"))
        if isinstance(record, Map)
        else None,
        secret=listed(parts.get("secret")),
    )


def read_manifest(path: str, data: bytes, root: Node | None) -> Manifest:
    """The Manifest ``root`` parsed from ``data``; never judges, never raises."""
    parts = fields(
        root,
        "kind",
        "provider",
        "schema-version",
        "class",
        "capabilities",
        "auth",
        "enumerations",
        "operations",
        "origin",
    )
    auth, origin, operations = parts.get("auth"), parts.get("origin"), parts.get("operations")
    return Manifest(
        path=path,
        data=data,
        root=root,
        kind=scalar(parts.get("kind")),
        name=scalar(parts.get("provider")),
        schema_version=scalar(parts.get("schema-version")),
        class_=scalar(parts.get("class")),
        capabilities=listed(parts.get("capabilities")),
        auth=Auth(auth, member(auth, "header"), member(auth, "basic")) if auth is not None else None,
        enumerations=parts.get("enumerations"),
        operations=tuple([_read_operation(key, value) for key, value in operations.entries])
        if isinstance(operations, Map)
        else (),
        origin=Origin(origin, scalar(member(origin, "ref")), scalar(member(origin, "digest")))
        if origin is not None
        else None,
    )

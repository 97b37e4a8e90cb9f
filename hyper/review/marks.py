"""The marker column, and the flags that index it, for each of the five artefacts.

What the gutter marks is what a reviewer with the file open cannot see in it: a
Step's Kind, declared in a Manifest two directories away; whether its request is
one hyper cannot describe; the Target it binds; whether the Steps stay inside the
declared envelope. The other four artefacts mark facts derived from their own lines
(the Kinds claimed or accepted, the grants, the credential variables, the pin).

Markers and flags come out of one reading so every flag cites a line the gutter
drew. A marker is either whole (one derived fact filling the cell) or composed of
fields aligned per position across the rendering — a Step's Kind, opacity and
Target; an Operation's Kind, Repeatability, opacity and secret output — which is why composing
waits until every marker is known (:mod:`hyper.review.columns`).
"""

from __future__ import annotations

from hyper.artefact.manifest import Manifest
from hyper.artefact.repository import Repository, declared_name
from hyper.artefact.target import TargetDeclaration
from hyper.core.namedtuple import NamedTuple
from hyper.review import kinds
from hyper.review.columns import aligned, widths
from hyper.review.kinds import Kind
from hyper.review.nodes import env_variable, key_line, named, scalar_list, scalar_text
from hyper.yaml.access import fields
from hyper.yaml.subset import Map, Node, Seq

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Final, TypeAlias

DESTROY: Final = "DESTROY"
OPAQUE: Final = "opaque"
SECRET: Final = "secret"
UNRESOLVED: Final = "unresolved"
UNBOUNDED_MARK: Final = "!"
ENVELOPE: Final = "envelope"
ENVELOPE_STATES: Final = {True: ("✓", "ok"), False: ("✗", "exceeded")}
"""The envelope verdict as the page draws it and as the wire and the flag name it."""


class Marker(NamedTuple):
    """One line's marker cell before composition: whole, or fields aligned per position."""

    line: int
    whole: str = ""
    whole_wire: str = ""
    fields: tuple[str, ...] = ()

    def wire(self) -> str:
        """The page's string with its padding collapsed; the envelope's sigil spelt as a word."""
        if self.whole:
            return self.whole_wire
        return " ".join(field for field in self.fields if field)

    def page(self, sized: Sequence[int]) -> str:
        return self.whole or aligned(self.fields, sized)


class Flag(NamedTuple):
    """One row of the index: the name (wire spelling), the line it cites, and the page's cells."""

    name: str
    cites: int
    step: str = ""
    """The wire's coordinate: the Step's id, where the flag belongs to one."""
    coordinate: str = ""
    text: str = ""
    file_level: bool = False
    """A claim about the whole artefact: sorted after every line's own rows."""
    before: tuple[str, ...] = ()
    """Lines stacked under the head showing the earlier side (a change flag's)."""
    after: tuple[str, ...] = ()


class Marks(NamedTuple):
    markers: tuple[Marker, ...]
    flags: tuple[Flag, ...]


def composed_widths(markers: Sequence[Marker]) -> list[int]:
    return widths(marker.fields for marker in markers if not marker.whole)


def whole(line: int, text: str) -> Marker:
    return Marker(line, text, text)


def kind_mark(kind: str) -> str:
    return DESTROY if kind == "destroy" else kind


def opaque_mark(opaque: bool) -> str:
    return OPAQUE if opaque else ""


def secret_mark(names: Sequence[str]) -> str:
    """An Operation's secret output, by field name: the one fact a reviewer must see before a Step
    reaches it, since its value is withheld from every Record and surface."""
    return " ".join((SECRET, *names)) if names else ""


def step_coordinate(step: str) -> str:
    return f"step {step}" if step else ""


def by_line(flags: Sequence[Flag]) -> tuple[Flag, ...]:
    """Ascending by cited line, stable (a line's own roster order holds), file-level rows last."""
    return tuple(sorted(flags, key=lambda flag: (flag.file_level, flag.cites)))


def _appended(markers: list[Marker], line: int, text: str) -> None:
    if line and text:
        markers.append(whole(line, text))


def _key_values(root: Node | None, key: str) -> tuple[int, tuple[str, ...]]:
    value = fields(root, key).get(key)
    return key_line(root, key), scalar_list(value) or ()


# --- Definition -----------------------------------------------------------------


def definition_marks(root: Node | None) -> Marks:
    kinds_line, claimed = _key_values(root, "kinds")
    destroy_line, destroyed = _key_values(root, "destroy")
    targets_line, targets = _key_values(root, "targets")
    markers: list[Marker] = []
    _appended(markers, kinds_line, " ".join(kind_mark(kind) for kind in claimed))
    _appended(markers, destroy_line, f"{DESTROY} {' '.join(destroyed)}" if destroyed else "")
    _appended(markers, targets_line, " ".join(targets))
    flags: list[Flag] = []
    if kinds_line and "destroy" in claimed:
        flags.append(Flag("destroy", kinds_line, text="claims destroy"))
    if destroy_line and destroyed:
        flags.append(Flag("destroy", destroy_line, text=f"claims destroy through {' '.join(destroyed)}"))
    return Marks(tuple(markers), tuple(flags))


# --- Target declaration -----------------------------------------------------------


def target_marks(root: Node | None) -> Marks:
    kinds_line, accepted = _key_values(root, "kinds")
    markers: list[Marker] = []
    _appended(markers, kinds_line, " ".join(kind_mark(kind) for kind in accepted))
    for key in ("capabilities", "hosts"):
        _appended(markers, *_joined(root, key))
    auth = fields(root, "auth").get("auth")
    if isinstance(auth, Map):
        for slot, value in auth.entries:
            _appended(markers, slot.line, env_variable(value))
    opt_in = (
        key_line(root, "opaque-destroy")
        if scalar_text(fields(root, "opaque-destroy").get("opaque-destroy")) == "true"
        else 0
    )
    _appended(markers, opt_in, f"{OPAQUE} {DESTROY}")
    flags: list[Flag] = []
    if kinds_line and "destroy" in accepted:
        flags.append(Flag("destroy", kinds_line, text="accepts destroy"))
    if opt_in:
        flags.append(Flag("opaque", opt_in, text="admits a destroy hyper cannot describe"))
    return Marks(tuple(markers), tuple(flags))


def _joined(root: Node | None, key: str) -> tuple[int, str]:
    line, values = _key_values(root, key)
    return line, " ".join(values)


# --- Manifest -----------------------------------------------------------------------


def manifest_marks(manifest: Manifest) -> Marks:
    root = manifest.root
    markers: list[Marker] = []
    auth = fields(root, "auth").get("auth")
    schemes = fields(auth, "header", "basic")
    scheme = next((name for name in ("header", "basic") if name in schemes), "")
    _appended(markers, key_line(root, "auth"), scheme)
    _appended(markers, *_joined(root, "capabilities"))
    flags: list[Flag] = []
    for op in manifest.operations:
        markers.append(
            Marker(
                op.key.line,
                fields=(
                    kind_mark(op.kind_value),
                    op.effective_repeatability,
                    opaque_mark(op.opaque),
                    secret_mark(op.secret_fields),
                ),
            )
        )
        if op.kind_value == "destroy":
            flags.append(Flag("destroy", op.key.line, text=f"{op.name} is a destroy"))
        if op.opaque:
            flags.append(Flag("opaque", op.key.line, text=_opaque_text(op.name)))
    return Marks(tuple(markers), tuple(flags))


def _opaque_text(operation: str) -> str:
    return f"{operation} has effects hyper cannot describe"


# --- Repository declaration ----------------------------------------------------------


def repository_marks(root: Node | None) -> Marks:
    markers: list[Marker] = []
    for key in ("version", "retention"):
        _appended(markers, key_line(root, key), scalar_text(fields(root, key).get(key)))
    return Marks(tuple(markers), ())


# --- Procedure ------------------------------------------------------------------------


Reach: TypeAlias = "Callable[[str], tuple[str, ...] | None]"
"""A Procedure name to the Targets it reaches at any depth, sorted; ``None`` where no such Procedure is."""


class Namespaces(NamedTuple):
    """What a Procedure's names resolve against: the repository's own folds."""

    manifests: Mapping[str, Manifest]
    definitions: Mapping[str, str]
    """Definition name to the Provider it names (``""`` where it names none legibly)."""
    targets: Mapping[str, TargetDeclaration]
    manifest_path: Callable[[str], str]
    reach: Reach


def namespaces(repo: Repository, reach: Reach) -> Namespaces:
    providers = {name: declared_name(loaded.root, "provider") for name, loaded in repo.definitions.items()}

    def manifest_path(provider: str) -> str:
        manifest = repo.manifests.get(provider)
        return manifest.path if manifest is not None else ""

    return Namespaces(repo.manifests, providers, repo.targets, manifest_path, reach)


class _Absent(NamedTuple):
    key: str
    name: str = ""
    provider: str = ""


class _Step(NamedTuple):
    line: int
    id: str
    absent: _Absent | None = None
    kind: str = ""
    operation: str = ""
    bounded: bool = False
    bound: str = ""
    opaque: bool = False
    targets: tuple[str, ...] = ()


def procedure_marks(root: Node | None, names: Namespaces) -> Marks:
    declared = fields(root, "targets").get("targets")
    envelope = scalar_list(declared) or ()
    accepted: set[str] = set()
    for target in envelope:
        declaration = names.targets.get(target)
        if declaration is not None:
            accepted.update(declaration.kind_values)
    holds = True
    steps: list[_Step] = []
    entries = fields(root, "steps").get("steps")
    for entry in entries.items if isinstance(entries, Seq) else ():
        parts = fields(entry, "id", "definition", "operation", "target", "bound", "procedure", "require")
        step_id = named(parts.get("id")) or ""
        if "require" in parts:
            continue  # binds and invokes nothing: nothing derived, nothing to mark
        if "procedure" in parts:
            step = _invocation(entry.line, step_id, parts["procedure"], names)
        else:
            step = _step(entry.line, step_id, parts, names)
            if step.absent is None and step.kind not in accepted:
                holds = False
        if any(target not in envelope for target in step.targets):
            holds = False
        steps.append(step)

    markers: list[Marker] = []
    flags: list[Flag] = []
    envelope_line = key_line(root, "targets")
    if envelope_line:
        sigil, state = ENVELOPE_STATES[holds]
        markers.append(Marker(envelope_line, f"{ENVELOPE} {sigil}", f"{ENVELOPE} {state}"))
    for step in steps:
        markers.append(_step_marker(step))
        flags.extend(_step_flags(step, names))
    if envelope_line:
        listed = f"[{', '.join(envelope)}]"
        text = f"every step stays inside {listed}" if holds else f"some step reaches outside {listed}"
        flags.append(Flag("envelope", envelope_line, coordinate=ENVELOPE_STATES[holds][1], text=text, file_level=True))
    return Marks(tuple(markers), tuple(flags))


def _invocation(line: int, step_id: str, callee: Node, names: Namespaces) -> _Step:
    name = named(callee)
    if name is None:
        return _Step(line, step_id, _Absent(kinds.PROCEDURE.name_key))
    reached = names.reach(name)
    if reached is None:
        return _Step(line, step_id, _Absent(kinds.PROCEDURE.name_key, name))
    return _Step(line, step_id, targets=reached)


def _step(line: int, step_id: str, parts: Mapping[str, Node], names: Namespaces) -> _Step:
    definition = named(parts.get("definition"))
    if definition is None:
        return _Step(line, step_id, _Absent("definition"))
    provider = names.definitions.get(definition)
    if provider is None:
        return _Step(line, step_id, _Absent("definition", definition))
    manifest = names.manifests.get(provider)
    if manifest is None:
        return _Step(line, step_id, _Absent("provider", provider))
    operation = named(parts.get("operation"))
    if operation is None:
        return _Step(line, step_id, _Absent("operation", provider=provider))
    op = manifest.operations_by_name.get(operation)
    if op is None:
        return _Step(line, step_id, _Absent("operation", operation, provider))
    target = named(parts.get("target"))
    return _Step(
        line,
        step_id,
        kind=op.kind_value,
        operation=operation,
        bounded="bound" in parts,
        bound=scalar_text(parts.get("bound")),
        opaque=op.opaque,
        targets=(target,) if target is not None else (),
    )


def _step_marker(step: _Step) -> Marker:
    if step.absent is not None:
        return whole(step.line, UNRESOLVED)
    kind = f"{step.kind}{UNBOUNDED_MARK}" if step.kind == "mutate" and not step.bounded else kind_mark(step.kind)
    return Marker(step.line, fields=(kind, opaque_mark(step.opaque), " ".join(step.targets)))


def _step_flags(step: _Step, names: Namespaces) -> list[Flag]:
    def at(name: str, text: str) -> Flag:
        return Flag(name, step.line, step.id, step_coordinate(step.id), text)

    if step.absent is not None:
        return [at("unresolved", _absent_text(step.absent, names))]
    flags: list[Flag] = []
    if step.kind == "destroy":
        legible = step.bound and not step.opaque
        flags.append(at("destroy", f"{step.operation}, bound {step.bound}" if legible else step.operation))
    if step.opaque:
        flags.append(at("opaque", _opaque_text(step.operation)))
    if step.kind == "destroy" and step.opaque:
        flags.append(at("unbounded", "an opaque destroy can carry no bound"))
    elif step.kind == "mutate" and step.opaque:
        flags.append(at("unbounded", "a bound on an opaque mutate counts Records, not what its commands did"))
    elif step.kind == "mutate" and not step.bounded:
        flags.append(at("unbounded", "a mutate with no bound declared"))
    return flags


def _absent_text(absent: _Absent, names: Namespaces) -> str:
    if not absent.name:
        return f"{absent.key}: nothing written to resolve"
    head = f"{absent.key}: {absent.name} — "
    if absent.key == "definition":
        return head + f"there is no {kinds.artefact_file(kinds.DEFINITION, absent.name)}"
    if absent.key == "procedure":
        return head + f"there is no {kinds.artefact_file(kinds.PROCEDURE, absent.name)}"
    if absent.key == "provider":
        return (
            head
            + f"no Provider is built in by that name and there is no {kinds.artefact_file(kinds.MANIFEST, absent.name)}"
        )
    path = names.manifest_path(absent.provider)
    where = path if path else f"Provider {absent.provider}"
    return head + f"{where} declares no such Operation"


def marks_of(kind: Kind, root: Node | None, manifest: Manifest | None, names: Callable[[], Namespaces]) -> Marks:
    """The artefact's markers in line order and its flags in index order."""
    if kind is kinds.PROCEDURE:
        read = procedure_marks(root, names())
    elif kind is kinds.DEFINITION:
        read = definition_marks(root)
    elif kind is kinds.TARGET:
        read = target_marks(root)
    elif kind is kinds.MANIFEST and manifest is not None:
        read = manifest_marks(manifest)
    elif kind is kinds.REPOSITORY:
        read = repository_marks(root)
    else:
        read = Marks((), ())
    return Marks(tuple(sorted(read.markers, key=lambda marker: marker.line)), by_line(read.flags))

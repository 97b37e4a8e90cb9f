"""The two effects hyper performs on a Manifest's behalf: ``http`` and ``shell``.

This package is the only code in hyper that opens a connection or starts a child
process an artefact named (git, run by :mod:`hyper.store`, is the record's transport
and not a Capability). Everything above it — the Run engine, ``probe`` — hands it a
:class:`Call` and gets back an :class:`Answer` holding a *response object*: named
members in a fixed order, never a socket, a process or raw bytes. The projection
(:mod:`hyper.capability.projection`) reads ``$.`` paths against that object.

The contract, for both Capabilities
------------------------------------

**What goes in.** A :class:`Call` says which Operation of which Manifest is performed,
against which Target declaration, with which inputs: the Operation's ``input:``
names mapped to plain JSON values (``str``, ``int``, ``float``, ``bool``, ``None``,
``list``, ``dict``), every Step ``args:`` reference and Expansion ``{item:}``
already resolved by the caller. For ``shell`` the one input is ``command``, a list
of strings. For ``http`` the caller also resolves the credential pass once and hands
the bound Target's slots over as :attr:`Call.credentials` (slot name → value); a
Capability puts a credential on the wire and nowhere else — not in the response
object, not in :attr:`Fault.text`.

A :class:`Context` carries what is the same for every call of one Run or Probe: the
injectable :class:`~hyper.core.process.Process` (``launch`` starts children; anything an
``http`` test needs — a trust root, a resolver — is threaded through it too, never
read from the real process here), the repository root (every child's working
directory), the Run's composed child environment, and the instant the invocation fixed
(``tls.days_left`` counts from it, not from the wall clock).

**Deadlines.** :attr:`Call.deadline` is the Operation's ``deadline:`` in seconds,
counted from the moment :func:`perform` is entered, covering every request a Pattern
makes; ``None`` means hyper could not read one (check refuses that, so a Run never
passes ``None``; a Probe might). Reaching it kills the call (for ``shell``, SIGKILL to
the child's whole process group) and answers a :class:`Fault` with reason
``deadline``.

**Cancellation is not passed in.** A first SIGINT/SIGTERM or an MCP cancel *drains*:
the Step in flight finishes and no further Step starts, so nothing a Capability does
is ever interrupted by it. A second signal ends the Step's process group, then the whole
process. There is therefore no cancel token on a call, by design: the only thing that
stops a call early is its own deadline.

**What comes back.** An :class:`Answer`, always, never an exception for anything the
world did. Its :attr:`Answer.response` is the response object, a ``dict`` whose
insertion order is the reference's member order and whose absent members are simply
not keys (absent is not ``null``; a projection tells them apart):

* ``shell``: ``command`` (the argv as compact one-line JSON text), ``exit_code``
  (``int``; ``-1`` when a signal ended the child), ``stdout``, ``stderr`` (text,
  never parsed, bounded). A child that never started answers ``{command}`` alone.
* ``http``: ``host``, ``status`` (``int``), ``headers`` (lower-cased names),
  ``body`` (parsed JSON; absent when not JSON), ``tls`` (``not_after``,
  ``days_left``, ``subject``, ``issuer``). No response at all answers ``{host}``.

A non-zero exit code or a non-2xx status is an *answer*, not a fault: what it means
is the caller's to decide by Kind. :attr:`Answer.fault` is set only where hyper did
not get an ordinary answer, with a reason the caller classifies on:

* ``unsent`` — the failure provably preceded the request (a child that could not
  start; connection refused, DNS failure, TLS handshake failure). On an effectful
  Step this is *attempted, world untouched*; on a ``read`` the no-answer object is
  recorded as the answer it is.
* ``transport`` — something failed after the request may have reached the world (a
  reset mid-flight, a timeout that is not the deadline).
* ``deadline`` — the Operation's deadline was reached. Nothing is recorded for the
  member.
* ``refused`` — a guardrail of the Capability's own declined before sending (for
  ``http``, a host the Target does not grant): :attr:`Fault.error_code` names it.

:attr:`Fault.text` is narration only: it is never written to the Store, and it
carries no credential.

:attr:`Answer.pattern` counts what a Pattern did (``attempts``, ``pages``,
``polls``), written only where more than the single trivial call happened.
:attr:`Answer.pages` holds the response object of every page *before* the last when
pagination fetched several; a ``series`` projection reads them, then
:attr:`Answer.response`, in order. ``shell`` declares no Patterns and leaves both
empty.

Each Capability is a module exposing ``perform(call: Call, context: Context) ->
Answer``; :func:`perform` here chooses by the Operation's one Capability.

What the Run engine reads through the projection
------------------------------------------------

The engine never reads a response itself: :mod:`hyper.capability.projection` (owned with ``http``)
answers every ``$`` path against a response object or one member of a ``series``
collection — :func:`~hyper.capability.projection.identity` for a Record's name (a template fills
from the inputs before any call), :func:`~hyper.capability.projection.fields` for the recorded
fields that resolved, :func:`~hyper.capability.projection.collection` for a ``series``' members
(``None`` where ``over:`` resolved to nothing, which halts a Run). The engine then turns
values into Store values: a JSON ``null`` is not one, so such a field is absent.
"""

from __future__ import annotations

import datetime as _dt

from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Final, Literal, TypeAlias

    from hyper.artefact.manifest import Manifest, Operation
    from hyper.artefact.target import TargetDeclaration
    from hyper.core.process import Process

Response: TypeAlias = "dict[str, Any]"
"""A response object: member name → value, in the Capability's own member order."""

FaultReason: TypeAlias = 'Literal["unsent", "transport", "deadline", "refused"]'

# The members of each response object, named once: a projection path names them too,
# so a second spelling would be a path that silently resolves to nothing.
COMMAND: Final = "command"
EXIT_CODE: Final = "exit_code"
STDOUT: Final = "stdout"
STDERR: Final = "stderr"
HOST: Final = "host"
STATUS: Final = "status"
HEADERS: Final = "headers"
BODY: Final = "body"
TLS: Final = "tls"


class Call(NamedTuple):
    """One call of one Operation: which, against what, with which inputs."""

    manifest: Manifest
    operation: Operation
    target: TargetDeclaration | None
    """The bound Target declaration; ``None`` only where a caller binds none (shell needs none)."""
    inputs: Mapping[str, Any]
    deadline: float | None
    credentials: Mapping[str, str] = {}
    """The bound Target's credential slots, resolved once by the caller's credential pass."""


class Context(NamedTuple):
    """What every call of one Run (or one Probe) shares."""

    process: Process
    root: str
    """The repository root: the working directory of every child."""
    instant: _dt.datetime
    """The instant the invocation fixed; what ``tls.days_left`` counts from."""
    environment: Mapping[str, str] | None = None
    """The child environment, composed once per Run; ``None`` means never composed, and
    ``shell`` then refuses to start anything rather than inherit hyper's own."""


class Fault(NamedTuple):
    """Why a call did not end in an ordinary answer. Narration only; never recorded."""

    reason: FaultReason
    text: str
    error_code: str = ""


class Answer(NamedTuple):
    response: Response
    fault: Fault | None = None
    pattern: Mapping[str, int] = {}
    pages: tuple[Response, ...] = ()


def perform(call: Call, context: Context) -> Answer:
    """Performs ``call`` through the one Capability its Operation is written under."""
    capability = call.operation.capability
    if capability == "shell":
        from hyper.capability import shell  # deferred: start-up cost (and it imports this package)

        return shell.perform(call, context)
    if capability == "http":
        from hyper.capability import http  # deferred: start-up cost (and it imports this package)

        return http.perform(call, context)
    # check refuses an Operation written under both or neither; a Run never gets here.
    return Answer({}, Fault("unsent", "the Operation names no single Capability"))

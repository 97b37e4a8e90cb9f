"""The version-pin gate.

``hyper.yaml``'s ``version:`` is compared with this build's version for exact string
equality — no ranges, no "compatible" — before anything else in the repository is
read, so a repository is only ever acted on by the hyper its reviewers agreed to.
The gate reads the pin and nothing else: a ``hyper.yaml`` whose other keys are
wrong still passes or fails here on its pin alone, its other faults being
``check``'s to report.
"""

from __future__ import annotations

from hyper.core.basefaults import PinUnreadable
from hyper.fs.read import read_held
from hyper.yaml import subset as yamlsubset
from hyper.yaml.parsed import parse

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from hyper.render.refusal import Member

PIN_FILE = "hyper.yaml"


def read_declared(root: str) -> bytes | None:
    """``hyper.yaml``'s bytes, ``None`` where there is none; :class:`PinUnreadable` where it
    cannot be read. A gated command's body loads the repository from these same bytes
    (:attr:`hyper.cli.context.Context.declared`), so the pin judged is the pin of the file the
    command acts on, and the file is read once a command."""
    try:
        return read_held(root, PIN_FILE)
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise PinUnreadable(f"{PIN_FILE}: is a directory") from exc
    except OSError as exc:
        raise PinUnreadable(f"{PIN_FILE}: {exc.strerror or exc}") from exc


def read_pin(data: bytes) -> str:
    """The version ``hyper.yaml``'s bytes pin, ``""`` where it is not readable.

    The file is read leniently: a fault elsewhere in it (an empty ``retention:``) is
    ``check``'s to report and does not hide a pin that is there.
    """
    node = parse(data, PIN_FILE).root  # the parse the repository's own reading of the file reuses
    if not isinstance(node, yamlsubset.Map):
        return ""
    entry = node.get("version")
    if entry is None or not isinstance(entry[1], yamlsubset.Scalar):
        return ""
    return entry[1].value.strip()


def gate(declared: bytes | None, binary_version: str) -> Member | None:
    """The Refusal the gate answers for ``hyper.yaml``'s bytes (``None``: there is no such
    file), or ``None`` where the pin matches."""
    pin = None if declared is None else read_pin(declared)
    if pin and pin == binary_version:
        return None
    from hyper.render.refusal import Member  # only a refusing gate needs it: passing is every command's start-up

    if pin is None:
        return Member("version-pin-absent", "hyper.yaml pins no version of hyper — run: hyper project")
    if pin == "":
        return Member("version-pin-absent", "hyper.yaml holds no version pin that can be read — run: hyper project")
    return Member(
        "version-pin-mismatch",
        f"this is hyper {binary_version} and the repository pins {pin} — run: hyper project, or install {pin}",
    )

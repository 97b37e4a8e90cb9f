"""What one generated workflow is a function of.

The generator is handed these and the executor constants and nothing else, which is
what lets ``hyper project`` (which writes the file) and ``check`` (which compares the
working tree against it) call one function and never disagree about a byte.
"""

from hyper.core.namedtuple import NamedTuple


class WorkflowFacts(NamedTuple):
    """Everything one generated workflow says that came from the repository or the pin."""

    procedure: str
    """The Procedure's name, verbatim: the workflow's name, its path and its invocations."""
    cadence: str
    """The expression exactly as the artefact wrote it; the whole of the workflow's ``on:``."""
    effects: bool
    """Whether any Step the Procedure reaches is not a read (it then takes the Store's lock group)."""
    variables: tuple[str, ...]
    """The credential variables its bindings read, in walk order with repeats; the template sorts."""
    version: str
    """The hyper version the workflow installs: the pin."""
    digest: str
    """The frozen checksum of that version's release artefact, as ``hyper.yaml`` spells it."""

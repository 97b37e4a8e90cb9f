"""The command tree: sixteen commands in six groups, three outside it, three globals.

This is the single statement of the tree. The usage page, the unknown-flag message,
the parser and the completion scripts all read it, so a command or flag added here
reaches every one of them by the same edit.
"""

from __future__ import annotations

from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

PARAMETER_ORDER: Final = (
    "--limit",
    "--since",
    "--procedure",
    "--target",
    "--outcome",
    "--definition",
    "--name",
    "--history",
    "--between",
    "--subject",
    "--kind",
    "--input",
    "--response",
    "--secret-out",
    "--dry-run",
    "--expansion",
)
"""Every per-command flag, in the order an unknown-flag message lists a command's."""

GLOBALS: Final = ("--json", "--repo-dir", "--no-color")
GLOBAL_SIGNATURES: Final = ("--json", "--repo-dir <dir>", "--no-color")
GLOBALS_TITLE: Final = "Configuration, taken by the sixteen commands above"

SHELLS: Final = ("bash", "fish", "zsh")


class Command(NamedTuple):
    name: str
    signature: str = ""
    """The positional part exactly as the usage page renders it."""
    parameters: frozenset[str] = frozenset()
    nouns: tuple[str, ...] = ()
    """What the command takes one of each of, in positional order, as its messages spell them."""
    variadic: bool = False
    """Takes any number of positionals (``check [path...]``)."""
    optional: bool = False
    """Its single positional may be left off (``changes [procedure]``)."""
    gated: bool = True
    """Behind the version-pin gate; ``project`` is the pin's one writer and stands outside it."""
    verbs: tuple[str, ...] = ()
    """The sub-verbs of a noun group (``store init``): the tree's one nesting."""

    @property
    def usage_line(self) -> str:
        return f"{self.name} {self.signature}".rstrip()

    def label(self, positional: tuple[str, ...]) -> str:
        """How messages name the invocation: a noun group by its verb too (``store init``)."""
        return f"{self.name} {positional[0]}" if self.verbs and positional else self.name

    def spelled_parameters(self) -> tuple[str, ...]:
        return tuple(flag for flag in PARAMETER_ORDER if flag in self.parameters)


def _p(*flags: str) -> frozenset[str]:
    return frozenset(flags)


GROUPS: Final[tuple[tuple[str, tuple[Command, ...]], ...]] = (
    (
        "Discovery",
        (
            Command("providers", parameters=_p("--limit")),
            Command("provider", "<name>", nouns=("Provider",)),
            Command("operation", "<provider> <operation>", nouns=("Provider", "Operation")),
        ),
    ),
    ("The repository", (Command("targets", parameters=_p("--limit")),)),
    (
        "Authoring",
        (
            Command("check", "[path...]", variadic=True),
            Command("review", "<artefact>", nouns=("artefact",)),
        ),
    ),
    (
        "Execution",
        (
            Command("run", "<procedure>", parameters=_p("--secret-out", "--dry-run"), nouns=("Procedure",)),
            Command(
                "probe",
                "<provider> <operation>",
                parameters=_p("--input", "--response"),
                nouns=("Provider", "Operation"),
            ),
        ),
    ),
    (
        "Inspection",
        (
            Command("runs", parameters=_p("--limit", "--since", "--procedure", "--target", "--outcome")),
            Command("show", "<run-id>", parameters=_p("--expansion"), nouns=("Run",)),
            Command(
                "changes",
                "[procedure]",
                parameters=_p("--limit", "--since", "--target", "--between", "--subject", "--kind"),
                nouns=("Procedure",),
                optional=True,
            ),
            Command(
                "records",
                parameters=_p("--limit", "--since", "--target", "--definition", "--name", "--history"),
            ),
        ),
    ),
    (
        "Lifecycle",
        (
            Command("install", "<ref>", nouns=("ref",)),
            Command("project", gated=False),
            Command("store", "init", verbs=("init",)),
            Command("compact"),
        ),
    ),
)

OUTSIDE_TITLE: Final = "Outside the tree"
OUTSIDE: Final = (("version", ""), ("completions", "<shell>"), ("mcp", ""))

COMMANDS: Final[dict[str, Command]] = {command.name: command for _, group in GROUPS for command in group}
"""The sixteen, by name."""

LISTING_LIMIT: Final = 50
"""One default cap for every listing: learnt once on ``providers``, true on ``runs``."""


def all_names() -> tuple[str, ...]:
    """The nineteen command names in the order the usage page lists them."""
    return (*(c.name for _, group in GROUPS for c in group), *(name for name, _ in OUTSIDE))

"""The usage page bare ``hyper`` writes, and the sentences shared by every usage error."""

from __future__ import annotations

from hyper.cli.tree import GLOBAL_SIGNATURES, GLOBALS, GLOBALS_TITLE, GROUPS, OUTSIDE, OUTSIDE_TITLE, Command
from hyper.core.quote import go_quote

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Sequence


def page() -> str:
    lines = ["usage: hyper <command> [args...]", ""]
    for title, group in GROUPS:
        lines.append(f"  {title}")
        lines.extend(f"    {command.usage_line}" for command in group)
    lines.append(f"  {OUTSIDE_TITLE}")
    lines.extend(f"    {name} {signature}".rstrip() for name, signature in OUTSIDE)
    lines.append("")
    lines.append(f"  {GLOBALS_TITLE}")
    lines.extend(f"    {signature}" for signature in GLOBAL_SIGNATURES)
    return "\n".join(lines) + "\n"


def in_sequence(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def unknown_command(word: str) -> str:
    return f"hyper: unknown command {go_quote(word)}\n  hyper with no arguments lists the nineteen commands there are\n"


def unknown_flag(command: Command, token: str, positional: Sequence[str] = ()) -> str:
    """Names the invocation as far as it was read, so ``store init --x`` blames ``store init``."""
    own = command.spelled_parameters()
    taken = in_sequence(own) if own else "no flags of its own"
    label = command.label(tuple(positional))
    return f"hyper {label}: unknown flag {token}\n  {label} takes {taken}, past {in_sequence(GLOBALS)}\n"


def arity_fault(given: Sequence[str], nouns: Sequence[str]) -> str:
    if not given:
        return "names no " + " and no ".join(nouns)
    wanted = " and ".join(f"one {noun}" for noun in nouns)
    return f"takes {wanted}, got {len(given)}"

"""Reading one command's arguments into an :class:`Invocation`.

One parser for all sixteen commands, because the globals are the same three
everywhere and a second copy of their parsing is where two commands start to
disagree about ``--repo-dir=``. What a command accepts is its line in
:mod:`hyper.cli.tree`; everything here is read off that.

Every fault found here is a usage error decided from the argument list alone, so it
is reported before the working directory, the environment or the repository is
touched.
"""

from __future__ import annotations

import re

from hyper.cli.tree import LISTING_LIMIT, Command
from hyper.core.basefaults import UsageFault
from hyper.core.namedtuple import NamedTuple

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    import datetime as _dt
    from collections.abc import Callable, Sequence

    _Instant = _dt.datetime
else:
    # At run time a field's annotation need only exist. ``datetime`` is imported by ``--since``
    # alone, and a quoted annotation is compiled when NamedTuple makes the class — on most
    # commands the first and dearest compile of the process.
    _Instant = object

OUTCOMES = ("completed", "refused", "failed")
RECORD_KINDS = ("asset", "observation")
LIMIT_MAX = 2**63 - 1
"""The largest cap ``--limit`` reads. A cap is a 64-bit count on both surfaces (the MCP side reads
``limit`` the same way), so a longer number is refused like any other that is not a positive integer."""

_RFC3339 = (  # compiled at its first use, by ``re``'s own cache: only ``--since`` reads an instant
    r"\A([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})\Z"
)


REFUSED_BY_NAME = {
    ("run", "--target"): (
        "--target is not a flag of run: a Run binds exactly the Targets its Procedure's Steps name\n"
        "  to act on another Target, edit the Procedure, and the edit is reviewed like any other"
    ),
}
"""Flags a caller may well reach for, refused with the reason rather than as unknown."""

POSITIONAL_IS_A_PARAMETER = {
    "records": ("a Record's name", "--name"),
    "runs": ("the Procedure", "--procedure"),
}
"""Commands that take no positional but have a flag for the thing a caller most likely typed
bare: the fault names that flag, so the retry is spelled out rather than guessed."""

LEGAL_ONLY_WITH = {
    ("records", "since"): (
        "history",
        "--since is legal only with --history — a Head has no window to narrow, and a bound never"
        " switches a history on by itself",
    ),
}
"""A parameter that means something only beside another, and the sentence refusing it alone;
judged from the argument list, so before the repository or the Store is looked at."""


class Invocation(NamedTuple):
    command: Command
    positional: tuple[str, ...] = ()
    as_json: bool = False
    no_color: bool = False
    repo_dir: str | None = None
    limit: int = 0
    """The cap in force: what ``--limit`` named, else the default; 0 where the command has no cap."""
    limit_named: bool = False
    since: _Instant | None = None
    procedure: str | None = None
    target: str | None = None
    outcome: str | None = None
    definition: str | None = None
    name: str | None = None
    history: bool = False
    between: tuple[str, str] | None = None
    subject: str | None = None
    record_kind: str | None = None
    inputs: tuple[tuple[str, str], ...] = ()
    response: str | None = None
    secret_out: str | None = None
    dry_run: bool = False
    expansion: bool = False


def read_since(text: str) -> _dt.datetime | None:
    """An RFC 3339 instant with an offset, in UTC; ``None`` where ``text`` is not one."""
    import datetime as _dt  # only ``--since`` reads an instant; most commands never import it

    match = re.match(_RFC3339, text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    fraction, offset = match.group(7), match.group(8)
    micros = int((fraction[1:] + "000000")[:6]) if fraction else 0
    if offset == "Z":
        tz = _dt.UTC
    else:
        sign = 1 if offset[0] == "+" else -1
        tz = _dt.timezone(sign * _dt.timedelta(hours=int(offset[1:3]), minutes=int(offset[4:6])))
    try:
        return _dt.datetime(year, month, day, hour, minute, second, micros, tzinfo=tz).astimezone(_dt.UTC)
    except ValueError:
        return None


def parse(command: Command, args: Sequence[str], no_color_env: bool) -> Invocation:
    """Read ``args`` (everything after the command word) or raise :class:`UsageFault`."""
    name = command.name
    takes = command.parameters
    values: dict[str, object] = {"no_color": no_color_env}
    if "--limit" in takes:
        values["limit"] = LISTING_LIMIT
    positional: list[str] = []
    inputs: list[tuple[str, str]] = []

    def fault(sentence: str) -> UsageFault:
        return UsageFault(f"hyper {name}: {sentence}\n")

    def take_value(i: int, flag: str) -> tuple[str, int]:
        if i + 1 >= len(args):
            raise fault(f"{flag} requires a value")
        return args[i + 1], i + 1

    i = 0
    while i < len(args):
        token = args[i]
        flag, eq, joined = token.partition("=")
        valued = bool(eq) and token.startswith("--")
        if token == "--":
            positional.extend(args[i + 1 :])
            break
        if token == "--json":
            values["as_json"] = True
        elif token == "--no-color":
            values["no_color"] = True
        elif flag == "--repo-dir":
            value, i = (joined, i) if valued else take_value(i, flag)
            values["repo_dir"] = value
        elif flag in takes and flag not in ("--history", "--dry-run", "--expansion") and (valued or token == flag):
            if flag == "--between":
                if valued:
                    raise fault("--between takes two Run ids separated by spaces: --between <run-id> <run-id>")
                first, i = take_value(i, flag)
                if i + 1 >= len(args):
                    raise fault(f"--between {first}: one end of a window is not a window; name two Run ids")
                i += 1
                values["between"] = (first, args[i])
            else:
                value, i = (joined, i) if valued else take_value(i, flag)
                _read(flag, value, values, inputs, fault)
        elif token in takes and token in ("--history", "--dry-run", "--expansion"):
            values[token[2:].replace("-", "_")] = True
        elif token != "-" and token.startswith("-"):
            from hyper.cli.usage import unknown_flag  # deferred: only a fault's sentence needs the usage text

            refusal = REFUSED_BY_NAME.get((name, flag))
            raise UsageFault(f"hyper {name}: {refusal}\n" if refusal else unknown_flag(command, token, positional))
        else:
            positional.append(token)
        i += 1

    _check_arity(command, positional, fault)
    for (command_name, member), (partner, sentence) in LEGAL_ONLY_WITH.items():
        if command_name == name and member in values and not values.get(partner):
            raise fault(sentence)
    return Invocation(command=command, positional=tuple(positional), inputs=tuple(inputs), **values)  # type: ignore[arg-type]


def _read(
    flag: str,
    value: str,
    values: dict[str, object],
    inputs: list[tuple[str, str]],
    fault: Callable[[str], UsageFault],
) -> None:
    if flag == "--limit":
        if not re.fullmatch(r"[+-]?[0-9]+", value) or not 1 <= int(value) <= LIMIT_MAX:
            raise fault(f"--limit {value}: want a positive integer")
        values["limit"], values["limit_named"] = int(value), True
    elif flag == "--since":
        instant = read_since(value)
        if instant is None:
            raise fault(f"--since {value}: want an RFC 3339 instant with an offset, such as 2026-08-04T09:12:00Z")
        values["since"] = instant
    elif flag == "--outcome":
        if value not in OUTCOMES:
            raise fault(f"--outcome {value}: want completed, refused or failed")
        values["outcome"] = value
    elif flag == "--kind":
        if value not in RECORD_KINDS:
            raise fault(f"--kind {value}: want asset or observation")
        values["record_kind"] = value
    elif flag == "--input":
        key, eq, text = value.partition("=")
        if not eq or not key:
            raise fault(f"--input {value}: want <name>=<value>")
        inputs.append((key, text))
    else:
        values[flag[2:].replace("-", "_")] = value


def _check_arity(command: Command, positional: list[str], fault: Callable[[str], UsageFault]) -> None:
    if command.variadic:
        return
    if command.verbs:
        known = f"  known verbs: {', '.join(command.verbs)}\n"
        if not positional:
            raise UsageFault(f"hyper {command.name}: names no verb\n{known}")
        if positional[0] not in command.verbs:
            from hyper.core.quote import go_quote  # deferred: only a fault's sentence quotes

            raise UsageFault(f"hyper {command.name}: unknown verb {go_quote(positional[0])}\n{known}")
        if len(positional) > 1:
            label = command.label(tuple(positional))
            raise UsageFault(f"hyper {label}: takes no positional argument, got {positional[1]}\n")
        return
    if not command.nouns:
        if positional:
            got = positional[0]
            hint = POSITIONAL_IS_A_PARAMETER.get(command.name)
            tail = f" — {hint[0]} goes to its flag: {hint[1]} {got}" if hint else ""
            raise fault(f"takes no positional argument, got {got}{tail}")
        return
    if command.optional:
        if len(positional) > 1:
            raise fault(f"takes at most one {command.nouns[0]}, got {len(positional)}")
        return
    if len(positional) != len(command.nouns):
        from hyper.cli.usage import arity_fault  # deferred: only a fault's sentence needs the usage text

        raise fault(arity_fault(positional, command.nouns))

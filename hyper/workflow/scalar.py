"""How a derived value is spelled in a generated workflow: plain, or single-quoted.

The rule is fixed and total because the file is compared byte for byte: the cron
expression is always quoted, and every other value is written plain only where a
plain scalar of those bytes reads back as that very string. "Reads back" means under
both YAML 1.2's core schema and YAML 1.1's wider implicit typing, since the executor's
reader is a 1.1 reader — a Procedure named ``on`` written plain would be a job named
``true`` there.

The typed forms are listed here rather than asked of a YAML library: a library
upgrade that changed one resolution would make every generated workflow in every
repository stale at once.
"""

from __future__ import annotations

import functools
import re

_INDICATORS = "-?:,[]{}#&*!|>'\"%@`~"
"""Characters a plain scalar may not begin with, read conservatively."""

_TYPED = (
    r"~|[nN]ull|NULL",  # null
    r"[tT]rue|TRUE|[fF]alse|FALSE",  # boolean, both versions
    r"[yY]|[yY]es|YES|[nN]|[nN]o|NO|[oO]n|ON|[oO]ff|OFF",  # boolean, 1.1 only
    r"[-+]?0[oO]?[0-7_]+",  # octal, either version's spelling
    r"[-+]?0[xX][0-9a-fA-F_]+",  # hexadecimal
    r"[-+]?0[bB][01_]+",  # binary
    r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+",  # base 60, 1.1
    r"[-+]?(?:\.[0-9][0-9_]*|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?",  # decimal integer or float
    r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",  # the infinities and not-a-number
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?",  # timestamp, 1.1
)


_BREAKS = r"[\x00-\x1f\x7f]|: | #|:\Z"
"""A control character anywhere; ``: `` (a mapping value) or `` #`` (a comment) anywhere; a final colon."""


@functools.cache
def _typed() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{form})" for form in _TYPED), re.DOTALL)


@functools.cache
def _breaks() -> re.Pattern[str]:
    return re.compile(_BREAKS)


def quoted(text: str) -> str:
    """``text`` single-quoted, a quote inside it doubled."""
    return "'" + text.replace("'", "''") + "'"


def plain(text: str) -> bool:
    """Whether ``text`` may stand unquoted and still read back as exactly this string."""
    if not text or text.strip() != text or text[0] in _INDICATORS:
        return False
    return _breaks().search(text) is None and _typed().fullmatch(text) is None


def scalar(text: str) -> str:
    """``text`` as the workflow writes it: plain where that is safe, else single-quoted."""
    return text if plain(text) else quoted(text)

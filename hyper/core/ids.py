"""Run ids: UUIDv7, minted from the injected clock.

The time half comes from the instant the caller read off :class:`hyper.core.process.Process`
rather than from the system clock, so a Run's id and its ``started_at`` agree and a
fixed clock yields ids in the same millisecond the Journal says the Run began.
"""

from __future__ import annotations

import datetime as _dt
import os

_HEX = frozenset("0123456789abcdef")


_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)


def mint_v7(at: _dt.datetime) -> str:
    # Whole milliseconds by integer arithmetic: a float timestamp times 1000 can land a hair
    # under the millisecond it names and truncate into the one before.
    millis = ((at - _EPOCH) // _dt.timedelta(milliseconds=1)) & ((1 << 48) - 1)
    rand = int.from_bytes(os.urandom(10), "big")
    rand_a = (rand >> 62) & 0xFFF
    rand_b = rand & ((1 << 62) - 1)
    value = (millis << 80) | (0x7 << 76) | (rand_a << 64) | (0b10 << 62) | rand_b
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def is_run_id(text: str) -> bool:
    """Whether ``text`` is a whole, lower-case UUIDv7 as hyper writes them: 8-4-4-4-12
    hexadecimal digits, the version digit 7 and the variant digit one of 8, 9, a, b. Read by
    position, as every offset is fixed: compiling it as a pattern cost a review more than all
    the ids it reads (ADR 0006)."""
    return (
        len(text) == 36
        and text[8] == text[13] == text[18] == text[23] == "-"
        and text[14] == "7"
        and text[19] in "89ab"
        and _HEX.issuperset(text[:8] + text[9:13] + text[14:18] + text[19:23] + text[24:])
    )


def parse_run_id(text: str) -> str:
    """``text`` if it is a Run id as hyper writes one, else a ``ValueError`` saying why not.

    Strict on purpose: an id that reached a Store path unchecked names a directory nothing
    could find again by the id it was told (uppercase, unhyphenated, another UUID version, no
    variant bits are all refused).
    """
    if is_run_id(text):
        return text
    groups = text.split("-")
    if [len(group) for group in groups] != [8, 4, 4, 4, 12]:
        raise ValueError(f"{text!r} is not a UUID: five hyphenated groups of 8-4-4-4-12 digits")
    if not _HEX.issuperset(text.replace("-", "")):
        raise ValueError(f"{text!r} is not a UUID written in lowercase hexadecimal")
    if groups[2][0] != "7":
        raise ValueError(f"{text!r} is a version {groups[2][0]} UUID, not a UUIDv7")
    raise ValueError(f"{text!r} carries no RFC 9562 variant bits")

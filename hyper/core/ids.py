"""Run ids: UUIDv7, minted from the injected clock.

The time half comes from the instant the caller read off :class:`hyper.core.process.Process`
rather than from the system clock, so a Run's id and its ``started_at`` agree and a
fixed clock yields ids in the same millisecond the Journal says the Run began.
"""

from __future__ import annotations

import datetime as _dt
import os
import re

_SHAPE = re.compile(r"\A[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\Z")


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
    """Whether ``text`` is a whole, lower-case UUIDv7 as hyper writes them."""
    return _SHAPE.match(text) is not None


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
    if any(char not in "0123456789abcdef" for char in text.replace("-", "")):
        raise ValueError(f"{text!r} is not a UUID written in lowercase hexadecimal")
    if groups[2][0] != "7":
        raise ValueError(f"{text!r} is a version {groups[2][0]} UUID, not a UUIDv7")
    raise ValueError(f"{text!r} carries no RFC 9562 variant bits")

"""The scalar forms facts are derived from, read by character as the patterns they replaced read them."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from hyper.artefact.scalars import integer, is_integer
from tests.depth import examples

_INTEGER_PATTERN = re.compile(r"[+-]?[0-9]+")


@settings(max_examples=examples(2000))
@given(st.text(alphabet=st.sampled_from([*"0123456789+- _.\n", "\u0663", "\uff11", "²", "x"]), max_size=8))
def test_an_integer_is_read_by_character_as_its_pattern_reads_it(text: str) -> None:
    """Signs anywhere, blanks, underscores ``int`` would accept, digits of other scripts and
    superscripts, none of which the pattern reads as a digit."""
    assert is_integer(text) == (_INTEGER_PATTERN.fullmatch(text) is not None)


def test_an_integer_is_a_signed_64_bit_number_or_nothing() -> None:
    assert integer("+30") == 30
    assert integer("-9223372036854775808") == -(2**63)
    assert integer("9223372036854775808") is None
    assert integer("1_000") is None
    assert integer("") is None
    assert integer(None) is None

"""The Cadence grammar, phrase, rate and facts, held to the reference's own examples."""

from __future__ import annotations

import itertools
import re

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hyper.cadence import gloss, grammar
from hyper.cadence.facts import DEFAULT_BRANCH, ON_THE_HOUR, WITHIN_THE_HOUR, facts
from hyper.cadence.grammar import CADENCE_MALFORMED, Cadence, CadenceFault, Position, parse
from hyper.cadence.phrase import phrase
from hyper.cadence.rate import rate


def admitted(expression: str) -> Cadence:
    parsed = parse(expression)
    assert isinstance(parsed, Cadence), f"{expression!r} is in the grammar: {parsed}"
    return parsed


def faulted(expression: str) -> CadenceFault:
    parsed = parse(expression)
    assert isinstance(parsed, CadenceFault), f"{expression!r} is outside the grammar"
    return parsed


# Every phrase the reference states: its specification's worked table, its phrase tests,
# and the review/project goldens.
PHRASES = [
    ("0 3 * * 1", "03:00 UTC every Monday"),
    ("0 0 1 * *", "00:00 UTC on the 1st of the month"),
    ("0 0 * * *", "00:00 UTC every day"),
    ("0 3 * * *", "03:00 UTC every day"),
    ("30 4 * * *", "04:30 UTC every day"),
    ("*/5 * * * *", "every 5 minutes"),
    ("* * * * *", "every minute"),
    ("*/1 * * * *", "every minute"),
    ("*/15 * * * *", "every 15 minutes"),
    ("*/7 * * * *", "at :00, :07, :14, :21, :28, :35, :42, :49 and :56 past every hour"),
    ("0-59 * * * *", "every minute from :00 to :59 past every hour"),
    ("1-1 * * * *", "at :01 past every hour"),
    ("15,45 * * * *", "at :15 and :45 past every hour"),
    ("0 */6 * * *", "at :00 past every 6 hours"),
    ("0 */2 * * *", "at :00 past every 2 hours"),
    ("0 9,17 * * 1-5", "09:00 and 17:00 UTC every day from Monday to Friday"),
    ("0 9-17 * * *", "at :00 past every hour from 09:00 to 17:00 UTC, every day"),
    ("0 9,17 * * *", "09:00 and 17:00 UTC every day"),
    ("30 6 * * *", "06:30 UTC every day"),
    ("30-30 6 * * *", "06:30 UTC every day"),
    ("0,30 6 * * *", "at :00 and :30 past 06:00 UTC, every day"),
    ("0 1-1 * * *", "at :00 past 01:00 UTC, every day"),
    ("0 */60 * * *", "at :00 past 00:00 UTC, every day"),
    ("0 0 1 * 1", "00:00 UTC on the 1st of the month or any Monday"),
    ("0 0 1 * 0-6", "00:00 UTC on the 1st of the month or any day from Sunday to Saturday"),
    ("0 0 1,15 * 1,4", "00:00 UTC on the 1st and the 15th of the month or any Monday and Thursday"),
    ("0 0 1 */3 *", "00:00 UTC on the 1st in January, April, July and October"),
    ("0 0 29 2 *", "00:00 UTC on the 29th of February"),
    ("0 0 */10 * *", "00:00 UTC on the 1st, the 11th, the 21st and the 31st of the month"),
    ("0 0 * */3 *", "00:00 UTC every day in January, April, July and October"),
    ("0 0 * * */2", "00:00 UTC every Sunday, Tuesday, Thursday and Saturday"),
    ("9-11,14-16/2 * * * *", "every minute from :09 to :11, :14 and :16 past every hour"),
    (
        "0 0 1,10-12,20 * *",
        "00:00 UTC on the 1st, every day from the 10th to the 12th and the 20th of the month",
    ),
    ("0 0 22 1 *", "00:00 UTC on the 22nd of January"),
    ("0 0 3 12 *", "00:00 UTC on the 3rd of December"),
    ("0 0 11 11 *", "00:00 UTC on the 11th of November"),
]


@pytest.mark.parametrize(("expression", "expected"), PHRASES)
def test_phrase_matches_the_reference(expression: str, expected: str) -> None:
    assert phrase(admitted(expression)) == expected


def test_order_and_repetition_are_normalised_but_form_is_not() -> None:
    want = phrase(admitted("0 1,3,5 * * *"))
    assert phrase(admitted("0 5,3,1 * * *")) == want
    assert phrase(admitted("0 3,1,5,3 * * *")) == want
    assert phrase(admitted("0-59 * * * *")) != phrase(admitted("* * * * *"))


def test_utc_is_named_once_and_only_where_a_zone_would_move_the_time() -> None:
    for expression in ("0 3 * * 1", "0 0 1 * *", "0 9-17 * * *"):
        assert phrase(admitted(expression)).count("UTC") == 1
    for expression in ("* * * * *", "*/5 * * * *", "*/7 * * * *", "0-59 * * * *"):
        assert "UTC" not in phrase(admitted(expression))


def test_a_restricted_month_without_a_clock_still_names_the_zone_once() -> None:
    assert phrase(admitted("*/5 * * 2 *")) == "every 5 minutes in February UTC"


def test_of_the_month_only_when_the_month_clause_is_silent() -> None:
    assert "of the month" in phrase(admitted("0 0 1 * *"))
    assert "of the month" not in phrase(admitted("0 0 1 2 *"))
    assert "of the month" not in phrase(admitted("0 0 1 */3 *"))


RATES = [
    ("0 3 * * 1", "≈4.3 runs/month", 4.3),
    ("0 0 1 * *", "1 run/month", 1),
    ("0 0 * * *", "≈30 runs/month", 30),
    ("30 4 * * *", "≈30 runs/month", 30),
    ("*/5 * * * *", "≈8800 runs/month", 8800),
    ("15,45 * * * *", "≈1500 runs/month", 1500),
    ("0 0 29 2 *", "≈0.020 runs/month", 0.02),
    ("* * * * *", "≈44000 runs/month", 44000),
    ("0 0 1,15 * *", "2 runs/month", 2),
    ("0 0,12 1 */2 *", "1 run/month", 1),
    ("0 0 1,10-12,20 * *", "5 runs/month", 5),
    ("0 0 30 2 *", "0 runs/month", 0),
    ("0 0 31 4 *", "0 runs/month", 0),
    ("0 0 31 2 *", "0 runs/month", 0),
]


@pytest.mark.parametrize(("expression", "text", "value"), RATES)
def test_rate_matches_the_reference(expression: str, text: str, value: float) -> None:
    got = rate(admitted(expression))
    assert (got.text, got.value) == (text, value)


def test_the_wire_number_is_whole_when_the_digits_are() -> None:
    assert orjson.dumps(rate(admitted("*/5 * * * *")).value) == b"8800"
    assert orjson.dumps(rate(admitted("0 3 * * 1")).value) == b"4.3"
    assert orjson.dumps(rate(admitted("0 0 29 2 *")).value) == b"0.02"
    assert orjson.dumps(rate(admitted("0 0 30 2 *")).value) == b"0"


def test_every_weekday_rates_the_same_over_the_cycle() -> None:
    rates = {rate(admitted(f"0 0 * * {weekday}")).text for weekday in range(7)}
    assert rates == {"≈4.3 runs/month"}


def test_a_day_every_month_has_is_exactly_one_run_a_month() -> None:
    for day in (1, 9, 17, 28):
        assert rate(admitted(f"0 0 {day} * *")).text == "1 run/month"
    for day in (29, 30, 31):
        assert rate(admitted(f"0 0 {day} * *")).text.startswith("≈")


def test_an_exact_rate_never_shows_the_approximation_sign() -> None:
    for expression in ("0 3 * * 1", "0 0 * * *", "*/5 * * * *", "0 0 29 2 *"):
        assert rate(admitted(expression)).text.startswith("≈")


REJECTED = [
    # (expression, field at fault, offset of the text at fault, words the reason names)
    ("", None, 0, "no fields"),
    ("@hourly", None, 0, "1 field"),
    ("@daily", None, 0, "1 field"),
    ("0 3 * *", None, 0, "4 fields"),
    ("0 3 * * 1 *", None, 0, "6 fields"),
    ("0 3 * * 1 UTC", None, 0, "a timezone"),
    ("0 3 * * 1 America/New_York", None, 0, "6 fields"),
    ("TZ=UTC 0 3 * * 1", None, 0, "6 fields"),
    ("0 3 * * MON", "day of week", 8, 'day of week "MON"'),
    ("0 3 * JAN *", "month", 6, 'month "JAN"'),
    ("0 3 * * 1+05:00", "day of week", 8, 'day of week "1+05:00"'),
    ("0 3 * * 7", "day of week", 8, "day of week 7 is outside"),
    ("60 * * * *", "minute", 0, "minute 60 is outside"),
    ("0 24 * * *", "hour", 2, "hour 24 is outside"),
    ("0 0 0 * *", "day of month", 4, "day of month 0 is outside"),
    ("0 0 32 * *", "day of month", 4, "day of month 32 is outside"),
    ("0 0 * 13 *", "month", 6, "month 13 is outside"),
    ("5-1 * * * *", "minute", 0, "minute range 5-1 runs backwards"),
    ("0 0 * * 6-0", "day of week", 8, "day of week range 6-0 runs backwards"),
    ("5-70 * * * *", "minute", 0, "minute 70 is outside"),
    ("70-5 * * * *", "minute", 0, "minute 70 is outside"),
    ("0 3 * * ?", "day of week", 8, 'day of week "?"'),
    ("0 0 ? * *", "day of month", 4, 'day of month "?"'),
    ("0 3 L * *", "day of month", 4, 'day of month "L"'),
    ("0 0 15W * *", "day of month", 4, 'day of month "15W"'),
    ("0 0 * * 1#2", "day of week", 8, 'day of week "1#2"'),
    ("*/0 * * * *", "minute", 0, 'minute "*/0" steps by zero'),
    ("*/MON * * * *", "minute", 0, 'minute "*/MON"'),
    ("*/2/3 * * * *", "minute", 0, 'minute "*/2/3"'),
    ("3/2 * * * *", "minute", 0, 'minute "3/2" puts a step on a single number'),
    ("0 3 * * -1", "day of week", 8, 'day of week "-1"'),
    ("* * * * *,", "day of week", 10, "day of week has an empty item"),
    ("0,61 * * * *", "minute", 2, "minute 61 is outside"),
    ("0 0 * * ５", "day of week", 8, "day of week"),
    ("99999999999999999999 * * * *", "minute", 0, "minute 99999999999999999999 is outside"),
]


@pytest.mark.parametrize(("expression", "field", "offset", "named"), REJECTED)
def test_what_the_grammar_shuts_out_is_named(expression: str, field: Position | None, offset: int, named: str) -> None:
    fault = faulted(expression)
    assert named in fault.reason
    assert (fault.field, fault.offset, fault.expression) == (field, offset, expression)
    assert "\n" not in fault.reason
    assert CADENCE_MALFORMED not in fault.reason
    assert gloss(expression) is None


ADMITTED_AWKWARDLY = [
    "0-59 * * * *",
    "*/7 * * * *",
    "9-11,14-16/2 * * * *",
    "*/1 * * * *",
    "1-1 * * * *",
    "0 0 * * 0",
    "0 0 * * 6",
    "59 23 31 12 6",
    "0 0 1 1 *",
    "0 0 1,15 1-3 0",
    "*/5 */4 */10 */2 */3",
    "0-0 0-0 1-1 1-1 0-0",
    "*/10000 * * * *",
    "*/99999999999999999999 * * * *",
    "0\t3  *\n* 1",
    " 0 3 * * 1 ",
]


@pytest.mark.parametrize("expression", ADMITTED_AWKWARDLY)
def test_awkward_expressions_stay_in_the_grammar(expression: str) -> None:
    assert gloss(expression) is not None


def test_a_huge_step_selects_only_the_first_value() -> None:
    assert phrase(admitted("*/99999999999999999999 * * * *")) == "at :00 past every hour"


def test_the_expression_is_carried_as_written() -> None:
    written = " 0 3 * * 1 "
    glossed = gloss(written)
    assert glossed is not None and glossed.expression == written


def test_only_the_whitespace_go_splits_on_separates_fields() -> None:
    assert isinstance(parse("0\u00a03 * * 1"), Cadence)  # NBSP separates, as in Go
    assert isinstance(parse("0\u3000\u20033\u00a0*\u00a0*\u00a01"), Cadence)
    assert isinstance(parse("0\x1c3 * * 1"), CadenceFault)  # U+001C is not a separator


_SPACES = "\t\n\v\f\r \x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2005\u200a\u200b\u2028\u2029\u202f\u205f\u3000"


@given(st.text(alphabet=st.sampled_from([*"0123456789*-/,a", *_SPACES]), max_size=16))
def test_fields_are_split_where_the_set_go_splits_on_splits_them(expression: str) -> None:
    """``str.split`` answers for an expression holding none of U+001C..U+001F, and each field's
    offset is found again; what the full set of Go's spaces would split is what it answers."""
    spelled = re.compile(grammar._TOKEN)
    assert grammar._fields(expression) == [(m.start(), m.group()) for m in spelled.finditer(expression)]


FACTS = [
    ("*/5 * * * *", (DEFAULT_BRANCH, WITHIN_THE_HOUR, ON_THE_HOUR)),
    ("*/7 * * * *", (DEFAULT_BRANCH, WITHIN_THE_HOUR, ON_THE_HOUR)),
    ("0,30 * * * *", (DEFAULT_BRANCH, WITHIN_THE_HOUR, ON_THE_HOUR)),
    ("1-59 * * * *", (DEFAULT_BRANCH, WITHIN_THE_HOUR)),
    ("1-59/2 * * * *", (DEFAULT_BRANCH, WITHIN_THE_HOUR)),
    ("0 3 * * 1", (DEFAULT_BRANCH, ON_THE_HOUR)),
    ("0 0,12 * * *", (DEFAULT_BRANCH, ON_THE_HOUR)),
    ("30 4 * * *", (DEFAULT_BRANCH,)),
    ("5 * * * *", (DEFAULT_BRANCH,)),
    ("59 23 31 12 6", (DEFAULT_BRANCH,)),
]


@pytest.mark.parametrize(("expression", "expected"), FACTS)
def test_executor_facts_follow_the_minute_field(expression: str, expected: tuple[str, ...]) -> None:
    assert facts(admitted(expression)) == expected


def test_gloss_bundles_one_reading() -> None:
    glossed = gloss("0 3 * * 1")
    assert glossed is not None
    assert glossed.phrase == "03:00 UTC every Monday"
    assert (glossed.rate.text, glossed.rate.value) == ("≈4.3 runs/month", 4.3)
    assert glossed.facts == (DEFAULT_BRANCH, ON_THE_HOUR)


def test_the_phrase_is_total_and_distinct_over_a_grid_of_forms() -> None:
    forms = (
        ("*", "7", "0-59", "*/5", "*/7", "9-11,14-16/2"),
        ("*", "9", "9-17", "*/2", "9,17", "1-1"),
        ("*", "29", "1-15", "*/10", "1,15,31"),
        ("*", "2", "1-6", "*/3", "1,4,7,10", "6-9/2"),
        ("*", "1", "1-5", "*/2", "0,6"),
    )
    seen: set[str] = set()
    for fields in itertools.product(*forms):
        cadence = admitted(" ".join(fields))
        text = phrase(cadence)
        assert text and "…" not in text and "..." not in text
        seen.add(text)
    assert len(seen) > 0.6 * len(list(itertools.product(*forms)))


@given(st.text())
def test_arbitrary_strings_never_raise(expression: str) -> None:
    parsed = parse(expression)
    if isinstance(parsed, Cadence):
        assert phrase(parsed)
        assert rate(parsed).value >= 0
        assert facts(parsed)[0] == DEFAULT_BRANCH
    else:
        assert parsed.reason and 0 <= parsed.offset <= len(expression)


_cron_ish = st.text(alphabet="0123456789*/-, ", max_size=24)


@given(_cron_ish)
def test_cron_shaped_strings_never_raise(expression: str) -> None:
    parsed = parse(expression)
    assert (gloss(expression) is None) == isinstance(parsed, CadenceFault)


def _item(low: int, high: int) -> st.SearchStrategy[str]:
    number = st.integers(low, high)
    step = st.integers(1, 70).map(lambda n: f"/{n}")
    star = st.builds(lambda s: "*" + s, st.one_of(st.just(""), step))
    single = number.map(str)
    ranged = st.builds(lambda a, b, s: f"{min(a, b)}-{max(a, b)}{s}", number, number, st.one_of(st.just(""), step))
    return st.one_of(star, single, ranged)


def _field(low: int, high: int) -> st.SearchStrategy[str]:
    return st.lists(_item(low, high), min_size=1, max_size=4).map(",".join)


@given(st.tuples(_field(0, 59), _field(0, 23), _field(1, 31), _field(1, 12), _field(0, 6)))
def test_every_generated_expression_in_the_grammar_is_admitted(fields: tuple[str, ...]) -> None:
    glossed = gloss(" ".join(fields))
    assert glossed is not None
    assert glossed.phrase
    assert glossed.rate.text.endswith(("runs/month", "run/month"))

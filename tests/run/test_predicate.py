"""The operators against stored values: nothing coerces, a value of the wrong type is a
mismatch (never a non-match), and absence decides rather than refuses."""

from __future__ import annotations

import datetime as _dt

import pytest

from hyper.capability import predicate as operators
from hyper.cli.commands.run import trigger
from hyper.core.process import Process
from hyper.yaml import subset as yamlsubset

INSTANT = _dt.datetime(2026, 4, 2, 9, 41, 14, tzinfo=_dt.UTC)


def predicate_of(text: str) -> operators.Test:
    parsed = yamlsubset.parse(text.encode(), "t.yaml")
    read = operators.read_test(parsed.root)
    assert read is not None
    return read


@pytest.mark.parametrize(
    ("predicate", "fields", "held"),
    [
        ("{field: n, equals: 1}", {"n": 1.0}, True),
        ("{field: n, equals: 0.1}", {"n": 0.1}, True),
        ("{field: n, equals: 9007199254740993}", {"n": 9007199254740992}, False),
        ("{field: s, equals: '1'}", {"s": "1"}, True),
        ("{field: b, equals: true}", {"b": True}, True),
        ("{field: s, not_equals: x}", {"s": "y"}, True),
        ("{field: s, in: [a, b]}", {"s": "b"}, True),
        ("{field: s, starts_with: '2026-'}", {"s": "2026-04-01T00:00:00Z"}, True),
        ("{field: s, ends_with: .dev}", {"s": "status.hyper.dev"}, True),
        ("{field: n, greater_than: 10}", {"n": 11}, True),
        ("{field: d, greater_than: 300s}", {"d": "10m"}, True),
        ("{field: d, less_than: 300s}", {"d": "10m"}, False),
        ("{field: t, older_than: 14d}", {"t": "2026-03-01T00:00:00+02:00"}, True),
        ("{field: t, newer_than: 14d}", {"t": "2026-03-01T00:00:00Z"}, False),
        ("{field: t, older_than: '2026-04-01T00:00:00Z'}", {"t": "2026-03-31T23:59:59Z"}, True),
        ("{field: x, exists: true}", {}, False),
        ("{field: x, absent: true}", {}, True),
        ("{field: x, equals: 1}", {}, False),
    ],
)
def test_an_operator_decides(predicate: str, fields: dict[str, object], held: bool) -> None:
    assert predicate_of(predicate).holds(fields, INSTANT) == (held, "")


@pytest.mark.parametrize(
    ("predicate", "fields", "takes"),
    [
        ("{field: s, greater_than: 5}", {"s": "ok\n"}, "a number"),
        ("{field: n, starts_with: x}", {"n": 5}, "a string"),
        ("{field: b, equals: yes}", {"b": True}, "a boolean"),
        ("{field: o, equals: x}", {"o": {"k": 1}}, "a scalar"),
        ("{field: b, in: [x, y]}", {"b": True}, "a boolean"),
        ("{field: t, older_than: 1d}", {"t": 1700000000}, "a timestamp"),
    ],
)
def test_a_value_it_cannot_compare_is_a_mismatch(predicate: str, fields: dict[str, object], takes: str) -> None:
    held, mismatch = predicate_of(predicate).holds(fields, INSTANT)
    assert held is False
    assert mismatch.endswith(f"it takes {takes}")
    assert "\n" not in mismatch, "a value is quoted, never spliced into the sentence"


def _process(env: dict[str, str]) -> Process:
    return Process(env, str, lambda: INSTANT, str, lambda: "igor", lambda: "thinkpad")


def test_the_trigger_is_a_person_at_a_machine_or_an_actions_job() -> None:
    local = trigger(_process({}))
    assert (local.cause, local.executor, local.actor, local.host) == ("manual", "local", "igor", "thinkpad")
    actions = trigger(
        _process(
            {
                "GITHUB_ACTIONS": "true",
                "GITHUB_EVENT_NAME": "schedule",
                "GITHUB_ACTOR": "",
                "GITHUB_RUN_ID": "4790",
                "GITHUB_RUN_ATTEMPT": "1",
                "GITHUB_SERVER_URL": "https://github.com",
                "GITHUB_REPOSITORY": "o/r",
            }
        )
    )
    assert (actions.cause, actions.executor, actions.actor, actions.host) == ("cron", "github-actions", "unknown", "")
    assert (actions.executor_run, actions.attempt) == ("4790", 1)
    assert actions.job_url == "https://github.com/o/r/actions/runs/4790/attempts/1"

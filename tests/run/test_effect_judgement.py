"""How an effectful Kind reads one answer: every arm of the judgement, without a call."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyper import capability
from hyper.artefact.repository import Repository, load_repository
from hyper.run import binding
from hyper.run.effect import judge
from hyper.run.sequence import flatten
from hyper.store.step import HTTPAnswer, MemberAnswer, ShellAnswer

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "run"


def _bound(repo_dir: str, procedure: str, at: int = 0) -> binding.Binding:
    repo = load_repository(str(CORPUS / repo_dir))
    assert isinstance(repo, Repository)
    return binding.resolve(repo, flatten(repo, procedure).steps[at])


MUTATE = _bound("repo-http-effects", "publish")
DESTROY = _bound("repo-http-effects", "retire")
SHELL = _bound("repo-shell-effects", "restart")


def _http(status: int | None = None, reason: capability.FaultReason | None = None) -> capability.Answer:
    response: dict[str, object] = {"host": "api.hyper.dev"}
    if status is not None:
        response["status"] = status
    return capability.Answer(response, capability.Fault(reason, "it failed") if reason else None)


@pytest.mark.parametrize(
    ("bound", "answer", "disposition", "halts", "answered"),
    [
        (MUTATE, _http(201), "ran", False, None),
        (MUTATE, _http(302), "ran", True, HTTPAnswer("api.hyper.dev", 302)),
        (MUTATE, _http(404), "ran", True, HTTPAnswer("api.hyper.dev", 404)),
        (DESTROY, _http(404), "ran", False, HTTPAnswer("api.hyper.dev", 404)),
        (DESTROY, _http(500), "ran", True, HTTPAnswer("api.hyper.dev", 500)),
        (MUTATE, _http(reason="unsent"), "attempted-world-untouched", True, HTTPAnswer("api.hyper.dev")),
        (MUTATE, _http(reason="transport"), "attempted-outcome-unknown", True, None),
        (MUTATE, _http(reason="deadline"), "attempted-outcome-unknown", True, None),
    ],
)
def test_an_http_answer_is_judged_by_the_kind(
    bound: binding.Binding,
    answer: capability.Answer,
    disposition: str,
    halts: bool,
    answered: HTTPAnswer | None,
) -> None:
    judged = judge(bound, "s", "m", answer)
    assert judged.disposition == disposition
    assert bool(judged.fault) is halts
    assert judged.answered == (MemberAnswer(answered, "m") if answered else None)


def test_a_shell_effect_completes_on_zero_alone_and_a_deadline_leaves_it_unknown() -> None:
    command = '["restart-web"]'
    assert not judge(SHELL, "s", "", capability.Answer({"command": command, "exit_code": 0})).fault
    halted = judge(SHELL, "s", "", capability.Answer({"command": command, "exit_code": 1}))
    assert (halted.disposition, halted.answered) == ("ran", MemberAnswer(ShellAnswer(command, 1)))
    unstarted = judge(SHELL, "s", "", capability.Answer({"command": command}, capability.Fault("unsent", "no")))
    assert (unstarted.disposition, unstarted.answered) == (
        "attempted-world-untouched",
        MemberAnswer(ShellAnswer(command)),
    )
    late = judge(SHELL, "s", "", capability.Answer({"command": command}, capability.Fault("deadline", "late")))
    assert (late.disposition, late.answered) == ("attempted-outcome-unknown", None)


def test_a_guardrail_that_names_no_host_answers_nothing_rather_than_an_empty_block() -> None:
    judged = judge(MUTATE, "s", "", capability.Answer({}, capability.Fault("refused", "not granted")))
    assert judged.disposition == "attempted-world-untouched"
    assert judged.answered is None

"""The ``run`` tool's text block carries the command's own sentences beneath the outcome line (#17)."""

from __future__ import annotations

from hyper_mcp.envelope import own_sentences


def test_progress_is_left_to_notifications_and_the_sentences_stay() -> None:
    narration = (
        "run 01991ea6-b118-7c93-8d41-6b2f7ae05d01\n"
        "step 1/2 widgets\n"
        "hyper run: step widgets: api.widgets.dev answered 401 Unauthorized, and the collection came to none\n"
        "step 2/2 after\n"
        "hyper run: what step after wrote could not be pushed: git push: exit status 1: rejected\n"
        "  hint: the remote moved\n"
    )
    assert own_sentences(narration) == (
        "hyper run: step widgets: api.widgets.dev answered 401 Unauthorized, and the collection came to none\n"
        "hyper run: what step after wrote could not be pushed: git push: exit status 1: rejected\n"
        "  hint: the remote moved"
    )


def test_a_run_that_said_nothing_of_its_own_adds_nothing() -> None:
    assert own_sentences("run 01991ea6-b118-7c93-8d41-6b2f7ae05d01\nstep 1/1 greet\n") == ""
    assert own_sentences("") == ""

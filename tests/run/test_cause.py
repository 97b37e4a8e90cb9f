"""A read's answer said in our own sentences where the projection alone would hide it (#17)."""

from __future__ import annotations

from hyper.capability import Answer, Fault
from hyper.run import cause


def test_an_ordinary_answer_has_no_cause() -> None:
    assert cause.of(Answer({"host": "api.example.com", "status": 200, "body": {"result": []}})) == ""


def test_a_status_that_is_not_2xx_is_named_with_its_phrase() -> None:
    answer = Answer({"host": "api.example.com", "status": 401, "headers": {"www-authenticate": "Bearer"}})
    assert cause.of(answer) == "api.example.com answered 401 Unauthorized"


def test_a_status_outside_the_standard_set_is_named_bare() -> None:
    assert cause.of(Answer({"host": "api.example.com", "status": 599})) == "api.example.com answered 599"


def test_the_first_page_that_was_not_2xx_is_the_cause() -> None:
    first = {"host": "api.example.com", "status": 200}
    answer = Answer({"host": "api.example.com", "status": 503}, pages=(first,), pattern={"pages": 2})
    assert cause.of(answer) == "api.example.com answered 503 Service Unavailable"


def test_a_transport_fault_carries_its_narration_and_the_attempts() -> None:
    fault = Fault(
        "unsent",
        "GET https://api.example.com/widgets: the TLS handshake with api.example.com failed:"
        " the certificate api.example.com presented has expired",
    )
    said = cause.of(Answer({"host": "api.example.com"}, fault, {"attempts": 3}))
    assert said.startswith("no answer came back (after 3 attempts): GET https://api.example.com/widgets")
    assert said.endswith("has expired")


def test_nothing_of_the_headers_or_the_body_is_said() -> None:
    answer = Answer(
        {
            "host": "api.example.com",
            "status": 403,
            "headers": {"x-token": "sk-live-1"},
            "body": {"error": "token sk-live-1 revoked"},
        }
    )
    assert "sk-live-1" not in cause.of(answer)


def test_a_shell_answer_carries_no_status() -> None:
    assert cause.status_of({"command": '["true"]', "exit_code": 1}) is None
    assert cause.status_of({"host": "h", "status": True}) is None

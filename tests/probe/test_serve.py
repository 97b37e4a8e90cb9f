"""The corpus harness's ``serve/``: strict reading, refused hosts, and no dial without it."""

from __future__ import annotations

import datetime as _dt
import threading
import time
from pathlib import Path

import pytest

from harness.fault import CaseFault
from harness.serve import Served, read_served, serving
from harness.stopwatch import Stopwatches
from hyper.capability import http

INSTANT = _dt.datetime(2026, 4, 2, 9, 41, 14, 221000, tzinfo=_dt.UTC)


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ('{"status": 200, "bodyy": ""}', "bodyy"),
        ('{"headers": {}}', "status"),
        ('{"status": 200, "body": {"a": 1}}', "body is not a string"),
        ('{"status": 200, "headers": {"A": 1}}', "headers"),
        ("[]", "not an object"),
        ('{"status": 200, "delay_ms": -1}', "delay_ms"),
        ('{"status": 200, "delay_ms": 0.5}', "delay_ms"),
    ],
)
def test_a_served_file_is_read_strictly(tmp_path: Path, text: str, fault: str) -> None:
    (tmp_path / "h.example.json").write_text(text)
    with pytest.raises(CaseFault, match=fault):
        read_served(tmp_path)


def test_a_served_host_answers_and_an_unserved_one_is_refused() -> None:
    problems: list[str] = []
    served = {"a.example": Served(418, (("X-Tea", "yes"),), "short and stout")}
    with serving(served, INSTANT, problems, Stopwatches()) as dial:
        answered = http.send(http.Request("GET", "a.example", "/"), dial, INSTANT, http.Clock(5))
        refused = http.send(http.Request("GET", "b.example", "/"), dial, INSTANT, http.Clock(5))
    assert answered.response["status"] == 418
    assert answered.response["headers"] == {
        "content-length": "15",
        "content-type": "text/plain; charset=utf-8",
        "date": "Thu, 02 Apr 2026 09:41:14 GMT",
        "x-tea": "yes",
    }
    assert answered.response["tls"]["days_left"] == 34
    assert refused.fault is not None and refused.fault.reason == "unsent" and refused.response == {"host": "b.example"}
    assert problems == []


def test_a_case_without_serve_that_dials_is_a_harness_problem() -> None:
    problems: list[str] = []
    with serving({}, INSTANT, problems, Stopwatches()) as dial:
        exchange = http.send(http.Request("GET", "a.example", "/"), dial, INSTANT, http.Clock(5))
    assert exchange.fault is not None and problems and "no serve/ entry" in problems[0]


def test_a_delayed_answer_can_outlast_the_deadline_and_the_case_ending_cuts_the_wait() -> None:
    problems: list[str] = []
    served = {"slow.example": Served(200, delay_ms=60_000), "quick.example": Served(200, delay_ms=50)}
    watches = Stopwatches()
    with serving(served, INSTANT, problems, watches) as dial:
        quick = http.send(http.Request("GET", "quick.example", "/"), dial, INSTANT, http.Clock(5, watches.read))
        at_quick = watches.read()
        began = time.monotonic()
        slow = http.send(http.Request("GET", "slow.example", "/"), dial, INSTANT, http.Clock(1, watches.read))
        waited = time.monotonic() - began
    assert quick.fault is None and quick.response["status"] == 200
    assert at_quick == pytest.approx(0.05)  # the answer came when its hold said, on the stopwatch
    assert slow.fault is not None and slow.fault.reason == "deadline" and slow.response == {"host": "slow.example"}
    assert watches.read() == pytest.approx(at_quick + 1)  # the wait ended at the deadline, not at the hold
    assert waited < 1  # and the stopwatch, not the machine's clock, ended it
    assert problems == []


def test_the_stopwatch_stands_still_while_the_machine_works_and_each_thread_has_its_own() -> None:
    problems: list[str] = []
    watches = Stopwatches()
    served = {"a.example": Served(200), "gone.example": Served(0, hangs=True)}
    with serving(served, INSTANT, problems, watches) as dial:
        clock = http.Clock(1, watches.read)
        for _ in range(3):
            time.sleep(0.4)  # a machine too busy to answer within the deadline, thrice over
            assert http.send(http.Request("GET", "a.example", "/"), dial, INSTANT, clock).fault is None
        watches.pause(0.25)
        assert clock.left() == pytest.approx(0.75)
        other: list[float] = []

        def hang() -> None:
            http.send(http.Request("GET", "gone.example", "/"), dial, INSTANT, http.Clock(2, watches.read))
            other.append(watches.read())

        hung = threading.Thread(target=hang)
        hung.start()
        hung.join()
    assert other == [pytest.approx(2)]  # a hang spent that thread's deadline, and only that thread's
    assert watches.read() == pytest.approx(0.25)
    assert problems == []

"""The ``shell`` Capability on its own: the four decisions no artefact makes, and the answer."""

from __future__ import annotations

import datetime as _dt
import os
import subprocess
import time
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyper.artefact.builtin import shell as builtin_shell
from hyper.capability import Answer, Call, Context
from hyper.capability.shell import CAPTURE_LIMIT, compose, perform
from hyper.core.process import Process, real
from tests.depth import examples


def _call(*words: str, deadline: float | None = 60.0) -> Call:
    manifest = builtin_shell()
    operation = manifest.operation("read")
    assert operation is not None
    return Call(manifest, operation, None, {"command": list(words)}, deadline)


def _perform(root: Path, *words: str, env: dict[str, str] | None = None, deadline: float | None = 60.0) -> Answer:
    environment = env if env is not None else {"PATH": os.environ.get("PATH", os.defpath)}
    context = Context(real(), str(root), _dt.datetime.now(_dt.UTC), environment)
    return perform(_call(*words, deadline=deadline), context)


def test_the_argv_runs_with_no_shell_in_the_repository_root_with_empty_stdin(tmp_path: Path) -> None:
    answer = _perform(tmp_path, "sh", "-c", 'printf "%s|" "$PWD" "$1"; cat', "argv0", "a | b *")
    assert answer.fault is None
    assert answer.response == {
        "command": '["sh","-c","printf \\"%s|\\" \\"$PWD\\" \\"$1\\"; cat","argv0","a | b *"]',
        "exit_code": 0,
        "stdout": f"{tmp_path}|a | b *|",
        "stderr": "",
    }


def test_a_non_zero_exit_is_an_answer_and_a_signal_reads_as_minus_one(tmp_path: Path) -> None:
    assert _perform(tmp_path, "sh", "-c", "echo no >&2; exit 4").response == {
        "command": '["sh","-c","echo no >&2; exit 4"]',
        "exit_code": 4,
        "stdout": "",
        "stderr": "no\n",
    }
    killed = _perform(tmp_path, "sh", "-c", "kill -9 $$")
    assert killed.fault is None and killed.response["exit_code"] == -1


def test_a_command_that_cannot_start_answers_its_command_alone(tmp_path: Path) -> None:
    answer = _perform(tmp_path, "no-such-command-anywhere", "x")
    assert answer.response == {"command": '["no-such-command-anywhere","x"]'}
    assert answer.fault is not None and answer.fault.reason == "unsent"


def test_the_child_environment_is_the_composed_one_and_never_hyper_s_own(tmp_path: Path) -> None:
    composed = compose({"PATH": os.environ.get("PATH", ""), "KEEP": "1", "API_TOKEN": "s3cret"}, ["API_TOKEN", ""])
    assert composed == {"PATH": os.environ.get("PATH", ""), "KEEP": "1"}
    answer = _perform(tmp_path, "sh", "-c", 'printf "%s/%s" "${KEEP-unset}" "${API_TOKEN-unset}"', env=composed)
    assert answer.response["stdout"] == "1/unset"
    process = Process(os.environ, os.getcwd, lambda: _dt.datetime.now(_dt.UTC), str, str, str)
    never = perform(_call("true"), Context(process, str(tmp_path), _dt.datetime.now(_dt.UTC), None))
    assert never.fault is not None and never.fault.reason == "unsent" and "exit_code" not in never.response


def test_the_deadline_kills_the_whole_process_group(tmp_path: Path) -> None:
    """Whatever the command had started when its deadline came, none of it outlives it. The
    grandchild is found by its own argv, not by a pid the shell writes down: on a busy machine
    the deadline can land before the shell has written anything, or even forked."""
    seconds = f"{30 + os.getpid() % 1000}.{time.monotonic_ns() % 1_000_000:06d}"  # this test's own sleep
    answer = _perform(tmp_path, "sh", "-c", f"sleep {seconds} & wait", deadline=0.5)
    assert answer.fault is not None and answer.fault.reason == "deadline"
    assert list(answer.response) == ["command"], "nothing is recorded for a member that reached its deadline"
    assert not _outlives(f"sleep {seconds}"), "the command's own children die with it"


def _outlives(args: str) -> bool:
    """Whether a live process with exactly ``args`` is still there once a killed group has had
    time to die: a signal's delivery is not instant, so the answer is polled, up to 10 s."""
    give_up = time.monotonic() + 10
    while True:
        listed = subprocess.run(["ps", "-eo", "stat=,args="], capture_output=True, text=True, check=True).stdout
        alive = [line for line in listed.splitlines() if line.split(None, 1)[-1] == args and not line.startswith("Z")]
        if not alive or time.monotonic() > give_up:
            return bool(alive)
        time.sleep(0.05)


def test_capture_is_bounded_and_the_child_never_blocks_on_a_full_pipe(tmp_path: Path) -> None:
    size = CAPTURE_LIMIT * 3
    answer = _perform(tmp_path, "sh", "-c", f"head -c {size} /dev/zero | tr '\\0' x; echo done >&2")
    assert answer.fault is None
    assert len(answer.response["stdout"]) == CAPTURE_LIMIT
    assert answer.response["stderr"] == "done\n"


def test_the_command_member_is_injective_json() -> None:
    from hyper.capability.shell import command_text

    assert command_text(["echo", "a b"]) != command_text(["echo", "a", "b"])
    assert orjson.loads(command_text(["über", '"q"'])) == ["über", '"q"']


@settings(max_examples=examples(500))
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"))))
def test_the_command_member_is_spelled_as_orjson_spells_it(argv: list[str]) -> None:
    """The Capability spells the member with the Store's string writer rather than importing
    orjson for it; the bytes are the ones orjson's compact form wrote before, so a Record's
    identity (the command text) and its path are unchanged."""
    from hyper.capability.shell import command_text

    assert command_text(argv) == orjson.dumps(argv).decode()


@pytest.mark.parametrize("word", ["", '"', "\\", "\x00\x1f\x7f", "\b\f\n\r\t", "\u2028\u2029", "é😀", "</script>"])
def test_the_command_member_escapes_what_orjson_escapes(word: str) -> None:
    from hyper.capability.shell import command_text

    assert command_text(["echo", word]) == orjson.dumps(["echo", word]).decode()

"""Off the tested versions ``hyper.core.namedtuple`` is ``typing.NamedTuple``, and hyper still works.

No interpreter past the tested ones is on this machine, so the fallback is forced: a child
interpreter imports the module while ``sys.version_info`` reads 3.14, then runs the value
tests and a slice of the unit tests that define and use hundreds of NamedTuples.
"""

from __future__ import annotations

import subprocess
import sys

from tests.loaded import ROOT

FORCED = """
import sys, typing
real = sys.version_info
sys.version_info = (3, 14, 0, "final", 0)
import hyper.core.namedtuple as chosen
sys.version_info = real
assert not chosen.FAST and chosen.NamedTuple is typing.NamedTuple, "the fallback was not taken"
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""

SLICE = ["tests/test_namedtuple.py", "tests/test_yamlparse.py", "tests/check", "tests/review"]


def test_the_standard_form_passes_the_same_tests() -> None:
    done = subprocess.run([sys.executable, "-c", FORCED, *SLICE], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout

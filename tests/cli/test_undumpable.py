"""hyper makes itself non-dumpable where it holds a credential, read back with PR_GET_DUMPABLE."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")

READ_BACK = (
    "import ctypes, sys\n"
    "from hyper.cli.main import entry\n"
    "sys.argv = ['hyper', *sys.argv[1:]]\n"
    "import hyper.cli.main as m\n"
    "m._answer = lambda *a: 0\n"
    "try:\n    entry()\nexcept SystemExit:\n    pass\n"
    "print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))\n"
)


@pytest.mark.parametrize(("word", "dumpable"), [("run", "0"), ("probe", "0"), ("mcp", "0"), ("version", "1")])
def test_the_entry_point_forbids_dumps_for_the_commands_holding_a_credential(word: str, dumpable: str) -> None:
    done = subprocess.run([sys.executable, "-c", READ_BACK, word], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == dumpable, done.stderr

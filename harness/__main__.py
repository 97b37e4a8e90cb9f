"""``python -m harness run DIR [--write-actual]``: run a golden corpus and report.

``python -m harness workflows DIR [--check]`` rewrites every generated-workflow
fixture under DIR as the current template writes its facts (``--check`` only lists the
ones that would move, and exits 1 if any would).

DIR is laid out as hyper's own ``corpus/`` is, and may be a partial copy of
another: a golden the case does not hold is reported as unchecked rather than
failed. Exit 0 when every case passed, 1 otherwise, 2 for a command line this
runner cannot read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from harness.runner import run_directory
from harness.workflows import regenerate


def main(argv: Sequence[str], out: TextIO) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness", description="Run a hyper golden corpus.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="drive every case under DIR and compare it with its goldens")
    run.add_argument("directory", metavar="DIR", type=Path)
    run.add_argument(
        "--write-actual",
        action="store_true",
        help="write <golden>.actual beside each golden that differed or is missing",
    )
    workflows = commands.add_parser("workflows", help="regenerate every workflow fixture under DIR")
    workflows.add_argument("directory", metavar="DIR", type=Path)
    workflows.add_argument("--check", action="store_true", help="list the fixtures that would move; write nothing")
    options = parser.parse_args(argv)
    if not options.directory.is_dir():
        parser.error(f"{options.directory} is not a directory")
    if options.command == "workflows":
        moved = regenerate(options.directory, check=options.check)
        out.writelines(f"{path}\n" for path in moved)
        return 1 if options.check and moved else 0
    return run_directory(options.directory, out, write_actual=options.write_actual)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], sys.stdout))

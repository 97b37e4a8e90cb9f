"""``python -m harness run DIR [--write-actual]``: run a golden corpus and report.

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
    options = parser.parse_args(argv)
    if not options.directory.is_dir():
        parser.error(f"{options.directory} is not a directory")
    return run_directory(options.directory, out, write_actual=options.write_actual)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], sys.stdout))

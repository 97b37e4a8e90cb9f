"""A child process for the reliability tests: appends and publishes, or dies mid-append.

Run as ``python worker.py <mode> <root> <run-id> [count]``; never imported by the suite.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import signal
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from hyper.core.faults import PushExhausted
from hyper.store.branch import Store, Write
from hyper.store.objects import ObjectStore
from hyper.store.paths import JournalEntry
from tests.store.support import NOW, process


def main(mode: str, root: str, run: str, count: int) -> None:
    entry = JournalEntry(run, NOW)
    with Store.open(root, process(pathlib.Path(root)), NOW) as store:
        if mode == "killed":
            store.append([Write(entry.run_path, b"before\n")], "before the kill")

            def die(self: ObjectStore, ref: str, new: str, old: str | None) -> None:
                self.flush()
                os.kill(os.getpid(), signal.SIGKILL)

            ObjectStore.move = die  # type: ignore[method-assign]
            store.append([Write(entry.outcome_path, b"never\n")], "killed before the ref moved")
            return
        for step in range(1, count + 1):
            store.append([Write(entry.step_path(step), f"{run} {step}\n".encode())], f"Step {step} of run {run}")
            with contextlib.suppress(PushExhausted):  # it stays committed; the next publish sends it
                store.publish()
        for _ in range(20):
            try:
                store.publish()
                return
            except PushExhausted:
                continue
        raise SystemExit("the remote kept moving under every publish")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)

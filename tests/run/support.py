"""A real repository for a Run to act on: ``corpus/run/repo-shell`` copied, committed, and
given a Store — plus the commands its ``shell`` Steps may start, and the process that runs
them.

The corpus pins what a Run *says*; these tests need what the corpus cannot hold — a second
process holding the lock, a signal, a cancel mid-Step, a credential's value — so they
build the same fixture live.
"""

from __future__ import annotations

import datetime as _dt
import http.server
import io
import json
import os
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, NamedTuple

from harness.drive import launcher
from hyper.cli.main import main
from hyper.core.ids import mint_v7
from hyper.core.process import Process
from hyper.core.version import BuildFacts
from hyper.store.sync import init

REPO_SHELL: Final = Path(__file__).resolve().parents[2] / "corpus" / "run" / "repo-shell"
VERSION: Final = "1.4.0"
FACTS: Final = BuildFacts(version=VERSION)

WAIT_FOR: Final = "#!/bin/sh\nwhile [ ! -e \"$1\" ]; do sleep 0.02; done\nprintf 'released\\n'\n"
"""Blocks until the file named by its argument exists: a Step a test holds in flight."""
ECHO: Final = "#!/bin/sh\nprintf '%s\\n' \"$*\"\n"


def git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@t.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@t.invalid",
        GIT_CONFIG_NOSYSTEM="1",
    )
    return env


def build(tmp: Path, extra: Mapping[str, str] | None = None, version: str = VERSION) -> Path:
    """``repo-shell`` plus ``extra`` files, committed on ``main``, with an empty Store."""
    root = tmp / "repo"
    shutil.copytree(REPO_SHELL, root)
    for path, text in (extra or {}).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    if version != VERSION:
        declaration = root / "hyper.yaml"
        declaration.write_text(declaration.read_text().replace(f"version: {VERSION}", f"version: {version}"))
    env = git_env()
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "fixture"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True)
    init(str(root), process(root, tmp / "no-bin"), _dt.datetime.now(_dt.UTC))
    return root


def scripts(tmp: Path, **named: str) -> Path:
    """A ``bin/`` holding the named scripts, each executable."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, text in named.items():
        path = bin_dir / name.replace("_", "-")
        path.write_text(text)
        path.chmod(0o755)
    return bin_dir


def procedure(name: str, *steps: str) -> str:
    """A Procedure over ``host-checks`` whose Steps are ``(id, argv words)`` lines."""
    body = "".join(steps)
    return f"kind: procedure\nprocedure: {name}\ntargets: [local]\nsteps:\n{body}"


def read_step(step_id: str, *words: str) -> str:
    return (
        f"  - id: {step_id}\n    definition: host-checks\n    operation: read\n    target: local\n"
        f"    args:\n      command: [{', '.join(words)}]\n"
    )


def held(release: Path, *after: str) -> str:
    """Procedure ``held``: a first Step waiting until ``release`` exists, then an ``echo`` Step per name.

    The waiting Step is what a signal or a cancel arrives during, and ``WAIT_FOR``
    must be among the scripts for it to start."""
    return procedure("held", read_step("waits", "wait-for", str(release)), *(read_step(n, "echo", n) for n in after))


def process(root: Path, bin_dir: Path, env: Mapping[str, str] | None = None) -> Process:
    """The process a Run sees: commands resolved in ``bin_dir`` alone, git from the machine."""
    return Process(
        environ=dict(env if env is not None else {"PATH": os.environ.get("PATH", os.defpath)}),
        getwd=lambda: str(root),
        now=lambda: _dt.datetime.now(_dt.UTC),
        mint=mint_v7,
        user=lambda: "igor",
        hostname=lambda: "thinkpad",
        launch=launcher(bin_dir),
    )


class Ran(NamedTuple):
    code: int
    stdout: str
    stderr: str


def run(root: Path, bin_dir: Path, *args: str, env: Mapping[str, str] | None = None) -> Ran:
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["run", "--repo-dir", str(root), *args], out, err, process(root, bin_dir, env), FACTS)
    return Ran(code, out.getvalue().decode(), err.getvalue().decode())


def branch_files(root: Path) -> dict[str, bytes]:
    """Every file on ``hyper-store`` and its bytes."""
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "hyper-store"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.split()
    return {
        name: subprocess.run(["git", "show", f"hyper-store:{name}"], cwd=root, check=True, capture_output=True).stdout
        for name in names
    }


def entry_files(root: Path) -> list[str]:
    """The Journal files on the branch, the part after the Run id (``run.json``, ``steps/0001.json``…)."""
    return sorted(name.split("/", 5)[5] for name in branch_files(root) if name.startswith("journal/"))


class Answered(NamedTuple):
    """What the stand-in API answers one path with, and how long it takes to."""

    status: int
    body: Any
    """Sent as its JSON, or as it is where it is already ``bytes``."""
    delay: float = 0.0


class Served(NamedTuple):
    dial: Callable[[str, int, float | None], ssl.SSLSocket]
    """A dialer reaching the stand-in whatever host is named, trusting its throwaway certificate."""
    authorizations: list[str]
    """The ``Authorization`` header of every request that arrived, in order."""


@contextmanager
def serve(tmp: Path, answer: Callable[[str], Answered]) -> Iterator[Served]:
    """A local HTTPS server for ``http`` Steps: a throwaway self-signed certificate for any
    host a test grants, and no network. What reaches it is recorded."""
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "2",
            "-subj",
            "/CN=hyper-test",
            "-addext",
            "subjectAltName=DNS:api.paid.example,DNS:api.fleet.example",
        ],
        check=True,
        capture_output=True,
    )
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.headers.get("Authorization", ""))
            answered = answer(self.path)
            time.sleep(answered.delay)
            data = answered.body if isinstance(answered.body, bytes) else json.dumps(answered.body).encode()
            try:
                self.send_response(answered.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the caller's deadline closed the connection first

        def log_message(self, *_: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def dial(host: str, _port: int, timeout: float | None) -> ssl.SSLSocket:
        raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        return ssl.create_default_context(cafile=str(cert)).wrap_socket(raw, server_hostname=host)

    try:
        yield Served(dial, seen)
    finally:
        server.shutdown()
        server.server_close()

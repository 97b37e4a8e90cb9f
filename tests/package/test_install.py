"""Done when: a newcomer pipx-installs the built wheel into a clean home and follows the quickstart.

The wheel is built from this checkout; pipx installs it into a home directory that holds
nothing else, and nothing of the checkout's venv is on ``PATH`` (pipx itself is reached
through a directory holding only it). Then ``docs/quickstart.md`` is followed as written:
its ``bash`` blocks run in order, its ``yaml`` blocks are saved at the paths they name, and
the service it talks to is ``tests/package/notes_api.py`` behind a test CA. Three things
differ from a reader's machine, each named here: ``pipx install hyper-iac`` installs the
wheel's path instead (the name is not published yet); the Target's ``localhost:8443``
becomes the port the server was given; and the one ``sh`` block, the reader's own token and
CA, is supplied as the environment. Cost: the release wheel (built once per checkout,
tests/built.py) and one pipx install (a venv and the dependencies from the package index),
about 10-40 s on two loaded cores.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.package.build import release_wheels
from tests.package.notes_api import TOKEN, notes_api
from tests.package.readme import blocks
from tests.package.test_docs import QUICKSTART, files_of
from tests.package.test_readme import newcomer_env

pytestmark = [
    pytest.mark.skipif(not (Path(sys.executable).parent / "pipx").exists(), reason="pipx comes with the test extras"),
    # What only this test checks is the wheel and pipx's install of it, the same on every interpreter; the
    # code the commands then run is the unit tests' on every version (ADR 0041).
    pytest.mark.packaging,
]


def test_a_newcomer_follows_the_quickstart_from_a_pipx_install(tmp_path: Path) -> None:
    wheel = release_wheels()[0]
    home = tmp_path / "home"
    home.mkdir()
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "pipx").symlink_to(Path(sys.executable).parent / "pipx")
    env = newcomer_env(home)
    env["PATH"] = f"{home / '.local' / 'bin'}:{tools}:{env['PATH']}"
    env.pop("TMPDIR")
    for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CERT"):
        if name in os.environ:
            env[name] = os.environ[name]  # the package index this machine reaches, if set by variable

    bash = [b.text for b in blocks(QUICKSTART) if b.language == "bash"]
    install, make_repository, *rest = bash
    assert "pipx install hyper-iac" in install
    shell(install.replace("pipx install hyper-iac", f"pipx install --quiet {wheel}"), home, env)
    installed = shell("command -v hyper", home, env).stdout.strip()
    assert installed == str(home / ".local" / "bin" / "hyper")

    shell(make_repository, home, env)
    repo = home / "notes-demo"
    with notes_api(tmp_path / "notes-ca.pem") as (port, notes):
        for name, text in files_of(QUICKSTART).items():
            (repo / name).write_text(text.replace("localhost:8443", f"localhost:{port}"))
        env |= {"NOTES_TOKEN": TOKEN, "SSL_CERT_FILE": str(tmp_path / "notes-ca.pem")}
        check_and_review, run, read_back = rest
        reviewed = shell(check_and_review, repo, env).stdout
        ran = shell(run, repo, env).stdout
        read = shell(read_back, repo, env).stdout

    assert "checked 7 artefacts: no problems found" in reviewed
    assert "PROCEDURE" in reviewed and "UNBOUNDED" in reviewed
    assert "completed · exit 0" in ran
    assert (home / "notes-secrets" / "0002" / "ci" / "token").read_text() == "tok-ci"
    assert [note["title"] for note in notes.notes.values()] == ["draft-outline", "welcome"]
    assert '"name": "welcome"' in read and "tok-ci" not in read


def shell(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"$ {script}\n{done.stdout}{done.stderr}"
    return done

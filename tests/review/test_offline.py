"""A review reaches no network, resolves no credential, and leaves the repository as it was.

The clone here is partial: the blob its last Run read was never fetched, and its
promisor remote would hand it over on request. A review must answer ``not-in-clone``
rather than ask — so the range stays shut — and the repository, its index, its
branches and its objects are byte-identical afterwards. One variant runs hyper in a
network namespace with nothing in its environment but ``PATH`` and ``HOME``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hyper.cli.main import main
from hyper.core.process import Process
from hyper.core.version import BuildFacts, installed
from hyper.store.branch import Store, Write
from hyper.store.journal import OutcomeFile, RunFile, Trigger
from hyper.store.provenance import RunProvenance
from hyper.store.sync import init

FIXTURE = Path(__file__).resolve().parents[2] / "corpus" / "review" / "fixtures" / "worked-example" / "repo"
PROCEDURE = "procedures/retire-preview-envs.yaml"
NOW = _dt.datetime(2026, 8, 6, 9, 41, 14, tzinfo=_dt.UTC)
RUN = "01984c9f-3a20-7b41-8c05-2d6e9f31a7b4"


def git(cwd: Path, *args: str, env: dict[str, str]) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True).stdout.strip()


def quiet_process(root: Path, env: dict[str, str]) -> Process:
    return Process(
        environ=env,
        getwd=lambda: str(root),
        now=lambda: NOW,
        mint=lambda _: RUN,
        user=lambda: "igor",
        hostname=lambda: "thinkpad",
    )


@pytest.fixture
def clone(tmp_path: Path) -> tuple[Path, str, dict[str, str]]:
    """A partial clone whose Store names a blob the clone does not hold; the version pinned is ours."""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t.invalid",
    }
    origin = tmp_path / "origin"
    shutil.copytree(FIXTURE, origin)
    declaration = origin / "hyper.yaml"
    declaration.write_text(declaration.read_text().replace("version: 1.4.0", f"version: {installed().version}"))
    git(origin, "init", "-q", "--initial-branch=main", env=env)
    git(origin, "config", "uploadpack.allowFilter", "true", env=env)
    git(origin, "add", "--all", env=env)
    git(origin, "commit", "-q", "-m", "bound 3", env=env)
    earlier = git(origin, "rev-parse", f"HEAD:{PROCEDURE}", env=env)
    procedure = origin / PROCEDURE
    procedure.write_text(procedure.read_text().replace("bound: 3", "bound: 5"))
    git(origin, "commit", "-q", "-am", "bound 5", env=env)
    repo = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--filter=blob:none", f"file://{origin}", str(repo), env=env)
    assert (
        subprocess.run(
            ["git", "-c", "protocol.allow=never", "cat-file", "-e", earlier],
            cwd=repo,
            env=env,
            capture_output=True,
            check=False,
        ).returncode
        != 0
    ), "the clone should lack the old blob"
    init(str(repo), quiet_process(repo, env), NOW)
    started = NOW - _dt.timedelta(days=41)
    run = RunFile(
        RUN,
        "retire-preview-envs",
        Trigger("cron", "local", "igor", "thinkpad"),
        started,
        False,
        RunProvenance(installed().version, earlier, git(repo, "rev-parse", "HEAD", env=env)),
    )
    outcome = OutcomeFile("completed", started + _dt.timedelta(minutes=2))
    with Store.open(str(repo), quiet_process(repo, env), NOW) as store:
        store.append([Write(run.at.run_path, run.encode()), Write(run.at.outcome_path, outcome.encode())], "a Run")
    return repo, earlier, env


def snapshot(root: Path) -> str:
    """Every byte under the repository, .git included (index, refs, objects, config), but the
    Journal's summaries memo: a cache derived from the branch that any reader of it may write
    (adr/0031), review's included, and that no fetch could bring."""
    digest = hashlib.sha256()
    memo = root / ".git" / "hyper" / "journal"
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(name for name in dirs if Path(here) / name != memo)
        for name in sorted(files):
            path = Path(here) / name
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            digest.update(path.read_bytes() if not path.is_symlink() else os.readlink(path).encode())
    return digest.hexdigest()


def test_a_missing_object_is_an_absence_and_never_a_fetch(
    clone: tuple[Path, str, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, earlier, env = clone
    import socket

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("a review opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    launched: list[list[str]] = []

    def launch(args: list[str], *rest: object, **options: object) -> subprocess.Popen[bytes]:
        launched.append(list(args))
        child_env = options.get("env")
        assert isinstance(child_env, dict)
        assert not any(name in child_env for name in ("HCLOUD_STAGING_TOKEN", "GITHUB_TOKEN"))
        return subprocess.Popen(args, *rest, **options)  # type: ignore[call-overload, no-any-return]

    process = quiet_process(repo, env)._replace(launch=launch)
    before = snapshot(repo)
    import io

    out, err = io.BytesIO(), io.BytesIO()
    code = main(
        ["review", "--repo-dir", str(repo), PROCEDURE], out, err, process, BuildFacts(version=installed().version)
    )
    page = out.getvalue().decode()
    assert code == 0, err.getvalue()
    assert f"no baseline — {earlier} is missing from this clone" in page
    assert "WIDENED" not in page
    assert snapshot(repo) == before
    assert all(args[0] == "git" for args in launched)
    transports = {"fetch", "pull", "push", "ls-remote", "clone", "remote"}
    assert not [args for args in launched if transports & set(args)]


@pytest.mark.skipif(shutil.which("unshare") is None, reason="no unshare to cut the network with")
def test_review_runs_with_no_network_and_no_credential(clone: tuple[Path, str, dict[str, str]]) -> None:
    repo, earlier, env = clone
    probe = subprocess.run(["unshare", "-rn", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("this machine will not grant a network namespace")
    before = snapshot(repo)
    bare = {"PATH": env["PATH"], "HOME": env["HOME"]}
    done = subprocess.run(
        [
            "unshare",
            "-rn",
            sys.executable,
            "-c",
            "from hyper.cli.main import entry; entry()",
            "review",
            "--repo-dir",
            str(repo),
            PROCEDURE,
        ],
        env=bare,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"{earlier} is missing from this clone" in done.stdout
    assert "DESTROY" in done.stdout and "ENVELOPE" in done.stdout
    assert snapshot(repo) == before

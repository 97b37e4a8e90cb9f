"""The generated workflow, run as a runner would run it, against a package index on loopback.

Nothing reaches the network. The release wheel is built from this checkout, its dependencies are
fetched with ``pip download`` from whatever index this machine's pip reads (each checked
against the lock), and a static PEP 503/691 index serves them over HTTPS with a test CA,
beside the JSON page ``project`` reads. Then, in order:

1. ``project`` pins that wheel (in process, its dialer sending ``pypi.org`` to the index);
2. the repository is pushed to a bare origin with a Store, and a shallow single-branch clone
   stands in for ``actions/checkout``; a fresh interpreter environment stands in for
   ``actions/setup-python``;
3. every ``run:`` step executes in order under ``bash -e``, with the Actions variables set and
   pip pointed at the index by ``PIP_INDEX_URL`` alone — nothing in the repository says where;
4. the Run lands on origin's Store and the job summary holds it.

A tampered wheel and a tampered dependency are each refused before anything from them runs:
the install step fails, and no ``hyper`` was ever installed.

Cost: the release wheel and one ``pip download`` of the lock, each made once per checkout and
kept under ``.cache/`` (tests/built.py; ≈10–15 s the first time on this machine), then ≈5–10 s
per workflow run (the good run installs about thirty wheels).
"""

from __future__ import annotations

import hashlib
import html
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml

from hyper.cli.main import main
from hyper.core.version import BuildFacts
from hyper.workflow.executor import CHECKOUT as CHECKOUT_ACTION
from hyper.workflow.executor import DISTRIBUTION, PYTHON, SETUP_PYTHON, artefact_name
from hyper.workflow.lock import LOCK, lock
from tests.built import built
from tests.capability.tls import Reply, Seen, serving
from tests.fixed import fixed_process
from tests.package.build import release_wheels

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "quickstart"
PROCEDURE = "say-hello"
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
_REQUIREMENT = re.compile(r"^([A-Za-z0-9._-]+)==(\S+)", re.MULTILINE)
_EXPRESSION = re.compile(r"\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None, reason="needs bash, git")


def _git(*argv: str, cwd: Path | None = None) -> str:
    environ = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(["git", *argv], cwd=cwd, env=environ, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture(scope="module")
def wheels() -> dict[str, bytes]:
    """Every file the index serves, by file name: the release wheel of this checkout and the locked dependencies."""
    if f"{sys.version_info[0]}.{sys.version_info[1]}" != PYTHON:
        pytest.skip(f"the local Python stands in for setup-python's {PYTHON}, and the lock is resolved for it")
    release, _ = release_wheels()
    try:
        deps = built("locked-wheels", [sys.version.encode(), lock()], _download_locked)
    except subprocess.CalledProcessError as failed:
        pytest.skip(f"this machine's pip could not provide the wheels offline: {failed.stderr.decode()[-400:]}")
    return {path.name: path.read_bytes() for path in [release, *deps.iterdir()]}


def _download_locked(into: Path) -> None:
    """The wheels the lock names, each checked against its hash, into ``into`` and nothing else."""
    requirements = into / "requirements.txt"
    requirements.write_bytes(lock())
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet", "download", "--no-deps"]
    options = ["--only-binary=:all:", "--require-hashes", "--dest", str(into), "-r", str(requirements)]
    subprocess.run([*pip, *options], check=True, capture_output=True)
    requirements.unlink()


def _project_of(filename: str) -> str:
    return re.sub(r"[-_.]+", "-", filename.split("-")[0]).lower()


def index(files: Mapping[str, bytes], version: str) -> dict[str, tuple[str, bytes]]:
    """The static index: PEP 503 HTML and PEP 691 JSON per project, the files, and PyPI's release page."""
    served: dict[str, tuple[str, bytes]] = {}
    projects: dict[str, list[str]] = {}
    for name in sorted(files):
        projects.setdefault(_project_of(name), []).append(name)
        served[f"/files/{name}"] = ("application/octet-stream", files[name])
    for project, names in projects.items():
        digests = {name: hashlib.sha256(files[name]).hexdigest() for name in names}
        links = "".join(f'<a href="/files/{n}#sha256={d}">{html.escape(n)}</a>\n' for n, d in digests.items())
        served[f"/simple/{project}/"] = ("text/html", f"<!DOCTYPE html><html><body>\n{links}</body></html>\n".encode())
        page = {
            "meta": {"api-version": "1.0"},
            "name": project,
            "files": [{"filename": n, "url": f"/files/{n}", "hashes": {"sha256": d}} for n, d in digests.items()],
        }
        served[f"/simple/{project}/#json"] = (SIMPLE_JSON, orjson.dumps(page))
    wheel = artefact_name(version)
    sha = hashlib.sha256(files[wheel]).hexdigest()
    listed = {"filename": wheel, "packagetype": "bdist_wheel", "digests": {"sha256": sha}}
    release = {"info": {"name": DISTRIBUTION, "version": version}, "urls": [listed]}
    served[f"/pypi/{DISTRIBUTION}/{version}/json"] = ("application/json", orjson.dumps(release))
    return served


def answering(served: Mapping[str, tuple[str, bytes]]) -> Any:
    def handle(seen: Seen) -> Reply:
        path = seen.target.split("?")[0]
        if path.startswith("/simple/") and not path.endswith("/"):
            path += "/"
        wants_json = SIMPLE_JSON in seen.headers.get("accept", "")
        found = served.get(path + "#json") if wants_json else None
        found = found or served.get(path)
        if found is None:
            return Reply(404, (("Content-Type", "text/plain"),), b"not on this index\n")
        return Reply(200, (("Content-Type", found[0]),), found[1])

    return handle


def authored(tmp_path: Path) -> Path:
    """The quickstart with a Cadence, pinning a version this build is not (so ``project`` reads the index)."""
    repo = tmp_path / "author"
    shutil.copytree(QUICKSTART, repo)
    procedure = repo / "procedures" / f"{PROCEDURE}.yaml"
    cadenced = procedure.read_text().replace("targets: [local]\n", "targets: [local]\ncadence: '0 3 * * 1'\n", 1)
    procedure.write_text(cadenced)
    declaration = repo / "hyper.yaml"
    declaration.write_text(re.sub(r"^version: .*$", "version: 0.0.1", declaration.read_text(), flags=re.MULTILINE))
    return repo


def project(repo: Path, version: str, dial: Any) -> None:
    process = fixed_process(str(repo), {"HYPER_REPO_DIR": str(repo)})._replace(dial=dial)
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["project"], out, err, process, BuildFacts(version=version))
    assert (code, err.getvalue()) == (0, b""), err.getvalue().decode()


def published(repo: Path, tmp_path: Path, hyper: Path) -> Path:
    """A bare origin holding the repository on ``main`` and an initialised Store."""
    origin = tmp_path / "origin.git"
    _git("init", "-q", "--bare", "-b", "main", str(origin))
    _git("init", "-q", "-b", "main", cwd=repo)
    _git("add", "-A", cwd=repo)
    _git("-c", "user.name=author", "-c", "user.email=author@hyper.invalid", "commit", "-q", "-m", "author", cwd=repo)
    _git("remote", "add", "origin", str(origin), cwd=repo)
    _git("push", "-q", "origin", "main", cwd=repo)
    subprocess.run([str(hyper), "store", "init"], cwd=repo, check=True, capture_output=True)
    return origin


def interpreter(place: Path) -> Path:
    """What ``actions/setup-python`` leaves on PATH: a clean Python with pip and nothing else.

    The pip wheel this Python bundles is unpacked into a fresh environment, which costs a
    fraction of ``ensurepip``.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(place)], check=True)
    bundled = Path(sysconfig.get_paths()["stdlib"]) / "ensurepip" / "_bundled"
    wheel = next(bundled.glob("pip-*.whl"))
    purelib = subprocess.run(
        [str(place / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(purelib)
    return place / "bin"


class Job:
    """One job run: each step's exit, and what the summary file holds."""

    def __init__(self, exits: list[tuple[str, int | None]], summary: str, output: str) -> None:
        self.exits = exits
        self.summary = summary
        self.output = output


def run_job(workflow: dict[Any, Any], workspace: Path, tmp_path: Path, index_url: str, ca: Path) -> Job:
    """Each step in order as a runner takes it: ``uses:`` stood in for, ``run:`` under ``bash -e``."""
    temp, summary, home = tmp_path / "runner-temp", tmp_path / "summary.md", tmp_path / "home"
    temp.mkdir()
    home.mkdir()
    summary.write_text("")
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_REF": "refs/heads/main",
        "GITHUB_REF_NAME": "main",
        "GITHUB_EVENT_NAME": "schedule",
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(temp),
        "RUNNER_OS": "Linux",
        # the index, as a runner's environment would set it — the only redirection there is
        "PIP_INDEX_URL": index_url,
        "PIP_CERT": str(ca),
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_CACHE_DIR": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    exits: list[tuple[str, int | None]] = []
    output: list[str] = []
    failed = False
    for number, step in enumerate(workflow["jobs"]["run"]["steps"]):
        name = step.get("name") or step.get("uses")
        if failed and step.get("if") != "always()":
            exits.append((name, None))
            continue
        if "uses" in step:
            if step["uses"] == SETUP_PYTHON:
                assert step["with"] == {"python-version": PYTHON}
                environ["PATH"] = f"{interpreter(tmp_path / 'python')}:{environ['PATH']}"
            else:
                assert step["uses"] == CHECKOUT_ACTION  # the clone already stands in for it
            exits.append((name, 0))
            continue
        env = {key: _EXPRESSION.sub("", value) for key, value in step.get("env", {}).items()}
        script = tmp_path / f"step-{number}.sh"
        script.write_text(step["run"])
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-e", str(script)],
            cwd=workspace,
            env={**environ, **env},
            capture_output=True,
            text=True,
        )
        output.append(f"--- {name} ({done.returncode})\n{done.stdout}{done.stderr}")
        exits.append((name, done.returncode))
        failed = failed or done.returncode != 0
    return Job(exits, summary.read_text(), "".join(output))


def job(
    tmp_path: Path, files: Mapping[str, bytes], version: str, tampered: Mapping[str, bytes] | None = None
) -> tuple[Job, Path, Path]:
    """Author, project, publish, check out and run.

    ``tampered`` replaces files after the pin is read, and the index is rebuilt around them, so it
    vouches for the tampered bytes: the index itself is what is not trusted.
    """
    served = index(files, version)
    with serving(answering(served), ["pypi.org", "localhost"]) as server:
        repo = authored(tmp_path)
        project(repo, version, server.dial)
        origin = published(repo, tmp_path, Path(sys.executable).parent / "hyper")
        if tampered:
            served.update(index({**files, **tampered}, version))
        workspace = tmp_path / "workspace"
        _git("clone", "-q", "--depth", "1", "--single-branch", "--branch", "main", f"file://{origin}", str(workspace))
        ca = tmp_path / "ca.pem"
        ca.write_bytes(server.ca_pem)
        workflow = yaml.safe_load((workspace / ".github" / "workflows" / f"hyper-{PROCEDURE}.yml").read_text())
        ran = run_job(workflow, workspace, tmp_path, f"https://localhost:{server.port}/simple/", ca)
    return ran, origin, tmp_path / "python"


def _version(files: Mapping[str, bytes]) -> str:
    return next(name.split("-")[1] for name in files if name.startswith("hyper_iac-"))


def test_the_pinned_wheel_installs_verified_and_the_run_lands_on_the_store(
    tmp_path: Path, wheels: dict[str, bytes]
) -> None:
    version = _version(wheels)
    ran, origin, _ = job(tmp_path, wheels, version)
    assert [code for _, code in ran.exits] == [0] * len(ran.exits), ran.output
    assert "completed · exit 0 · run " in ran.summary
    assert "say-hello" in ran.summary and "rendered no Comparison" not in ran.summary
    journal = _git("log", "--format=%s", "hyper-store", cwd=origin)
    assert re.search(r"^End run [0-9a-f-]{36}$", journal, re.MULTILINE), journal
    written = (tmp_path / "author" / LOCK).read_bytes()
    assert written == lock() and set(_REQUIREMENT.findall(written.decode())) == {
        (_project_of(name), name.split("-")[1]) for name in wheels if not name.startswith("hyper_iac-")
    }


def _installed(python: Path) -> list[str]:
    purelib = next((python / "lib").glob("python*/site-packages"))
    return sorted(path.name for path in purelib.iterdir() if path.name.endswith(".dist-info"))


def test_a_tampered_wheel_is_refused_before_it_runs(tmp_path: Path, wheels: dict[str, bytes]) -> None:
    version = _version(wheels)
    wheel = artefact_name(version)
    ran, _, python = job(tmp_path, wheels, version, {wheel: wheels[wheel] + b"\0"})
    steps = dict(ran.exits)
    assert steps[f"install hyper {version}, verified before it runs"] == 1, ran.output
    assert f"{wheel}: FAILED" in ran.output and "computed checksum did NOT match" in ran.output, ran.output
    assert steps[f"hyper run {PROCEDURE}"] is None  # skipped: a failed step stops the job
    assert not (python / "bin" / "hyper").exists()
    assert [name for name in _installed(python) if not name.startswith("pip-")] == []


def test_a_tampered_dependency_is_refused_before_anything_is_installed(
    tmp_path: Path, wheels: dict[str, bytes]
) -> None:
    version = _version(wheels)
    attrs = next(name for name in wheels if name.startswith("attrs-"))
    ran, _, python = job(tmp_path, wheels, version, {attrs: wheels[attrs] + b"\0"})
    assert dict(ran.exits)[f"install hyper {version}, verified before it runs"] != 0
    assert "THESE PACKAGES DO NOT MATCH THE HASHES" in ran.output
    assert not (python / "bin" / "hyper").exists()
    assert [name for name in _installed(python) if not name.startswith("pip-")] == []

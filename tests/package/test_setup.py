"""What ``scripts/setup`` leaves: the venv's ``hyper`` is the checkout's, and the version follows the rename."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hyper.core import version
from tests.package.build import ROOT


def test_the_console_script_runs_the_checkouts_code() -> None:
    """The suite and ``.venv/bin/hyper`` run one copy of the code, and no import hook starts with Python."""
    probe = "import sys, hyper; print(hyper.__file__); print(any('editable' in m for m in sys.modules))"
    lines = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd="/"
    ).stdout.splitlines()
    assert Path(lines[0]).resolve() == ROOT / "hyper" / "__init__.py"
    assert lines[1] == "False"
    script = Path(sys.executable).parent / "hyper"
    if not script.exists():
        pytest.skip("not run from a venv made by scripts/setup")
    page = subprocess.run([str(script), "version"], capture_output=True, text=True, check=True, cwd="/").stdout
    assert page.splitlines()[0] == "hyper 0.1.0"


def test_the_version_is_read_off_hyper_iac_not_the_http2_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, number in (("hyper-0.7.0.dist-info", "0.7.0"), ("hyper_iac-0.1.0.dist-info", "0.1.0")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "METADATA").write_text(f"Metadata-Version: 2.4\nName: x\nVersion: {number}\n\nbody\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert version.installed().version == "0.1.0"

"""A Target's ``withhold:`` names variables no ``shell`` child inherits.

The union is repository-wide, as it is for credential slots: the name is withheld from a
child whichever Target the child runs against, and a variable nobody withholds passes.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.run.support import branch_files, build, procedure, read_step, run, scripts

PRINT_BOTH = '#!/bin/sh\nprintf \'deploy=%s shared=%s\\n\' "${DEPLOY_KEY-unset}" "${SHARED_NOTE-unset}"\n'
LOCAL = (
    "kind: target-declaration\ntarget: local\nclass: local\nkinds: [read, mutate]\ncapabilities: [shell]\n"
    "withhold: [DEPLOY_KEY]\n"
)


def test_a_withheld_variable_never_reaches_a_shell_child(tmp_path: Path) -> None:
    root = build(
        tmp_path,
        {
            "targets/local.yaml": LOCAL,
            "procedures/print-both.yaml": procedure("print-both", read_step("both", "print-both")),
        },
    )
    env = {"PATH": os.environ.get("PATH", os.defpath), "DEPLOY_KEY": "k-31d9", "SHARED_NOTE": "n-77"}
    ran = run(root, scripts(tmp_path, print_both=PRINT_BOTH), "print-both", env=env)
    assert ran.code == 0, ran.stderr
    stored = b"".join(branch_files(root).values())
    assert b"deploy=unset shared=n-77" in stored
    assert b"k-31d9" not in stored

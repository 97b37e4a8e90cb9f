"""One Procedure's workflow file, whole, as bytes: a pure function of its facts.

Nothing here opens a file, reaches the network or reads the clock, so ``project``
(which writes the bytes) and ``check`` (which compares the working tree with them)
are one derivation called from two places.

The file's sections are fixed and so is their order. Two are conditional, and
neither on anything about the executor: the concurrency block appears only where
the Procedure reaches a Step that is not a read (a read-only Procedure takes the
Store's shared lock and must not queue behind a long mutation), and the ``env:``
block only where its bindings read a credential.

Before hyper runs, the install step proves what it installs: the wheel pip fetched
is checked against the digest frozen into this file, and every dependency comes
from the hash-pinned lock ``project`` writes beside it (ADR 0019); only then is the
verified wheel installed, from the file, with the index out of reach.

The shell in the two invocation steps fences hyper's output into the job summary
and exits with hyper's own status rather than ``tee``'s; hyper itself never learns
it runs under an executor. The sentences in the file — the header comment, the
step names that are not commands, the line written when the Comparison did not
render — are this port's own, and its install steps are this port's release channel,
so a file this build writes is not the one the reference's binary writes (ADR 0019).
"""

from __future__ import annotations

import functools

from hyper.artefact.repository import LOCK
from hyper.workflow.executor import CHECKOUT, DISTRIBUTION, PYTHON, RUNNER, SETUP_PYTHON, artefact_name
from hyper.workflow.facts import WorkflowFacts
from hyper.workflow.scalar import quoted, scalar

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from collections.abc import Iterable

STORE_GROUP = "hyper-store"
"""The one concurrency group every effectful workflow in a repository shares: the Store's lock,
stood in for across runners that share no filesystem."""

_SUMMARY = '"$GITHUB_STEP_SUMMARY"'
_FENCE = f"          printf '```\\n' >> {_SUMMARY}"


def generate(facts: WorkflowFacts) -> bytes:
    """The workflow ``hyper project`` writes for one Procedure."""
    procedure, version = facts.procedure, facts.version
    lines = [
        f"# derived by hyper {version} from the artefacts; `hyper project` rewrites it whole, so edit those instead",
        f"name: {scalar(procedure)}",
        "",
        "on:",
        "  schedule:",
        f"    - cron: {quoted(facts.cadence)}",
        "",
        "permissions:",
        "  contents: write",
    ]
    if facts.effects:
        lines += ["", "concurrency:", f"  group: {STORE_GROUP}", "  cancel-in-progress: false"]
    lines += _install_steps(version, facts.digest)
    lines += [
        f"      - name: {scalar(f'hyper run {procedure}')}",
        *_env(facts.variables),
        "        run: |",
        _FENCE,
        "          set +e",
        f"          hyper run {procedure} | tee -a {_SUMMARY}",
        "          code=${PIPESTATUS[0]}",
        "          set -e",
        _FENCE,
        "          exit $code",
        "",
        f"      - name: {scalar(f'hyper changes {procedure}')}",
        "        if: always()",
        "        run: |",
        _FENCE,
        "          set +e",
        f"          hyper changes {procedure} | tee -a {_SUMMARY}",
        "          code=${PIPESTATUS[0]}",
        "          set -e",
        _FENCE,
        '          if [ "$code" -ne 0 ]; then',
        "            printf 'hyper changes exited %s and rendered no Comparison\\n' \"$code\" \\",
        f"              >> {_SUMMARY}",
        "          fi",
    ]
    return ("\n".join(lines) + "\n").encode()


@functools.lru_cache(maxsize=1)
def _install_steps(version: str, digest: str) -> tuple[str, ...]:
    """The job up to hyper's first invocation: check out, set up Python, fetch the history, and
    install the pinned hyper, verified. These lines are the pin's alone, so every workflow of one
    repository shares them; ``check`` compares each of its workflows in turn, and they are spelled
    (each name asked whether it may stand plain) once for the pin rather than once per workflow.
    """
    return (
        "",
        "jobs:",
        "  run:",
        f"    runs-on: {RUNNER}",
        "    steps:",
        f"      - uses: {CHECKOUT}",
        "        with:",
        "          persist-credentials: true",
        "",
        f"      - uses: {SETUP_PYTHON}",
        "        with:",
        f"          python-version: {quoted(PYTHON)}",
        "",
        f"      - name: {scalar('fetch the history hyper changes compares')}",
        "        run: |",
        '          if [ -f .git/shallow ]; then git fetch --unshallow origin "$GITHUB_REF"; fi',
        "",
        f"      - name: {scalar(f'install hyper {version}, verified before it runs')}",
        "        run: |",
        '          wheel="$RUNNER_TEMP/hyper-wheel"',
        '          python -m pip download --no-deps --only-binary=:all: --dest "$wheel" \\',
        f"            {quoted(f'{DISTRIBUTION}=={version}')}",
        f"          echo '{_hex(digest)}  {artefact_name(version)}' \\",
        '            | (cd "$wheel" && sha256sum -c -)',
        "          python -m pip install --no-deps --require-hashes --only-binary=:all: \\",
        f"            -r {LOCK}",
        f'          python -m pip install --no-deps --no-index "$wheel/{artefact_name(version)}"',
        "",
    )


def _env(variables: Iterable[str]) -> list[str]:
    """The run step's secrets, each once, by code point; no ``env:`` key at all where there are none.

    An empty mapping would claim a lookup that found nothing; an absent one claims nothing.
    The order is the repository's, not the walk's that found the names.
    """
    names = sorted(set(variables))
    if not names:
        return []
    return ["        env:", *(f"          {scalar(name)}: {scalar('${{ secrets.' + name + ' }}')}" for name in names)]


def _hex(digest: str) -> str:
    """The digest as ``sha256sum -c`` reads it: the algorithm prefix dropped, anything else kept whole."""
    _, colon, rest = digest.partition(":")
    return rest if colon else digest

"""The workflow file ``hyper project`` writes, and what a repository must hold to be projected.

    generate(WorkflowFacts) -> bytes     the file, whole (template)
    executor                             the constants the file names: runner, actions, Python, the wheel
    namespace                            which paths are project's: hyper-<procedure>.yml
    lock                                 the dependency lock written beside them, a file of the build
    release                              the one network read: the wheel's sha256 on the package index
    declaration                          the in-place edit of hyper.yaml's two derived facts

Only the generator is imported here: ``check`` reaches it on every run over a repository
that declares a Cadence, and needs nothing else from this package.
"""

from hyper.workflow.facts import WorkflowFacts
from hyper.workflow.template import generate

__all__ = ["WorkflowFacts", "generate"]

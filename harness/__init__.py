"""The golden corpus harness: cases on disk, driven through hyper, held to their goldens.

A case is a directory holding ``argv`` (a CLI invocation) or ``call`` (an MCP tool
call) beside the inputs it needs and the goldens it is held to; ``corpus/README.md``
is the full statement of the layout. :mod:`harness.case` reads a case,
:mod:`harness.fixture` builds its git repository, :mod:`harness.drive`
runs it, :mod:`harness.golden` compares or rewrites, :mod:`harness.fences`
holds the corpus-wide rules, and ``python -m harness run DIR`` runs any
directory laid out the same way.
"""

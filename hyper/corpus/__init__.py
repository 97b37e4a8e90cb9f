"""The golden corpus harness: cases on disk, driven through hyper, held to their goldens.

A case is a directory holding ``argv`` (a CLI invocation) or ``call`` (an MCP tool
call) beside the inputs it needs and the goldens it is held to; ``corpus/README.md``
is the full statement of the layout. :mod:`hyper.corpus.case` reads a case,
:mod:`hyper.corpus.fixture` builds its git repository, :mod:`hyper.corpus.drive`
runs it, :mod:`hyper.corpus.golden` compares or rewrites, :mod:`hyper.corpus.fences`
holds the corpus-wide rules, and ``python -m hyper.corpus run DIR`` runs any
directory laid out the same way.
"""

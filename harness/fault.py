"""The one fault the harness raises: a case directory it cannot honour.

It stands alone so that every part of the harness that reads a case (the case itself, its
``serve/`` answers, its fixture, its goldens) can raise it without importing another part.
"""


class CaseFault(Exception):
    """A case directory the harness cannot honour; the message is for its author."""

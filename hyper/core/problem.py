"""A problem: one static rule an artefact breaks, cited by position.

It is the one shape ``check`` reports and that every loader returns instead of
raising: file, line, column, field, error_code, message. A loader that cannot read
a file still answers a Problem, so a repository with one broken artefact is a list
of problems and never a traceback.
"""

from hyper.core.namedtuple import NamedTuple
from hyper.core.row import Row, row


class Problem(NamedTuple):
    file: str
    """Repository-relative, forward slashes."""
    line: int
    """1-based; 0 where the fault belongs to the file as a whole."""
    column: int
    """1-based; 0 where no column applies."""
    field: str
    """The dotted/indexed path of the offending key (``steps[0].bound``), or ``""``."""
    error_code: str
    message: str

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.file, self.line, self.column, self.error_code)

    def to_row(self) -> Row:
        return row(
            "problem",
            file=self.file,
            line=self.line,
            column=self.column,
            field=self.field,
            error_code=self.error_code,
            message=self.message,
        )

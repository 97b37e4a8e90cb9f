"""The predicate operators, the closed set a Procedure's predicates are written in.

Kept apart from :mod:`hyper.artefact.procedure`, which re-exports it, so that a review drawing
a selector's predicates one line each names the operators without defining the Procedure
model it never builds (ADR 0006).
"""

from __future__ import annotations

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

OPERATORS: Final = (
    "equals",
    "not_equals",
    "in",
    "exists",
    "absent",
    "starts_with",
    "ends_with",
    "greater_than",
    "less_than",
    "older_than",
    "newer_than",
)
"""The closed predicate operator set, in its own order; a predicate carries ``field:`` and
exactly one of these."""
OPERATOR_NAMES: Final = frozenset(OPERATORS)
"""The same set, for asking whether a key is one: every key of every predicate is asked."""

"""``hyper review``: one artefact as a human approves it.

The page is the artefact's own lines, verbatim, with what ``hyper`` derived about
each line standing beside it — the gutter — then the authority relation the
artefact takes part in, and an index of what deserves a second look. Nothing on
it is a judgement ``check`` makes: a review annotates and never declines.

One reading of the artefact feeds both surfaces. :func:`hyper.review.compose.compose`
builds the typed :class:`~hyper.review.compose.Review`; its rows are the ``--json``
stream and the MCP tool's rows, and :mod:`hyper.review.page` draws the page from
the same values, so the two cannot say different things.

Modules, one job each: :mod:`kinds` (the five artefact kinds and their spellings),
:mod:`resolve` (what the positional names), :mod:`source` (the file as lines),
:mod:`marks` (the marker column and the flags indexing it), :mod:`authority`
(the Definition × Target relation), :mod:`baseline` (the range, from the Journal
and git objects), :mod:`touched` (which working-tree lines moved), :mod:`facts`
and :mod:`changes` (the facts that moved and their direction), :mod:`compose` and
:mod:`page` (the answer and its rendering).
"""

"""The scripts ``hyper completions <shell>`` prints, filled in from the command tree.

Each shell gets a script written for that shell (package data beside this module),
because what a keypress should offer is decided per shell; the only thing they share
is the surface they describe. That surface — command words, the store sub-verb,
shell names and globals — is not spelled in the scripts: it is substituted from
:mod:`hyper.cli.tree`, so adding a command there reaches all three by the same edit.
"""

from __future__ import annotations

import functools
from importlib import resources

from hyper.cli import tree

_FILES = {"bash": "bash.sh", "fish": "fish.fish", "zsh": "zsh.zsh"}


@functools.cache
def script(shell: str) -> str:
    """The completion script for ``shell``, one of :data:`hyper.cli.tree.SHELLS`.

    The caller has already matched ``shell`` against the known set; anything else is a
    KeyError here.
    """
    text = resources.files(__name__).joinpath(_FILES[shell]).read_text(encoding="utf-8")
    for placeholder, value in _surface().items():
        text = text.replace(f"@@{placeholder}@@", value)
    return text


def _surface() -> dict[str, str]:
    tree_words = tuple(tree.COMMANDS)
    # The tree nests exactly once: a command whose signature is literal words rather
    # than <placeholders> or [options] takes sub-verbs (``store init``).
    (nested,) = (
        command
        for command in tree.COMMANDS.values()
        if command.signature and not command.signature.startswith(("<", "["))
    )
    return {
        "COMMANDS": " ".join(tree.all_names()),
        "TREE_PATTERN": "|".join(tree_words),
        "TREE_WORDS": " ".join(tree_words),
        "NESTED": nested.name,
        "SUB_VERBS": nested.signature,
        "GLOBALS": " ".join(tree.GLOBALS),
        "SHELLS": " ".join(tree.SHELLS),
    }

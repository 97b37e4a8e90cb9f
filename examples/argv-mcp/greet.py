"""greet: a made-up command-line tool with two commands, for the argv-mcp example.

    greet.py list [--limit N]     every greeting it knows, one JSON row a line
    greet.py say -- LANGUAGE      the greeting in one language

It speaks the shape the adapter reads: one JSON row per line on stdout, led by its
``type``, closed by a terminal row ``{"type":"result","truncated":…}``; a usage error
is one sentence on stderr and exit code 2.
"""

from __future__ import annotations

import json
import sys

GREETINGS = {"en": "hello", "fr": "bonjour", "ja": "konnichiwa", "sw": "jambo"}


def _usage(sentence: str) -> int:
    sys.stderr.write(f"greet: {sentence}\n")
    return 2


def _row(**members: object) -> None:
    sys.stdout.write(json.dumps(members, separators=(",", ":")) + "\n")


def main(argv: list[str]) -> int:
    if argv[:1] == ["list"]:
        limit = len(GREETINGS)
        if argv[1:2] == ["--limit"] and len(argv) == 3 and argv[2].isdigit():
            limit = int(argv[2])
        elif argv[1:]:
            return _usage(f"list takes only --limit N, not {' '.join(argv[1:])}")
        for language in sorted(GREETINGS)[:limit]:
            _row(type="greeting", language=language, text=GREETINGS[language])
        _row(type="result", truncated=limit < len(GREETINGS))
        return 0
    if argv[:2] == ["say", "--"] and len(argv) == 3:
        if argv[2] not in GREETINGS:
            return _usage(f"say: no greeting is known in {argv[2]!r}; greet list names every one")
        _row(type="greeting", language=argv[2], text=GREETINGS[argv[2]])
        _row(type="result", truncated=False)
        return 0
    return _usage("the commands are list and say")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The two ways hyper quotes a value inside a message, side by side.

They are not one rule. :func:`quote` escapes only quotes and backslashes and spells every
character that will not print as ``\\uXXXX`` (a tab is ``\\u0009``): it is the form problems
and Cadence reasons use. :func:`go_quote` is Go's ``%q``: ``\\n``, ``\\t`` and ``\\r`` by name,
other C0 controls and DEL as ``\\xXX``, and only C1 controls, U+2028, U+2029 and U+FEFF as
``\\uXXXX``: it is the form usage errors and echoed names use, as the reference writes them.
Each keeps the bytes its messages have always had.
"""

from __future__ import annotations


def quote(value: str) -> str:
    """A value as a problem's message shows it: double-quoted, with quotes, backslashes and
    whatever will not print escaped, so a key holding a tab or a quote still reads as one token."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped) + '"'


def go_quote(text: str) -> str:
    """A string quoted the way Go's ``%q`` quotes it, for names echoed back in messages."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif 0x80 <= code < 0xA0 or ch in "\u2028\u2029\ufeff":
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)

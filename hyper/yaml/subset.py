"""The strict YAML subset every artefact is written in, read into a position-carrying tree.

This is the one name the rest of hyper reads YAML through. The tree's values live in
:mod:`hyper.yaml.nodes` and the reader in :mod:`hyper.yaml.parse`; both are re-exported
here so that no caller depends on how reading is done.

What the subset is: a scalar's meaning comes from the schema at its position, never
from YAML's implicit typing (``yes``, ``on``, ``0x1`` and ``1e3`` stay text), and the
constructs a composed tree would erase — an anchor, an alias, an explicit tag, a
merge key, a repeated key, a null, a collection as a key, a second document — are
each refused as a :class:`YamlFault` at the node it occurs on.

Nothing here raises. A file that will not parse at all is one fault and no tree;
a file that parses but uses refused constructs is a tree *and* its faults, so the
schema check can still read the rest of the file (one broken line does not hide
every other problem in it).

PyYAML is not imported at run time (ADR 0006: its import alone cost more than a
discovery command's whole budget); it remains the test suite's oracle.
"""

from hyper.yaml.nodes import ERROR_CODE, Map, Node, Parsed, Scalar, Seq, Style, YamlFault
from hyper.yaml.parse import load, parse

__all__ = ["ERROR_CODE", "Map", "Node", "Parsed", "Scalar", "Seq", "Style", "YamlFault", "load", "parse"]

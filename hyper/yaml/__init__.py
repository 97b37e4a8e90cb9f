"""The YAML subset hyper reads: the parser, the nodes it yields, and access to them by position."""

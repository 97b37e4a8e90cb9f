"""The Comparison: what moved between two Runs of one Procedure, split by who moved it.

Each module has one job — choosing the window (:mod:`.window`), reading what each end saw
(:mod:`.sight`), naming what happened to each Record (:mod:`.records`), the code facts
(:mod:`.code`), the wire rows (:mod:`.rows`) and the page read back off them (:mod:`.page`).
Everything is read from the Store and from git objects; nothing here writes.
"""

"""The Run engine: a Procedure performed against the world, and the Journal entry it leaves.

Modules, each with one job: :mod:`~hyper.run.sequence` (the Steps flattened across nested
invocations), :mod:`~hyper.run.binding` (what a Step is bound to), :mod:`~hyper.run.revision`
(the code branch's facts), :mod:`~hyper.run.gates` (the four Run-start gates),
:mod:`~hyper.capability.predicate` (the operators against stored values),
:mod:`~hyper.run.arguments` and :mod:`~hyper.run.expand` (a Step's members and their
inputs), :mod:`~hyper.run.step` (one Step), :mod:`~hyper.run.engine` (the Run's fixed
order) and :mod:`~hyper.run.render` (its rows and page). The engine reaches no process
fact of its own — clock, ids, environment and children all come through the
:class:`~hyper.core.process.Process` it is handed — and renders nothing.
"""

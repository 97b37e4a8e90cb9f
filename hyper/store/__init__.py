"""The Store: hyper's record, kept on the ``hyper-store`` orphan branch of the repository.

Modules, each with one job: :mod:`~hyper.store.canonical` (the encoding and the identity
digest), :mod:`~hyper.store.paths` (the path grammar), :mod:`~hyper.store.schema` and the five
shapes (:mod:`~hyper.store.journal`, :mod:`~hyper.store.step`, :mod:`~hyper.store.record`), the
git layer (:mod:`~hyper.store.git`, :mod:`~hyper.store.objects`, :mod:`~hyper.store.tree`), the
branch (:mod:`~hyper.store.branch`, :mod:`~hyper.store.exchange`, :mod:`~hyper.store.sync`,
:mod:`~hyper.store.lock`) and the reader (:mod:`~hyper.store.reading`).
"""

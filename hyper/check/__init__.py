"""``check``: every static rule over the five artefacts, decided offline.

The entry is :func:`hyper.check.repository.check_repository`; the closed set of
codes it answers is :mod:`hyper.check.codes`. This package imports nothing at its
own top level, because the artefact readers it checks share its schema engine.
"""

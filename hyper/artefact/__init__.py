"""The five artefacts as values: what each declares, read leniently and kept with its positions.

Reading never judges. A key that is absent or misshapen reads as "not stated", and
what is wrong with it is ``check``'s to report, once; a surface that states facts
about an artefact (``providers``, ``targets``, a Refusal) states what the artefact
legibly said and nothing in its place.
"""

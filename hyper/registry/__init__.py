"""Extension Manifests fetched from where their publisher put them.

There is no registry service: a ref is the HTTPS location of a Manifest on any static
file host, with a ``sha256sum``-style ``checksums.txt`` published beside it.
"""

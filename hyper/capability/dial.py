"""The trust the real dialer verifies peers against: the system's, built once per process.

Building a verifying context loads the system's certificate store, which costs more than
most calls; a Run's reads share one. A test never reaches this: it hands the ``http``
Capability a dialer of its own through :class:`hyper.core.process.Process`.
"""

from __future__ import annotations

import functools
import ssl


@functools.cache
def verifying_context() -> ssl.SSLContext:
    """Certificate and host name verified, TLS 1.2 at the least: nothing is configurable."""
    context = ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context

"""The schemas of the artefacts ``hyper.artefact`` reads: Manifest, Target declaration, ``hyper.yaml``.

They are ``check``'s, built on its schema engine, and live apart from the readers so that
a command that only states facts (``providers``, ``targets``) never builds them: the schema
engine is worth importing when something is being checked, and not before. Kept beside the
readers they once were, they made ``artefact`` and ``check`` import each other.
"""

from __future__ import annotations

from hyper.artefact.manifest import CAPABILITIES, KINDS, PATTERNS
from hyper.check.schema import (
    BOOLEAN,
    DURATION,
    INTEGER,
    OPEN_OBJECT,
    STRING,
    STRINGS,
    array_of,
    obj,
    one_of,
    prop,
)

TYPE_CHECKING = False  # the checker's names only: not importing typing at run time defers start-up cost
if TYPE_CHECKING:
    from typing import Final

OPERATION: Final = obj(
    prop("kind", one_of(*KINDS), required=True),
    prop("repeatability", one_of("repeatable", "skip-if-recorded")),
    prop("deadline", DURATION, required=True),
    prop("concurrency", INTEGER),
    prop("patterns", OPEN_OBJECT),
    prop("input", OPEN_OBJECT),
    prop("http", OPEN_OBJECT),
    prop("shell", obj()),
    prop("record", OPEN_OBJECT),
    prop("secret", STRINGS),
)
HTTP: Final = obj(
    prop("method", STRING, required=True),
    prop("host", STRING, required=True),
    prop("path", STRING, required=True),
    prop("query", OPEN_OBJECT),
    prop("headers", OPEN_OBJECT),
    prop("body", OPEN_OBJECT),
    prop("host-input", STRING),
)
RECORD: Final = obj(prop("identity", STRING), prop("fields", OPEN_OBJECT), prop("over", STRING))
AUTH_HEADER: Final = obj(prop("name", STRING, required=True), prop("prefix", STRING))
AUTH_BASIC: Final = obj()
PATTERNS_BLOCK: Final = obj(*(prop(name, OPEN_OBJECT) for name in PATTERNS))
CURSOR: Final = obj(prop("from", STRING, required=True), prop("into", OPEN_OBJECT, required=True))
PAGE: Final = obj(prop("from", INTEGER, required=True), prop("into", OPEN_OBJECT, required=True))
POLLING: Final = obj(
    prop("interval", DURATION, required=True),
    prop("until", array_of(OPEN_OBJECT), required=True),
)
RETRY: Final = obj(prop("attempts", INTEGER, required=True))
MANIFEST: Final = obj(
    prop("kind", STRING, required=True),
    prop("provider", STRING, required=True),
    prop("schema-version", INTEGER, required=True),
    prop("class", STRING, required=True),
    prop("capabilities", array_of(one_of(*CAPABILITIES)), required=True),
    prop("auth", OPEN_OBJECT),
    prop("enumerations", OPEN_OBJECT),
    prop("operations", OPEN_OBJECT, required=True),
    prop("origin", obj(prop("ref", STRING, required=True), prop("digest", STRING, required=True))),
)
TARGET_DECLARATION: Final = obj(
    prop("kind", STRING, required=True),
    prop("target", STRING, required=True),
    prop("class", STRING, required=True),
    prop("kinds", array_of(one_of(*KINDS)), required=True),
    prop("capabilities", array_of(one_of(*CAPABILITIES)), required=True),
    prop("hosts", STRINGS),
    prop("opaque-destroy", BOOLEAN),
    prop("auth", OPEN_OBJECT),
    prop("withhold", STRINGS),
)
REPOSITORY_DECLARATION: Final = obj(
    prop("kind", STRING, required=True),
    prop("version", STRING, required=True),
    prop("digest", STRING, required=True),
    prop("retention", DURATION),
)

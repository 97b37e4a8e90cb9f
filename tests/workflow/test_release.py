"""The digest read off the index's JSON page: what counts as absent, what as not arrived, and what a line looks like."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from contextlib import contextmanager

import orjson
import pytest

from harness.serve import Served, serving
from hyper.core.faults import NotArrived, ReleaseAbsent
from hyper.core.process import Dialer
from hyper.workflow.release import digest_in, published_digest

INSTANT = _dt.datetime(2026, 4, 2, 9, 41, 14, tzinfo=_dt.UTC)
HEX = "9f2c1b7a4e6d038c5b1f92a7de40cb83f5710e2d9a6c4b83fe012d75c9a4e6b1"
WHEEL = "hyper_iac-1.4.0-py3-none-any.whl"
URL = "https://pypi.org/pypi/hyper-iac/1.4.0/json"


def page(*files: tuple[str, str]) -> str:
    urls = [{"filename": name, "digests": {"md5": "0" * 32, "sha256": sha}} for name, sha in files]
    return orjson.dumps({"info": {"name": "hyper-iac", "version": "1.4.0"}, "urls": urls}).decode()


LISTING = page(("hyper_iac-1.4.0.tar.gz", "1" * 64), (WHEEL, HEX))


@contextmanager
def serving_hosts(**hosts: Served) -> Iterator[Dialer]:
    problems: list[str] = []
    with serving({name.replace("_", "."): answer for name, answer in hosts.items()}, INSTANT, problems) as dial:
        yield dial
    assert problems == []


def test_both_sha256sum_spellings_are_read() -> None:
    assert digest_in(f"{HEX}  a.tar.gz\n", "a.tar.gz") == f"sha256:{HEX}"
    assert digest_in(f"{HEX} *a.tar.gz\n", "a.tar.gz") == f"sha256:{HEX}"
    assert digest_in(f"{HEX}  a.tar.gz.sig\n", "a.tar.gz") is None
    assert digest_in("", "a.tar.gz") is None


def test_the_wheel_listed_is_the_digest() -> None:
    with serving_hosts(pypi_org=Served(200, body=LISTING)) as dial:
        assert published_digest(dial, "1.4.0") == f"sha256:{HEX}"


@pytest.mark.parametrize("status", [404, 410])
def test_no_release_under_the_tag_is_absent(status: int) -> None:
    with serving_hosts(pypi_org=Served(status, body="Not Found")) as dial, pytest.raises(ReleaseAbsent) as absent:
        published_digest(dial, "1.4.0")
    assert str(absent.value) == f"{URL} answered {status}"


def test_a_release_listing_no_wheel_is_absent() -> None:
    sdist_only = Served(200, body=page(("hyper_iac-1.4.0.tar.gz", HEX)))
    with serving_hosts(pypi_org=sdist_only) as dial, pytest.raises(ReleaseAbsent) as absent:
        published_digest(dial, "1.4.0")
    assert str(absent.value) == f"{URL} lists no {WHEEL}"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("<html>sign in</html>", "is not JSON"),
        ("[]", "no urls list"),
        ('{"urls": {}}', "no urls list"),
        (page((WHEEL, "ABC")), "64 hex digits"),
        ('{"urls": [{"filename": "x.whl"}]}', "64 hex digits"),
    ],
)
def test_a_page_that_is_not_the_index_did_not_arrive(body: str, reason: str) -> None:
    with serving_hosts(pypi_org=Served(200, body=body)) as dial, pytest.raises(NotArrived, match=reason):
        published_digest(dial, "1.4.0")


def test_a_page_past_its_cap_did_not_arrive() -> None:
    huge = Served(200, body=" " * (1 << 20), repeat=9)
    with serving_hosts(pypi_org=huge) as dial, pytest.raises(NotArrived, match="more than 8388608 bytes"):
        published_digest(dial, "1.4.0")


@pytest.mark.parametrize("status", [429, 500, 503, 403])
def test_any_other_status_did_not_arrive(status: int) -> None:
    with serving_hosts(pypi_org=Served(status)) as dial, pytest.raises(NotArrived, match=f"answered {status}"):
        published_digest(dial, "1.4.0")


def test_a_refused_connection_did_not_arrive() -> None:
    with serving_hosts(example_com=Served(200)) as dial, pytest.raises(NotArrived, match="refused the connection"):
        published_digest(dial, "1.4.0")


def test_a_redirect_to_another_https_host_is_followed() -> None:
    moved = Served(302, (("Location", "https://mirror.example.com/pypi/hyper-iac/1.4.0/json"),))
    with serving_hosts(pypi_org=moved, mirror_example_com=Served(200, body=LISTING)) as dial:
        assert published_digest(dial, "1.4.0") == f"sha256:{HEX}"


def test_a_redirect_into_plaintext_is_not_followed() -> None:
    moved = Served(302, (("Location", "http://mirror.example.com/json"),))
    with serving_hosts(pypi_org=moved) as dial, pytest.raises(NotArrived, match="https only"):
        published_digest(dial, "1.4.0")


def test_a_redirect_loop_ends() -> None:
    loop = Served(302, (("Location", "/again"),))
    with serving_hosts(pypi_org=loop) as dial, pytest.raises(NotArrived, match="more than 10 redirects"):
        published_digest(dial, "1.4.0")

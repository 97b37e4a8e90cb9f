"""The checksum read: what counts as absent, what as not arrived, and what a line looks like."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from harness.serve import Served, serving
from hyper.core.process import Dialer
from hyper.workflow.release import NotArrived, ReleaseAbsent, digest_in, published_digest

INSTANT = _dt.datetime(2026, 4, 2, 9, 41, 14, tzinfo=_dt.UTC)
HEX = "9f2c1b7a4e6d038c5b1f92a7de40cb83f5710e2d9a6c4b83fe012d75c9a4e6b1"
LISTING = f"{'1' * 64}  hyper-1.4.0-aarch64-linux.tar.gz\n{HEX}  hyper-1.4.0-x86_64-linux.tar.gz\n"
URL = "https://github.com/TheLoomLabs/hyper/releases/download/v1.4.0/checksums.txt"


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


def test_the_line_for_the_artefact_is_the_digest() -> None:
    with serving_hosts(github_com=Served(200, body=LISTING)) as dial:
        assert published_digest(dial, "1.4.0") == f"sha256:{HEX}"


@pytest.mark.parametrize("status", [404, 410])
def test_no_release_under_the_tag_is_absent(status: int) -> None:
    with serving_hosts(github_com=Served(status, body="Not Found")) as dial, pytest.raises(ReleaseAbsent) as absent:
        published_digest(dial, "1.4.0")
    assert str(absent.value) == f"{URL} answered {status}"


def test_a_file_naming_no_artefact_for_the_platform_is_absent() -> None:
    darwin_only = Served(200, body=f"{HEX}  hyper-1.4.0-x86_64-darwin.tar.gz\n")
    with serving_hosts(github_com=darwin_only) as dial, pytest.raises(ReleaseAbsent) as absent:
        published_digest(dial, "1.4.0")
    assert str(absent.value) == f"{URL} names no hyper-1.4.0-x86_64-linux.tar.gz"


@pytest.mark.parametrize("status", [429, 500, 503, 403])
def test_any_other_status_did_not_arrive(status: int) -> None:
    with serving_hosts(github_com=Served(status)) as dial, pytest.raises(NotArrived, match=f"answered {status}"):
        published_digest(dial, "1.4.0")


def test_a_refused_connection_did_not_arrive() -> None:
    with serving_hosts(example_com=Served(200)) as dial, pytest.raises(NotArrived, match="refused the connection"):
        published_digest(dial, "1.4.0")


def test_a_redirect_to_another_https_host_is_followed() -> None:
    moved = Served(302, (("Location", "https://objects.example.com/release/checksums.txt"),))
    with serving_hosts(github_com=moved, objects_example_com=Served(200, body=LISTING)) as dial:
        assert published_digest(dial, "1.4.0") == f"sha256:{HEX}"


def test_a_redirect_into_plaintext_is_not_followed() -> None:
    moved = Served(302, (("Location", "http://objects.example.com/checksums.txt"),))
    with serving_hosts(github_com=moved) as dial, pytest.raises(NotArrived, match="https only"):
        published_digest(dial, "1.4.0")


def test_a_redirect_loop_ends() -> None:
    loop = Served(302, (("Location", "/again"),))
    with serving_hosts(github_com=loop) as dial, pytest.raises(NotArrived, match="more than 10 redirects"):
        published_digest(dial, "1.4.0")

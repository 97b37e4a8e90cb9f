"""A derived value is written plain only where both YAML readings give back the same string."""

from __future__ import annotations

import pytest
import yaml

from hyper.workflow.scalar import plain, quoted, scalar


@pytest.mark.parametrize(
    "text",
    [
        "retire-preview-dns",
        "hyper run nightly",
        "CLOUDFLARE_API_TOKEN",
        "${{ secrets.CLOUDFLARE_API_TOKEN }}",
        "a:b",
        "a#b",
        "1.4.0",
        "fetch and verify hyper 1.4.0",
    ],
)
def test_plain_where_it_reads_back(text: str) -> None:
    assert plain(text)
    assert yaml.safe_load(f"k: {scalar(text)}") == {"k": text}


@pytest.mark.parametrize(
    "text",
    [
        "",
        " padded",
        "padded ",
        "on",
        "Off",
        "yes",
        "n",
        "null",
        "~",
        "true",
        "FALSE",
        "12",
        "-3",
        "0o17",
        "017",
        "0x1F",
        "0b101",
        "1_000",
        "12:30",
        "1.5",
        ".5",
        "1e3",
        ".inf",
        "-.Inf",
        ".NaN",
        "2026-04-02",
        "2026-4-2T09:00",
        "-leading-dash",
        "*star",
        "&anchor",
        "!tag",
        "'quote",
        "key: value",
        "trailing:",
        "a #comment",
        "tab\there",
        "del\x7f",
    ],
)
def test_quoted_where_a_reader_would_type_it_or_cannot_read_it_plain(text: str) -> None:
    assert not plain(text)
    assert scalar(text) == quoted(text)


def test_a_quote_inside_is_doubled_and_reads_back() -> None:
    assert quoted("it's") == "'it''s'"
    written = scalar("'it's'")
    assert yaml.safe_load("k: " + written) == {"k": "'it's'"}

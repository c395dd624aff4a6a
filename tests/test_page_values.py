"""What a page says of itself and what its host knows of its dates, as the core's claims.

The three hosts hand over what they read (front matter, metadata, commits); these tests drive
:mod:`sitemap_plugins.entry.page_values` with literal values, and no file is read.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from sitemap_plugins.entry.page_values import NO_OWN_VALUES, date_claims, own_values
from sitemap_plugins.entry.rules import (
    EXPLICIT,
    FILE_TIME,
    GIT,
    GIT_ADDED,
    MODIFIED,
    PUBLISHED,
    DateClaim,
    choose_lastmod,
)
from sitemap_plugins.vocab.dates import format_w3c
from sitemap_plugins.vocab.errors import PageValueError
from sitemap_plugins.vocab.options import FRONT_MATTER_KEYS

UTC = timezone.utc


@pytest.mark.parametrize(
    ("meta", "lastmod"),
    [
        ({"date": date(2024, 5, 6)}, "2024-05-06"),
        # YAML gives a naive datetime for a time without a zone: only its date is sure.
        ({"date": datetime(2024, 5, 6, 10, 0)}, "2024-05-06"),  # noqa: DTZ001
        ({"date": datetime(2024, 5, 6, 10, 0, tzinfo=UTC)}, "2024-05-06T10:00:00Z"),
        ({"date": "2024-05-06"}, "2024-05-06"),
        ({"date": {"created": date(2024, 1, 1), "updated": date(2024, 2, 1)}}, "2024-02-01"),
        ({"date": {"created": datetime(2024, 1, 1, tzinfo=UTC)}}, "2024-01-01"),
        ({"date": "spring"}, None),
        ({"sitemap": {"lastmod": "2023-12-24"}, "date": date(2020, 1, 1)}, "2023-12-24"),
        ({}, None),
    ],
    ids=["date", "naive-datetime", "aware-datetime", "string", "blog-updated", "blog-midnight",
         "not-a-date", "sitemap-lastmod-wins", "none"],
)
def test_front_matter_dates(meta: dict[str, object], lastmod: str | None) -> None:
    """Front-matter dates become W3C dates, and datetimes only when their zone is known."""
    sitemap = meta.get("sitemap")
    own = own_values(sitemap if isinstance(sitemap, dict) else {}, "page.md",
                     date_value=meta.get("date"), keys=FRONT_MATTER_KEYS)
    chosen = choose_lastmod(date_claims(own))
    assert (format_w3c(chosen.value) if chosen is not None else None) == lastmod


@pytest.mark.parametrize(
    ("given", "unread"),
    [("spring", "spring"), ({"updated": "soon"}, "soon"), (2024, 2024), (["2024-01-01"], None),
     ({"created": None}, None), ("2024-01-01", None)],
    ids=["text", "blog-updated-text", "a-number", "a-list", "blog-nothing", "a-date"],
)
def test_a_date_that_is_no_date_is_handed_back(given: object, unread: object) -> None:
    """A ``date`` that would be the page's lastmod but is no date comes back for the host to
    mention; a list (several dates) and a date say nothing."""
    assert own_values({}, "page.md", date_value=given).unread_date == unread


def test_a_page_value_is_checked_by_the_one_policy() -> None:
    """A bad value stops the build with the words of every host, naming page and key."""
    with pytest.raises(PageValueError) as caught:
        own_values({"priority": "high"}, "post.md")
    assert str(caught.value).startswith("Page 'post.md' sitemap value 'priority': Expected ")


def test_a_page_left_out_keeps_its_values_for_the_listings_that_show_it() -> None:
    """``sitemap: false`` leaves the page out; its own lastmod still dates a listing."""
    own = own_values({"sitemap": False, "lastmod": "2024-03-01"}, "post.md")
    assert own.exclude
    assert date_claims(own) == (DateClaim(EXPLICIT, date(2024, 3, 1), EXPLICIT),)


def test_claims_say_what_each_date_is() -> None:
    """The page's word, its stated change and publication come first, then each commit
    (one that only added a file is marked so); a file time only when nothing else is known."""
    own = own_values({"lastmod": "2024-04-01"}, "page.md",
                     date_value={"created": date(2024, 1, 1), "updated": date(2024, 2, 1)})
    commits = [(date(2024, 3, 1), False), (date(2024, 3, 2), True)]
    assert date_claims(own, commits, file_time=date(2000, 1, 1)) == (
        DateClaim(EXPLICIT, date(2024, 4, 1), EXPLICIT),
        DateClaim(MODIFIED, date(2024, 2, 1), EXPLICIT),
        DateClaim(PUBLISHED, date(2024, 1, 1)),
        DateClaim(GIT, date(2024, 3, 1)),
        DateClaim(GIT_ADDED, date(2024, 3, 2)),
    )
    assert date_claims(NO_OWN_VALUES, file_time=date(2000, 1, 1)) == (
        DateClaim(FILE_TIME, date(2000, 1, 1), FILE_TIME),)
    assert date_claims(NO_OWN_VALUES) == ()

"""What the adapters hand the core as plain values, and what the core makes of them.

The hosts' objects stay in the adapters; these helpers of the core take what an adapter read
(paths, settings, languages, dates as text) and are tested here with literal values.
"""

from __future__ import annotations

import os
import sys
from datetime import date, datetime, timedelta, timezone

import pytest

from sitemap_plugins.entry.page_values import (
    aware,
    date_claims,
    own_values,
    with_listings,
    zoned_time,
)
from sitemap_plugins.entry.rules import GIT, LISTED, PUBLISHED, DateClaim
from sitemap_plugins.hosts.git_dates import included_commits
from sitemap_plugins.hosts.markdown_includes import search_path
from sitemap_plugins.page.reader import head_of
from sitemap_plugins.products.html_map.plan import NavNode, listing_nodes, taken_message
from sitemap_plugins.vocab.dates import parse_w3c
from sitemap_plugins.vocab.urls import (
    absolute_base,
    folder_base,
    is_file_link,
    parse_base_url,
    rel_path,
    version_urls,
)
from sitemap_plugins.vocab.values import hreflang, language_group

ROOT = os.path.abspath("site")


@pytest.mark.parametrize(("path", "expected"), [
    (os.path.join(ROOT, "a", "b.html"), "a/b.html"),
    (ROOT, ""),
    (os.path.join(ROOT, "..", "other.html"), None),
    (ROOT + "-old", None),  # a sibling whose name starts with the folder's
])
def test_rel_path_is_posix_below_the_folder_and_none_outside(path: str,
                                                            expected: str | None) -> None:
    assert rel_path(path, ROOT) == expected


def test_rel_path_keeps_a_name_that_starts_with_two_dots() -> None:
    assert rel_path(os.path.join(ROOT, "..x", "y.html"), ROOT) == "..x/y.html"
    assert rel_path(os.path.join(ROOT, "a", "..x"), ROOT) == "a/..x"


@pytest.mark.parametrize(("output", "expected"), [
    ('<html lang="fr"><head><title>T</title></head><body>x', '<html lang="fr"><head><title>T</title>'),
    ("<HTML><HEAD><TITLE>T</TITLE></HEAD ><BODY>", "<HTML><HEAD><TITLE>T</TITLE>"),
    ("<p>a fragment, no head</p>", None),
])
def test_head_of_a_written_page(output: str, expected: str | None) -> None:
    assert head_of(output) == expected


class _SafeDatetime(datetime):
    """A host's datetime subclass (Pelican's SafeDatetime)."""


def test_aware_puts_a_naive_time_in_the_named_zone_as_a_plain_datetime() -> None:
    found = aware(_SafeDatetime(2024, 1, 15, 12, 0), "Europe/Paris")
    assert type(found) is datetime
    assert isinstance(found, datetime)
    assert found.utcoffset() == timedelta(hours=1)
    naive = datetime(2024, 1, 15, 12, 0)  # noqa: DTZ001  # as a host gives it
    assert aware(naive, "No/Such_Zone") == naive.replace(tzinfo=timezone.utc)
    assert aware(date(2024, 1, 15), "UTC") == date(2024, 1, 15)
    assert aware("2024-01-15", "UTC") == date(2024, 1, 15)
    assert aware(None, "UTC") is None


def test_zoned_time_reads_iso_text_in_the_zone_else_the_day() -> None:
    found = zoned_time("2024-07-01T09:30:00", "Europe/Paris", "2024-06-30")
    assert isinstance(found, datetime)
    assert found.utcoffset() == timedelta(hours=2)
    assert zoned_time("not a time", "Europe/Paris", "2024-06-30") == parse_w3c("2024-06-30")
    assert zoned_time("2024-07-01T09:30:00", "No/Such_Zone", "2024-06-30") == parse_w3c(
        "2024-06-30")
    assert zoned_time(None, "UTC") is None


def test_hreflang_spells_a_host_language_as_a_tag() -> None:
    assert hreflang("pt_BR") == "pt-BR"
    assert hreflang(" fr ") == "fr"
    assert hreflang(None) == ""


def test_language_group_adds_x_default_for_the_default_language() -> None:
    members = [("en", "/en/"), ("pt_BR", "/pt/"), ("en", "/en-again/")]
    assert language_group(members, "en") == (
        ("en", "/en/"), ("pt-BR", "/pt/"), ("en", "/en-again/"), ("x-default", "/en/"))
    assert language_group(members, "pt-BR")[-1] == ("x-default", "/pt/")
    assert language_group(members, "de") == (("en", "/en/"), ("pt-BR", "/pt/"),
                                             ("en", "/en-again/"))
    assert language_group(members, None)[-1] == ("en", "/en-again/")


def test_with_listings_dates_a_listing_by_the_pages_it_shows() -> None:
    old, new = parse_w3c("2024-01-01"), parse_w3c("2024-03-01")
    assert old is not None
    assert new is not None
    claims = {"blog/index.html": (DateClaim(GIT, old),),
              "blog/post.html": date_claims(own_values({}, "post.md", date_value="2024-03-01")),
              "about.html": ()}
    found = with_listings(claims, {"blog/index.html": ("blog/post.html", "blog/gone.html")})
    assert found["blog/index.html"] == (DateClaim(GIT, old), DateClaim(LISTED, new))
    assert found["blog/post.html"] == (DateClaim(PUBLISHED, new),)
    assert found["about.html"] == ()


def test_version_urls_say_where_canonicals_point_when_elsewhere() -> None:
    site = "https://example.org/docs"
    assert version_urls(site, "2.0", None) == ("https://example.org/docs/2.0/", None)
    assert version_urls(site, "2.0", "  ") == ("https://example.org/docs/2.0/", None)
    assert version_urls(site, "2.0", "2.0/") == ("https://example.org/docs/2.0/", None)
    assert version_urls(site, "2.0", "latest") == ("https://example.org/docs/2.0/",
                                                   "https://example.org/docs/latest/")


def test_absolute_base_is_none_for_a_relative_url_and_refuses_a_bad_one() -> None:
    assert absolute_base("") is None
    assert absolute_base(" /blog ") is None
    assert str(absolute_base(" https://example.org/blog ")) == "https://example.org/blog/"
    with pytest.raises(ValueError, match="absolute http"):
        absolute_base("ftp://example.org/")


def test_folder_base_is_the_base_url_of_a_folder_below() -> None:
    base = parse_base_url("https://example.org/blog/")
    assert folder_base(base, "fr") == parse_base_url("https://example.org/blog/fr/")
    assert folder_base(base, "") == base


@pytest.mark.parametrize(("href", "rel", "expected"), [
    ("a.html", "a.html", True),
    ("a/", "a/index.html", True),
    ("a/index.html", "a/index.html", True),
    ("a", "a.html", False),
    ("b/", "a/index.html", False),
])
def test_is_file_link(href: str, rel: str, expected: bool) -> None:
    assert is_file_link(href, rel) is expected


def test_search_path_is_the_handler_paths_then_sys_path(tmp_path: os.PathLike[str]) -> None:
    folder = os.fspath(tmp_path)
    assert search_path({"python": {"paths": ["src", 3]}}, folder) == [
        os.path.join(folder, "src"), *sys.path]
    assert search_path(None, folder) == [os.path.join(folder, "."), *sys.path]
    assert search_path({"python": "odd"}, folder)[0] == os.path.join(folder, ".")


def test_listing_nodes_name_the_further_pages_by_their_number() -> None:
    assert listing_nodes("Blog", ["blog/a/", None, "blog/b/"],
                         ["blog/page/2/", None, "blog/page/4/"], "en") == (
        NavNode(None, "blog/a/"), NavNode(None, "blog/b/"),
        NavNode("Blog, page 2", "blog/page/2/"), NavNode("Blog, page 4", "blog/page/4/"))


def test_taken_message_names_the_path_and_its_source() -> None:
    assert taken_message("sitemap.html", "sitemap.md") == (
        "'sitemap.html' is the output of 'sitemap.md'; choose another path")


def test_included_commits_of_pages_that_include_nothing_read_nothing() -> None:
    assert included_commits({"a.html": (), "b.html": ()}) == {"a.html": [], "b.html": []}

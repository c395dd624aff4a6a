"""The one decision, tested directly: a table of (page, hints, options) -> listed or left out.

``evaluate`` is pure: each case builds a record from a literal snippet, and no file is read.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from sitemap_plugins.entry.robots_txt import RobotsRules
from sitemap_plugins.entry.rules import (
    EXPLICIT,
    FILE_TIME,
    GIT,
    GIT_ADDED,
    MODIFIED,
    PUBLISHED,
    Alternate,
    DateClaim,
    Entry,
    Exclusion,
    PageHints,
    choose_lastmod,
    evaluate,
)
from sitemap_plugins.entry.rules import (
    LISTED as LISTING_DATE,
)
from sitemap_plugins.page.reader import PageRecord, parse_html
from sitemap_plugins.products.build.pipeline import make_rules
from sitemap_plugins.vocab.errors import Level
from sitemap_plugins.vocab.options import SitemapConfig

BASE = "https://example.org/docs/"


def rules(robots: bytes | None = None, **options: object):  # type: ignore[no-untyped-def]
    config = SitemapConfig.from_mapping({"base_url": BASE, **options})
    return make_rules(config, RobotsRules.from_bytes(robots) if robots is not None else None)


def page(head: str = "", body: str = "<main>text</main>") -> PageRecord:
    return parse_html(f"<html><head>{head}</head><body>{body}</body></html>".encode())


LEFT_OUT = [
    # Each case: its id, the path, the record, the hints, the options, robots.txt, the reason.
    ("host-excludes", "a.html", page(), PageHints(exclude="draft"), {}, None, "draft"),
    ("404", "404.html", page(), None, {}, None, "404 page"),
    ("404-folder", "404/index.html", page(), None, {}, None, "404 page"),
    ("404-folder-deep", "fr/404/index.html", page(), None, {}, None, "404 page"),
    ("redirect-to-a-neighbour", "a/index.html",
     page('<meta http-equiv="refresh" content="0; url=../b/">'), None, {}, None, "redirect stub"),
    ("canonical-to-the-folder-of-the-same-name", "a.html",
     page('<link rel="canonical" href="https://example.org/docs/a/">'), None, {}, None,
     "canonical elsewhere"),
    ("canonical-to-the-folders-parent", "a/b/index.html",
     page('<link rel="canonical" href="https://example.org/docs/a">'), None, {}, None,
     "canonical elsewhere"),
    ("excluded-glob", "drafts/a.html", page(), None, {"exclude": ["drafts/"]}, None,
     "excluded by config"),
    ("not-included", "a.html", page(), None, {"include": ["blog/**"]}, None,
     "not included by config"),
    ("robots", "private/a.html", page(), None, {}, b"User-agent: *\nDisallow: /docs/private/",
     "disallowed by robots.txt"),
    ("noindex", "a.html", page('<meta name="robots" content="noindex">'), None, {}, None,
     "noindex"),
    ("redirect", "old.html", page('<meta http-equiv="refresh" content="0; url=new.html">'), None,
     {}, None, "redirect stub"),
    ("canonical-elsewhere", "a.html", page('<link rel="canonical" href="b.html">'), None, {},
     None, "canonical elsewhere"),
    ("canonical-off-site", "a.html", page('<link rel="canonical" href="https://else.example/">'),
     None, {}, None, "canonical off the site"),
    ("binary", "a.html", parse_html(b"\x89PNG\x00\x00"), None, {}, None, "unreadable"),
    ("too-long", "a" * 2100 + ".html", page(), None, {}, None,
     "URL longer than 2,048 characters"),
]


@pytest.mark.parametrize(("rel", "record", "hints", "options", "robots", "reason"),
                         [case[1:] for case in LEFT_OUT], ids=[case[0] for case in LEFT_OUT])
def test_left_out(rel, record, hints, options, robots, reason) -> None:
    """Each reason a page is left out, decided from the page, the hints and the options."""
    decision = evaluate(rel, record, hints, rules(robots, **options))
    assert decision.result == Exclusion(rel, reason)


UTC = timezone.utc
LISTED = [
    # Each case: its id, the path, the record, the hints, the options, the file time, the entry.
    ("folder-url", "guide/index.html", page(), None, {}, None, Entry(f"{BASE}guide/")),
    ("file-url", "guide/index.html", page(), None, {"directory_urls": False}, None,
     Entry(f"{BASE}guide/index.html")),
    ("self-canonical-spelling", "q&a/index.html",
     page('<link rel="canonical" href="https://example.org/docs/q%26a/">'), None, {}, None,
     Entry(f"{BASE}q%26a/")),
    ("refresh-to-itself", "a/index.html", page('<meta http-equiv="refresh" content="30">'),
     None, {}, None, Entry(f"{BASE}a/")),
    ("refresh-to-its-own-folder", "a/index.html",
     page('<meta http-equiv="refresh" content="60; url=./">'), None, {}, None, Entry(f"{BASE}a/")),
    ("refresh-to-its-own-index", "a/index.html",
     page('<meta http-equiv="refresh" content="60; url=index.html">'), None, {}, None,
     Entry(f"{BASE}a/")),
    ("canonical-without-trailing-slash", "intro/index.html",
     page('<link rel="canonical" href="https://example.org/docs/intro">'), None, {}, None,
     Entry(f"{BASE}intro")),
    ("canonical-without-html", "intro.html",
     page('<link rel="canonical" href="https://example.org/docs/intro">'), None, {}, None,
     Entry(f"{BASE}intro")),
    ("canonical-root-without-slash", "index.html",
     page('<link rel="canonical" href="https://example.org/docs">'), None, {}, None,
     Entry(BASE)),
    ("404-named-page-elsewhere", "errors/404-codes.html", page(), None, {}, None,
     Entry(f"{BASE}errors/404-codes.html")),
    ("page-modified-date", "a.html",
     page('<meta property="article:modified_time" content="2024-03-05T10:20:30+01:00">'), None,
     {}, None, Entry(f"{BASE}a.html", lastmod=datetime.fromisoformat(
         "2024-03-05T10:20:30+01:00"))),
    ("page-modified-beats-host-publication", "a.html",
     page('<meta property="article:modified_time" content="2020-01-01">'),
     PageHints(dates=(DateClaim(PUBLISHED, date(2024, 1, 2)),)), {}, None,
     Entry(f"{BASE}a.html", lastmod=date(2020, 1, 1))),
    ("host-explicit-wins", "a.html",
     page('<meta property="article:modified_time" content="2020-01-01">'),
     PageHints(dates=(DateClaim(EXPLICIT, date(2019, 1, 2)),)), {}, None,
     Entry(f"{BASE}a.html", lastmod=date(2019, 1, 2))),
    ("file-time-only-when-asked", "a.html", page(), None, {"lastmod_file_time": True},
     1_700_000_000.0, Entry(f"{BASE}a.html", lastmod=datetime(2023, 11, 14, 22, 13, 20,
                                                               tzinfo=UTC))),
    ("no-file-time-by-default", "a.html", page(), None, {}, 1_700_000_000.0,
     Entry(f"{BASE}a.html")),
    ("rule-priority", "blog/a.html", page(), None, {"priority": {"blog/**": 0.8}}, None,
     Entry(f"{BASE}blog/a.html", priority=0.8)),
    ("page-priority-wins", "blog/a.html", page(), PageHints(priority=0.3),
     {"priority": {"blog/**": 0.8}}, None, Entry(f"{BASE}blog/a.html", priority=0.3)),
    ("host-default-last", "blog/a.html", page(), PageHints(default_priority=0.5,
                                                            default_changefreq="weekly"),
     {"changefreq": {"blog/**": "daily"}}, None,
     Entry(f"{BASE}blog/a.html", changefreq="daily", priority=0.5)),
    ("host-url", "post.html", page(), PageHints(url="post"), {}, None, Entry(f"{BASE}post")),
    ("host-url-off-site-ignored", "post.html", page(),
     PageHints(url="https://else.example/post"), {}, None, Entry(f"{BASE}post.html")),
    ("hreflang-group", "en/a.html",
     page('<link rel="alternate" hreflang="en" href="a.html">'
          '<link rel="alternate" hreflang="fr" href="../fr/a.html">'), None, {}, None,
     Entry(f"{BASE}en/a.html", alternates=(Alternate("en", f"{BASE}en/a.html"),
                                            Alternate("fr", f"{BASE}fr/a.html")))),
    ("hreflang-off", "en/a.html",
     page('<link rel="alternate" hreflang="en" href="a.html">'
          '<link rel="alternate" hreflang="fr" href="../fr/a.html">'), None,
     {"hreflang": False}, None, Entry(f"{BASE}en/a.html")),
    ("lone-alternate-is-no-group", "a.html",
     page('<link rel="alternate" hreflang="fr" href="https://else.example/fr/">'), None, {},
     None, Entry(f"{BASE}a.html")),
    # Google's own example: example.com's English page and example.de's German one.
    ("hreflang-on-another-site", "en/a.html",
     page('<link rel="alternate" hreflang="en" href="a.html">'
          '<link rel="alternate" hreflang="de" href="https://www.example.de/deutsch/a.html">'),
     None, {}, None,
     Entry(f"{BASE}en/a.html", alternates=(Alternate("de", "https://www.example.de/deutsch/a.html"),
                                            Alternate("en", f"{BASE}en/a.html")))),
    ("hreflang-in-a-sibling-build", "a.html",  # the French build at /fr/docs/, beside ours
     page('<link rel="alternate" hreflang="en" href="a.html">'
          '<link rel="alternate" hreflang="fr" href="/fr/docs/a.html">'),
     None, {}, None,
     Entry(f"{BASE}a.html", alternates=(Alternate("en", f"{BASE}a.html"),
                                         Alternate("fr", "https://example.org/fr/docs/a.html")))),
    ("hreflang-dev-server-dropped", "en/a.html",
     page('<link rel="alternate" hreflang="en" href="a.html">'
          '<link rel="alternate" hreflang="fr" href="http://localhost:8000/fr/a.html">'
          '<link rel="alternate" hreflang="de" href="http://127.0.0.1:8000/de/a.html">'
          '<link rel="alternate" hreflang="es" href="http://192.168.1.20/es/a.html">'
          '<link rel="alternate" hreflang="it" href="http://docs.local/it/a.html">'),
     None, {}, None, Entry(f"{BASE}en/a.html")),
]


@pytest.mark.parametrize(("rel", "record", "hints", "options", "mtime", "expected"),
                         [case[1:] for case in LISTED], ids=[case[0] for case in LISTED])
def test_listed(rel, record, hints, options, mtime, expected) -> None:
    """Each listed page's URL, date, changefreq, priority and alternates."""
    decision = evaluate(rel, record, hints, rules(**options), mtime=mtime)
    assert decision.result == expected


def test_a_bad_date_is_reported_and_ignored() -> None:
    """A date meta that is no W3C date is a diagnostic, and no lastmod."""
    decision = evaluate("a.html", page('<meta property="article:modified_time" content="soon">'),
                        None, rules())
    assert decision.result == Entry(f"{BASE}a.html")
    assert [d.code for d in decision.diagnostics] == ["bad-date"]


def test_a_development_servers_alternate_is_a_warning() -> None:
    """An alternate at a local address is a development server's URL left in the page: the
    user should know (a warning, which MkDocs' --strict counts), and it is never listed."""
    record = page('<link rel="alternate" hreflang="en" href="a.html">'
                  '<link rel="alternate" hreflang="fr" href="http://localhost:8000/fr/a.html">')
    decision = evaluate("en/a.html", record, None, rules())
    assert [(d.code, d.level) for d in decision.diagnostics] == [("alternate-local",
                                                                   Level.WARNING)]
    assert "localhost:8000" in decision.diagnostics[0].message


def test_the_same_inputs_give_the_same_decision() -> None:
    """Pure: no file, no clock, no state between calls."""
    record = page('<link rel="canonical" href="a.html">')
    first = evaluate("a.html", record, None, rules(priority={"*": 0.5}))
    assert evaluate("a.html", record, None, rules(priority={"*": 0.5})) == first


@pytest.mark.parametrize(("canonical", "expected"), [
    ("https://example.org/latest/guide/", Entry(f"{BASE}guide/", rel_path="guide/index.html")),
    ("https://example.org/latest/other/", Exclusion("guide/index.html", "canonical elsewhere")),
    ("https://example.org/1.0/guide/", Exclusion("guide/index.html", "canonical off the site")),
], ids=["same-page-under-canonical-version", "other-page", "another-version"])
def test_canonical_base_maps_the_hosts_canonical(canonical: str, expected: object) -> None:
    """mike's canonical_version: a canonical under that folder names the page at its own URL."""
    config = SitemapConfig.from_mapping({"base_url": BASE})
    with_base = make_rules(config, None, "https://example.org/latest/")
    decision = evaluate("guide/index.html", page(f'<link rel="canonical" href="{canonical}">'),
                        None, with_base)
    assert decision.result == expected


D1, D2, D3 = date(2021, 1, 1), date(2022, 1, 1), date(2023, 1, 1)


@pytest.mark.parametrize(("claims", "expected"), [
    ([(FILE_TIME, D3), (GIT, D2), (PUBLISHED, D1), (MODIFIED, D1), (EXPLICIT, D1)], D1),
    ([(FILE_TIME, D3), (GIT, D3), (PUBLISHED, D1), (MODIFIED, D2)], D2),
    ([(FILE_TIME, D3), (GIT_ADDED, D3), (PUBLISHED, D1), (LISTING_DATE, D2)], D2),
    ([(FILE_TIME, D3), (GIT_ADDED, D3), (PUBLISHED, D1)], D1),
    ([(FILE_TIME, D3), (GIT_ADDED, D3), (GIT, D2), (PUBLISHED, D1)], D2),
    ([(FILE_TIME, D3), (GIT_ADDED, D2), (GIT_ADDED, D1)], D2),
    ([(FILE_TIME, D3)], D3),
    ([], None),
], ids=["explicit-wins", "modified-over-publication-and-git", "newest-of-stated-and-listed",
        "an-adding-commit-dates-no-dated-page", "a-later-commit-does",
        "an-adding-commit-dates-an-undated-page", "file-time-last", "nothing"])
def test_one_date_rule(claims: list[tuple[str, date]], expected: date | None) -> None:
    """The one precedence of dates, for both hosts and the command line."""
    chosen = choose_lastmod(DateClaim(kind, value) for kind, value in claims)
    assert (chosen.value if chosen is not None else None) == expected

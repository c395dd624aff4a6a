"""`check` on a corpus of real-shaped sitemaps (the shapes generators write) -> the right verdict.

Each row is the sitemap a generator writes (its root, namespaces, declarations, extensions,
as literals) or one real fault, and whether `check` must pass it. The table's precision and
recall (a failure is a positive) are measured by :func:`test_the_corpus_verdicts`; the figures
before and after issue 40 items 10, 19 and 20 are in the CHANGELOG.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import pytest

from sitemap_plugins import SitemapConfig
from sitemap_plugins.products.check.checker import check_site

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://example.org/"
NOW = datetime(2024, 5, 7, 12, tzinfo=timezone.utc)
XML = '<?xml version="1.0" encoding="UTF-8"?>\n'
SM = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
XHTML = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'
IMAGE = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
VIDEO = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
NEWS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
XSI = ('xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.'
       'sitemaps.org/schemas/sitemap/0.9 http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd"')
PAGE = "<!doctype html><html><head><title>{}</title>{}</head><body><p>text</p></body></html>"
PAGES = {"index.html": "", "about/index.html": "", "blog/post/index.html": "", "a.html": "",
         "404.html": "", "old/index.html": '<meta http-equiv="refresh" content="0; url=/a.html">'}
VIDEO_ENTRY = ("<video:video><video:thumbnail_loc>https://example.org/t.jpg</video:thumbnail_loc>"
               "<video:title>V</video:title><video:description>D</video:description>"
               "<video:content_loc>https://example.org/v.mp4</video:content_loc>{}</video:video>")
NEWS_ENTRY = ("<news:news><news:publication><news:name>Daily</news:name><news:language>en"
              "</news:language></news:publication><news:publication_date>2024-05-06"
              "</news:publication_date><news:title>T</news:title></news:news>")


def urlset(attributes: str, body: str, head: str = XML) -> str:
    return f"{head}<urlset {attributes}>{body}</urlset>\n"


def url(loc: str, inner: str = "") -> str:
    return f"<url><loc>{loc}</loc>{inner}</url>"


@dataclass(frozen=True)
class Shape:
    name: str
    files: dict[str, str]
    valid: bool
    """Whether check must pass it (exit 0; warnings allowed)."""
    sitemap_name: str = "sitemap"


HOME, ABOUT, POST = BASE, f"{BASE}about/", f"{BASE}blog/post/"
CORPUS = [
    # --- what generators write: all valid ---------------------------------------------------
    Shape("sitemaps.org-sample", {"sitemap.xml": urlset(SM, url(HOME, (
        "<lastmod>2005-01-01</lastmod><changefreq>monthly</changefreq>"
        "<priority>0.8</priority>")))}, valid=True),
    Shape("hugo-0.70-no-declaration", {"sitemap.xml": urlset(f"{SM} {XHTML}", url(
        HOME, "<lastmod>2020-05-01T10:00:00+02:00</lastmod>") + url(ABOUT), head="")},
        valid=True),
    Shape("hugo-multilingual", {"sitemap.xml": urlset(f"{SM} {XHTML}", url(HOME, (
        f'<xhtml:link rel="alternate" hreflang="en" href="{HOME}"/>'
        f'<xhtml:link rel="alternate" hreflang="fr" href="{ABOUT}"/>')) + url(ABOUT, (
        f'<xhtml:link rel="alternate" hreflang="fr" href="{ABOUT}"/>'
        f'<xhtml:link rel="alternate" hreflang="en" href="{HOME}"/>')),
        head='<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n')}, valid=True),
    Shape("jekyll-sitemap", {"sitemap.xml": urlset(f"{XSI} {SM}", url(
        POST, "<lastmod>2021-01-01T00:00:00+00:00</lastmod>") + url(HOME))}, valid=True),
    Shape("yoast-images-deprecated-tags-in-cdata", {"sitemap.xml": urlset(
        f"{XSI} {IMAGE} {SM}", url(POST, (
            "<lastmod>2023-01-01T10:00:00+00:00</lastmod><image:image><image:loc>"
            "https://example.org/i.jpg</image:loc><image:caption><![CDATA[A & B]]>"
            "</image:caption><image:title><![CDATA[Photo]]></image:title></image:image>")),
        head=XML + '<?xml-stylesheet type="text/xsl" href="//example.org/main-sitemap.xsl"?>\n')},
        valid=True),
    # Gatsby's and Silverstripe's templates: the deprecated tags in the order of their words
    Shape("image-title-before-caption", {"sitemap.xml": urlset(f"{SM} {IMAGE}", url(
        HOME, "<image:image><image:loc>https://example.org/i.jpg</image:loc><image:title>T"
              "</image:title><image:caption>C</image:caption></image:image>"))}, valid=True),
    Shape("image-geo-location-and-license", {"sitemap.xml": urlset(f"{SM} {IMAGE}", url(
        HOME, "<image:image><image:loc>https://example.org/i.jpg</image:loc><image:geo_location>"
              "Paris</image:geo_location><image:license>https://example.org/l</image:license>"
              "</image:image>"))}, valid=True),
    Shape("next-sitemap", {"sitemap.xml": urlset(
        f'{SM} {NEWS} {XHTML} xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0" '
        f"{IMAGE} {VIDEO}", url(HOME, "<lastmod>2023-06-01T08:00:00.000Z</lastmod><changefreq>"
                                      "daily</changefreq><priority>0.7</priority>"))},
        valid=True),
    Shape("google-mobile-extension", {"sitemap.xml": urlset(
        f'{SM} xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"',
        url(HOME, "<mobile:mobile/>"))}, valid=True),
    Shape("own-namespace-in-url-and-urlset", {"sitemap.xml": urlset(
        f'{SM} xmlns:my="urn:example:mine"', "<my:generator>custom</my:generator>"
        + url(HOME, '<my:section id="1"><my:deep>x</my:deep></my:section>'))}, valid=True),
    Shape("astro-index", {"sitemap-index.xml": XML + f"<sitemapindex {SM}><sitemap><loc>"
                          f"{BASE}sitemap-0.xml</loc></sitemap></sitemapindex>",
                          "sitemap-0.xml": urlset(f"{SM} {NEWS} {XHTML} {IMAGE} {VIDEO}",
                                                  url(HOME) + url(ABOUT))},
          valid=True, sitemap_name="sitemap-index"),
    Shape("wordpress-core-with-stylesheet", {"sitemap.xml": urlset(SM, url(POST), head=(
        XML + '<?xml-stylesheet type="text/xsl" href="https://example.org/wp-sitemap.xsl" ?>\n'))},
        valid=True),
    Shape("loc-as-cdata", {"sitemap.xml": urlset(SM, url(f"<![CDATA[{BASE}a.html?x=1&y=2]]>"))},
          valid=True),
    Shape("future-lastmod-wrong-clock", {"sitemap.xml": urlset(SM, url(
        HOME, "<lastmod>2031-01-01</lastmod>"))}, valid=True),
    Shape("video-with-priced-rental", {"sitemap.xml": urlset(f"{SM} {VIDEO}", url(
        HOME, VIDEO_ENTRY.format('<video:price currency="EUR" type="rent">1.99</video:price>'
                                 '<video:price type="purchase"/>')))}, valid=True),
    Shape("news-in-the-main-sitemap", {"sitemap.xml": urlset(f"{SM} {NEWS}", url(
        HOME, NEWS_ENTRY))}, valid=True),
    # --- real faults: all must fail ---------------------------------------------------------
    Shape("relative-loc", {"sitemap.xml": urlset(SM, url("about/"))}, valid=False),
    Shape("impossible-lastmod", {"sitemap.xml": urlset(SM, url(
        HOME, "<lastmod>2021-13-01</lastmod>"))}, valid=False),
    Shape("priority-1.5", {"sitemap.xml": urlset(SM, url(HOME, "<priority>1.5</priority>"))},
          valid=False),
    Shape("other-host", {"sitemap.xml": urlset(SM, url("https://other.example/"))}, valid=False),
    Shape("raw-ampersand", {"sitemap.xml": urlset(SM, url(f"{BASE}a.html?x=1&y=2"))},
          valid=False),
    Shape("old-namespace-0.84", {"sitemap.xml": urlset(
        'xmlns="http://www.google.com/schemas/sitemap/0.84"', url(HOME))}, valid=False),
    Shape("no-file-serves-it", {"sitemap.xml": urlset(SM, url(f"{BASE}gone/"))}, valid=False),
    Shape("unknown-image-tag", {"sitemap.xml": urlset(f"{SM} {IMAGE}", url(
        HOME, "<image:image><image:loc>https://example.org/i.jpg</image:loc><image:size>9"
              "</image:size></image:image>"))}, valid=False),
    Shape("unknown-sitemap-element", {"sitemap.xml": urlset(SM, url(HOME, "<title>x</title>"))},
          valid=False),
    Shape("video-price-without-currency", {"sitemap.xml": urlset(f"{SM} {VIDEO}", url(
        HOME, VIDEO_ENTRY.format("<video:price>1.99</video:price>")))}, valid=False),
    Shape("1001-news-in-the-main-sitemap", {"sitemap.xml": urlset(f"{SM} {NEWS}", "".join(
        url(f"{BASE}a.html?n={n}", NEWS_ENTRY) for n in range(1_001)))}, valid=False),
    Shape("lists-the-404-page", {"sitemap.xml": urlset(SM, url(HOME) + url(f"{BASE}404.html"))},
          valid=False),
    Shape("lists-a-page-robots-txt-disallows", {"sitemap.xml": urlset(SM, url(HOME) + url(ABOUT)),
                                                "robots.txt": "User-agent: *\nDisallow: /about/\n"
                                                              f"Sitemap: {BASE}sitemap.xml\n"},
          valid=False),
    Shape("lists-a-refresh-redirect", {"sitemap.xml": urlset(SM, url(HOME) + url(
        f"{BASE}old/"))}, valid=False),
]


def _verdict(tmp_path: Path, shape: Shape) -> bool:
    """Whether check passes the shape's files in a site of the pages in PAGES."""
    site = tmp_path / shape.name
    for name, head in PAGES.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(PAGE.format(name, head), "utf-8")
    for name, text in shape.files.items():
        (site / name).write_text(text, "utf-8")
    config = SitemapConfig.from_mapping({"base_url": BASE, "sitemap_name": shape.sitemap_name})
    problems, _ = check_site(site, config, now=NOW)
    return not [problem for problem in problems if not problem.warning]


def test_the_corpus_verdicts(tmp_path: Path) -> None:
    """Every shape gets its verdict: precision and recall of the failures are both 1.0."""
    verdicts = {shape.name: _verdict(tmp_path, shape) for shape in CORPUS}
    wrong = [shape.name for shape in CORPUS if verdicts[shape.name] is not shape.valid]
    flagged = [shape for shape in CORPUS if not verdicts[shape.name]]
    found = sum(1 for shape in flagged if not shape.valid)
    precision = found / len(flagged)
    recall = found / sum(1 for shape in CORPUS if not shape.valid)
    print(f"corpus: {len(CORPUS)} shapes, precision {precision:.3f}, recall {recall:.3f}")  # noqa: T201
    assert wrong == []


@pytest.mark.parametrize("shape", [s for s in CORPUS if s.valid], ids=lambda s: s.name)
def test_a_valid_shape_gives_no_error(tmp_path: Path, shape: Shape) -> None:
    """Each valid shape passes on its own (a failing row names itself)."""
    assert _verdict(tmp_path, shape)

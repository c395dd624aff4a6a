"""`check` against a valid built site corrupted one way at a time (#17: "check misses nothing").

Each row plants one fault in a copy of a real build (the trap site plus a page with images and
a video and a news article) and requires `check` to exit 1 and name it. Each XML row also
records whether the official XSDs reject the corrupted file, so the table documents which
faults are schema errors (True) and which only the protocol text forbids (False); rows on
sitemap.txt, .gz and robots.txt have no schema (None).
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_plugins import SitemapConfig
from sitemap_plugins.cli import main
from sitemap_plugins.products.check import schema
from sitemap_plugins.products.check.checker import check_site

ROOT = Path(__file__).resolve().parents[1]
BASE = "https://example.org/"
EPOCH = "1715040000"  # 2024-05-07T00:00:00Z: the news article below is a day old
ABOUT = "<loc>https://example.org/about.html</loc>"
INSTALL = "<loc>https://example.org/guide/install.html</loc>"
LASTMOD = "<lastmod>2024-03-05T10:20:30+01:00</lastmod>"
FREQ = "<changefreq>weekly</changefreq>"
PRIORITY = "<priority>0.5</priority>"
LINK = '<xhtml:link rel="alternate" hreflang="en" href="https://example.org/en/page.html"/>'
IMAGE = "<image:loc>https://example.org/photos/a.jpg</image:loc>"
THUMB = "<video:thumbnail_loc>https://i.ytimg.com/vi/abcdefghij0/hqdefault.jpg</video:thumbnail_loc>"
TITLE = "<video:title>Film &amp; more</video:title>"
DESCRIPTION = "<video:description>About the trip.</video:description>"
PLAYER = "<video:player_loc>https://www.youtube.com/embed/abcdefghij0</video:player_loc>"
VIDEO_END = "</video:video>"
NEWS_LANGUAGE = "<news:language>en</news:language>"
NEWS_NAME = "<news:name>Daily</news:name>"
NEWS_DATE = "<news:publication_date>2024-05-06T09:00:00Z</news:publication_date>"
NEWS_TITLE = "<news:title>Launch</news:title>"
NEWS_LOC = "<loc>https://example.org/press/today.html</loc>"
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
SITEMAP_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
MEDIA_PAGE = (
    "<html lang='en'><head><title>Trip</title><meta name='description' content='About the "
    "trip.'></head><body><main><img src='/photos/a.jpg'><img src='https://cdn.example.net/"
    "b.jpg'><iframe src='https://www.youtube.com/embed/abcdefghij0' title='Film &amp; more'>"
    "</iframe></main></body></html>")
NEWS_PAGE = (
    "<html lang='en'><head><title>Launch</title><meta property='article:published_time' "
    "content='2024-05-06T09:00:00Z'></head><body><main><p>News.</p></main></body></html>")

Transform = Callable[[Path], None]


def edit(name: str, old: str | bytes, new: str | bytes) -> Transform:
    """Replace the first ``old`` in ``name`` (it must be there); a .gz beside it follows."""
    def apply(site: Path) -> None:
        path = site / name
        data = path.read_bytes()
        before = old.encode() if isinstance(old, str) else old
        after = new.encode() if isinstance(new, str) else new
        assert before in data, f"{before!r} not in {name}"
        _write(path, data.replace(before, after, 1))
    return apply


def raw(name: str, change: Callable[[bytes], bytes]) -> Transform:
    """Rewrite ``name``'s bytes; a .gz beside it follows."""
    def apply(site: Path) -> None:
        path = site / name
        _write(path, change(path.read_bytes()))
    return apply


def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    packed = path.with_name(path.name + ".gz")
    if packed.exists():  # keep the .gz in step: each row plants one fault only
        packed.write_bytes(gzip.compress(data, mtime=0))


def as_index(*entries: str) -> Transform:
    """Move the urlset to sitemap-1.xml and write sitemap.xml as an index of ``entries``."""
    def apply(site: Path) -> None:
        (site / "sitemap.xml").rename(site / "sitemap-1.xml")
        (site / "sitemap.xml.gz").unlink()
        body = "".join(entries)
        (site / "sitemap.xml").write_text(
            f"{DECLARATION}<sitemapindex {SITEMAP_NS}>{body}</sitemapindex>\n", "utf-8")
    return apply


def part(loc: str, extra: str = "") -> str:
    return f"<sitemap><loc>{loc}</loc>{extra}</sitemap>"


PART_1 = part(f"{BASE}sitemap-1.xml")


def nested_index(site: Path) -> None:
    as_index(PART_1, part(f"{BASE}sitemap-2.xml"))(site)
    (site / "sitemap-2.xml").write_text(
        f"{DECLARATION}<sitemapindex {SITEMAP_NS}>{PART_1}</sitemapindex>\n", "utf-8")


def many_urls(data: bytes) -> bytes:
    head, _, _ = data.partition(b"<url>")
    block = b"<url><loc>https://example.org/about.html</loc></url>\n"
    return head + block * 50_001 + b"</urlset>\n"


def huge(data: bytes) -> bytes:
    return data.replace(b"</urlset>", b"<!--" + b"x" * 52_428_800 + b"-->\n</urlset>")


def to_utf16(data: bytes) -> bytes:
    return data.decode("utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")


def drop_french_self_link(data: bytes) -> bytes:
    """The French page's own xhtml:link removed (the English one still names it)."""
    own = LINK.replace('"en" href="https://example.org/en/', '"fr" href="https://example.org/fr/')
    start = data.index(b"<loc>https://example.org/fr/page.html</loc>")
    at = data.index(own.encode(), start)
    return data[:at] + data[at + len(own):]


@dataclass(frozen=True)
class Case:
    name: str
    transform: Transform
    message: str
    schema_rejects: bool | None
    """Whether the official XSD rejects the corrupted file (None: no XML schema applies)."""
    file: str = "sitemap.xml"


def x(name: str, old: str, new: str, message: str, rejects: bool,
      file: str = "sitemap.xml") -> Case:
    return Case(name, edit(file, old, new), message, rejects, file)


def _date(value: str) -> str:
    return f"<lastmod>{value}</lastmod>"


CASES = [
    # --- dates (sitemap.xsd: xs:date | xs:dateTime; the W3C profile of the protocol) ----------
    x("impossible-date", LASTMOD, _date("2024-02-30"), "is not a date that exists", True),
    x("not-a-leap-year", LASTMOD, _date("2023-02-29"), "is not a date that exists", True),
    x("month-13", LASTMOD, _date("2024-13-01"), "is not a date that exists", True),
    x("year-0000", LASTMOD, _date("0000-01-01"), "is not a date that exists", True),
    x("offset-plus-24", LASTMOD, _date("2024-03-05T10:20:30+24:00"), "time zone outside", True),
    x("offset-plus-23-59", LASTMOD, _date("2024-03-05T10:20:30+23:59"), "time zone outside", True),
    x("offset-plus-14-30", LASTMOD, _date("2024-03-05T10:20:30+14:30"), "time zone outside", True),
    x("offset-minutes-60", LASTMOD, _date("2024-03-05T10:20:30+05:60"), "time zone outside", True),
    x("hour-25", LASTMOD, _date("2024-03-05T25:20:30Z"), "is not a time that exists", True),
    x("second-60", LASTMOD, _date("2024-03-05T10:20:60Z"), "is not a time that exists", True),
    x("hour-24-end-of-day", LASTMOD, _date("2024-03-05T24:00:00Z"), "is not a time that exists",
      False),
    x("time-without-zone", LASTMOD, _date("2024-03-05T10:20:30"), "is not a W3C datetime", False),
    x("date-with-zone", LASTMOD, _date("2024-03-05+01:00"), "is not a W3C datetime", False),
    x("time-without-seconds", LASTMOD, _date("2024-03-05T10:20+01:00"), "is not a W3C datetime",
      True),
    x("year-only", LASTMOD, _date("2024"), "is not a W3C datetime", True),
    x("five-digit-year", LASTMOD, _date("12024-03-05"), "is not a W3C datetime", False),
    x("empty-lastmod", LASTMOD, _date(""), "is not a W3C datetime", True),
    # --- the document ------------------------------------------------------------------------
    x("doctype", DECLARATION, DECLARATION + '<!DOCTYPE urlset [<!ENTITY e "x">]>\n',
      "has a DOCTYPE", False),
    x("latin-1-declared", 'encoding="UTF-8"', 'encoding="ISO-8859-1"',
      "declares the encoding 'ISO-8859-1'", False),
    Case("utf-16", raw("sitemap.xml", to_utf16), "is not UTF-8", False),
    Case("bytes-not-utf-8", edit("sitemap.xml", "Film &amp; more", b"Film \xff more"),
         "is not UTF-8", True),
    x("unescaped-ampersand", ABOUT, "<loc>https://example.org/q&a.html</loc>",
      "is not well-formed XML", True),
    x("unclosed-element", "</urlset>", "</urlse>", "is not well-formed XML", True),
    x("wrong-namespace", SITEMAP_NS, 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.84"',
      "root element is {http://www.sitemaps.org/schemas/sitemap/0.84}urlset", True),
    x("no-namespace", SITEMAP_NS, "", "root element is urlset", True),
    Case("index-root-over-urls", raw("sitemap.xml", lambda b: b.replace(
        b"<urlset", b"<sitemapindex").replace(b"</urlset>", b"</sitemapindex>")),
         "<sitemapindex> may not hold <url>", True),
    Case("urlset-holding-a-sitemap", raw("sitemap.xml", lambda b: b.replace(
        b"<url>", b"<sitemap>", 1).replace(b"</url>", b"</sitemap>", 1)),
         "<urlset> may not hold <sitemap>", True),
    Case("more-than-50000-urls", raw("sitemap.xml", many_urls), "50,001 URLs; the limit is 50,000",
         False),
    Case("more-than-50-mib", raw("sitemap.xml", huge), "more than 52,428,800 bytes", False),
    # --- <url> and its four elements ----------------------------------------------------------
    x("unknown-attribute", "<url>", '<url id="home">', "<url> has an unknown attribute id", True),
    x("attribute-on-loc", ABOUT, '<loc lang="en">https://example.org/about.html</loc>',
      "<loc> has an unknown attribute lang", True),
    x("unknown-element", ABOUT, ABOUT + "<title>About</title>", "<url> may not hold <title>", True),
    x("element-without-namespace", ABOUT, ABOUT + '<title xmlns="">About</title>',
      "<url> may not hold <title>", True),
    x("wrong-order", ABOUT + "\n    " + FREQ, FREQ + ABOUT, "<loc> is out of order", True),
    x("lastmod-after-extension", VIDEO_END, VIDEO_END + "<lastmod>2024-01-01</lastmod>",
      "<lastmod> is out of order", True),
    x("loc-twice", ABOUT, ABOUT + ABOUT, "holds <loc> more than 1 time", True),
    x("no-loc", ABOUT, "", "<url> lacks <loc>", True),
    x("text-in-url", "<url>", "<url>hello", "<url> holds text 'hello'", True),
    x("element-in-loc", ABOUT, "<loc><b>https://example.org/about.html</b></loc>",
      "<loc> may hold only text", True),
    x("priority-1.5", PRIORITY, "<priority>1.5</priority>", "is not a number from 0.0 to 1.0",
      True),
    x("priority-word", PRIORITY, "<priority>high</priority>", "is not a number from 0.0 to 1.0",
      True),
    x("priority-negative", PRIORITY, "<priority>-0.1</priority>", "is not a number", True),
    x("changefreq-sometimes", FREQ, "<changefreq>sometimes</changefreq>", "is not one of", True),
    x("changefreq-capitalised", FREQ, "<changefreq>Weekly</changefreq>", "is not one of", True),
    x("changefreq-padded", FREQ, "<changefreq> weekly</changefreq>", "is not one of", True),
    # --- the URLs -----------------------------------------------------------------------------
    x("loc-relative", ABOUT, "<loc>about-us/page.html</loc>", "is not an absolute http(s) URL",
      False),
    x("loc-too-short-for-the-schema", ABOUT, "<loc>/about.html</loc>", "is not an absolute",
      True),
    x("loc-over-2048", ABOUT, f"<loc>{BASE}{'a' * 2029}</loc>", "has 2,049 characters", True),
    x("loc-with-space", ABOUT, "<loc>https://example.org/about us.html</loc>",
      "is not percent-encoded", False),
    x("loc-not-ascii", ABOUT, "<loc>https://example.org/caf\u00e9.html</loc>",
      "is not percent-encoded", False),
    x("loc-bad-escape", ABOUT, "<loc>https://example.org/%zz.html</loc>", "is not percent-encoded",
      True),
    x("loc-two-fragments", ABOUT, "<loc>https://example.org/a#b#c</loc>", "is not percent-encoded",
      True),
    x("loc-other-host", ABOUT, "<loc>https://other.example/about.html</loc>",
      "is not under the base URL", False),
    x("loc-other-scheme", ABOUT, "<loc>http://example.org/about.html</loc>",
      "is not under the base URL", False),
    x("loc-ftp", ABOUT, "<loc>ftp://example.org/about.html</loc>", "is not an absolute http(s)",
      False),
    x("loc-no-file", ABOUT, "<loc>https://example.org/missing.html</loc>",
      "no file in the site serves", False),
    x("loc-dot-dot", ABOUT, "<loc>https://example.org/%2e%2e/etc/passwd</loc>",
      "no file in the site serves", False),
    x("loc-duplicate", INSTALL, ABOUT, "duplicate URL", False),
    # --- xhtml:link (hreflang) ---------------------------------------------------------------
    x("alternate-local", LINK, LINK.replace("example.org", "localhost:8000"),
      "names a local address", False),
    x("alternate-private-address", LINK, LINK.replace("example.org", "192.168.1.20"),
      "names a local address", False),
    x("alternate-relative", LINK, LINK.replace("https://example.org/", ""),
      "is not an absolute http(s) URL", False),
    x("alternate-unknown-attribute", LINK, LINK.replace("/>", ' foo="1"/>'),
      "<xhtml:link> has an unknown attribute foo", True),
    x("alternate-bad-hreflang", LINK, LINK.replace('"en"', '"en_US"'), "is not a BCP 47 language tag",
      True),
    x("alternate-wrong-rel", LINK, LINK.replace('"alternate"', '"alternates"'),
      'without rel="alternate"', False),
    x("alternate-no-href", LINK, LINK.replace(' href="https://example.org/en/page.html"', ""),
      "xhtml:link without href", False),
    x("alternate-no-hreflang", LINK, LINK.replace(' hreflang="en"', ""),
      "xhtml:link without hreflang", False),
    x("alternate-with-text", LINK, LINK.replace("/>", ">en</xhtml:link>"),
      "<xhtml:link> holds text", True),
    Case("alternate-without-the-page-itself", raw("sitemap.xml", drop_french_self_link),
         "its xhtml:link alternates do not include the page itself", False),
    x("alternate-language-twice", LINK.replace('"en" href="https://example.org/en/',
                                               '"fr" href="https://example.org/fr/'),
      LINK.replace('"en" href="https://example.org/en/', '"en" href="https://example.org/fr/'),
      "hreflang 'en' is given twice", False),
    # --- entity escaping (sitemaps.org: & ' " < > are escaped in every data value) ----------
    x("raw-apostrophe", "it&#39;s", "it's", "\"'\" in text is not entity-escaped", False),
    x("raw-greater-than", "Film &amp; more", "Film > more", "'>' in text is not entity-escaped",
      False),
    # --- image:image ---------------------------------------------------------------------------
    x("image-without-loc", IMAGE, "", "<image:image> lacks <image:loc>", True),
    x("image-loc-relative", IMAGE, "<image:loc>photos/a.jpg</image:loc>",
      "is not an absolute http(s) URL", False),
    x("image-caption-first", IMAGE, "<image:caption>c</image:caption>" + IMAGE,
      "<image:loc> is out of order", True),
    x("image-unknown-element", IMAGE, IMAGE + "<image:size>9</image:size>",
      "<image:image> may not hold <image:size>", True),
    x("image-loc-outside-image", "<image:image>", IMAGE + "<image:image>",
      "<url> may not hold <image:loc>", True),
    x("image-loc-twice", IMAGE, IMAGE + IMAGE, "holds <image:loc> more than 1 time", True),
    x("image-over-1000", "<image:image>", ("<image:image>" + IMAGE + "</image:image>") * 1000
      + "<image:image>", "1,002 image:image elements", False),
    # --- video:video ---------------------------------------------------------------------------
    x("video-title-101", TITLE, f"<video:title>{'t' * 101}</video:title>",
      "video:title has 101 characters", True),
    x("video-description-2049", DESCRIPTION, f"<video:description>{'d' * 2049}"
      "</video:description>", "video:description has 2,049 characters", True),
    x("video-no-thumbnail", THUMB, "", "<video:video> lacks <video:thumbnail_loc>", True),
    x("video-no-location", PLAYER, "", "neither content_loc nor player_loc", False),
    x("video-price-without-currency", PLAYER, PLAYER + "<video:price>1.99</video:price>",
      "video:price gives a price without its currency", False),
    x("video-price-empty-without-type", PLAYER, PLAYER + '<video:price currency="EUR"/>',
      "video:price is empty and has no type", False),
    x("video-price-negative", PLAYER, PLAYER + '<video:price currency="EUR">-1</video:price>',
      "video:price '-1' is not a non-negative number", False),
    x("video-empty-title", TITLE, "<video:title></video:title>", "video:title is empty", False),
    x("video-duration-too-long", PLAYER, PLAYER + "<video:duration>28801</video:duration>",
      "is not a whole number from 0 to 28,800", True),
    x("video-duration-negative", PLAYER, PLAYER + "<video:duration>-1</video:duration>",
      "is not a whole number from 0 to 28,800", True),
    x("video-rating-5.5", PLAYER, PLAYER + "<video:rating>5.5</video:rating>",
      "is not a number from 0 to 5", True),
    x("video-family-friendly-maybe", PLAYER,
      PLAYER + "<video:family_friendly>maybe</video:family_friendly>", "is not one of yes", True),
    x("video-restriction-no-relationship", PLAYER,
      PLAYER + "<video:restriction>FR</video:restriction>", "lacks the attribute relationship",
      True),
    x("video-platform-desktop", PLAYER,
      PLAYER + '<video:platform relationship="allow">desktop</video:platform>',
      "is not a list of platforms", True),
    x("video-33-tags", PLAYER, PLAYER + "<video:tag>t</video:tag>" * 33,
      "holds <video:tag> more than 32 times", True),
    x("video-allow-embed-true", PLAYER, PLAYER.replace("<video:player_loc>",
      '<video:player_loc allow_embed="true">'), "attribute allow_embed 'true' is not one of",
      True),
    x("video-expiration-impossible", PLAYER,
      PLAYER + "<video:expiration_date>2024-13-01</video:expiration_date>",
      "is not a date that exists", True),
    x("video-out-of-order", TITLE + "\n      " + DESCRIPTION, DESCRIPTION + TITLE,
      "<video:title> is out of order", True),
    # --- news:news (sitemap-news.xml) ------------------------------------------------------------
    x("news-language-word", NEWS_LANGUAGE, "<news:language>english</news:language>",
      "is not an ISO 639 language code", True, "sitemap-news.xml"),
    x("news-no-title", NEWS_TITLE, "", "news:title is missing or empty", False,
      "sitemap-news.xml"),
    x("news-impossible-date", NEWS_DATE,
      "<news:publication_date>2024-02-30T09:00:00Z</news:publication_date>",
      "is not a date that exists", True, "sitemap-news.xml"),
    x("news-no-name", NEWS_NAME, "", "<news:publication> lacks <news:name>", True,
      "sitemap-news.xml"),
    x("news-empty-name", NEWS_NAME, "<news:name></news:name>", "news:publication has no name",
      False, "sitemap-news.xml"),
    x("news-genre-gossip", NEWS_DATE, "<news:genres>Gossip</news:genres>" + NEWS_DATE,
      "is not a list of genres", True, "sitemap-news.xml"),
    x("news-access-free", NEWS_DATE, "<news:access>Free</news:access>" + NEWS_DATE,
      "is not one of Subscription, Registration", True, "sitemap-news.xml"),
    x("news-tickers", NEWS_TITLE, NEWS_TITLE + "<news:stock_tickers>GOOG</news:stock_tickers>",
      "is not a list of up to 5 stock tickers", True, "sitemap-news.xml"),
    x("news-twice", "</news:news>", "</news:news><news:news>" + "<news:publication>" + NEWS_NAME
      + NEWS_LANGUAGE + "</news:publication>" + NEWS_DATE + NEWS_TITLE + "</news:news>",
      "holds 2 news:news elements", False, "sitemap-news.xml"),
    x("news-off-site", NEWS_LOC, "<loc>https://other.example/press/today.html</loc>",
      "is not under the base URL", False, "sitemap-news.xml"),
    x("news-date-after-title", NEWS_DATE + "\n      " + NEWS_TITLE, NEWS_TITLE + NEWS_DATE,
      "<news:publication_date> is out of order", True, "sitemap-news.xml"),
    # --- sitemap index -------------------------------------------------------------------------
    Case("index-names-missing-part", as_index(PART_1, part(f"{BASE}sitemap-9.xml")),
         "no file in the site serves 'https://example.org/sitemap-9.xml'", False),
    Case("index-nested-in-index", nested_index, "must be a urlset", False, "sitemap-2.xml"),
    Case("index-unknown-element", as_index(part(f"{BASE}sitemap-1.xml", "<size>3</size>")),
         "<sitemap> may not hold <size>", True),
    Case("index-impossible-lastmod",
         as_index(part(f"{BASE}sitemap-1.xml", "<lastmod>2024-04-31</lastmod>")),
         "is not a date that exists", True),
    Case("index-holding-url", as_index(PART_1, "<url><loc>https://example.org/</loc></url>"),
         "<sitemapindex> may not hold <url>", True),
    Case("index-entry-without-loc", as_index(PART_1, "<sitemap><lastmod>2024-01-01</lastmod>"
                                             "</sitemap>"), "<sitemap> lacks <loc>", True),
    Case("index-part-off-site", as_index(part("https://other.example/sitemap-1.xml")),
         "is not under the base URL", False),
    # --- sitemap.txt, the .gz, robots.txt ---------------------------------------------------------
    Case("text-duplicate-line", edit("sitemap.txt", f"{BASE}about.html\n",
                                     f"{BASE}about.html\n{BASE}about.html\n"),
         "line 4: duplicate URL", None, "sitemap.txt"),
    Case("text-blank-line", edit("sitemap.txt", f"{BASE}about.html\n", f"\n{BASE}about.html\n"),
         "must hold one URL and nothing else", None, "sitemap.txt"),
    Case("text-relative-url", edit("sitemap.txt", f"{BASE}about.html\n", "about.html\n"),
         "is not an absolute http(s) URL", None, "sitemap.txt"),
    Case("text-off-site", edit("sitemap.txt", f"{BASE}about.html\n",
                               "https://other.example/about.html\n"),
         "is not under the base URL", None, "sitemap.txt"),
    Case("text-not-utf-8", edit("sitemap.txt", f"{BASE}about.html\n", b"\xff\n"),
         "is not UTF-8", None, "sitemap.txt"),
    Case("text-missing-a-url", edit("sitemap.txt", f"{BASE}about.html\n", ""),
         "of the XML sitemap missing", None, "sitemap.txt"),
    Case("gz-differs", lambda site: (site / "sitemap.xml.gz").write_bytes(
        gzip.compress(b"<urlset/>", mtime=0)), "does not hold the same bytes", None,
         "sitemap.xml.gz"),
    Case("gz-not-gzip", lambda site: (site / "sitemap.xml.gz").write_bytes(b"not gzip"),
         "is not a valid gzip file", None, "sitemap.xml.gz"),
    Case("robots-without-sitemap-line", edit("robots.txt", f"Sitemap: {BASE}sitemap.xml\n", ""),
         "has no 'Sitemap: https://example.org/sitemap.xml' line", None, "robots.txt"),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The trap site with a media page and a news article, built with every element."""
    site = tmp_path_factory.mktemp("valid") / "site"
    subprocess.run([sys.executable, str(ROOT / "sample_sites" / "traps" / "make_site.py"),
                    "--out", str(site)], check=True, capture_output=True)
    (site / "media").mkdir()
    (site / "media" / "index.html").write_text(MEDIA_PAGE, "utf-8")
    (site / "press").mkdir()
    (site / "press" / "today.html").write_text(NEWS_PAGE, "utf-8")
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}
    subprocess.run([sys.executable, "-m", "sitemap_plugins", "build", str(site), "--base-url",
                    BASE, "--news", "name=Daily", "--news", "language=en", "--changefreq",
                    "**=weekly", "--priority", "**=0.5", "--no-fingerprint"],
                   check=True, capture_output=True, env=env, cwd=ROOT)
    return site


def schema_rejects(path: Path, xsd: dict[str, etree.XMLSchema]) -> bool:
    """Whether the official XSDs reject the file (a file lxml cannot parse is rejected)."""
    parser = etree.XMLParser(no_network=True, resolve_entities=False, huge_tree=True)
    try:
        root = etree.fromstring(path.read_bytes(), parser)
    except etree.XMLSyntaxError:
        return True
    kind = "sitemapindex" if etree.QName(root).localname == "sitemapindex" else "urlset"
    return not xsd[kind].validate(root)


def test_the_valid_build_passes_check_and_the_schemas(built: Path, xsd, capsys) -> None:
    """The uncorrupted build passes check and every official schema, with each element used."""
    assert main(["check", str(built), "--base-url", BASE]) == 0
    assert "no problems" in capsys.readouterr().out
    for name in ("sitemap.xml", "sitemap-news.xml"):
        assert not schema_rejects(built / name, xsd), name
    text = (built / "sitemap.xml").read_text("utf-8")
    for fragment in (ABOUT, INSTALL, LASTMOD, FREQ, PRIORITY, LINK, IMAGE, THUMB, TITLE,
                     DESCRIPTION, PLAYER):
        assert fragment in text


def test_the_table_is_large_and_distinct() -> None:
    """At least 40 distinct corruptions, with schema and protocol-only ones and media among them."""
    names = [case.name for case in CASES]
    assert len(names) == len(set(names)) >= 40
    assert sum(case.schema_rejects is True for case in CASES) >= 20
    assert sum(case.schema_rejects is False for case in CASES) >= 20
    for family in ("image-", "video-", "news-", "alternate-", "index-", "text-"):
        assert sum(name.startswith(family) for name in names) >= 3, family


# Rows that write a file past the protocol's limits (50,001 URLs, 50 MiB): integration.
LARGE = {"more-than-50000-urls", "more-than-50-mib"}


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case.name, marks=pytest.mark.integration if case.name in LARGE else ())
    for case in CASES])
def test_check_names_each_corruption(case: Case, built: Path, tmp_path: Path, xsd,
                                     capsys) -> None:
    """check exits 1 and names the fault; the XSD verdict is the one the table records."""
    site = tmp_path / "site"
    shutil.copytree(built, site, symlinks=True)
    case.transform(site)
    code = main(["check", str(site), "--base-url", BASE])
    _, err = capsys.readouterr()
    assert "Traceback" not in err
    assert code == 1, err
    assert case.message in err, err[:3000]  # problems go to stderr, the tally to stdout
    assert any(line.startswith(f"{case.file}: ") and case.message in line
               for line in err.splitlines()), err[:3000]
    if case.schema_rejects is not None:
        assert schema_rejects(site / case.file, xsd) is case.schema_rejects


# --- the value rules against the XSDs, over generated values ---------------------------------

_DATES = st.from_regex(
    r"\A\d{4,5}-[01]\d-[0-3]\d(T[0-2]\d:[0-6]\d(:[0-6]\d(\.\d{1,3})?)?)?(Z|[+-][0-2]\d:[0-6]\d)?\Z")
_DECIMALS = st.from_regex(r"\A ?[+-]?\d{0,2}(\.\d{0,3})? ?\Z")
_URLS = st.builds(lambda tail: BASE + tail, st.text(
    st.sampled_from(list("az09-._~!$&'()*+,;=:@/?#[]% \u00e9<>\"{}|\\^`")), max_size=30))


def _urlset(inner: str) -> etree._Element:
    return etree.fromstring(
        f"<urlset {SITEMAP_NS}><url><loc>{BASE}</loc>{inner}</url></urlset>".encode())


@settings(max_examples=400, deadline=None)
@given(_DATES)
def test_a_date_check_accepts_is_one_the_xsd_accepts(xsd, value: str) -> None:
    """Every lastmod the date rule accepts, the XSD accepts too (and it is a W3C datetime)."""
    if schema.check_date(value) is None:
        assert xsd["urlset"].validate(_urlset(f"<lastmod>{value}</lastmod>")), value


@settings(max_examples=300, deadline=None)
@given(_DECIMALS)
def test_a_priority_check_accepts_is_one_the_xsd_accepts(xsd, value: str) -> None:
    """Priority: what check accepts the XSD accepts, and the other way round."""
    accepted = schema.ELEMENTS[f"{schema.SITEMAP}priority"].text(value) is None  # type: ignore[misc]
    assert accepted == xsd["urlset"].validate(_urlset(f"<priority>{value}</priority>")), value


@settings(max_examples=400, deadline=None)
@given(_URLS)
def test_a_url_check_accepts_is_one_the_xsd_accepts(xsd, value: str) -> None:
    """Every loc the URL rule accepts, the XSD accepts too (as a loc and as an image:loc)."""
    if schema.check_url(value) is None:
        escaped = value.replace("&", "&amp;")
        document = etree.fromstring(
            f'<urlset {SITEMAP_NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">'
            f"<url><loc>{escaped}</loc><image:image><image:loc>{escaped}</image:loc>"
            "</image:image></url></urlset>".encode())
        assert xsd["urlset"].validate(document), value


@pytest.mark.parametrize("space", ["\u00a0", "\u2028", "\u3000", "\x85", "&#160;"],
                         ids=["no-break", "line-separator", "ideographic", "next-line", "reference"])
@pytest.mark.parametrize("where", ["urlset", "url", "image"])
def test_only_xml_white_space_may_stand_among_elements(tmp_path: Path, xsd, space: str,
                                                       where: str) -> None:
    """Between the children of <urlset>, <url> or <image:image> the XSDs allow only XML's
    white space (space, tab, CR, LF): a no-break or line separator there is text, which
    check must refuse as the schemas do, however much it looks like space."""
    image = f"<image:image>{{}}{IMAGE}</image:image>"
    body = {"urlset": f"{{}}<url>{ABOUT}{image.format('')}</url>",
            "url": f"<url>{{}}{ABOUT}{image.format('')}</url>",
            "image": f"<url>{ABOUT}{image}</url>"}[where].format(space)
    data = (f'{DECLARATION}<urlset {SITEMAP_NS} xmlns:image="http://www.google.com/schemas/'
            f'sitemap-image/1.1">{body}</urlset>\n').encode()
    assert not xsd["urlset"].validate(etree.fromstring(data))
    site = tmp_path / "site"
    (site / "photos").mkdir(parents=True)
    (site / "about.html").write_text("<html><head><title>About</title></head></html>")
    (site / "photos" / "a.jpg").write_bytes(b"jpeg")
    (site / "sitemap.xml").write_bytes(data)
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [str(problem) for problem in problems if "holds text" in problem.message], problems


def _checked(site: Path) -> list[object]:
    """check's problems but its note that the sitemap is not this tool's (written by hand)."""
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    return [p for p in problems if "not by sitemap-plugins" not in p.message]


_SELF_LINK = '<xhtml:link rel="alternate" hreflang="en" href="https://example.org/about.html"'


@pytest.mark.parametrize(("extra", "valid"), [
    (' lang="fr_FR"', False), (' lang=""', False), (' lang="fr"', True),
    (' dir="up"', False), (' dir=" ltr "', True),
    (' media=""', False), (' media="a,,b"', False), (' media="screen, print"', True),
    (' id="1abc"', False), (' id="a b"', False), (' id=""', False), (' id="self"', True),
    (' class="a,b"', False), (' class="a b"', True), (' rev="x;y"', False),
    ("> </xhtml:link", False), ("><!-- a comment --></xhtml:link", True),
])
def test_xhtml_link_attributes_and_content_as_the_xhtml_schema_says(
        tmp_path: Path, xsd, extra: str, valid: bool) -> None:
    """xhtml:link is EMPTY (not even a space) and its XHTML attributes have types: an id is
    an XML name used once, dir is ltr or rtl, lang a language, class a list of name tokens,
    media a comma-separated list. check accepts exactly what the XHTML schema accepts."""
    link = _SELF_LINK + (extra if extra.endswith("link") else extra + "/") + ">"
    data = (f'{DECLARATION}<urlset {SITEMAP_NS} xmlns:xhtml="http://www.w3.org/1999/xhtml">'
            f"<url>{ABOUT}{link}</url></urlset>\n").encode()
    assert xsd["urlset"].validate(etree.fromstring(data)) == valid
    site = tmp_path / "site"
    site.mkdir()
    (site / "about.html").write_text("<html><head><title>About</title></head></html>")
    (site / "sitemap.xml").write_bytes(data)
    problems = _checked(site)
    assert (not problems) == valid, problems


def test_an_xhtml_link_id_may_stand_once_in_a_file(tmp_path: Path, xsd) -> None:
    """xs:ID values are unique in a document: the same id in two <url> entries fails."""
    entries = "".join(f'<url><loc>{BASE}{page}.html</loc>{_SELF_LINK.replace("about", page)} '
                      f'id="same"/></url>' for page in ("about", "contact"))
    data = (f'{DECLARATION}<urlset {SITEMAP_NS} xmlns:xhtml="http://www.w3.org/1999/xhtml">'
            f"{entries}</urlset>\n").encode()
    assert not xsd["urlset"].validate(etree.fromstring(data))
    site = tmp_path / "site"
    site.mkdir()
    for page in ("about", "contact"):
        (site / f"{page}.html").write_text(f"<html><head><title>{page}</title></head></html>")
    (site / "sitemap.xml").write_bytes(data)
    assert [str(problem) for problem in _checked(site)] == [
        ("sitemap.xml: line 2: <xhtml:link> id 'same' is used twice in the file (an xs:ID "
        "must be unique)")]


# --- random mutations of the tree: whatever the XSDs reject, check rejects -------------------

XSI = "{http://www.w3.org/2001/XMLSchema-instance}"
_TAGS = [*schema.ELEMENTS, f"{schema.SITEMAP}foo", "{urn:x}y", "loc", f"{schema.XHTML}p",
         f"{schema.IMAGE}foo", f"{schema.NEWS}url"]
_TEXTS = ["", " ", "x", "2024-02-30", "2024-13-01", "2024-01-01", "2024-01-01T10:00",
          "2024-01-01T10:00:00", "2024-01-01T25:00:00Z", "2024-01-01T10:00:00+14:01",
          "2024-01-01T10:00:00-14:00", " 2024-01-01 ", "+1.5", "1.0", "0", ".5", "-1", "1.",
          "weekly", "weekly ", "Weekly", "https://example.org/", "https://example.org/about.html",
          "http://a.b/", "/rel", "https://example.org/" + "a" * 2029, "https://example.org/a b",
          "https://example.org/%zz", "https://example.org/[x]", "yes", "YES", "maybe", "10",
          "28801", "en", "zh-cn", "EN", "english", "FR DE", "fr de", "web tv", "desktop",
          "Blog, Satire", "Gossip", "NASDAQ:A", "A", "t" * 101, "d" * 2049, "allow",
          "\u00a0", " \u2028 "]  # not XML white space: text where only elements may stand
_ATTRIBUTES = [("id", "x"), (f"{XSI}schemaLocation", "a b"), (f"{XSI}type", "x"),
               ("relationship", "allow"), ("relationship", "both"), ("href", BASE),
               ("href", "rel"), ("hreflang", "en_US"), ("hreflang", "de"), ("rel", "alternate"),
               ("foo", "1"), ("{urn:x}a", "1"), ("allow_embed", "yes"), ("allow_embed", "1"),
               ("duration", "-1"), ("type", "url"), ("currency", "EUR"), ("currency", "eur"),
               ("dir", "up"), ("id", "1x"), ("media", ""), ("class", "a,b"), ("lang", "fr_FR")]
_MUTATION = st.tuples(st.integers(0, 7), st.integers(0, 10_000), st.integers(0, 10_000))


def mutate(root: etree._Element, mutations: list[tuple[int, int, int]]) -> None:
    """Apply each (operation, element, choice) to the tree, in place."""
    for operation, which, choice in mutations:
        elements = list(root.iter(etree.Element))
        node = elements[which % len(elements)]
        parent = node.getparent()
        if operation == 0 and parent is not None:  # delete
            parent.remove(node)
        elif operation == 1 and parent is not None:  # duplicate
            parent.insert(parent.index(node) + 1, etree.fromstring(etree.tostring(node)))
        elif operation == 2 and parent is not None and parent.index(node) > 0:  # move up
            parent.insert(parent.index(node) - 1, node)
        elif operation == 3 and len(node) == 0:  # new text
            node.text = _TEXTS[choice % len(_TEXTS)]
        elif operation == 4:  # an attribute
            name, value = _ATTRIBUTES[choice % len(_ATTRIBUTES)]
            node.set(name, value)
        elif operation == 5:  # another name
            node.tag = _TAGS[choice % len(_TAGS)]
        elif operation == 6:  # a new child
            child = etree.SubElement(node, _TAGS[choice % len(_TAGS)])
            child.text = _TEXTS[(choice // 7) % len(_TEXTS)]
            node.insert(choice % (len(node) + 1), child)
        elif operation == 7:  # text among the children
            node.text = (node.text or "") + "x"


@pytest.fixture(scope="module")
def workbench(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("fuzz") / "site"
    shutil.copytree(built, site, symlinks=True)
    return site


@pytest.mark.integration
@settings(max_examples=int(os.environ.get("SITEMAP_FUZZ_EXAMPLES", "400")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(name="sitemap-news.xml", mutations=[(5, 2018, 7377)])  # a renamed <loc>
@given(name=st.sampled_from(["sitemap.xml", "sitemap-news.xml"]),
       mutations=st.lists(_MUTATION, min_size=1, max_size=3))
def test_what_the_xsd_rejects_check_rejects(workbench: Path, built: Path, xsd, name: str,
                                           mutations: list[tuple[int, int, int]]) -> None:
    """Random edits of the tree (delete, repeat, reorder, retext, rename, add): whenever the
    official XSDs reject the result, check reports a problem in that very file."""
    root = etree.fromstring((built / name).read_bytes())
    mutate(root, mutations)
    data = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    # The verdict on the bytes written (lxml may serialise a renamed element into the
    # default namespace: the tree in memory is not what check reads).
    root = etree.fromstring(data)
    kind = "sitemapindex" if etree.QName(root).localname == "sitemapindex" else "urlset"
    rejected = not xsd[kind].validate(root)
    (workbench / name).write_bytes(data)
    if name == "sitemap.xml":
        (workbench / "sitemap.xml.gz").write_bytes(gzip.compress(data, mtime=0))
    try:
        problems, _ = check_site(workbench, SitemapConfig.from_mapping({"base_url": BASE}))
    finally:
        shutil.copy2(built / name, workbench / name)
        shutil.copy2(built / "sitemap.xml.gz", workbench / "sitemap.xml.gz")
    # The one rule check leaves out: an empty news sitemap (what a build with no recent
    # article writes; Google takes it, sitemap.xsd wants a <url>).
    empty_news = name == "sitemap-news.xml" and len(root) == 0
    if rejected and not empty_news:
        assert any(problem.file == name for problem in problems), (
            f"{xsd[kind].error_log.last_error}\n{data.decode()[:3000]}")


@pytest.mark.integration
def test_check_reads_a_50_mib_sitemap_in_bounded_memory(tmp_path: Path) -> None:
    """Entries are checked as they are read and dropped: 588,000 image elements in a 44 MiB
    file cost less memory than twice the file (the whole tree took 350 MB before)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><head><title>t</title></head></html>", "utf-8")
    image = f"<image:image><image:loc>{BASE}i.jpg</image:loc></image:image>"
    entry = f"<url><loc>{BASE}</loc>{image * 12}</url>\n"
    (site / "sitemap.xml").write_text(
        f'{DECLARATION}<urlset {SITEMAP_NS} xmlns:image="http://www.google.com/schemas/'
        f'sitemap-image/1.1">\n{entry * 49_000}</urlset>\n', "utf-8")
    assert (site / "sitemap.xml").stat().st_size > 44 * 2**20
    done = subprocess.run([sys.executable, "-c", (
        "import re, sys; from sitemap_plugins.cli import main; code = main(sys.argv[1:]); "
        "status = open('/proc/self/status').read(); "
        r"print(re.search(r'VmHWM:\s+(\d+)', status).group(1)); sys.exit(code)"),
        "check", str(site), "--base-url", BASE], capture_output=True, text=True, timeout=120,
        check=False, cwd=ROOT)
    assert done.returncode == 1
    assert "<url> #2 (https://example.org/): duplicate URL" in done.stderr
    assert int(done.stdout.splitlines()[-1]) < 200 * 1024  # KiB

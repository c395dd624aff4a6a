"""Hostile pages against the HTML site map, the media entries and the news sitemap.

Each test names a class of input that once broke a product (a link that became a scheme, a
``lang`` that became a path, a tree deeper than Python's recursion limit, characters XML
forbids, a media host no URL may have, a quadratic parse, a news file past the limit) and
asserts what must hold whatever the instance: every link resolves to its page, every file is
well-formed and passes ``check``, nothing is written outside its folder, nothing hangs.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import pytest
from cost import assert_linear, hang_guard
from lxml import etree
from lxml import html as lxml_html

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.cli import main
from sitemap_plugins.page.reader import parse_html
from sitemap_plugins.products.check.checker import check_site
from sitemap_plugins.products.html_map.markup import MARKER, View, fill_themed
from sitemap_plugins.products.html_map.plan import HtmlEntry, NavNode, build_tree, in_order
from sitemap_plugins.vocab.urls import page_url, parse_base_url
from sitemap_plugins.vocab.values import is_language_tag, xml_text
from tests.test_html_map import run_chromium, serve

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

BASE = "https://example.org/"
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML_NS = "{http://www.w3.org/1999/xhtml}"
# What XML 1.0 forbids, as a page can spell it: C0 controls, U+FFFE, U+FFFF.
FORBIDDEN = ("\x01", "\x08", "\x0b", "\x1f", "\ufffe", "\uffff")
FORBIDDEN_REFERENCES = "&#1;&#x8;&#11;&#x1F;&#xFFFE;&#xFFFF;"


def _page(title: str, *, lang: str | None = "en", body: str = "", head: str = "") -> str:
    lang_attribute = "" if lang is None else f' lang="{lang}"'
    return (f"<!doctype html><html{lang_attribute}><head><title>{title}</title>{head}</head>"
            f"<body><main><h1>{title}</h1>{body}</main></body></html>")


def _write(site: Path, rel: str, text: str) -> None:
    path = site / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def _build(site: Path, *args: str) -> int:
    return main(["-q", "build", str(site), "--base-url", BASE, "--cache-dir",
                 str(site.parent / "cache"), *args])


def _listed(site: Path) -> list[str]:
    root = etree.parse(str(site / "sitemap.xml")).getroot()  # strict: well-formed or raises
    return [loc.text or "" for loc in root.iter(f"{SITEMAP_NS}loc")]


def _map_links(page_file: Path, page_url: str) -> list[str]:
    """The links of a site map page, as a browser resolves them (RFC 3986, section 5)."""
    tree = lxml_html.fromstring(page_file.read_bytes())
    return [urljoin(page_url, href) for href in tree.xpath("//a/@href")]


# --- the site map: every link resolves to the listed page ----------------------------------

SCHEME_LIKE = ["javascript:alert(1);x.html", "Category:X.html", "mailto:me.html", "data:x.html",
               "sub/Category:Y.html", "a:b/index.html", "tel:1/c:d.html", "x:/y.html"]


@pytest.mark.parametrize("map_path", ["sitemap/", "site-map.html", "deep/er/map.html"])
def test_every_link_of_the_map_resolves_to_its_page_whatever_the_name(
    tmp_path: Path, map_path: str
) -> None:
    """File names that read as a scheme (``javascript:``, ``Category:``) are linked as paths:
    each link, resolved against the map's own URL, is a URL the sitemap lists."""
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    for number, name in enumerate(SCHEME_LIKE):
        _write(site, name, _page(f"Page {number}"))
    assert _build(site, "--html-sitemap", map_path) == 0
    listed = _listed(site)
    own = map_path + "index.html" if map_path.endswith("/") else map_path
    own_url = BASE + (map_path if map_path.endswith("/") else own)
    links = _map_links(site / own, own_url)
    assert all(link.startswith(BASE) for link in links), links
    assert set(links) == set(listed) - {own_url}
    assert len(links) == len(SCHEME_LIKE) + 1


# Names whose characters mean something in a URL or to a file system: a query, a fragment,
# an escape, backslashes, spaces, decomposed accents, only dots, a drive letter.
ODD_NAMES = ["?a.html", "#b.html", "%c.html", "%41.html", "d\\e.html", "g h.html", " lead.html",
             "cafe\u0301.html", "caf\u00e9.html", "...html", ".html", "C:x.html", "d:\\z.html",
             "a;b.html", "x;y/index.html", "s@t.html", "q?/index.html", "#/index.html",
             "%2e%2e/index.html", "..%2f.html", ".../p.html", "a&b.html", "<x>.html",
             "javascript:alert(1)/index.html", "x:/index.html"]


@pytest.mark.parametrize("map_path", ["sitemap/", "site-map.html", "a;b/m.html", "x:y/m.html"])
@pytest.mark.parametrize("urls", ["directory", "file", "extensionless"])
def test_every_link_of_the_map_resolves_whatever_the_characters(
    tmp_path: Path, map_path: str, urls: str
) -> None:
    """Odd characters in file names and in the map's own path, under each URL style: each
    link, resolved against the map's own URL, is one of the URLs the sitemap lists."""
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    for number, name in enumerate(ODD_NAMES):
        _write(site, name, _page(f"Page {number}"))
    style = {"directory": [], "file": ["--no-directory-urls"],
             "extensionless": ["--extensionless-urls"]}[urls]
    assert _build(site, "--html-sitemap", map_path, *style) == 0
    listed = _listed(site)
    own = map_path + "index.html" if map_path.endswith("/") else map_path
    own_url = page_url(parse_base_url(BASE), own, directory_urls=urls == "directory",
                       extensionless_urls=urls == "extensionless")
    assert own_url in listed
    links = _map_links(site / own, own_url)
    assert sorted(links) == sorted(url for url in listed if url != own_url)
    shown = [name for name in ODD_NAMES if not name.startswith(".")]  # hidden: never listed
    assert len(links) == len(shown) + 1


@pytest.mark.integration  # Chromium
def test_a_browser_follows_each_link_of_the_map_to_its_page(tmp_path: Path) -> None:
    """Chromium resolves every ``href`` of the map (names like ``javascript:x.html`` at the
    root) to a URL the sitemap lists: none becomes a scheme."""
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    for number, name in enumerate(SCHEME_LIKE):
        _write(site, name, _page(f"Page {number}"))
    assert _build(site, "--html-sitemap", "site-map.html") == 0
    listed = {url.removeprefix(BASE) for url in _listed(site)}
    # A page of the same origin reads the map in a frame and shows what the browser made of
    # each link: the anchors' resolved href.
    _write(site, "probe.html", (
        "<!doctype html><body><iframe id='map' src='site-map.html'></iframe><script>"
        "document.getElementById('map').onload = () => { const d = document.getElementById("
        "'map').contentDocument; document.body.dataset.links = JSON.stringify([...d."
        "querySelectorAll('a[href]')].map(a => a.href)); };</script></body>"))
    servers: Iterator[str] = serve(site)
    root = next(servers)
    try:
        dom = run_chromium("--virtual-time-budget=5000", "--dump-dom", root + "probe.html").stdout
    finally:
        next(servers, None)
    found = lxml_html.fromstring(dom).xpath("//body/@data-links")
    assert found, dom[:2000]
    links = json.loads(found[0])
    assert len(links) == len(SCHEME_LIKE) + 1
    for link in links:
        assert link.startswith(root), link
        assert link.removeprefix(root) in listed, link


# --- the site map: a lang that is no language tag ------------------------------------------

BAD_LANGS = ["../../x", "/", "..", "a/b", "e n", " ", "", "english", "en\x01", "en&#1;",
             "x" * 300, "fr-", "-fr", "fr--ca", "sitemap/../..", "\u00e9n"]


@pytest.mark.parametrize("lang", BAD_LANGS, ids=range(len(BAD_LANGS)))
def test_a_lang_that_is_no_language_tag_counts_as_none(tmp_path: Path, lang: str) -> None:
    """A page's ``lang`` that is no BCP 47 tag never becomes a path, a <loc> or an hreflang:
    the page counts as having no language, with a note; every file stays well-formed."""
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    _write(site, "fr/index.html", _page("Accueil", lang="fr"))
    _write(site, "odd.html", _page("Odd", lang=lang))
    before = set(tmp_path.rglob("*"))
    result = generate(site, SitemapConfig.from_mapping({
        "base_url": BASE, "html_sitemap": "sitemap/", "cache_dir": str(tmp_path / "cache")}))
    made = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p not in before}
    # The site's lock lives in the default cache folder beside it (.sitemap-cache).
    outside = {p for p in made if not p.startswith(("site/", "cache", ".sitemap-cache"))}
    assert outside == set()
    assert {p for p in made if p.startswith("site/sitemap")} >= {
        "site/sitemap/index.html", "site/sitemap-fr/index.html"}
    assert all(p.count("/") <= 2 for p in made if p.startswith("site/sitemap-")), made
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    hreflangs = [link.get("hreflang") or "" for link in root.iter(f"{XHTML_NS}link")]
    assert hreflangs
    assert all(is_language_tag(code) for code in hreflangs), hreflangs
    listed = [loc.text or "" for loc in root.iter(f"{SITEMAP_NS}loc")]
    assert sorted(listed) == sorted(
        [BASE, f"{BASE}fr/", f"{BASE}odd.html", f"{BASE}sitemap/", f"{BASE}sitemap-fr/"])
    if lang.strip():
        notes = [d for d in result.diagnostics if d.path == "odd.html" and d.code == "bad-lang"]
        assert [d.level.value for d in notes] == ["info"]
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [p for p in problems if not getattr(p, "warning", False)] == []


@pytest.mark.parametrize("lang", ["en", "pt-BR", "zh-Hant-TW", "sr-Latn", "es-419", "x-klingon",
                                  "de-CH-1901", "en_US"])
def test_a_language_tag_is_kept(lang: str) -> None:
    """Well-formed tags (and ``en_US``, read as ``en-US``) stay the page's language."""
    record = parse_html(_page("T", lang=lang).encode())
    assert record.lang == lang.replace("_", "-")
    assert record.problems == ()


NO_LANGUAGE = ["x-default", "und", "zxx", "mul", "qaa", "x-foo", "i-default", "und-Latn"]


@pytest.mark.parametrize("lang", NO_LANGUAGE)
def test_a_tag_of_no_language_gets_no_page_and_no_news_language(
        tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Well-formed tags that name no language (undetermined, private use, ``x-default``):
    the page is listed in the site's own list (no ``sitemap-und/``, never a second
    ``hreflang="x-default"`` in the map's head), and its news entry names the publication's
    language, not ``und``."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1715040000")  # 2024-05-07
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    _write(site, "fr/index.html", _page("Accueil", lang="fr"))
    _write(site, "odd.html", _page("Odd", lang=lang, head=(
        "<meta property='article:published_time' content='2024-05-06T09:00:00Z'>")))
    assert _build(site, "--html-sitemap", "sitemap/", "--news", "name=Daily",
                  "--news", "language=de") == 0
    assert sorted(p.parent.name for p in site.glob("sitemap*/index.html")) == [
        "sitemap", "sitemap-fr"]
    own = lxml_html.fromstring((site / "sitemap" / "index.html").read_bytes())
    head = own.xpath("//link[@rel='alternate']/@hreflang")
    assert sorted(head) == ["en", "fr", "x-default"]
    assert f"{BASE}odd.html" in _map_links(site / "sitemap" / "index.html", f"{BASE}sitemap/")
    news = etree.parse(str(site / "sitemap-news.xml")).getroot()
    languages = [e.text for e in news.iter("{http://www.google.com/schemas/sitemap-news/0.9}"
                                           "language")]
    assert languages == ["de"]


# --- the site map: trees deeper than the recursion limit ----------------------------------

@pytest.fixture
def nested(tmp_path: Path) -> Iterator[Callable[[Path, str, int], list[Path]]]:
    """Makes chains of nested folders, and deletes them from the bottom up after the test:
    pytest's own clean-up (a recursive shutil.rmtree on Python 3.11) fails on a thousand
    levels with RecursionError and leaves them for every later run to trip over."""
    chains: list[list[Path]] = []

    def make(top: Path, name: str, levels: int) -> list[Path]:
        top.mkdir(parents=True, exist_ok=True)
        folders = [top]
        for _ in range(levels):  # one at a time: mkdir(parents=True) recurses too
            folders.append(folders[-1] / name)
            folders[-1].mkdir()
        chains.append(folders[1:])
        return folders[1:]

    yield make
    for folders in chains:
        for folder in reversed(folders):
            for child in folder.iterdir():
                if not child.is_dir():
                    child.unlink()
            folder.rmdir()


@pytest.mark.parametrize("depth_option", ["0", "3", "20"])
@pytest.mark.integration  # a large input
def test_a_thousand_nested_folders_give_a_site_map(
        tmp_path: Path, depth_option: str, capsys: pytest.CaptureFixture[str],
        nested: Callable[[Path, str, int], list[Path]]) -> None:
    """A thousand nested folders: every page is linked once, the lists nest a bounded number
    of levels, and no error names a template option that was never given."""
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    for level, folder in enumerate(nested(site, "d", 1000)):
        _write(folder, "index.html", _page(f"Level {level}"))
    assert _build(site, "--html-sitemap", "sitemap/", "--html-sitemap-depth", depth_option) == 0
    assert "template" not in capsys.readouterr().err
    page = lxml_html.fromstring((site / "sitemap" / "index.html").read_bytes())
    links = page.xpath("//*[@role='navigation']//a/@href")
    assert len(links) == len(set(links)) == 1001
    deepest = max(len(list(ul.iterancestors("ul"))) for ul in page.iter("ul"))
    assert deepest < 100


@pytest.mark.integration  # a large input
def test_a_template_of_ones_own_recursing_over_a_deep_tree(
        tmp_path: Path, nested: Callable[[Path, str, int], list[Path]]) -> None:
    """A user's template that recurses over the tree (as the shipped one does) renders a
    tree of a thousand levels: the tree it is given is never that deep."""
    template = tmp_path / "mine.html"
    template.write_text(
        "{% macro walk(section) %}{% for item in section.items %}<li>"
        "{% if item.items is defined %}{{ item.name }}<ul>{{ walk(item) }}</ul>"
        "{% else %}<a href='{{ item.loc }}'>{{ item.title }}</a>{% endif %}</li>"
        "{% endfor %}{% endmacro %}<!doctype html><html lang='{{ lang }}'><title>{{ title }}"
        "</title><ul>{% if tree.index %}<li><a href='{{ tree.index.loc }}'>{{ tree.index.title }}"
        "</a></li>{% endif %}{{ walk(tree) }}</ul></html>", "utf-8")
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    for level, folder in enumerate(nested(site, "f", 1000)):
        _write(folder, f"p{level}.html", _page(f"Level {level}"))
    assert _build(site, "--html-sitemap", "map.html", "--html-sitemap-template",
                  str(template)) == 0
    links = sum(page.read_text("utf-8").count("<a href=") for page in site.glob("map*.html"))
    assert links == 1001  # in two parts: past 1,000 links the list goes on in map-2.html


def test_a_navigation_deeper_than_the_recursion_limit() -> None:
    """A host's navigation nested five thousand deep is placed without recursion; every page
    is shown once, in the navigation's order."""
    entries = [HtmlEntry(f"{BASE}p{n}.html", f"p{n}.html", f"Page {n}") for n in range(5000)]
    node = NavNode("Last", "p4999.html")
    for number in reversed(range(4999)):
        node = NavNode(f"Page {number}", f"p{number}.html", (node,))
    for depth in (0, 2, 10_000):
        shown = [entry.rel_path for entry in in_order(build_tree(entries, depth, (node,)))]
        assert shown == [entry.rel_path for entry in entries]


# --- characters XML forbids ----------------------------------------------------------------

def test_characters_xml_forbids_never_reach_a_file(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Controls, U+FFFE and U+FFFF in titles, headings, video text and the news name are
    dropped: sitemap.xml, the news sitemap and the site map are well-formed and pass check."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1715040000")  # 2024-05-07
    site = tmp_path / "site"
    dirty = f"Bad{FORBIDDEN_REFERENCES}title"
    video = (f"<figure><video src='/v.mp4' poster='/p.jpg' title='Film{FORBIDDEN_REFERENCES}'>"
             f"</video><figcaption>Cap{FORBIDDEN_REFERENCES}</figcaption></figure>"
             f"<iframe src='https://www.youtube.com/embed/abcdefghij0' "
             f"title='Clip&#1;'></iframe>")
    _write(site, "index.html", _page(dirty, body=video, head=(
        "<meta property='article:published_time' content='2024-05-06T09:00:00Z'>"
        f"<meta name='description' content='Desc{FORBIDDEN_REFERENCES}'>")))
    record = parse_html((site / "index.html").read_bytes())
    assert any(char in (record.title or "") for char in FORBIDDEN)  # the page holds them
    config = SitemapConfig.from_mapping({
        "base_url": BASE, "html_sitemap": "sitemap/", "videos": True,
        "cache_dir": str(tmp_path / "cache"),
        "news": {"name": "Daily\x01\ufffe News", "language": "en"}})
    result = generate(site, config)
    assert result.news == 1
    for name in ("sitemap.xml", "sitemap-news.xml", "sitemap/index.html"):
        text = (site / name).read_text("utf-8")
        assert not any(char in text for char in FORBIDDEN), name
    for name in ("sitemap.xml", "sitemap-news.xml"):
        etree.parse(str(site / name))  # strict XML: raises when not well-formed
    news = (site / "sitemap-news.xml").read_text("utf-8")
    assert "<news:name>Daily News</news:name>" in news
    assert re.search(r"<news:title>Bad ?title</news:title>", news), news
    titles = etree.parse(str(site / "sitemap.xml")).getroot().iter(
        "{http://www.google.com/schemas/sitemap-video/1.1}title")
    assert sorted((title.text or "").strip() for title in titles) == ["Clip", "Film"]
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [str(p) for p in problems if not getattr(p, "warning", False)] == []


@pytest.mark.parametrize("text", ["a\x00b", "\ud800x", "x\udfff", "\x7f\x80ok", "\U0001f600"])
def test_xml_text_keeps_only_what_xml_allows(text: str) -> None:
    """Whatever the string, what xml_text gives an XML parser reads back as itself."""
    cleaned = xml_text(text)
    element = etree.fromstring(f"<t>{cleaned}</t>".encode("utf-8", "surrogatepass"))
    assert element.text == cleaned


# --- media hosts that no URL may have ------------------------------------------------------

BAD_HOSTS = ["exa mple.org", 'ex"ample.org', "ex<ample.org", "ex>ample.org", "ex{ample.org",
             "ex|ample.org", "ex^ample.org", "ex`ample.org", "[::1",
             # An IP literal that is no IPv6 address: its brackets were dropped and another
             # host (v1.x) listed; a zone or a stray bracket is a host no browser loads.
             "[v1.x]", "[fe80::1%25eth0]", "[::1]]", "[::1]x"]


def test_media_urls_are_only_ones_check_accepts(tmp_path: Path) -> None:
    """Images and videos whose host holds a space, a quote, ``<`` and the like are left out;
    the well-formed ones stay, and check accepts the whole file."""
    site = tmp_path / "site"
    body = "".join(f"<img src='https://{host}/i{n}.png'>" for n, host in enumerate(BAD_HOSTS))
    body += "".join(f"<video src='https://{host}/v.mp4' poster='/p{n}.jpg' title='V'></video>"
                    f"<video src='/v{n}.mp4' poster='https://{host}/p.jpg' title='W'></video>"
                    for n, host in enumerate(BAD_HOSTS))
    body += "<img src='https://cdn.example.net/ok.png'><img src='HTTPS://CDN.Example.NET/b.png'>"
    _write(site, "index.html", _page("Media", body=body))
    assert _build(site) == 0
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    images = [e.text for e in root.iter("{http://www.google.com/schemas/sitemap-image/1.1}loc")]
    assert images == ["https://cdn.example.net/ok.png", "https://cdn.example.net/b.png"]
    assert list(root.iter("{http://www.google.com/schemas/sitemap-video/1.1}video")) == []
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [str(p) for p in problems if not getattr(p, "warning", False)] == []


@pytest.mark.parametrize(("src", "listed"), [
    ("img\\photo.png", f"{BASE}img/photo.png"),
    ("..\\up.png", f"{BASE}up.png"),
    ("https://cdn.example.net\\a\\b.png", "https://cdn.example.net/a/b.png"),
    ("\\\\cdn.example.net\\c.png", "https://cdn.example.net/c.png"),
    ("/q.png?x=a\\b", f"{BASE}q.png?x=a%5Cb"),
], ids=["relative", "up", "absolute", "scheme-relative", "in-query"])
def test_a_backslash_in_a_media_url_is_read_as_browsers_read_it(
        tmp_path: Path, src: str, listed: str) -> None:
    """Before the query, a backslash in an http(s) URL is a slash (WHATWG URL): the image
    listed is the one the page shows, never ``img%5Cphoto.png``, which no server has."""
    site = tmp_path / "site"
    _write(site, "sub/index.html", _page("Media", body=f"<img src='{src}'>"))
    assert _build(site) == 0
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    images = [e.text for e in root.iter("{http://www.google.com/schemas/sitemap-image/1.1}loc")]
    assert images == [listed.replace(BASE + "img", BASE + "sub/img")]
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [str(p) for p in problems if not getattr(p, "warning", False)] == []


# --- parsing in linear time ----------------------------------------------------------------

def _within(work: Callable[[], object]) -> None:
    """Run ``work`` under a guard of minutes: 1 MB of a quadratic case would take hours. The
    guard is no bound on speed (a busy machine fails nothing); counts are, where the work is
    Python's (:func:`cost.assert_linear`)."""
    with hang_guard():
        work()


@pytest.mark.parametrize("attribute", [
    "a.jpg{space}b.jpg", "a.jpg{space}100", "a.jpg{space}1x{space}z, b.jpg{space}2q",
    "a.jpg{space}1x, b.jpg{space}2x", "{space}a.jpg 1w{space},", ",{space}x" * 2])
def test_a_megabyte_srcset_is_read_in_linear_time(attribute: str) -> None:
    """Long runs of white space in ``srcset`` (a minute for 100 KB once) take well under a
    second for 1 MB; the widest candidate is still found."""
    space = " \t\n" * (1_000_000 // 3 // max(attribute.count("{space}"), 1))
    srcset = attribute.format(space=space)
    html = (f"<html><body><main><img srcset='{srcset}'><picture><source srcset='{srcset}'>"
            "</picture></main></body></html>")
    records: list[object] = []
    _within(lambda: records.append(parse_html(html.encode())))
    assert records


def test_many_videos_in_one_figure_are_read_in_linear_time() -> None:
    """Twenty thousand videos in one figure (a minute once): read in seconds at most, the
    first thousand kept, each with the figure's caption."""
    def page(count: int) -> bytes:
        return ("<html><body><main><figure>" + "<video src=a.mp4 poster=p.jpg></video>" * count
                + "<figcaption>Caption</figcaption></figure></main></body></html>").encode()
    assert_linear(lambda count: parse_html(page(count)), 5_000)
    html = page(20_000)
    records = []
    _within(lambda: records.append(parse_html(html)))
    videos = records[0].videos
    assert len(videos) == 1_000
    assert {video.caption for video in videos} == {"Caption"}


def test_images_sharing_a_heavy_ancestor_are_read_in_linear_time() -> None:
    """Forty thousand images inside one link with a megabyte ``href`` and one element of 990
    attributes: where each image sits was asked anew for each (14 s; 38 s for twenty
    thousand images under twenty thousand attributes); each ancestor is read once, and the
    first thousand images are kept. (Past 1,000 attributes the page is read only up to that
    element: see test_reader.)"""
    def page(images: int) -> bytes:
        return ("<html><body><main><a href='/" + "x" * 1_000_000 + "'><div "
                + " ".join(f"data-a{n}={'y' * 100}" for n in range(990)) + ">"
                + "".join(f"<img src='/i{n}.png'>" for n in range(images))
                + "</div></a></main></body></html>").encode()
    assert_linear(lambda images: parse_html(page(images)), 5_000)
    html = page(40_000)
    records = []
    _within(lambda: records.append(parse_html(html)))
    assert records[0].images == tuple(f"/i{n}.png" for n in range(1_000))


@pytest.mark.parametrize("junk", ["<html ", '<html lang="', "<title ", "<title>", "<h1>",
                                  "<h1 "])
def test_a_themed_shell_full_of_unclosed_tags_is_filled_in_linear_time(junk: str) -> None:
    """The host's themed page for the site map, with a megabyte of unclosed tags before its
    own (their runs were tried again from every later start: 16 s for 120 KB of "<html "):
    filled in well under the limit, and the real ``lang``, title and heading still found."""
    shell = (junk * (1_000_000 // len(junk)) + '<html lang="fr"><head><title>Plan du site'
             f"</title></head><body><h1>Plan du site</h1>{MARKER}</body></html>")
    view = View(build_tree([], 0), 0, "de", "Seitenübersicht", [], [], [])
    filled: list[str] = []
    _within(lambda: filled.append(fill_themed(shell, view)))
    tail = filled[0][-400:]
    assert '<html lang="de">' in tail
    assert "<title>Seitenübersicht</title>" in tail
    assert "<h1>Seitenübersicht</h1>" in tail


def test_a_themed_shell_without_lang_after_unclosed_tags_is_filled_in_linear_time() -> None:
    """No ``lang`` to find after a megabyte of "<html ": each start looked to the end (this
    took minutes)."""
    shell = ("<html " * 200_000 + "<html><head><title>Site map</title></head><body>"
             f"<h1>Site map</h1>{MARKER}</body></html>")
    view = View(build_tree([], 0), 0, "de", "Seitenübersicht", [], [], [])
    filled: list[str] = []
    _within(lambda: filled.append(fill_themed(shell, view)))
    assert MARKER not in filled[0]
    assert "<title>Seitenübersicht</title>" in filled[0][-400:]


def test_srcset_picks_the_widest_candidate() -> None:
    """The rewrite keeps the meaning: width or density descriptors, the first when none."""
    cases = {"a.jpg 100w, b.jpg 300w, c.jpg 200w": "b.jpg", "a.jpg": "a.jpg",
             "a.jpg 2x, b.jpg": "a.jpg", "x.jpg 1.5x,y.jpg 1x": "x.jpg", " , ": ""}
    for srcset, expected in cases.items():
        record = parse_html(f"<html><body><main><img srcset='{srcset}'></main>".encode())
        assert record.images == ((expected,) if expected else ()), srcset


# --- the news sitemap and the size limit ---------------------------------------------------

def test_the_news_sitemap_never_passes_max_bytes(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A long publication name and many articles: the news sitemap keeps the newest that fit
    in max_bytes, says so in one line, and check accepts it."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1715040000")  # 2024-05-07
    site = tmp_path / "site"
    for number in range(60):
        _write(site, f"a{number:02}.html", _page(f"Article {number}", head=(
            f"<meta property='article:published_time' "
            f"content='2024-05-06T09:{number:02}:00Z'>")))
    name = "Daily " + "N" * 1_000
    assert main(["build", str(site), "--base-url", BASE, "--cache-dir",
                 str(tmp_path / "cache"), "--max-bytes", "16384", "--news", f"name={name}",
                 "--news", "language=en"]) == 0
    size = (site / "sitemap-news.xml").stat().st_size
    assert 8_000 < size <= 16_384
    root = etree.parse(str(site / "sitemap-news.xml")).getroot()
    titles = [t.text for t in root.iter("{http://www.google.com/schemas/sitemap-news/0.9}title")]
    assert titles[0] == "Article 59"  # the newest first
    assert len(titles) < 60
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "max_bytes" in line]
    assert len(lines) == 1, err
    assert f"the newest {len(titles)} are listed" in lines[0]
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [str(p) for p in problems if not getattr(p, "warning", False)] == []


def test_text_of_only_forbidden_characters_counts_as_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A title, heading, video title or caption of nothing but ``&#1;``-like characters is no
    text: the next source is used (or the video and article left out), never an empty
    element that check refuses, never an empty link in the site map."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1715040000")  # 2024-05-07
    site = tmp_path / "site"
    nothing = FORBIDDEN_REFERENCES
    _write(site, "index.html", (
        f"<html lang='en'><head><title>{nothing}</title><meta property='article:published_"
        f"time' content='2024-05-06T09:00:00Z'><meta property='og:title' content='{nothing}'>"
        f"</head><body><main><h1>{nothing}</h1><figure><video src='/v.mp4' poster='/p.jpg' "
        f"title='{nothing}'></video><figcaption>{nothing}</figcaption></figure></main></body>"
        "</html>"))
    _write(site, "b.html", (
        f"<html lang='en'><head><title>Bee</title><meta name='description' content='{nothing}'>"
        f"</head><body><main><h1>{nothing}</h1><figure><video src='/w.mp4' poster='/q.jpg' "
        f"title='Clip {nothing}'></video><figcaption>{nothing}</figcaption></figure></main>"
        "</body></html>"))
    config = SitemapConfig.from_mapping({
        "base_url": BASE, "html_sitemap": "sitemap/", "cache_dir": str(tmp_path / "cache"),
        "news": {"name": "Daily", "language": "en"}})
    generate(site, config)
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [str(p) for p in problems if not getattr(p, "warning", False)] == []
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    video = "{http://www.google.com/schemas/sitemap-video/1.1}"
    assert [(e.findtext(f"{video}title"), e.findtext(f"{video}description"))
            for e in root.iter(f"{video}video")] == [("Clip", "Clip")]
    page = lxml_html.fromstring((site / "sitemap" / "index.html").read_bytes())
    assert all(anchor.text_content().strip() for anchor in page.iter("a"))


@pytest.mark.integration  # a large input
def test_a_thousand_languages_do_not_write_a_million_links(tmp_path: Path) -> None:
    """Pages claiming a thousand languages (282 MB of site map once: each language's page
    links every other): the output stays small, every page is linked once, a note says it."""
    site = tmp_path / "site"
    for number in range(1000):
        _write(site, f"p{number}.html", _page(f"P{number}", lang=f"en-{1000 + number}"))
    _write(site, "q.html", _page("Q", lang="en-1999"))  # the one language with two pages
    result = generate(site, SitemapConfig.from_mapping({
        "base_url": BASE, "html_sitemap": "sitemap/", "cache_dir": str(tmp_path / "cache")}))
    pages = sorted(site.glob("sitemap*/index.html"))
    size = sum(path.stat().st_size for path in site.rglob("*") if path.is_file())
    assert size < 20_000_000
    assert len(pages) < 200
    own = lxml_html.fromstring((site / "sitemap" / "index.html").read_bytes())
    assert own.get("lang") == "en-1999"  # the language of most pages is the site's
    links = [link for page in pages
             for link in _map_links(page, BASE + page.parent.name + "/")
             if not link.startswith(f"{BASE}sitemap")]
    assert sorted(links) == sorted([f"{BASE}p{n}.html" for n in range(1000)] + [f"{BASE}q.html"])
    assert [d.code for d in result.diagnostics if d.code == "html-sitemap-languages"] == [
        "html-sitemap-languages"]


@pytest.mark.parametrize("name", ["\x01", "\x01 \x02", "\ufffe\uffff", " \x0b "])
def test_a_news_name_of_only_forbidden_characters_is_refused(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A publication name that would be written empty (check and Google refuse an empty
    news:name) is a usage error, one line, before anything is written."""
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    assert main(["build", str(site), "--base-url", BASE, "--news", f"name={name}", "--news",
                 "language=en"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --news: Expected name:"), err
    assert len(err.splitlines()) == 1
    assert not (site / "sitemap-news.xml").exists()


def test_a_failure_of_the_shipped_template_never_blames_the_template_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """When no template was given, a failure while rendering (here made up) is one line that
    names the site map, never ``--html-sitemap-template``, and exits 1, not 2."""
    from sitemap_plugins.products.html_map import markup  # noqa: PLC0415

    def broken(_view: object) -> str:
        msg = "maximum recursion depth exceeded"
        raise RecursionError(msg)

    monkeypatch.setattr(markup.View, "direction", property(broken))
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home"))
    assert main(["build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/"]) == 1
    err = capsys.readouterr().err
    assert "error: cannot render the HTML site map: maximum recursion depth exceeded" in err
    assert "template" not in err


@pytest.mark.parametrize("source", ["./", "", "?", "#x", "index.html", "/", BASE],
                         ids=["dot", "empty", "query", "fragment", "file", "root", "absolute"])
def test_a_video_whose_file_is_the_page_itself_is_not_listed(tmp_path: Path,
                                                            source: str) -> None:
    """``<video src>`` naming the page itself (Google requires the video's own URL): the
    video is left out as having no video URL, and check accepts the file."""
    site = tmp_path / "site"
    _write(site, "index.html", _page("Home", body=(
        f"<video src='{source}' poster='/p.jpg' title='V'></video>")))
    assert _build(site) == 0
    assert "video:video" not in (site / "sitemap.xml").read_text("utf-8")
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [str(p) for p in problems if not getattr(p, "warning", False)] == []


@pytest.mark.parametrize("source", ["modified", "published", "file"])
def test_a_lastmod_in_the_future_is_never_written(tmp_path: Path, source: str) -> None:
    """A page dated decades ahead (a scheduled post, a typo in the year; check refuses such a
    lastmod) gets its date from the next source, with a note of why."""
    site = tmp_path / "site"
    meta = {"modified": "<meta property='article:modified_time' content='2099-01-01'>",
            "published": "<meta property='article:published_time' content='2099-01-01'>",
            "file": ""}[source]
    _write(site, "index.html", _page("Home", head=meta))
    if source == "file":
        ahead = time.time() + 80 * 365 * 86400
        os.utime(site / "index.html", (ahead, ahead))
    result = generate(site, SitemapConfig.from_mapping({
        "base_url": BASE, "cache_dir": str(tmp_path / "cache"),
        "lastmod_file_time": source == "file"}))
    assert "2099" not in (site / "sitemap.xml").read_text("utf-8")
    assert "future-date" in {d.code for d in result.diagnostics}
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert [str(p) for p in problems if not getattr(p, "warning", False)] == []

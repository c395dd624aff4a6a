"""The HTML site map: the same URLs as the XML sitemap, accessible markup, options, a browser."""

from __future__ import annotations

import functools
import http.server
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import threading
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urljoin

import pytest
from lxml import etree
from lxml import html as lxml_html

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.cli import main
from sitemap_plugins.products.html_map.markup import MARKER
from sitemap_plugins.products.html_map.pages import OWN_MARK
from sitemap_plugins.products.html_map.plan import (
    MAX_LINKS,
    HtmlEntry,
    NavNode,
    Section,
    build_tree,
    in_order,
    names_in,
    page_title,
    site_map_title,
)
from tests.test_adapter_mkdocs import copy_sample, make_site, run_host
from tests.test_adapter_pelican import copy_site, pelican
from tests.test_cli import BASE, make_traps

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "screenshots"
SELF = "https://example.org/sitemap/"
SITE_MAP_LIST = ('//*[@role="navigation"][contains(concat(" ", @class, " "), '
                 '" sitemap-plugins-html-sitemap ")]')
SITE_MAP_LINKS = ('//*[@role="navigation"][contains(concat(" ", @class, " "), '
                  '" sitemap-plugins-html-sitemap-links ")]//a/@href')


@dataclass
class MapPage:
    """One page of the HTML site map as a reader meets it."""

    url: str
    lang: str
    links: list[str]
    """The list's links to pages in its language, absolute."""
    tree: lxml_html.HtmlElement
    elsewhere: tuple[str, ...] = ()
    """Its links to untranslated pages, in the language that has them (``hreflang``)."""


def crawl(first: str, fetch: Callable[[str], str]) -> dict[str, MapPage]:
    """Every page of the site map reachable from ``first``, through its language and part
    links (``fetch(url)`` gives a page's HTML)."""
    found: dict[str, MapPage] = {}
    waiting = [first]
    while waiting:
        url = waiting.pop()
        if url in found:
            continue
        tree = lxml_html.fromstring(fetch(url))
        links = [urljoin(url, href)
                 for href in tree.xpath(SITE_MAP_LIST + "//a[not(@hreflang)]/@href")]
        elsewhere = tuple(urljoin(url, href)
                          for href in tree.xpath(SITE_MAP_LIST + "//a[@hreflang]/@href"))
        found[url] = MapPage(url, tree.get("lang") or "", links, tree, elsewhere)
        waiting.extend(urljoin(url, href) for href in tree.xpath(SITE_MAP_LINKS))
    return found


def file_fetcher(site: Path, base: str) -> Callable[[str], str]:
    """Read a page of ``site`` by its URL under ``base``, as a server would."""
    def fetch(url: str) -> str:
        path = unquote(url.removeprefix(base))
        for candidate in (path, path + "index.html", path + "index.htm",
                          path.rstrip("/") + ".html"):
            if (site / candidate).is_file():
                return (site / candidate).read_text("utf-8", errors="replace")
        raise FileNotFoundError(url)
    return fetch


@pytest.fixture
def built(tmp_path: Path) -> Path:
    site = make_traps(tmp_path / "site")
    assert main(["-q", "build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    return site


def test_its_pages_link_exactly_the_xml_sitemaps_urls(
    built: Path, sitemap_urls: Callable[..., list[str]]
) -> None:
    """Together the pages (one per language) link every URL of the XML sitemap but their
    own, once, each in its own language's page; the XML lists each of them once."""
    urls = sitemap_urls(built)
    pages = crawl(SELF, file_fetcher(built, BASE))
    assert set(pages) == {SELF, BASE + "sitemap-fr/", BASE + "sitemap-ja/"}
    assert all(urls.count(url) == 1 for url in pages)
    links = [link for page in pages.values() for link in page.links]
    assert len(links) == len(set(links))
    assert set(links) == set(urls) - set(pages)
    assert (built / "sitemap.txt").read_text("utf-8").splitlines().count(SELF) == 1
    fetch = file_fetcher(built, BASE)
    for page in pages.values():
        for link in page.links:
            lang = lxml_html.fromstring(fetch(link)).get("lang") or "en"
            assert lang.lower() == page.lang.lower(), (page.url, link)


def test_languages_are_linked_as_translations(built: Path) -> None:
    """Each language's page names the others in its head and in a visible list, and the XML
    sitemap gives the same alternates (its schema validation is in sitemap_urls)."""
    pages = crawl(SELF, file_fetcher(built, BASE))
    expected = {("en", SELF), ("fr", BASE + "sitemap-fr/"), ("ja", BASE + "sitemap-ja/"),
                ("x-default", SELF)}
    for page in pages.values():
        head = {(link.get("hreflang"), link.get("href"))
                for link in page.tree.xpath('//head/link[@rel="alternate"]')}
        assert head == expected
        shown = {urljoin(page.url, href) for href in page.tree.xpath(SITE_MAP_LINKS)}
        assert shown == {url for _, url in expected} - {page.url}
    xml = etree.parse(str(built / "sitemap.xml"))
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9",
          "x": "http://www.w3.org/1999/xhtml"}
    for url in pages:
        entry = xml.xpath("//s:url[s:loc = $u]", namespaces=ns, u=url)[0]
        alternates = {(a.get("hreflang"), a.get("href")) for a in entry.xpath("x:link",
                                                                             namespaces=ns)}
        assert alternates == expected
    assert pages[BASE + "sitemap-fr/"].tree.xpath("//h1/text()") == ["Plan du site"]


def test_markup_is_accessible_without_javascript(built: Path) -> None:
    """Each page: one h1, nested lists inside named navigation landmarks (distinct names),
    lang set, and no script."""
    for page in crawl(SELF, file_fetcher(built, BASE)).values():
        tree = page.tree
        assert len(tree.xpath("//h1")) == 1
        landmarks = tree.xpath('//nav | //*[@role="navigation"]')
        names = [landmark.get("aria-label", "").strip() for landmark in landmarks]
        assert len(names) >= 2, names  # the languages' links, the list
        assert all(names), names
        assert len(names) == len(set(names)), names
        assert tree.get("lang")
        assert not tree.xpath("//script")
    home = crawl(SELF, file_fetcher(built, BASE))[SELF].tree
    assert home.xpath(SITE_MAP_LIST + "//ul//ul//a")  # nested by folder


@pytest.mark.parametrize("value", ["../out.html", "/abs.html", "notes.txt", "a/../../b.html"])
def test_bad_path_is_one_clear_line(tmp_path: Path, value: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A path that leaves the site or is not an HTML file stops the build with one line."""
    site = make_traps(tmp_path / "site")
    status = main(["build", str(site), "--base-url", BASE, "--html-sitemap", value])
    assert status == 2
    err = capsys.readouterr().err
    assert "html-sitemap: Expected a path inside the site" in err
    assert len(err.strip().splitlines()) == 1
    assert not (site / "sitemap.xml").exists()


def _shape(section: Section) -> list[object]:
    """The tree as nested lists of titles: a section is [heading, *items]."""
    return [item.title if isinstance(item, HtmlEntry)
            else [item.index.title if item.index else item.name, *_shape(item)]
            for item in section.items]


def test_depth_folds_deeper_pages_into_their_ancestor() -> None:
    """With depth 1, a page two folders down is listed under its top folder, not nested."""
    entries = [HtmlEntry("a", "index.html", "Home"), HtmlEntry("b", "x/y/z.html", "Z"),
               HtmlEntry("c", "x/index.html", "X")]
    tree = build_tree(entries, depth=1)
    assert tree.index is not None
    assert _shape(tree) == ["X", "Z"]
    deep = build_tree(entries, depth=0)
    assert deep.index is not None
    assert _shape(deep) == [["X", ["y", "Z"]]]


def test_navigation_sets_order_sections_and_titles() -> None:
    """The host's navigation wins: its order, its sections and its titles; pages it does
    not name follow by folder; sections with no listed page are left out."""
    entries = [HtmlEntry("u1", "index.html", "Welcome"), HtmlEntry("u2", "b.html", "Bee"),
               HtmlEntry("u3", "guide/install.html", "Install"),
               HtmlEntry("u4", "guide/index.html", "Guide home"),
               HtmlEntry("u5", "about/index.html", "About us")]
    outline = [NavNode("Home", "index.html"),
               NavNode("Guide", None, (NavNode(None, "guide/index.html"),
                                       NavNode("Installing", "guide/install.html"))),
               NavNode("Empty", None, (NavNode("Gone", "gone.html"),)),
               NavNode("Bee page", "b.html")]
    tree = build_tree(entries, 0, outline)
    assert _shape(tree) == ["Home", ["Guide", "Guide home", "Installing"], "Bee page",
                            ["About us"]]
    assert [e.loc for e in in_order(tree)] == ["u1", "u4", "u3", "u2", "u5"]
    assert _shape(build_tree(entries, 1, outline)) == [
        "Home", "Guide home", "Installing", "Bee page", "About us"]


def test_title_prefers_the_heading_and_drops_the_site_suffix() -> None:
    """The h1 is used as it is; a <title> loses its ' - Site' suffix."""
    assert page_title("Install - My Docs", "Installing", "u") == "Installing"
    assert page_title("Install - My Docs", None, "u") == "Install"
    assert page_title("Install | My Docs", "", "u") == "Install"
    assert page_title(None, None, "https://e/x") == "https://e/x"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        """Keep the test output clean."""


def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 for the length of a test."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def served(built: Path) -> Iterator[str]:
    yield from serve(built)


def chromium() -> str:
    """The Chromium executable, or a failure that says how to install it."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not installed: run `apt-get install -y chromium` "
                    "(scripts/setup.sh does it when run as root)")
    return found


def run_chromium(*args: str) -> subprocess.CompletedProcess[str]:
    """Headless Chromium with a fresh profile and no network of its own."""
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", *args],
            check=True, capture_output=True, text=True, timeout=120)


@pytest.mark.integration
def test_browser_renders_links_that_all_resolve(
    built: Path, served: str, sitemap_urls: Callable[..., list[str]]
) -> None:
    """Chromium shows the pages; each link in their DOM opens a built page; screenshot saved."""
    _check_in_browser(built, served, BASE, "sitemap/", "cli-html-sitemap.png", sitemap_urls)


def test_a_page_of_the_site_at_that_path_is_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The site's own about.html is refused as the site map's path; it stays as it was."""
    site = make_traps(tmp_path / "site")
    before = (site / "about.html").read_bytes()
    status = main(["build", str(site), "--base-url", BASE, "--html-sitemap", "about.html"])
    assert status == 2
    assert "is a page of the site" in capsys.readouterr().err
    assert (site / "about.html").read_bytes() == before


def _dom(url: str) -> str:
    return run_chromium("--dump-dom", url).stdout


def _check_in_browser(site: Path, root_url: str, base: str, page: str, shot_name: str,
                      sitemap_urls: Callable[..., list[str]]) -> dict[str, MapPage]:
    """Open the site map's pages in Chromium: together their links are the XML sitemap's
    URLs, each answers, and so does every stylesheet; a screenshot of each language's."""
    pages = crawl(root_url + page, _dom)
    links = [link for found in pages.values() for link in found.links]
    assert len(links) == len(set(links))
    listed = set(sitemap_urls(site))
    assert {link.replace(root_url, base) for link in links} == \
        listed - {url.replace(root_url, base) for url in pages}
    assert {url.replace(root_url, base) for url in pages} <= listed
    # A link to an untranslated page goes to a listed page, in another language's list.
    assert {link.replace(root_url, base) for found in pages.values()
            for link in found.elsewhere} <= {link.replace(root_url, base) for link in links}
    styles = [style for url, found in pages.items()
              for href in found.tree.xpath('//link[@rel="stylesheet"]/@href')
              if (style := urljoin(url, href)).startswith(root_url)]  # not web fonts
    for link in [*links, *styles]:  # the local server answers with a built file, or 404
        with urllib.request.urlopen(link, timeout=10) as response:
            assert response.status == 200, link
    SCREENSHOTS.mkdir(exist_ok=True)
    for url, found in sorted(pages.items()):
        stem = shot_name.removesuffix(".png")
        name = shot_name if url == root_url + page else f"{stem}-{found.lang}.png"
        shot = SCREENSHOTS / name
        shot.unlink(missing_ok=True)
        run_chromium(f"--screenshot={shot}", "--window-size=1200,1400", url)
        assert shot.read_bytes().startswith(b"\x89PNG")
    return pages


@pytest.mark.integration
def test_mkdocs_renders_it_inside_the_material_theme(
    tmp_path: Path, sitemap_urls: Callable[..., list[str]]
) -> None:
    """MkDocs writes the site map as a Material page (header, nav) with the list filled in,
    in the order and with the titles of mkdocs.yml's nav; the French pages get their own,
    rendered by mkdocs-static-i18n's French build in the French folder."""
    project = copy_sample(tmp_path / "project", edit=lambda text: text.replace(
        "  - sitemap\n", "  - sitemap:\n      html_sitemap: sitemap/\n"))
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    page = (build.site / "sitemap" / "index.html").read_text("utf-8")
    assert "sitemap-plugins:html-sitemap" not in page
    for server_url in serve(build.site):
        pages = _check_in_browser(build.site, server_url, "https://example.org/project/",
                                  "sitemap/", "mkdocs-html-sitemap.png", sitemap_urls)
        assert {page.lang for page in pages.values()} == {"en", "fr"}
        for found in pages.values():
            tree = found.tree
            assert len(tree.xpath("//h1")) == 1
            assert tree.xpath('//header[contains(@class, "md-header")]')
            assert tree.xpath('//nav[contains(@class, "md-nav")]')
            assert tree.xpath('//link[@rel="stylesheet"][contains(@href, "main")]')
        english = pages[server_url + "sitemap/"].tree
        top = [" ".join(li.xpath("string(./a | ./text())").split())
               for li in english.xpath(SITE_MAP_LIST + "/ul/li")]
        assert top == ["Home", "Guide", "Référence", "Q&A", "News", "Media", "About"]
        french = pages[server_url + "fr/sitemap/"].tree
        assert french.xpath(SITE_MAP_LIST + "/ul/li[1]/a/text()") == ["Accueil"]
        # The pages with no French translation (fallback copies, not listed): linked in
        # English, marked so, in the French list's order.
        untranslated = french.xpath(SITE_MAP_LIST + '//a[@hreflang="en"]')
        assert sorted(urljoin(server_url + "fr/sitemap/", a.get("href"))
                      for a in untranslated) == [server_url + path for path in (
            "about/", "guide/advanced/", "guide/advanced/tuning/", "guide/install/",
            "media/", "news/", "q%26a/")]
        assert all(a.xpath('string(following-sibling::small[@lang="en"])') == "(English)"
                   for a in untranslated)
        assert not english.xpath(SITE_MAP_LIST + "//a[@hreflang]")  # it has every page
        # The theme around each list is in its language: the site's name, the search field,
        # the navigation (whose home leads to that language's home).
        for rel, site_name, search, home in (
                ("sitemap/", "Sitemap Sample Project", "Search", ("Home", "")),
                ("fr/sitemap/", "Projet d'exemple", "Rechercher", ("Accueil", "fr/"))):
            tree = pages[server_url + rel].tree
            assert tree.xpath('normalize-space(//*[contains(@class, "md-header__topic")])'
                              ) == site_name
            assert tree.xpath('//input[@name="query"]/@placeholder') == [search]
            primary = tree.xpath('//nav[contains(@class, "md-nav--primary")]//a')
            assert home[0] in [" ".join(a.text_content().split()) for a in primary]
            assert {urljoin(server_url + rel, a.get("href")) for a in primary
                    if " ".join(a.text_content().split()) == home[0]} == {server_url + home[1]}
        # Each named in its language: the page's title and heading.
        for tree, name in ((english, "Site map"), (french, "Plan du site")):
            assert tree.xpath("string(//h1)").strip() == name
            assert tree.xpath("string(//title)").startswith(name)


@pytest.mark.integration
def test_pelican_renders_it_inside_the_theme(
    tmp_path: Path, sitemap_urls: Callable[..., list[str]]
) -> None:
    """Pelican writes the site map as a page of its theme (banner, menu, styles) with the
    list filled in: categories with their articles newest first, then pages, then listings."""
    site = copy_site(tmp_path / "source")
    article = site / "content" / "code" / "hello-pelican.md"
    article.write_text(article.read_text("utf-8") + "\n\n# Not the title\n", "utf-8")
    out = tmp_path / "out"
    out.mkdir()
    for server_url in serve(out):  # SITEURL is the server's: the theme's styles load from it
        build = pelican(site, out, 'SITEMAP_PLUGINS={"html_sitemap": "sitemap/"}',
                        f'SITEURL="{server_url.rstrip("/")}"')
        assert build.returncode == 0, build.log
        assert "sitemap-plugins:html-sitemap" not in (out / "sitemap/index.html").read_text()
        pages = _check_in_browser(out, server_url, server_url, "sitemap/",
                                  "pelican-html-sitemap.png", sitemap_urls)
        assert {page.lang for page in pages.values()} == {"en", "fr"}
        for found in pages.values():
            assert found.tree.xpath('//header[@id="banner"]//nav//a')  # notmyidea's menu
            assert found.tree.xpath('//link[@rel="stylesheet"][contains(@href, "main.css")]')
        english = pages[server_url + "sitemap/"].tree
        assert english.xpath('//h1[@class="entry-title"]/text()') == ["Site map"]
        french = pages[server_url + "sitemap-fr/"].tree
        assert french.xpath('normalize-space(//h1[@class="entry-title"])') == "Plan du site"
        assert french.xpath("string(//title)").startswith("Plan du site")
        # The theme's menu, shared by both, still names the English page as Pelican does.
        assert english.xpath("string(//title)").startswith("Site map")
        sections = [" ".join(li.xpath("string(./a | ./text())").split())
                    for li in english.xpath(SITE_MAP_LIST + "/ul/li[ul]")]
        # The blog index first, its further pages folded under it (not at the top).
        assert sections[:5] == ["Example Blog", "Code", "Food & Drink", "Travel", "Pages"]
        assert english.xpath(SITE_MAP_LIST + "/ul/li[1]/ul/li/a/text()") == [
            "Example Blog, page 2", "Example Blog, page 3", "Example Blog, page 4"]
        assert sections[-2:] == ["Tags", "Authors"]
        code = english.xpath(SITE_MAP_LIST + '/ul/li[a="Code"]/ul/li/a/text()')
        # Pelican's titles, not the first heading of the content ("Not the title").
        assert code == ["R&D notes", "Sitemaps explained", "Hello, Pelican", "Code, page 2"]


@pytest.mark.integration
@pytest.mark.parametrize(("host", "language", "name"), [
    ("pelican", "de", "Seitenübersicht"), ("mkdocs", "fr", "Plan du site"),
    ("mkdocs", None, "Site map"), ("pelican", "zh-TW", "網站地圖"),
    ("pelican", "zh-CN", "网站地图"),
    ("mkdocs", "zh_TW", "網站地圖")])
def test_the_page_is_named_in_the_sites_language(tmp_path: Path, host: str,
                                                 language: str | None, name: str) -> None:
    """Pelican's DEFAULT_LANG, the MkDocs theme's locale: the page's title and heading, and
    the names of the sections the host gives none (Pelican's listings)."""
    if host == "pelican":
        out = tmp_path / "out"
        source = copy_site(tmp_path / "source")
        for text in source.glob("content/**/*.md"):  # one language: the site's own
            if text.name.endswith("-fr.md"):
                text.unlink()
            else:
                text.write_text(text.read_text("utf-8").replace("Lang: en\n", ""), "utf-8")
        build = pelican(source, out, 'SITEMAP_PLUGINS={"html_sitemap": "sitemap/"}',
                        f'DEFAULT_LANG="{language}"')
        page = out / "sitemap" / "index.html"
    else:
        theme = f"theme:\n  name: mkdocs\n  locale: {language}\n" if language else ""
        project = make_site(tmp_path / "project", (
            f"site_name: T\nsite_url: https://example.org/\n{theme}"
            "plugins:\n  - sitemap:\n      html_sitemap: sitemap/\n"), {"index.md": "# Home\n"})
        build = run_host(project, "--strict")
        page = build.site / "sitemap" / "index.html"
    assert build.returncode == 0, build.log
    tree = lxml_html.fromstring(page.read_bytes())
    assert tree.xpath("string(//title)").startswith(name)
    assert name in [" ".join(h.text_content().split()) for h in tree.xpath("//h1")]
    if host == "pelican":  # and the sections Pelican names not, in the site's language too
        items = {" ".join(li.xpath("string(./a | ./text())").split())
                 for li in tree.xpath(SITE_MAP_LIST + "//li")}
        expected = {"de": {"Seiten", "Archiv", "Schlagwörter", "Autoren", "Code, Seite 2"},
                    "zh-TW": {"頁面", "歸檔", "標籤", "作者", "Code 第 2 頁"},
                    "zh-CN": {"页面", "归档", "标签", "Code 第 2 页"}}[str(language)]
        assert expected <= items
        assert not {"Pages", "Tags", "Authors", "Code, page 2"} & items


def test_chinese_labels_follow_the_script_of_the_language_tag() -> None:
    """Traditional for zh-Hant and the regions that write it (Taiwan, Hong Kong, Macau),
    Simplified for zh-Hans, China, Singapore and a bare zh; an explicit script wins."""
    traditional, simplified = "網站地圖", "网站地图"
    for tag in ("zh-TW", "zh_TW", "zh-Hant", "zh-hant-CN", "zh-HK", "zh-MO", "ZH-TW",
                "zh-Hant-TW"):
        assert site_map_title(tag) == traditional, tag
        assert names_in(tag)["page"].format(name="Blog", number=2) == "Blog 第 2 頁"
    for tag in ("zh", "zh-CN", "zh_CN", "zh-SG", "zh-Hans", "zh-Hans-TW", "zh-Hans-HK"):
        assert site_map_title(tag) == simplified, tag
    assert site_map_title("fr-CA") == "Plan du site"


@pytest.mark.integration
def test_pelican_merges_categories_by_slug_and_folds_pagination(tmp_path: Path) -> None:
    """Seen on a real blog: "Physics" and "physics" are one category to Pelican (one page,
    category/physics.html), so one section holding both articles; the blog index's further
    pages ("page N") sit under the index, not at the top of the list."""
    site = tmp_path / "source"
    (site / "content").mkdir(parents=True)
    (site / "pelicanconf.py").write_text(
        'SITENAME = "Lab notes"\nSITEURL = "https://example.org"\nPATH = "content"\n'
        'TIMEZONE = "UTC"\nDEFAULT_LANG = "en"\nDEFAULT_PAGINATION = 1\n'
        'FEED_ALL_ATOM = None\nCATEGORY_FEED_ATOM = None\nAUTHOR_FEED_ATOM = None\n'
        'AUTHOR_FEED_RSS = None\nPLUGINS = ["sitemap_plugins.pelican"]\n'
        'SITEMAP_PLUGINS = {"html_sitemap": "sitemap/"}\n', "utf-8")
    for number, category in enumerate(("Physics", "physics", "Cooking", "Physics"), 1):
        (site / "content" / f"post{number}.md").write_text(
            f"Title: Post {number}\nDate: 2024-01-0{number}\nCategory: {category}\n\n"
            f"Text {number}.\n", "utf-8")
    out = tmp_path / "out"
    build = pelican(site, out, fatal=False)
    assert build.returncode == 0, build.log
    tree = lxml_html.fromstring((out / "sitemap" / "index.html").read_bytes())
    shape = _list_shape(tree.xpath(SITE_MAP_LIST + "/ul/li"))
    assert shape[:2] == ["Lab notes", ["Lab notes, page 2", "Lab notes, page 3",
                                       "Lab notes, page 4"]]
    headings = [item for item in shape if isinstance(item, str)]
    assert [h for h in headings if h.casefold() == "physics"] == ["Physics"] or \
        [h for h in headings if h.casefold() == "physics"] == ["physics"]
    physics = shape[shape.index(next(h for h in headings if h.casefold() == "physics")) + 1]
    assert physics == ["Post 4", "Post 2", "Post 1", "Physics, page 2", "Physics, page 3"]
    links = tree.xpath(SITE_MAP_LIST + '/ul/li[a][translate(normalize-space(a), "P", "p")'
                       '="physics"]/a/@href')
    assert [urljoin("https://example.org/sitemap/", link) for link in links] == [
        "https://example.org/category/physics.html"]


def _list_shape(items: list[lxml_html.HtmlElement]) -> list[object]:
    """The site map's list as nested Python lists: each item's text, then its sub-list."""
    shape: list[object] = []
    for li in items:
        shape.append(" ".join(li.xpath("string(./a | ./text())").split()))
        if li.xpath("./ul"):
            shape.append(_list_shape(li.xpath("./ul/li")))
    return shape


@pytest.mark.integration
def test_mkdocs_material_blog_posts_and_pages_go_under_the_blog(tmp_path: Path) -> None:
    """Material's blog (its posts and further pages are in no nav): the posts, newest first,
    and the further pages of the blog index, named "Blog, page 2", are listed under the
    blog's entry, not in folders at the end (posts by date folder; every further page read
    "Blog", as on a real blog where three links read "Index")."""
    project = make_site(tmp_path / "project", (
        "site_name: T\nsite_url: https://example.org/\ntheme: material\n"
        "nav:\n  - Home: index.md\n  - blog/index.md\n"
        "plugins:\n  - blog:\n      pagination_per_page: 1\n      archive: false\n"
        "      categories: false\n  - sitemap:\n      html_sitemap: sitemap/\n"), {
        "index.md": "# Home\n",
        "blog/index.md": "# Blog\n",
        "blog/posts/a.md": "---\ndate: 2024-01-02\n---\n# Older post\n\nA.\n",
        "blog/posts/b.md": "---\ndate: 2024-03-04\n---\n# Newer post\n\nB.\n",
    })
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    tree = lxml_html.fromstring((build.site / "sitemap" / "index.html").read_bytes())
    assert _list_shape(tree.xpath(SITE_MAP_LIST + "/ul/li")) == [
        "Home", "Blog", ["Newer post", "Older post", "Blog, page 2"]]


SECTION_INDEX_HOOK = '''\
"""What mkdocs-section-index does to the nav: a section's untitled first page heads it."""
from mkdocs.structure.nav import Section
from mkdocs.structure.pages import Page


class SectionPage(Section, Page):
    def __init__(self, title, file, config, children):
        Page.__init__(self, title=title, file=file, config=config)
        Section.__init__(self, title=title, children=children)
        self.is_section = self.is_page = True


def on_nav(nav, config, files):
    for i, section in enumerate(nav.items):
        if isinstance(section, Section) and section.children:
            page = section.children[0]
            if isinstance(page, Page) and not page.title:
                page.__class__ = SectionPage
                page.is_section = page.is_page = True
                page.title = section.title
                page.children = section.children[1:]
                for child in page.children:
                    child.parent = page
                nav.items[i] = page
    return nav
'''


@pytest.mark.integration
def test_mkdocs_section_index_pages_keep_their_children(tmp_path: Path) -> None:
    """A nav section headed by its index page (mkdocs-section-index: the page is the section)
    keeps its pages under it, in the nav's order and titles, not in folders at the end."""
    project = make_site(tmp_path / "project", (
        "site_name: T\nsite_url: https://example.org/\ntheme: mkdocs\nhooks:\n  - hook.py\n"
        "nav:\n  - Home: index.md\n  - Usage:\n    - usage/index.md\n"
        "    - Theming: usage/theming.md\n    - Guides:\n      - Recipes: recipes.md\n"
        "plugins:\n  - sitemap:\n      html_sitemap: sitemap/\n"), {
        "index.md": "# Home\n",
        "usage/index.md": "# Usage\n",
        "usage/theming.md": "# Themes\n",
        "recipes.md": "# Recipes\n",
    })
    (project / "hook.py").write_text(SECTION_INDEX_HOOK, "utf-8")
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    tree = lxml_html.fromstring((build.site / "sitemap" / "index.html").read_bytes())
    assert _list_shape(tree.xpath(SITE_MAP_LIST + "/ul/li")) == [
        "Home", "Usage", ["Theming", "Guides", ["Recipes"]]]
    assert tree.xpath(SITE_MAP_LIST + "/ul/li[2]/a/@href") == ["../usage/"]
    # The plugin's own page is in no nav on purpose: MkDocs says nothing about it.
    assert 'not included in the "nav"' not in build.log
    assert "sitemap/index.md" not in build.log


@pytest.mark.integration
def test_mkdocs_i18n_language_menu_of_the_site_map(tmp_path: Path) -> None:
    """With mkdocs-static-i18n and Material, the site map's language menu and the theme's
    hreflang links lead to each language's home, as on any untranslated page, and never to
    the translations of the page rendered before it (they led to 'référence/café/')."""
    project = copy_sample(tmp_path / "project", edit=lambda text: text.replace(
        "  - sitemap\n", "  - sitemap:\n      html_sitemap: sitemap/\n"))
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    homes = {"en": "https://example.org/project/", "fr": "https://example.org/project/fr/"}
    for rel in ("sitemap/", "fr/sitemap/"):
        url = "https://example.org/project/" + rel
        tree = lxml_html.fromstring((build.site / rel / "index.html").read_bytes())
        menu = {a.get("hreflang"): urljoin(url, a.get("href"))
                for a in tree.xpath('//a[contains(@class, "md-select__link")]')}
        assert menu == homes, rel
        # The theme's own hreflang links, besides the site map's (absolute, to its pages).
        theme = {link.get("hreflang"): urljoin(url, link.get("href"))
                 for link in tree.xpath('//head/link[@rel="alternate"][@hreflang]')
                 if not link.get("href").startswith("https://")}
        assert theme == homes, rel


def _pages_site(folder: Path, count: int) -> Path:
    """A site of ``count`` pages in ten folders."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text("<!doctype html><title>Home</title>")
    for number in range(count):
        page = folder / f"part{number % 10}" / f"p{number:05d}.html"
        page.parent.mkdir(exist_ok=True)
        page.write_text(f"<!doctype html><title>Page {number:05d} - Site</title>")
    return folder


@pytest.mark.integration
def test_a_long_list_is_split_into_parts_linked_from_the_first(
    tmp_path: Path, sitemap_urls: Callable[..., list[str]]
) -> None:
    """Past MAX_LINKS links the list goes on in further parts, each linked from every part;
    when the site shrinks, the parts it no longer needs go, and a user's file stays."""
    site = _pages_site(tmp_path / "site", 2 * MAX_LINKS + 345)
    user_file = site / "sitemap-9" / "index.html"
    user_file.parent.mkdir()
    user_file.write_text("<!doctype html><title>My own page</title>")
    args = ["-q", "build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/",
            "--cache-dir", str(tmp_path / "cache")]
    assert main(args) == 0
    pages = crawl(SELF, file_fetcher(site, BASE))
    assert len(pages) == 3
    first = pages[SELF].tree.xpath(SITE_MAP_LINKS)
    assert {urljoin(SELF, href) for href in first} == set(pages) - {SELF}
    assert all(len(page.links) <= MAX_LINKS for page in pages.values())
    links = [link for page in pages.values() for link in page.links]
    assert len(links) == len(set(links))
    assert set(links) == set(sitemap_urls(site)) - set(pages)
    for number in range(2 * MAX_LINKS + 345 - 10):  # the site shrinks to fewer than MAX_LINKS
        (site / f"part{number % 10}" / f"p{number:05d}.html").unlink()
    assert main(args) == 0
    assert len(crawl(SELF, file_fetcher(site, BASE))) == 1
    assert not (site / "sitemap-2").exists()
    assert not (site / "sitemap-3").exists()
    assert user_file.read_text() == "<!doctype html><title>My own page</title>"
    assert BASE + "sitemap-9/" in sitemap_urls(site)


@pytest.mark.parametrize(("template", "why"), [
    (None, "(no such file)"),
    ("<p>{% for x in %}</p>", "(line 1: Expected an expression, got 'end of statement block')"),
    ("/", "(a folder)"),
], ids=["missing", "syntax-error", "folder"])
def test_a_bad_template_stops_the_build_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: str | None, why: str,
) -> None:
    """The template is compiled with the options: one line, exit 2, nothing written."""
    site = make_traps(tmp_path / "site")
    path = tmp_path / "map.html"
    if template == "/":
        path.mkdir()
    elif template is not None:
        path.write_text(template)
    status = main(["build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/",
                   "--html-sitemap-template", str(path)])
    assert status == 2
    err = capsys.readouterr().err
    assert err == (f"error: --html-sitemap-template: Expected a Jinja2 template file but "
                   f"received: {str(path)!r} {why}\n")
    assert not (site / "sitemap.xml").exists()
    assert not (site / "sitemap").exists()


@pytest.mark.parametrize(("template", "why"), [
    ("{{ 1 / 0 }}", "division by zero"),
    ("{{ count + 'a' }}", "unsupported operand type(s) for +: 'int' and 'str'"),
    ('{% include "map.html" %}', "maximum recursion depth exceeded"),
    ('{% include "gone.html" %}', "'gone.html' not found in search paths"),
], ids=["zero-division", "type-error", "include-itself", "missing-include"])
def test_a_template_failing_as_it_renders_keeps_the_last_sitemap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: str, why: str,
) -> None:
    """A template that compiles but fails while rendering stops the build with one line,
    exit 2, before the sitemap naming the site map page is written: the last one stays."""
    site = make_traps(tmp_path / "site")
    cache = ["--cache-dir", str(tmp_path / "c")]
    assert main(["-q", "build", str(site), "--base-url", BASE, *cache]) == 0
    before = {p.name: p.read_bytes() for p in site.iterdir() if p.is_file()}
    path = tmp_path / "map.html"
    path.write_text(template)
    capsys.readouterr()
    status = main(["build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/",
                   "--html-sitemap-template", str(path), *cache])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith(f"error: --html-sitemap-template: cannot render 'map.html': {why}")
    assert err.count("\n") == 1
    assert {p.name: p.read_bytes() for p in site.iterdir() if p.is_file()} == before
    assert not (site / "sitemap").exists()


def test_a_site_map_folder_linked_out_of_the_site_is_never_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A symbolic link where the site map's folder goes, to a folder outside the site: one
    line, exit 2, and nothing written there (the page went out of the site through it)."""
    site = make_traps(tmp_path / "site")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (site / "sitemap").symlink_to(outside, target_is_directory=True)
    status = main(["-q", "build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/",
                   "--cache-dir", str(tmp_path / "c")])
    assert status == 2
    assert capsys.readouterr().err.splitlines() == [(
        "error: --html-sitemap: 'sitemap/index.html' leads out of the site through a symbolic "
        "link; remove the link or choose another path")]
    assert list(outside.iterdir()) == []
    assert not (site / "sitemap.xml").exists()


def test_a_folder_named_in_bytes_that_are_not_utf8_is_shown_readably(tmp_path: Path) -> None:
    """A folder whose name is not UTF-8 (Latin-1 from an old archive): its page is listed,
    the folder's heading shows U+FFFD for those bytes, and the site map page is UTF-8 (it
    stopped with a UnicodeEncodeError traceback after the sitemap was written)."""
    site = make_traps(tmp_path / "site")
    folder = site / os.fsdecode(b"caf\xe9")
    folder.mkdir()
    (folder / "a.html").write_text("<title>Latin-1 folder</title>", "utf-8")
    assert main(["-q", "build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/",
                 "--cache-dir", str(tmp_path / "c")]) == 0
    page = (site / "sitemap" / "index.html").read_bytes().decode("utf-8")
    assert '<a href="../caf%E9/a.html">Latin-1 folder</a>' in page
    assert "caf\ufffd" in page


BAD_TEMPLATE_WHY = "(line 1: Expected an expression, got 'end of statement block')"


@pytest.mark.integration
def test_a_bad_template_stops_mkdocs_and_pelican_alike(tmp_path: Path) -> None:
    """The same template error stops MkDocs (path relative to mkdocs.yml) and Pelican with
    the same words as the command line, before anything is written."""
    project = make_site(tmp_path / "p", "site_name: S\nsite_url: https://docs.example.org/\n"
                        "plugins:\n  - sitemap:\n      html_sitemap: sitemap/\n"
                        "      html_sitemap_template: map.html\n", {"index.md": "# Home\n"})
    (project / "map.html").write_text("<p>{% for x in %}</p>")
    build = run_host(project)
    assert build.returncode == 1
    assert (f"Plugin 'sitemap' option 'html_sitemap_template': Expected a Jinja2 template "
            f"file but received: {str(project / 'map.html')!r} {BAD_TEMPLATE_WHY}") in build.log
    assert not (build.site / "sitemap.xml").exists()
    template = tmp_path / "map.html"
    template.write_text("<p>{% for x in %}</p>")
    site = copy_site(tmp_path / "source")
    ran = pelican(site, tmp_path / "out",
                  f'SITEMAP_PLUGINS={{"html_sitemap": "sitemap/", '
                  f'"html_sitemap_template": "{template}"}}')
    assert ran.returncode == 1
    assert ran.messages("CRITICAL") == [
        (f"SettingsError: SITEMAP_PLUGINS['html_sitemap_template']: Expected a Jinja2 "
         f"template file but received: {str(template)!r} {BAD_TEMPLATE_WHY}")]
    assert not (tmp_path / "out" / "sitemap.xml").exists()


def test_a_template_of_ones_own_gets_the_same_list(tmp_path: Path) -> None:
    """A user's template can reuse the shipped list and still be recognised as ours."""
    site = make_traps(tmp_path / "site")
    template = tmp_path / "mine.html"
    template.write_text('{% from "html_sitemap_nav.html" import body %}<!doctype html>'
                        '<html lang="{{ lang }}"><title>{{ title }}</title><h1>My map</h1>'
                        "{{ body(view) }}</html>")
    args = ["-q", "build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/",
            "--html-sitemap-template", str(template), "--cache-dir", str(tmp_path / "c")]
    assert main(args) == 0
    pages = crawl(SELF, file_fetcher(site, BASE))
    assert len(pages) == 3
    assert pages[SELF].tree.xpath("//h1/text()") == ["My map"]
    assert main(args) == 0  # its own page of last time is not "a page of the site"


# A theme that styles its menu by the element, as Flex (a common Pelican theme) does: these
# are Flex's own rules. They centre every ``main nav`` in capitals and hide its loose text.
_MENU_RULES = ("main nav{text-align:center;text-transform:uppercase;padding:14px 0;"
               "border-bottom:1px solid #eee;font-size:0}"
               "main nav a{font-size:12px;padding:0 4px;border-right:1px solid #eee}"
               "main nav :last-child{border-right:none}")
# What Chromium made of each item of the list: its text's size, its link's case, its left edge.
_PROBE = """<script>
addEventListener("load", () => {
  const items = [...document.querySelectorAll(".sitemap-plugins-html-sitemap li")];
  document.getElementById("probe").textContent = JSON.stringify(items.map(li => {
    const link = li.querySelector(":scope > a");
    let depth = 0;
    for (let up = li.parentElement; up; up = up.parentElement) depth += up.tagName === "UL";
    return {depth, left: li.getBoundingClientRect().left,
            size: parseFloat(getComputedStyle(li).fontSize),
            linkSize: link ? parseFloat(getComputedStyle(link).fontSize) : null,
            case: link ? getComputedStyle(link).textTransform : null};
  }));
});
</script>"""
_THEMED_BASE = """<!DOCTYPE html><html lang="{{ DEFAULT_LANG }}"><head><meta charset="utf-8">
<title>{% block title %}{{ SITENAME }}{% endblock %}</title><style>RULES</style></head>
<body><main><nav><a href="/">Home</a><a href="/blog/">Blog</a></nav>
{% block content %}{% endblock %}</main><pre id="probe"></pre>PROBE</body></html>
""".replace("RULES", _MENU_RULES).replace("PROBE", _PROBE)


@pytest.mark.integration
def test_a_theme_that_styles_its_menu_by_the_element_leaves_the_list_alone(
    tmp_path: Path,
) -> None:
    """In a theme whose CSS styles ``main nav`` as its menu (Flex), the site map reads as a
    list: every item's text shows, in its own case, each level indented under the last."""
    overrides = tmp_path / "templates"
    overrides.mkdir()
    (overrides / "base.html").write_text(_THEMED_BASE, "utf-8")
    site = copy_site(tmp_path / "source")
    out = tmp_path / "out"
    out.mkdir()
    for server_url in serve(out):
        build = pelican(site, out, 'SITEMAP_PLUGINS={"html_sitemap": "sitemap/"}',
                        f'SITEURL="{server_url.rstrip("/")}"',
                        f'THEME_TEMPLATES_OVERRIDES=["{overrides}"]')
        assert build.returncode == 0, build.log
        dom = run_chromium("--virtual-time-budget=5000", "--dump-dom",
                           server_url + "sitemap/").stdout
    items = json.loads(lxml_html.fromstring(dom).xpath("string(//pre[@id='probe'])"))
    assert len(items) > 20
    menu_case = {item["case"] for item in items if item["case"] is not None}
    assert menu_case == {"none"}
    assert all(item["size"] > 0 for item in items)  # "Pages", a section without a page
    assert all(item["linkSize"] is None or item["linkSize"] > 0 for item in items)
    lefts: dict[int, set[float]] = {}
    for item in items:
        lefts.setdefault(item["depth"], set()).add(round(item["left"]))
    assert all(len(edges) == 1 for edges in lefts.values()), lefts  # not centred
    depths = sorted(lefts)
    assert len(depths) >= 3
    assert all(min(lefts[a]) < min(lefts[b]) for a, b in itertools.pairwise(depths))


def _shell(lang: str, banner: str) -> str:
    """A host's themed page awaiting the list, as MkDocs renders the plugin's page."""
    return (f'<!doctype html><html lang="{lang}"><head><title>{banner}</title></head><body>'
            f'<header>{banner}</header><main>{MARKER}</main></body></html>')


@pytest.mark.integration
def test_each_languages_page_fills_the_page_its_host_rendered(tmp_path: Path) -> None:
    """A multilingual host renders each language's site map page in that language's build
    (mkdocs-static-i18n: ``fr/sitemap/``): the list fills it there, in its theme; the page
    an earlier build wrote beside the site's (``sitemap-fr/``) goes, and so does a rendered
    page of a language no page of the site has."""
    site = tmp_path / "site"
    for rel, lang, title in (("index.html", "en", "Home"), ("guide/index.html", "en", "Guide"),
                             ("fr/index.html", "fr", "Accueil"),
                             ("fr/guide/index.html", "fr", "Guide FR")):
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(f'<!doctype html><html lang="{lang}"><head><title>{title}'
                                f"</title></head><body><main><h1>{title}</h1></main></body></html>")
    for rel, lang, banner in (("sitemap/index.html", "en", "Sample"),
                              ("fr/sitemap/index.html", "fr", "Exemple"),
                              ("de/sitemap/index.html", "de", "Beispiel")):
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(_shell(lang, banner), "utf-8")
    earlier = site / "sitemap-fr" / "index.html"  # where an earlier build put the French list
    earlier.parent.mkdir()
    earlier.write_text(f"<!doctype html><html lang=fr><title>Plan</title>\n{OWN_MARK}\n")
    config = SitemapConfig.from_mapping({"base_url": BASE, "html_sitemap": "sitemap/",
                                         "cache_dir": str(tmp_path / "cache")})
    result = generate(site, config, language_pages={"fr": "fr/sitemap/index.html",
                                                   "de": "de/sitemap/index.html"})
    french = lxml_html.fromstring((site / "fr/sitemap/index.html").read_bytes())
    assert french.xpath("string(//header)") == "Exemple"  # the French build's theme
    assert french.xpath(SITE_MAP_LIST + "//a/text()") == ["Accueil", "Guide FR"]
    assert french.xpath("//link[@hreflang='en']/@href") == [BASE + "sitemap/"]
    english = lxml_html.fromstring((site / "sitemap/index.html").read_bytes())
    assert english.xpath("string(//header)") == "Sample"
    assert english.xpath(SITE_MAP_LIST + "//a/text()") == ["Home", "Guide"]
    translations = english.xpath(SITE_MAP_LINKS)
    assert [urljoin(BASE + "sitemap/", href) for href in translations] == [
        BASE + "fr/sitemap/"]
    assert not earlier.exists()
    assert not (site / "de/sitemap/index.html").exists()
    assert sorted(result.removed) == ["de/sitemap/index.html", "sitemap-fr/index.html"]
    listed = (site / "sitemap.txt").read_text().split()
    assert BASE + "fr/sitemap/" in listed
    assert not {BASE + "sitemap-fr/", BASE + "de/sitemap/"} & set(listed)


def test_a_right_to_left_language_is_laid_out_right_to_left(tmp_path: Path) -> None:
    """An Arabic site's own page says ``dir="rtl"`` (the list, the bullets and the indent
    from the right); its English page does not."""
    site = tmp_path / "site"
    for rel, lang, title in (("index.html", "ar", "الرئيسية"), ("a/index.html", "ar", "مقالة"),
                             ("en/index.html", "en", "Home")):
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(f'<!doctype html><html lang="{lang}"><title>{title}</title>'
                                f"<main><h1>{title}</h1></main>", "utf-8")
    assert main(["build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/"]) == 0
    arabic = lxml_html.fromstring((site / "sitemap/index.html").read_bytes())
    assert (arabic.get("lang"), arabic.get("dir")) == ("ar", "rtl")
    assert arabic.xpath(SITE_MAP_LIST + "/@dir") == ["rtl"]
    english = lxml_html.fromstring((site / "sitemap-en/index.html").read_bytes())
    assert (english.get("lang"), english.get("dir")) == ("en", None)
    assert english.xpath(SITE_MAP_LIST + "/@dir") == []

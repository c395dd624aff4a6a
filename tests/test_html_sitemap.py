"""The HTML site map: the same URLs as the XML sitemap, accessible markup, options, a browser."""

from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import tempfile
import threading
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import pytest
from lxml import html as lxml_html

from sitemap_plugins.cli import main
from sitemap_plugins.html_sitemap import HtmlEntry, build_tree, page_title
from tests.test_adapter_mkdocs import copy_sample, run_host
from tests.test_adapter_pelican import copy_site, pelican
from tests.test_cli import BASE, make_traps

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "screenshots"
SELF = "https://example.org/sitemap/"


@pytest.fixture
def built(tmp_path: Path) -> Path:
    site = make_traps(tmp_path / "site")
    assert main(["-q", "build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap/",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    return site


def _links(page: Path, page_url: str) -> list[str]:
    tree = lxml_html.fromstring(page.read_bytes())
    return [urljoin(page_url, href) for href in tree.xpath("//nav//a/@href")]


def test_links_are_the_xml_sitemaps_urls_and_it_lists_itself_once(
    built: Path, sitemap_urls: Callable[..., list[str]]
) -> None:
    """The page links to every URL of the XML sitemap but itself; the XML lists it once."""
    urls = sitemap_urls(built)
    assert urls.count(SELF) == 1
    links = _links(built / "sitemap" / "index.html", SELF)
    assert len(links) == len(set(links))
    assert set(links) == set(urls) - {SELF}
    assert (built / "sitemap.txt").read_text("utf-8").splitlines().count(SELF) == 1


def test_markup_is_accessible_without_javascript(built: Path) -> None:
    """One h1, nested lists inside a named nav, lang set, and no script."""
    tree = lxml_html.fromstring((built / "sitemap" / "index.html").read_bytes())
    assert len(tree.xpath("//h1")) == 1
    navs = tree.xpath("//nav[@aria-label]")
    assert len(navs) == 1
    assert navs[0].get("aria-label").strip()
    assert navs[0].xpath(".//ul//ul//a")  # nested by folder
    assert tree.get("lang") == "en"
    assert not tree.xpath("//script")


def test_rebuild_gives_the_same_bytes(built: Path, tmp_path: Path) -> None:
    """A second build over the same site writes the same page and the same sitemap."""
    before = {name: (built / name).read_bytes() for name in ("sitemap/index.html", "sitemap.txt")}
    assert main(["-q", "build", str(built), "--base-url", BASE, "--html-sitemap", "sitemap/",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    assert {name: (built / name).read_bytes() for name in before} == before


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


def test_depth_folds_deeper_pages_into_their_ancestor() -> None:
    """With depth 1, a page two folders down is listed under its top folder, not nested."""
    entries = [HtmlEntry("a", "index.html", "Home"), HtmlEntry("b", "x/y/z.html", "Z"),
               HtmlEntry("c", "x/index.html", "X")]
    tree = build_tree(entries, depth=1)
    assert tree.index is not None
    assert [p.title for p in tree.pages] == ["X", "Z"]
    assert not tree.folders
    deep = build_tree(entries, depth=0)
    assert deep.folders["x"].index is not None
    assert list(deep.folders["x"].folders) == ["y"]


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


def test_browser_renders_links_that_all_resolve(
    built: Path, served: str, sitemap_urls: Callable[..., list[str]]
) -> None:
    """Chromium shows the page; each link in its DOM opens a built page; screenshot saved."""
    page_url = served + "sitemap/"
    dom = run_chromium("--dump-dom", page_url).stdout
    tree = lxml_html.fromstring(dom)
    assert tree.xpath("//h1/text()") == ["Site map"]
    links = [urljoin(page_url, href) for href in tree.xpath("//nav//a/@href")]
    assert {link.replace(served, BASE) for link in links} == set(sitemap_urls(built)) - {SELF}
    for link in links:  # the local server answers with a built file, or 404
        with urllib.request.urlopen(link, timeout=10) as response:
            assert response.status == 200, link
    SCREENSHOTS.mkdir(exist_ok=True)
    shot = SCREENSHOTS / "cli-html-sitemap.png"
    shot.unlink(missing_ok=True)
    run_chromium(f"--screenshot={shot}", "--window-size=1000,1400", page_url)
    assert shot.read_bytes().startswith(b"\x89PNG")


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


def _check_in_browser(site: Path, root_url: str, base: str, page: str, shot_name: str,
                      sitemap_urls: Callable[..., list[str]]) -> lxml_html.HtmlElement:
    """Open the site map in Chromium: links = XML sitemap URLs, each answers; screenshot."""
    page_url = root_url + page
    tree = lxml_html.fromstring(run_chromium("--dump-dom", page_url).stdout)
    links = [urljoin(page_url, href)
             for href in tree.xpath('//nav[@aria-label="Site map"]//a/@href')]
    assert len(links) == len(set(links))
    assert {link.replace(root_url, base) for link in links} == \
        set(sitemap_urls(site)) - {base + page}
    for link in links:  # the local server answers with a built file, or 404
        with urllib.request.urlopen(link, timeout=10) as response:
            assert response.status == 200, link
    SCREENSHOTS.mkdir(exist_ok=True)
    shot = SCREENSHOTS / shot_name
    shot.unlink(missing_ok=True)
    run_chromium(f"--screenshot={shot}", "--window-size=1200,1400", page_url)
    assert shot.read_bytes().startswith(b"\x89PNG")
    return tree


def test_mkdocs_renders_it_inside_the_material_theme(
    tmp_path: Path, sitemap_urls: Callable[..., list[str]]
) -> None:
    """MkDocs writes the site map as a Material page (header, nav) with the list filled in."""
    project = copy_sample(tmp_path / "project", edit=lambda text: text.replace(
        "  - sitemap\n", "  - sitemap:\n      html_sitemap: sitemap/\n"))
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    page = (build.site / "sitemap" / "index.html").read_text("utf-8")
    assert "sitemap-plugins:html-sitemap" not in page
    for server_url in serve(build.site):
        tree = _check_in_browser(build.site, server_url, "https://example.org/project/",
                                 "sitemap/", "mkdocs-html-sitemap.png", sitemap_urls)
        assert len(tree.xpath("//h1")) == 1
        assert tree.xpath('//header[contains(@class, "md-header")]')
        assert tree.xpath('//nav[contains(@class, "md-nav")]')
        assert tree.xpath('//link[@rel="stylesheet"][contains(@href, "main")]')


def test_pelican_renders_it_inside_the_theme(
    tmp_path: Path, sitemap_urls: Callable[..., list[str]]
) -> None:
    """Pelican writes the site map as a page of its theme (banner, menu) with the list filled in."""
    site = copy_site(tmp_path / "source")
    build = pelican(site, tmp_path / "out", 'SITEMAP_PLUGINS={"html_sitemap": "sitemap/"}')
    assert build.returncode == 0, build.log
    assert "sitemap-plugins:html-sitemap" not in (build.out / "sitemap/index.html").read_text()
    for server_url in serve(build.out):
        tree = _check_in_browser(build.out, server_url, "https://blog.example.org/", "sitemap/",
                                 "pelican-html-sitemap.png", sitemap_urls)
        assert tree.xpath('//header[@id="banner"]//nav//a')  # notmyidea's menu
        assert tree.xpath('//h1[@class="entry-title"]/text()') == ["Site map"]

"""``extensionless_urls``: sites whose server answers ``/one`` with ``one.html``.

Astro's ``build.format: 'file'``, Cloudflare Pages and Netlify's "pretty URLs" serve every
``x.html`` as ``x`` (and redirect ``x.html`` there), so a sitemap listing ``x.html`` lists
redirects. The option lists ``x`` in the CLI and in both hosts; the page's own links that
name the file (canonical, alternates) and the HTML site map follow it; ``check`` accepts it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from lxml import etree
from lxml import html as lxml_html

from sitemap_plugins.cli import main
from tests.test_adapter_mkdocs import make_site, run_host
from tests.test_adapter_pelican import copy_site, pelican

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://example.org/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9",
      "x": "http://www.w3.org/1999/xhtml"}
SITE_MAP_LINKS = ('//*[@role="navigation"][contains(concat(" ", @class, " "), '
                  '" sitemap-plugins-html-sitemap ")]//a/@href')


def _locs(site: Path) -> list[str]:
    tree = etree.parse(str(site / "sitemap.xml"))
    return [str(loc) for loc in tree.xpath("//s:url/s:loc/text()", namespaces=NS)]


def _astro_file_format_site(site: Path) -> None:
    """What Astro writes with ``build.format: 'file'``: ``one.html`` for ``/one``; the
    French page names its English translation by file, its canonical link by URL."""
    pages = {
        "index.html": ("Home", ""),
        "one.html": ("One", '<link rel="canonical" href="https://example.org/one.html">'),
        "blog/index.html": ("Blog", ""),
        "blog/first-post.html": ("First post", '<link rel="canonical" href="/blog/first-post">'),
        "fr/one.html": ("Un", ('<link rel="alternate" hreflang="en" href="/one.html">'
                               '<link rel="alternate" hreflang="fr" href="/fr/one.html">')),
    }
    for rel, (title, head) in pages.items():
        path = site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"<!doctype html><html><head><title>{title}</title>{head}</head>"
                        f"<body><main><h1>{title}</h1><p>About {title}.</p></main></body>"
                        "</html>", "utf-8")


def test_the_cli_lists_pages_without_html_on_a_pretty_url_host(tmp_path: Path) -> None:
    site = tmp_path / "dist"
    _astro_file_format_site(site)
    assert main(["build", str(site), "--base-url", BASE, "--extensionless-urls",
                 "--html-sitemap", "sitemap.html"]) == 0
    assert sorted(_locs(site)) == [BASE, f"{BASE}blog/", f"{BASE}blog/first-post",
                                   f"{BASE}fr/one", f"{BASE}one", f"{BASE}sitemap"]
    tree = etree.parse(str(site / "sitemap.xml"))
    alternates = tree.xpath(f'//s:url[s:loc="{BASE}fr/one"]/x:link', namespaces=NS)
    assert {a.get("hreflang"): a.get("href") for a in alternates} == {
        "en": f"{BASE}one", "fr": f"{BASE}fr/one"}
    # The HTML site map links to the same URLs, relative: no link names a .html file.
    page = lxml_html.fromstring((site / "sitemap.html").read_bytes())
    links = sorted(str(href) for href in page.xpath(SITE_MAP_LINKS))
    assert links == ["./", "blog/", "blog/first-post", "fr/one", "one"]
    assert main(["check", str(site), "--base-url", BASE]) == 0  # each URL finds its file
    # Without the option, the files' URLs as before.
    assert main(["build", str(site), "--base-url", BASE, "--html-sitemap", "sitemap.html",
                 "--replace-files"]) == 0
    assert f"{BASE}one.html" in _locs(site)


@pytest.mark.integration
def test_mkdocs_without_directory_urls_lists_pages_without_html(tmp_path: Path) -> None:
    project = make_site(tmp_path / "project", (
        "site_name: T\nsite_url: https://example.org/\nuse_directory_urls: false\n"
        "plugins:\n  - sitemap:\n      extensionless_urls: true\n"
        "      html_sitemap: sitemap/\n"),
        {"index.md": "# Home\n", "guide.md": "# Guide\n", "api/index.md": "# API\n",
         "api/calls.md": "# Calls\n"})
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    assert sorted(_locs(build.site)) == [BASE, f"{BASE}api/", f"{BASE}api/calls",
                                         f"{BASE}guide", f"{BASE}sitemap/"]


@pytest.mark.integration
def test_pelican_with_html_urls_lists_pages_without_html(tmp_path: Path) -> None:
    """The sample blog's articles are saved and linked as ``slug.html``; translations too."""
    site = copy_site(tmp_path / "source")
    out = tmp_path / "out"
    build = pelican(site, out, 'SITEMAP_PLUGINS={"extensionless_urls": true}')
    assert build.returncode == 0, build.log
    locs = _locs(out)
    assert not [loc for loc in locs if loc.endswith(".html")]
    assert "https://blog.example.org/hello-pelican" in locs
    tree = etree.parse(str(out / "sitemap.xml"))
    hrefs = tree.xpath("//x:link/@href", namespaces=NS)
    assert hrefs
    assert not [href for href in hrefs if str(href).endswith(".html")]
    assert set(map(str, hrefs)) <= set(locs)

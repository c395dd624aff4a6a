"""The dates of a replaced sitemap from a generator that dates honestly are not lost.

Seen on Hugo's beautifulhugo example: Hugo dates its listing pages (home, sections,
taxonomies) from git, in its sitemap only; the HTML of those pages states no date. When the
CLI replaced Hugo's sitemap, those pages lost their dates (a first build dates them as new).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from sitemap_plugins.cli import main
from sitemap_plugins.disk.owned import identify

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://example.org/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
# Hugo's own template (tpl/tplimpl/embedded/templates/_default/sitemap.xml), as it renders.
HUGO_HEAD = ('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n'
             '  xmlns:xhtml="http://www.w3.org/1999/xhtml">\n')
# What beautifulhugo's example lists: listing pages dated by their newest post, from git.
HUGO_DATES = {
    "": "2024-03-10T09:15:00+01:00",
    "posts/": "2024-03-10T09:15:00+01:00",
    "posts/first-post/": "2024-03-10T09:15:00+01:00",
    "posts/older-post/": "2023-11-02T18:00:00+01:00",
    "tags/": "2024-03-10T09:15:00+01:00",
    "tags/example/": "2023-11-02T18:00:00+01:00",
    "page/": "2022-06-01T12:00:00+02:00",
}
MKDOCS_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
               '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')


def _hugo_site(site: Path) -> None:
    """Pages shaped like Hugo's output; only the articles state their dates (opengraph)."""
    for path, lastmod in HUGO_DATES.items():
        meta = (f'<meta property="article:modified_time" content="{lastmod}">'
                if path.startswith("posts/") and path != "posts/" else "")
        page = site / path / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"<!DOCTYPE html><html lang=en><head><title>{path or 'home'}</title>"
                        f"{meta}</head><body><div role=main><h1>{path or 'home'}</h1>"
                        "<p>Text.</p></div></body></html>", "utf-8")
    urls = "".join(f"  <url>\n    <loc>{BASE}{path}</loc>\n    <lastmod>{lastmod}</lastmod>\n"
                   "  </url>\n" for path, lastmod in HUGO_DATES.items())
    (site / "sitemap.xml").write_text(HUGO_HEAD + urls + "</urlset>\n", "utf-8")


def _lastmods(site: Path) -> dict[str, str | None]:
    tree = etree.parse(str(site / "sitemap.xml"))
    return {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
            for url in tree.iterfind("s:url", NS)}


def test_hugo_dates_are_kept_when_its_sitemap_is_replaced(tmp_path: Path) -> None:
    site = tmp_path / "public"
    _hugo_site(site)
    assert main(["build", str(site), "--base-url", BASE]) == 0
    expected = {f"{BASE}{path}": lastmod for path, lastmod in HUGO_DATES.items()}
    assert _lastmods(site) == expected
    # The next build, its own sitemap in place: the manifest keeps the dates.
    assert main(["build", str(site), "--base-url", BASE]) == 0
    assert _lastmods(site) == expected
    # Hugo builds again (its sitemap back), a section dated later: the later date.
    later = dict(HUGO_DATES, **{"tags/example/": "2024-04-01T08:00:00+02:00"})
    urls = "".join(f"  <url>\n    <loc>{BASE}{path}</loc>\n    <lastmod>{lastmod}</lastmod>\n"
                   "  </url>\n" for path, lastmod in later.items())
    (site / "sitemap.xml").write_text(HUGO_HEAD + urls + "</urlset>\n", "utf-8")
    assert main(["build", str(site), "--base-url", BASE]) == 0
    assert _lastmods(site)[f"{BASE}tags/example/"] == "2024-04-01T08:00:00+02:00"


def test_a_multilingual_hugo_sitemap_index_is_followed(tmp_path: Path) -> None:
    site = tmp_path / "public"
    _hugo_site(site / "en")
    (site / "en" / "sitemap.xml").write_text(
        (site / "en" / "sitemap.xml").read_text("utf-8").replace(BASE, f"{BASE}en/"), "utf-8")
    (site / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"  <sitemap>\n    <loc>{BASE}en/sitemap.xml</loc>\n  </sitemap>\n"
        f"  <sitemap>\n    <loc>{BASE}../../etc/sitemap.xml</loc>\n  </sitemap>\n"
        "</sitemapindex>\n", "utf-8")
    assert main(["build", str(site), "--base-url", BASE, "--replace-files"]) == 0
    assert _lastmods(site)[f"{BASE}en/tags/"] == HUGO_DATES["tags/"]


def test_dates_of_a_generator_that_stamps_the_build_are_not_taken(tmp_path: Path) -> None:
    """MkDocs' built-in template dates every page with the build: no evidence of a change."""
    site = tmp_path / "public"
    _hugo_site(site)
    # MkDocs' template (mkdocs/templates/sitemap.xml) as it renders, dated with the build.
    urls = "".join(f"\n    <url>\n         <loc>{BASE}{path}</loc>\n         <lastmod>"
                   f"{lastmod[:10]}</lastmod>\n    </url>" for path, lastmod in HUGO_DATES.items())
    (site / "sitemap.xml").write_text(MKDOCS_HEAD.rstrip("\n") + urls + "\n</urlset>\n",
                                      "utf-8")
    assert identify(site / "sitemap.xml") == "MkDocs' built-in template"
    assert main(["build", str(site), "--base-url", BASE]) == 0
    lastmods = _lastmods(site)
    assert lastmods[f"{BASE}posts/first-post/"] == HUGO_DATES["posts/first-post/"]  # its own
    assert lastmods[f"{BASE}tags/"] not in (HUGO_DATES["tags/"], HUGO_DATES["tags/"][:10])

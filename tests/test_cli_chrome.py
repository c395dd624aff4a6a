"""The CLI on a theme without landmarks (Pelican's molivier/nest): the chrome is not content.

Nest puts no ``<main>``, ``<article>``, ``<nav>``, ``<header>`` or ``<footer>`` on its pages:
the menu and the footer are plain ``<div>`` elements beside the content, so the content region
is the whole ``<body>``. Turning on ``html_sitemap`` adds one menu link to every page; that
must move no page's lastmod, while a real change of a page still moves its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from sitemap_plugins.cli import main
from sitemap_plugins.page.reader import parse_html
from sitemap_plugins.products.build import pipeline as build

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
SITE = "https://blog.example.org/"
T1, T2, T3 = 1_750_000_000, 1_750_086_400, 1_750_172_800
MENU = [("/pages/about.html", "About"), ("/archives.html", "Archives")]
SITE_MAP_LINK = ("/sitemap/", "Site map")
ARTICLES = {f"posts/post-{n}.html": (f"Post number {n}", f"2024-0{n}-01",
                                     f"<p>What post {n} says.</p><p>More of {n}.</p>")
            for n in range(1, 6)}


def nest_page(title: str, header: str, content: str, menu: list[tuple[str, str]]) -> str:
    """A page shaped as nest writes it: header, content and footer as plain sibling divs."""
    links = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in menu)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title></head><body>\n"
        '<div class="header-container">\n <div class="container"><div class="header-nav">\n'
        '  <div class="header-logo"><a class="pull-left" href="/">'
        '<img class="mr20" src="/theme/images/logo.png" alt="logo">My Blog</a></div>\n'
        f'  <div class="nav pull-right"><ul>{links}</ul></div>\n'
        f" </div></div>\n{header}\n</div>\n{content}\n"
        '<div class="footer gradient-2"><div class="container footer-container">'
        '<p>&copy; 2024 Someone &middot; Powered by <a href="https://getpelican.com">Pelican'
        "</a></p></div></div>\n</body></html>\n")


def header_block(title: str, subtitle: str) -> str:
    return ('<div class="container header-wrapper"><div class="row"><div class="col-lg-12">'
            f'<div class="header-content"><h1 class="header-title">{title}</h1>'
            f'<p class="header-date">{subtitle}</p></div></div></div></div>')


def article_content(body: str) -> str:
    return ('<div class="container content"><div class="row"><div class="col-lg-9">'
            f"{body}</div></div></div>")


def listing(items: list[tuple[str, str, str]]) -> str:
    rows = "".join(f'<dt>{date}</dt><dd><a href="/{rel}">{title}</a></dd>'
                   for rel, title, date in items)
    return ('<div class="archive-container"><div class="container content archive">'
            f"<dl>{rows}</dl></div></div>")


def write_site(site: Path, menu: list[tuple[str, str]],
               articles: dict[str, tuple[str, str, str]] | None = None) -> None:
    articles = articles if articles is not None else ARTICLES
    items = [(rel, title, date) for rel, (title, date, _) in articles.items()]
    pages = {
        "index.html": nest_page("My Blog", header_block("My Blog", "Notes"), listing(items),
                                menu),
        "archives.html": nest_page("Archives", header_block("Archives", ""), listing(items),
                                   menu),
        "pages/about.html": nest_page("About", header_block("About", ""),
                                      article_content("<p>Who writes here.</p>"), menu),
    }
    for rel, (title, date, body) in articles.items():
        pages[rel] = nest_page(title, header_block(title, date), article_content(body), menu)
    for rel, text in pages.items():
        path = site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def built(site: Path, cache: Path, when: int, monkeypatch: pytest.MonkeyPatch,
          *extra: str) -> dict[str, str | None]:
    """The CLI's build at time ``when``: the sitemap's URL -> lastmod."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(when))
    assert main(["-q", "build", str(site), "--base-url", SITE, "--cache-dir", str(cache),
                 *extra]) == 0
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    return {url.findtext("s:loc", namespaces=NS) or "": url.findtext("s:lastmod", namespaces=NS)
            for url in root.iterfind("s:url", NS)}


def test_a_menu_link_added_to_every_page_moves_no_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site, cache = tmp_path / "site", tmp_path / "cache"
    write_site(site, MENU)
    first = built(site, cache, T1, monkeypatch)
    write_site(site, [*MENU, SITE_MAP_LINK])  # what html_sitemap's menu entry does
    second = built(site, cache, T2, monkeypatch)
    assert set(first) == set(second)
    assert len(first) == 8
    moved = sorted(url for url in first if first[url] != second[url])
    assert moved == []


def test_a_real_change_still_moves_its_page_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site, cache = tmp_path / "site", tmp_path / "cache"
    write_site(site, MENU)
    first = built(site, cache, T1, monkeypatch)
    edited = dict(ARTICLES)
    title, date, body = edited["posts/post-2.html"]
    edited["posts/post-2.html"] = (title, date, body.replace("More of 2.", "More of two."))
    write_site(site, MENU, edited)
    second = built(site, cache, T2, monkeypatch)
    moved = sorted(url for url in first if first[url] != second[url])
    assert moved == [f"{SITE}posts/post-2.html"]
    # The page's title sits in the theme's header, beside the menu: it is the page's own.
    edited["posts/post-3.html"] = ("A new title for 3", date, edited["posts/post-3.html"][2])
    write_site(site, MENU, edited)
    third = built(site, cache, T3, monkeypatch)
    moved = sorted(url for url in second if second[url] != third[url])
    # The home and the archives list the new title too.
    assert moved == [SITE, f"{SITE}archives.html", f"{SITE}posts/post-3.html"]


def test_the_pool_leaves_out_the_same_chrome(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large site's pages are read by worker processes: the home page's blocks reach them."""
    dates = {}
    for workers in ("1", "2"):
        site, cache = tmp_path / f"site{workers}", tmp_path / f"cache{workers}"
        write_site(site, MENU)
        monkeypatch.setattr(build, "PARALLEL_THRESHOLD", 4)
        built(site, cache, T1, monkeypatch, "--workers", workers)
        write_site(site, [*MENU, SITE_MAP_LINK])
        dates[workers] = built(site, cache, T2, monkeypatch, "--workers", workers)
        assert (site / "sitemap.xml").exists()
    assert dates["1"] == dates["2"]
    assert len(dates["2"]) == 8
    assert not any(date == _w3c(T2) for date in dates["2"].values())


def _w3c(epoch: int) -> str:
    from datetime import datetime, timezone  # noqa: PLC0415

    return datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_page_with_a_content_region_keeps_its_fingerprint(tmp_path: Path) -> None:
    """The chrome is looked for only where no landmark marks the content."""
    from sitemap_plugins.disk.site import read_bytes  # noqa: PLC0415
    from sitemap_plugins.page.chrome import site_chrome  # noqa: PLC0415
    from sitemap_plugins.page.reader import page_blocks  # noqa: PLC0415

    write_site(tmp_path, MENU)
    home, about = (page_blocks(read_bytes(str(tmp_path / rel)))
                   for rel in ("index.html", "pages/about.html"))
    assert home is not None
    assert about is not None
    chrome = site_chrome(home, [about])
    assert chrome is not None
    with_main = nest_page("About", header_block("About", ""),
                          "<main>" + article_content("<p>Who writes here.</p>") + "</main>",
                          MENU).encode()
    assert parse_html(with_main, chrome=chrome) == parse_html(with_main)
    without_main = (tmp_path / "pages" / "about.html").read_bytes()
    assert parse_html(without_main, chrome=chrome).fingerprint != parse_html(
        without_main).fingerprint

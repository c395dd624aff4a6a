"""A host's own URL for a page (``PageHints.url``) replaces the one derived from its file path.

Pelican's ``ARTICLE_URL = "{slug}"`` saves ``slug.html`` and links to ``slug``: the page's
canonical link, robots.txt rules and alternates all speak of ``slug``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemap_plugins import PageHints, SitemapConfig, generate

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://example.org/"


def _page(canonical: str | None = None) -> bytes:
    link = f'<link rel="canonical" href="{canonical}">' if canonical else ""
    return (f"<!doctype html><html><head><title>t</title>{link}</head>"
            "<body><main><p>text</p></main></body></html>").encode()


def _build(site: Path, hints: dict[str, PageHints]) -> tuple[set[str], set[str]]:
    config = SitemapConfig.from_mapping({"base_url": BASE, "fingerprint": False})
    result = generate(site, config, hints=hints)
    text = (site / "sitemap.txt").read_text("utf-8")
    return set(text.split()), set(result.excluded)


def test_the_host_url_is_listed_and_matches_the_canonical_link(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_bytes(_page())
    (site / "post.html").write_bytes(_page(canonical=f"{BASE}post"))
    # Without the host's word too: post.html spelt without .html is the same page, listed
    # under the spelling its canonical link gives.
    listed, excluded = _build(site, {})
    assert listed == {BASE, f"{BASE}post"}
    assert not excluded
    listed, excluded = _build(site, {"post.html": PageHints(url=f"{BASE}post")})
    assert listed == {BASE, f"{BASE}post"}
    assert not excluded


def test_robots_rules_and_config_globs_see_the_host_url(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_bytes(_page())
    (site / "x.html").write_bytes(_page())
    (site / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /private/\n")
    listed, excluded = _build(site, {"x.html": PageHints(url=f"{BASE}private/x")})
    assert listed == {BASE}
    assert "disallowed by robots.txt" in excluded


def test_a_host_url_off_the_site_is_not_used(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_bytes(_page())
    (site / "x.html").write_bytes(_page())
    listed, _ = _build(site, {"x.html": PageHints(url="https://elsewhere.example/x")})
    assert listed == {BASE, f"{BASE}x.html"}

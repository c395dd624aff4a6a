"""announce_feeds: the home page's Atom and RSS feeds as more Sitemap: lines in robots.txt."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_plugins.cli import main
from sitemap_plugins.entry.robots_txt import fragment_sitemap
from sitemap_plugins.vocab.options import FRAGMENT_NAME

BASE = "https://example.org/"
HOME = """<!DOCTYPE html><html><head><title>Home</title>
<link rel="alternate" type="application/atom+xml" href="feeds/all.atom.xml">
<link rel="alternate" type="application/rss+xml" href="/feeds/all.rss.xml">
<link rel="alternate" type="application/atom+xml" href="feeds/all.atom.xml">
<link rel="alternate" type="application/rss+xml" href="https://feeds.example.net/x.rss">
<link rel="alternate" hreflang="fr" href="/fr/">
</head><body><main>home</main></body></html>"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text(HOME, "utf-8")
    (folder / "robots.txt").write_bytes(b"\xef\xbb\xbfUser-agent: *\r\nDisallow: /x/  \r\n")
    return folder


def build(site: Path, *extra: str, base: str = BASE) -> int:
    return main(["build", str(site), "--base-url", base, "--announce-feeds", *extra])


def test_feeds_join_the_sitemap_line_byte_for_byte(site: Path, capsys) -> None:
    """The site's feeds follow the Sitemap: line; the file's BOM, CRLF and spaces are kept;
    a feed on another host is left out with one warning; a second build changes nothing."""
    assert build(site) == 0
    err = capsys.readouterr().err
    assert ("warning: 'index.html': links the feed 'https://feeds.example.net/x.rss', which is "
            f"not under {BASE}: not announced in robots.txt (a sitemap may only name URLs "
            "under its own location)\n") in err
    expected = (b"\xef\xbb\xbfUser-agent: *\r\nDisallow: /x/  \r\n\r\n"
                b"Sitemap: https://example.org/sitemap.xml\r\n"
                b"Sitemap: https://example.org/feeds/all.atom.xml\r\n"
                b"Sitemap: https://example.org/feeds/all.rss.xml\r\n")
    assert (site / "robots.txt").read_bytes() == expected
    assert build(site) == 0
    assert (site / "robots.txt").read_bytes() == expected


def test_off_by_default(site: Path) -> None:
    """Without the option only the sitemap is announced."""
    assert main(["build", str(site), "--base-url", BASE]) == 0
    assert b"feeds" not in (site / "robots.txt").read_bytes()


def test_created_robots_txt_names_the_feeds(site: Path) -> None:
    """robots_txt create: the new file names the sitemap, then the feeds."""
    (site / "robots.txt").unlink()
    assert build(site, "--robots-txt", "create") == 0
    assert (site / "robots.txt").read_text("ascii") == (
        "User-agent: *\nDisallow:\n\nSitemap: https://example.org/sitemap.xml\n"
        "Sitemap: https://example.org/feeds/all.atom.xml\n"
        "Sitemap: https://example.org/feeds/all.rss.xml\n")


def test_below_the_host_root_the_fragment_names_them(site: Path) -> None:
    """With a base path, the fragment lists the feeds under the base after the sitemap, and
    merge still reads the sitemap's URL from it; a feed above the base path is left out."""
    assert build(site, base="https://example.org/docs/") == 0
    fragment = (site / FRAGMENT_NAME).read_bytes()
    assert fragment.decode("ascii").splitlines() == [
        "# Add this line to the robots.txt at https://example.org/robots.txt:",
        "# crawlers read robots.txt only at the root of a host.",
        "Sitemap: https://example.org/docs/sitemap.xml",
        "Sitemap: https://example.org/docs/feeds/all.atom.xml",
    ]
    assert fragment_sitemap(fragment) == "https://example.org/docs/sitemap.xml"


def test_no_feed_is_a_note(site: Path, capsys) -> None:
    """A home page without feeds: a note, and robots.txt gets the sitemap line only."""
    (site / "index.html").write_text("<html><head><title>H</title></head></html>", "utf-8")
    assert build(site) == 0
    assert ("note: announce_feeds: the home page index.html links no Atom or RSS feed"
            in capsys.readouterr().err)
    assert (site / "robots.txt").read_bytes().count(b"Sitemap:") == 1

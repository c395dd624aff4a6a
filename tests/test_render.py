"""Writers: splitting at the protocol limits, index, gzip determinism, robots.txt merging."""

from __future__ import annotations

import gzip
from datetime import date, datetime, timezone
from typing import TYPE_CHECKING

import pytest

from sitemap_plugins.entry.media import VideoEntry
from sitemap_plugins.entry.render import render_url
from sitemap_plugins.entry.robots_txt import create_robots, merge_sitemap_line, names_sitemap
from sitemap_plugins.entry.rules import Alternate, Entry
from sitemap_plugins.products.build.pipeline import generate, write_entries
from sitemap_plugins.vocab.options import PROTOCOL_MAX_BYTES, SitemapConfig

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://example.org/"


def _entries(count: int, *, pad: int = 0) -> list[Entry]:
    return [Entry(loc=f"{BASE}p{n:06d}{'x' * pad}.html") for n in range(count)]


def _config(**options: object) -> SitemapConfig:
    return SitemapConfig.from_mapping({"base_url": BASE, **options})


def test_render_url_escapes_and_orders(tmp_path: Path) -> None:
    """Values are XML-escaped once and children follow the schema order."""
    entry = Entry(
        loc="https://example.org/q&a.html?x=<1>", lastmod=date(2024, 1, 2), changefreq="weekly",
        priority=0.8, alternates=(Alternate("fr", "https://example.org/fr/q&a.html"),))
    assert render_url(entry) == (
        "  <url>\n"
        "    <loc>https://example.org/q&amp;a.html?x=&lt;1&gt;</loc>\n"
        "    <lastmod>2024-01-02</lastmod>\n"
        "    <changefreq>weekly</changefreq>\n"
        "    <priority>0.8</priority>\n"
        '    <xhtml:link rel="alternate" hreflang="fr" href="https://example.org/fr/q&amp;a.html"/>\n'
        "  </url>\n")


def test_render_url_media_escaped_once() -> None:
    """Image and video children in schema order; quotes, apostrophes and markup escaped once."""
    entry = Entry(
        loc="https://example.org/a/",
        images=('https://example.org/i"1".png', "https://example.org/it's.png"),
        videos=(VideoEntry("https://example.org/t.jpg", 'Tom & "Jerry"', "It's <b>",
                           "https://example.org/v.mp4"),
                VideoEntry("https://example.org/t2.jpg", "Two", "Embedded",
                           player_loc="https://www.youtube.com/embed/x?a=1&b=2")))
    assert render_url(entry) == (
        "  <url>\n    <loc>https://example.org/a/</loc>\n"
        "    <image:image>\n      <image:loc>https://example.org/i&#34;1&#34;.png</image:loc>\n"
        "    </image:image>\n"
        "    <image:image>\n      <image:loc>https://example.org/it&#39;s.png</image:loc>\n"
        "    </image:image>\n"
        "    <video:video>\n      <video:thumbnail_loc>https://example.org/t.jpg</video:thumbnail_loc>\n"
        "      <video:title>Tom &amp; &#34;Jerry&#34;</video:title>\n"
        "      <video:description>It&#39;s &lt;b&gt;</video:description>\n"
        "      <video:content_loc>https://example.org/v.mp4</video:content_loc>\n"
        "    </video:video>\n"
        "    <video:video>\n      <video:thumbnail_loc>https://example.org/t2.jpg</video:thumbnail_loc>\n"
        "      <video:title>Two</video:title>\n      <video:description>Embedded</video:description>\n"
        "      <video:player_loc>https://www.youtube.com/embed/x?a=1&amp;b=2</video:player_loc>\n"
        "    </video:video>\n  </url>\n")


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (date(2024, 1, 2), "2024-01-02"),
        (datetime(2024, 1, 2, 3, 4, 5, 678, tzinfo=timezone.utc), "2024-01-02T03:04:05Z"),
    ],
    ids=["date", "datetime-utc"],
)
def test_lastmod_w3c(value: date, text: str) -> None:
    """Dates render as W3C datetime; UTC as Z; no microseconds."""
    assert Entry(loc=BASE, lastmod=value).lastmod_w3c == text


def test_50000_urls_give_one_file(tmp_path: Path, sitemap_urls) -> None:
    """Exactly at the URL limit there is one urlset and no index."""
    installed = write_entries(tmp_path, _config(gzip=False), _entries(50_000))
    assert installed is not None
    assert not installed.split
    assert sorted(installed.files) == ["sitemap.txt", "sitemap.xml"]
    assert len(sitemap_urls(tmp_path)) == 50_000


def test_50001_urls_give_index_and_two_parts(tmp_path: Path, sitemap_urls) -> None:
    """One URL past the limit gives an index over two parts, for XML and text."""
    installed = write_entries(tmp_path, _config(gzip=False), _entries(50_001))
    assert installed is not None
    assert installed.split
    assert sorted(installed.files) == [
        "sitemap-1.txt", "sitemap-1.xml", "sitemap-2.txt", "sitemap-2.xml",
        "sitemap-txt-index.xml", "sitemap.xml"]
    urls = sitemap_urls(tmp_path)
    assert len(urls) == 50_001
    assert (tmp_path / "sitemap-2.xml").read_text().count("<url>") == 1
    assert "<sitemapindex" in (tmp_path / "sitemap.xml").read_text()


def test_part_past_50_mib_splits(tmp_path: Path, sitemap_urls) -> None:
    """A part that would pass 50 MiB uncompressed is split even under 50,000 URLs."""
    entries = _entries(27_000, pad=1_950)
    installed = write_entries(tmp_path, _config(gzip=False, text=False), entries)
    assert installed is not None
    assert installed.split
    sizes = [(tmp_path / f"sitemap-{n}.xml").stat().st_size for n in (1, 2)]
    assert max(sizes) <= PROTOCOL_MAX_BYTES
    assert sizes[0] > PROTOCOL_MAX_BYTES - 3_000
    assert len(sitemap_urls(tmp_path)) == 27_000


def test_lowered_limits_and_stale_parts_removed(tmp_path: Path, sitemap_urls) -> None:
    """Limits can be lowered; a later, smaller run removes the parts it no longer needs."""
    write_entries(tmp_path, _config(max_urls=10), _entries(35))
    assert (tmp_path / "sitemap-4.xml.gz").exists()
    index = (tmp_path / "sitemap.xml").read_text()
    assert [f"{BASE}sitemap-{n}.xml" in index for n in (1, 2, 3, 4)] == [True] * 4
    installed = write_entries(tmp_path, _config(max_urls=10), _entries(15))
    assert installed is not None
    assert installed.removed == [
        "sitemap-3.txt", "sitemap-3.xml", "sitemap-3.xml.gz", "sitemap-4.txt", "sitemap-4.xml",
        "sitemap-4.xml.gz"]
    assert len(sitemap_urls(tmp_path)) == 15
    write_entries(tmp_path, _config(max_urls=10), _entries(3))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sitemap.txt", "sitemap.xml", "sitemap.xml.gz"]


def test_index_lastmod_is_newest_in_part(tmp_path: Path) -> None:
    """Each index entry carries the newest lastmod of its part."""
    entries = [Entry(loc=f"{BASE}{n}.html", lastmod=date(2020, 1, n + 1)) for n in range(4)]
    write_entries(tmp_path, _config(max_urls=2), entries)
    index = (tmp_path / "sitemap.xml").read_text()
    assert "<lastmod>2020-01-02</lastmod>" in index
    assert "<lastmod>2020-01-04</lastmod>" in index


def test_gzip_is_deterministic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The .gz has no name; its time is the newest lastmod, whatever SOURCE_DATE_EPOCH says."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    write_entries(tmp_path, _config(), _entries(3))
    packed = (tmp_path / "sitemap.xml.gz").read_bytes()
    assert packed[3] & 0x08 == 0  # no FNAME
    assert packed[4:8] == b"\x00\x00\x00\x00"  # no lastmod: no time
    dated = [Entry(loc=f"{BASE}a", lastmod=date(2024, 1, 2)),
             Entry(loc=f"{BASE}b", lastmod=datetime(2023, 5, 6, 7, 8, 9, tzinfo=timezone.utc))]
    for epoch in ("1800000000", "1900000000", "1700000000"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        write_entries(tmp_path, _config(), dated)
        stamped = (tmp_path / "sitemap.xml.gz").read_bytes()
        assert int.from_bytes(stamped[4:8], "little") == 1_704_153_600  # 2024-01-02T00:00Z
    assert gzip.decompress(stamped) == (tmp_path / "sitemap.xml").read_bytes()


@pytest.mark.parametrize(
    ("original", "merged"),
    [
        (b"", b"Sitemap: https://example.org/sitemap.xml\n"),
        (b"User-agent: *\nDisallow: /x", b"User-agent: *\nDisallow: /x\n\nSitemap: https://example.org/sitemap.xml\n"),
        (b"User-agent: *\r\nDisallow:\r\n", b"User-agent: *\r\nDisallow:\r\n\r\nSitemap: https://example.org/sitemap.xml\r\n"),
        (b"\xef\xbb\xbfUser-agent: *\n", b"\xef\xbb\xbfUser-agent: *\n\nSitemap: https://example.org/sitemap.xml\n"),
        (b"Sitemap: https://example.org/old.xml\n", b"Sitemap: https://example.org/old.xml\n\nSitemap: https://example.org/sitemap.xml\n"),
        (b"User-agent: *\n\n", b"User-agent: *\n\nSitemap: https://example.org/sitemap.xml\n"),
        (b"sitemap:HTTPS://Example.org:443/sitemap.xml  \n", b"sitemap:HTTPS://Example.org:443/sitemap.xml  \n"),
        (b"# Sitemap: https://example.org/sitemap.xml\n", b"# Sitemap: https://example.org/sitemap.xml\n\nSitemap: https://example.org/sitemap.xml\n"),
        (b"Disallow: /caf\xe9\r", b"Disallow: /caf\xe9\r\rSitemap: https://example.org/sitemap.xml\r"),
    ],
    ids=["empty", "no-final-newline", "crlf", "bom", "other-sitemap", "blank-last",
         "present-variant", "commented", "latin1-cr"],
)
def test_merge_sitemap_line(original: bytes, merged: bytes) -> None:
    """The line is appended once, in the file's own line-end style; nothing else changes."""
    url = "https://example.org/sitemap.xml"
    assert merge_sitemap_line(original, url) == merged
    assert merge_sitemap_line(merged, url) == merged
    assert names_sitemap(merged, url)


def test_create_robots_allows_all() -> None:
    """A created robots.txt allows everything and names the sitemap."""
    assert create_robots("https://example.org/sitemap.xml") == (
        b"User-agent: *\nDisallow:\n\nSitemap: https://example.org/sitemap.xml\n")


@pytest.mark.parametrize("fragment", [False, True])
def test_a_site_left_with_nothing_to_list_keeps_robots_txt_and_is_told(
    tmp_path: Path, *, fragment: bool
) -> None:
    """The sitemap goes; robots.txt keeps every byte, and a warning names its dead line."""
    from sitemap_plugins.products.build.pipeline import generate  # noqa: PLC0415

    site = tmp_path / "site"
    site.mkdir()
    page = site / "index.html"
    page.write_bytes(b"<html><head><title>t</title></head><body>x</body></html>")
    (site / "robots.txt").write_bytes(b"User-agent: *\r\nDisallow: /private/")
    base = f"{BASE}docs/" if fragment else BASE
    config = SitemapConfig.from_mapping({"base_url": base, "fingerprint": False})
    generate(site, config)
    robots = (site / "robots.txt").read_bytes()
    assert names_sitemap(robots, f"{base}sitemap.xml") is not fragment
    assert (site / "robots-sitemap.txt").is_file() is fragment

    page.write_bytes(b'<html><head><meta name="robots" content="noindex"></head></html>')
    result = generate(site, config)
    assert not (site / "sitemap.xml").exists()
    assert (site / "robots.txt").read_bytes() == robots  # not a byte lost
    assert not (site / "robots-sitemap.txt").exists()
    stale = [d for d in result.diagnostics if d.code == "stale-sitemap-line"]
    if fragment:
        assert "robots-sitemap.txt" in result.removed
        assert stale == []
    else:
        assert len(stale) == 1
        assert stale[0].level.value == "warning"
        assert f"names {base}sitemap.xml" in stale[0].message


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_robots_txt_keeps_its_encoding_and_its_rules_count(tmp_path, codec) -> None:
    """A UTF-16 robots.txt (with its byte-order mark) is read for its rules and gets its
    Sitemap: line in UTF-16, every other character kept."""
    site = tmp_path / "site"
    (site / "private").mkdir(parents=True)
    page = b"<!doctype html><html><head><title>t</title></head><body><main>x</main></body></html>"
    (site / "index.html").write_bytes(page)
    (site / "private" / "index.html").write_bytes(page)
    text = "# Règles\r\nUser-agent: *\r\nDisallow: /private/\r\n"
    bom = b"\xff\xfe" if codec == "utf-16-le" else b"\xfe\xff"
    (site / "robots.txt").write_bytes(bom + text.encode(codec))
    generate(site, SitemapConfig.from_mapping({"base_url": "https://example.org/",
                                               "fingerprint": False}))
    raw = (site / "robots.txt").read_bytes()
    assert raw.startswith(bom)
    assert raw[2:].decode(codec) == text + "\r\nSitemap: https://example.org/sitemap.xml\r\n"
    listed = (site / "sitemap.txt").read_text("utf-8").split()
    assert listed == ["https://example.org/"]  # the rule was read: private/ is left out
    # A second build finds its line (in UTF-16) and changes nothing.
    generate(site, SitemapConfig.from_mapping({"base_url": "https://example.org/",
                                               "fingerprint": False}))
    assert (site / "robots.txt").read_bytes() == raw


def test_robots_rules_past_500_kib_are_not_read(tmp_path) -> None:
    """Only the first 500 KiB of robots.txt count, as for crawlers: a rule after them is
    not applied."""
    site = tmp_path / "site"
    (site / "late").mkdir(parents=True)
    page = b"<!doctype html><html><head><title>t</title></head><body><main>x</main></body></html>"
    (site / "index.html").write_bytes(page)
    (site / "late" / "index.html").write_bytes(page)
    filler = b"# padding line\n" * (600 * 1024 // 15)
    (site / "robots.txt").write_bytes(b"User-agent: *\n" + filler + b"Disallow: /late/\n")
    generate(site, SitemapConfig.from_mapping({"base_url": "https://example.org/",
                                               "fingerprint": False}))
    listed = set((site / "sitemap.txt").read_text("utf-8").split())
    assert listed == {"https://example.org/", "https://example.org/late/"}


@pytest.mark.parametrize("size", [0, 1, 70_000, 3_000_000], ids=["empty", "byte", "small", "large"])
def test_gzip_stream_gives_the_gzip_modules_bytes_however_it_is_fed(size: int) -> None:
    """The .gz of a sitemap is the gzip module's file (no name, level 6, the newest lastmod as
    its time), whatever the chunks the bytes come in."""
    import gzip  # noqa: PLC0415
    import random  # noqa: PLC0415

    from sitemap_plugins.entry.render import COMPRESS_LEVEL, gzip_stream, header_time  # noqa: PLC0415
    from sitemap_plugins.vocab.dates import parse_w3c  # noqa: PLC0415

    data = random.Random(size).randbytes(size // 2) + b"<url>" * (size // 10)
    newest = parse_w3c("2024-05-06T07:08:09+02:00")
    expected = gzip.compress(data, compresslevel=COMPRESS_LEVEL, mtime=header_time(newest))
    for step in (1 << 20, 4_093):
        chunks = [data[i:i + step] for i in range(0, len(data), step)]
        assert b"".join(gzip_stream(chunks, newest)) == expected
    assert gzip.decompress(b"".join(gzip_stream([data]))) == data

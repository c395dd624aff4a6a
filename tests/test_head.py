"""Reading canonical, robots, refresh, hreflang and dates from literal head snippets."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from sitemap_plugins import head as head_module
from sitemap_plugins.head import MAX_HEAD_BYTES, decode_html, parse_head, read_head

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    ("html", "canonical"),
    [
        ('<head><link rel="canonical" href="https://e.org/a/"></head>', "https://e.org/a/"),
        ("<head><link href=https://e.org/a/ rel=canonical></head>", "https://e.org/a/"),
        ('<HEAD><LINK REL="Canonical" HREF="../b/"></HEAD>', "../b/"),
        ('<head><link rel="alternate canonical" href="x"/></head>', "x"),
        ('<head><!-- <link rel="canonical" href="nope"> --></head>', None),
        ('<head><script>var s = \'<link rel="canonical" href="nope">\';</script></head>', None),
        ('<head><link rel="canonical" href="/a?x=1&amp;y=2"></head>', "/a?x=1&y=2"),
        ('<head></head><body><link rel="canonical" href="late"></body>', None),
        ('<head><link rel="canonical" href=""></head>', None),
    ],
    ids=["plain", "minified", "upper", "multi-rel", "comment", "script", "entity", "body", "empty"],
)
def test_canonical(html: str, canonical: str | None) -> None:
    """Only a real canonical link in the head counts."""
    assert parse_head(html).canonical == canonical


def test_conflicting_canonicals_reported() -> None:
    """Two different canonicals: the first is used and the conflict reported."""
    meta = parse_head("<head><link rel=canonical href=a><link rel=canonical href=b></head>")
    assert meta.canonical == "a"
    assert [code for code, _ in meta.problems] == ["conflicting-canonicals"]


@pytest.mark.parametrize(
    ("html", "tokens"),
    [
        ('<meta name="robots" content="noindex, follow">', {"noindex", "follow"}),
        ('<meta name="GoogleBot" content="NONE">', {"none"}),
        ('<meta name="bingbot" content="noindex">', set()),
        ('<meta content="noindex,nofollow" name=robots>', {"noindex", "nofollow"}),
    ],
    ids=["robots", "googlebot-upper", "other-bot", "reversed"],
)
def test_robots(html: str, tokens: set[str]) -> None:
    """robots and googlebot meta tags are read; other bots' are not."""
    assert parse_head(f"<head>{html}</head>").robots == tokens


@pytest.mark.parametrize(
    ("content", "url"),
    [
        ("0; url=../guide/", "../guide/"),
        ("0;URL='https://e.org/x'", "https://e.org/x"),
        ("5", None),
        ("0; url=", None),
    ],
    ids=["plain", "quoted-upper", "reload-only", "empty-url"],
)
def test_refresh(content: str, url: str | None) -> None:
    """A meta refresh with a target is a redirect; a bare reload is not."""
    html = f'<head><meta http-equiv="refresh" content="{content}"></head>'
    assert parse_head(html).refresh_url == url


def test_alternates_lang_base_and_dates() -> None:
    """hreflang links, html lang, base href and date metas are collected in order."""
    meta = parse_head(
        '<html lang="fr"><head><base href="/root/">'
        '<link rel="alternate" hreflang="en" href="../en/">'
        '<link rel="alternate" type="application/atom+xml" href="feed.xml">'
        '<link rel="alternate" hreflang="x-default" href="/">'
        '<meta property="article:published_time" content="2023-01-02">'
        '<meta property="article:modified_time" content="2024-03-05T10:20:30+01:00">'
        "</head>")
    assert meta.lang == "fr"
    assert meta.base_href == "/root/"
    assert meta.alternates == [("en", "../en/"), ("x-default", "/")]
    assert meta.modified == "2024-03-05T10:20:30+01:00"
    assert meta.published == "2023-01-02"


@pytest.mark.parametrize(
    ("raw", "text", "problem"),
    [
        (b"caf\xc3\xa9", "café", None),
        (b'<meta charset="iso-8859-1">caf\xe9', '<meta charset="iso-8859-1">café', None),
        (b"caf\xe9", "café", "not-utf8"),
        (b"\xef\xbb\xbfcaf\xc3\xa9", "café", None),
        (b"caf\xc3", "caf", None),
        ('<meta charset="shift_jis">日本'.encode("shift_jis"), '<meta charset="shift_jis">日本', None),
    ],
    ids=["utf8", "declared-latin1", "undeclared-latin1", "bom", "cut-multibyte", "shift-jis"],
)
def test_decode_html(raw: bytes, text: str, problem: str | None) -> None:
    """Declared charsets are honoured; undeclared non-UTF-8 bytes are guessed and reported."""
    decoded, found = decode_html(raw, truncated=problem is None and raw.endswith(b"\xc3"))
    assert decoded == text
    assert (found[0] if found else None) == problem


def test_read_head_stops_at_cap(tmp_path: Path) -> None:
    """A head that never ends is read only up to the cap and reported."""
    page = tmp_path / "p.html"
    page.write_bytes(b"<html><head><title>x</title>" + b"<meta name=a content=b>" * (MAX_HEAD_BYTES // 10))
    meta = read_head(str(page))
    assert [code for code, _ in meta.problems] == ["head-too-long"]


def test_read_head_binary(tmp_path: Path) -> None:
    """A binary file named .html is reported, not parsed."""
    page = tmp_path / "p.html"
    page.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert [code for code, _ in read_head(str(page)).problems] == ["binary"]


@pytest.mark.parametrize("whole", [True, False])
def test_short_reads_still_give_every_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, whole: bool
) -> None:
    """A read may return fewer bytes than asked (network file systems): the reader goes on."""
    page = tmp_path / "page.html"
    body = b"<p>" + b"x" * 70_000 + b"</p>"
    page.write_bytes(b"<html><head>" + b"<!-- long -->" * 3_000 + b"<title>t</title></head>"
                     + body)
    real_read = head_module.os.read

    def short_read(descriptor: int, count: int) -> bytes:
        return real_read(descriptor, min(count, 777))

    monkeypatch.setattr(head_module.os, "read", short_read)
    raw, at_eof, status = head_module.read_page_bytes(str(page), whole=whole,
                                                      max_bytes=1 << 20)
    assert status.st_size == len(page.read_bytes())
    if whole:
        assert (raw, at_eof) == (page.read_bytes(), True)
    else:  # the head and a little more, not the end of the file
        assert b"<title>t</title></head>" in raw
        assert page.read_bytes().startswith(raw)
        assert not at_eof


@pytest.mark.parametrize("size", [0, 1, 9_000, 70_000])
def test_a_whole_page_takes_one_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    """The size fstat gave is the end of the file: no second read to find it."""
    page = tmp_path / "page.html"
    page.write_bytes(b"x" * size)
    reads: list[int] = []
    real_read = head_module.os.read

    def counted(descriptor: int, count: int) -> bytes:
        reads.append(count)
        return real_read(descriptor, count)

    monkeypatch.setattr(head_module.os, "read", counted)
    raw, at_eof, _ = head_module.read_page_bytes(str(page), whole=True, max_bytes=1 << 20)
    assert (raw, at_eof) == (page.read_bytes(), True)
    assert reads == [size + 1]

"""The 80 real-world-shaped robots.txt files of tests/data/robots/ survive a build byte for byte.

For each file, a tiny site with it as robots.txt (base https://example.org/) is built with the
real core. Afterwards every original byte is still there, in order (only a missing final line
break may be added, and our line after it); ``Sitemap: https://example.org/sitemap.xml``
appears exactly once, or the file is unchanged because it already names our sitemap (28 and
40 spell the URL differently and count as present); a second build changes nothing; and two
independent parsers, Protego and ``urllib.robotparser`` (``site_maps()``), both report our
sitemap.

Parser notes (the files' own quirks, not ours):

* ``urllib.robotparser.RobotFileParser.read()`` decodes strict UTF-8, so it would raise on
  55 (latin-1) and 56 (Windows-1252); the text is decoded with ``errors="replace"`` here.
* robotparser does not strip a byte-order mark: in 74 the target is the first line, right
  after the BOM, so robotparser reads the directive "\\ufeffsitemap" and misses it. Crawlers
  strip the BOM (Google does), so both parsers are given the BOM-stripped text.
* 25 ``Site-map:`` is not our directive, so our line is added; Protego 0.x also reads
  ``Site-map`` as a sitemap line, which is harmless.
"""

from __future__ import annotations

import re
import urllib.robotparser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from protego import Protego

from sitemap_plugins import SitemapConfig, generate

CORPUS = Path(__file__).parent / "data" / "robots"
FILES = sorted(CORPUS.glob("*.txt"))
TARGET = "https://example.org/sitemap.xml"
OUR_LINE = f"Sitemap: {TARGET}".encode()
BOM = b"\xef\xbb\xbf"
LINE_BREAK = re.compile(rb"\r\n|\r|\n")
# From the corpus README: files that already name the target as a Sitemap directive.
ALREADY_NAMED = {27, 28, 29, 30, 31, 32, 33, 34, 40, 41, 42, 43, 74, 75}
# Past the 500 KiB crawlers read: a line added at the end would be lost on them, so the file
# is left as it is (and a warning says why).
TOO_LARGE = {51}
ROBOTPARSER_MISSES_AFTER_BOM = {74}  # documented above; checked on the BOM-stripped text


def number(path: Path) -> int:
    return int(path.name.split("-", 1)[0])


def same_url(found: str) -> bool:
    """``found`` is our sitemap URL in any equivalent spelling (case of scheme/host, :443)."""
    try:
        parts = urlsplit(found.strip())
        port = parts.port
    except ValueError:
        return False
    return (parts.scheme.lower(), (parts.hostname or "").lower(), port in (None, 443),
            parts.path, parts.query) == ("https", "example.org", True, "/sitemap.xml", "")


def build(tmp_path: Path, robots: bytes, **options: object) -> Path:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "index.html").write_bytes(b"<html><head><title>home</title></head></html>")
    (site / "robots.txt").write_bytes(robots)
    config = SitemapConfig.from_mapping({"base_url": "https://example.org/",
                                         "cache_dir": str(tmp_path / "cache"), **options})
    generate(site, config)
    return site


def parsers_see_target(data: bytes) -> tuple[bool, bool]:
    """(Protego, urllib.robotparser) report our sitemap URL."""
    text = data.removeprefix(BOM).decode("utf-8", "replace")
    protego = any(same_url(url) for url in Protego.parse(text).sitemaps)
    robotparser = urllib.robotparser.RobotFileParser()
    robotparser.parse(text.splitlines())
    return protego, any(same_url(url) for url in robotparser.site_maps() or [])


def test_corpus_is_complete() -> None:
    """All 80 files are there, as make_corpus.py wrote them."""
    assert [number(p) for p in FILES] == list(range(1, 81))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_robots_file_survives(tmp_path: Path, sitemap_urls, path: Path) -> None:
    """Every original byte stays, in order; our line is there once; a rebuild is a no-op."""
    original = path.read_bytes()
    # respect_robots_txt off: 06 disallows everything, and the merge must not depend on rules
    site = build(tmp_path, original, respect_robots_txt=False)
    assert sitemap_urls(site) == ["https://example.org/"]
    result = (site / "robots.txt").read_bytes()
    if number(path) in TOO_LARGE:
        assert result == original, "a file past 500 KiB must be left as it is"
        return
    if number(path) in ALREADY_NAMED:
        assert result == original, "a file that names our sitemap must be left as it is"
    else:
        assert result.startswith(original)
        added = result[len(original):]
        # a line end (if the file lacked one), perhaps a blank line, then our line
        assert re.fullmatch(rb"(?:\r\n|\r|\n){0,2}" + re.escape(OUR_LINE) + rb"(?:\r\n|\r|\n)",
                            added), added
        lines = LINE_BREAK.split(result.removeprefix(BOM))
        assert sum(line.strip() == OUR_LINE for line in lines) == 1 + sum(
            line.strip() == OUR_LINE for line in LINE_BREAK.split(original.removeprefix(BOM)))
        newline = LINE_BREAK.search(original)
        assert added.endswith(newline.group(0) if newline else b"\n"), "file's own line end"
    build(tmp_path, result, respect_robots_txt=False)
    assert (site / "robots.txt").read_bytes() == result, "a second build changed robots.txt"
    protego, robotparser = parsers_see_target(result)
    assert protego, "Protego does not see our sitemap"
    assert robotparser, "urllib.robotparser does not see our sitemap"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_robots_file_with_its_rules(tmp_path: Path, path: Path) -> None:
    """With the default config the file's own rules apply; if they allow the home page, it
    gets our line as above, and if they disallow it, no sitemap and no line are written."""
    original = path.read_bytes()
    allowed = Protego.parse(original.removeprefix(BOM).decode("utf-8", "replace")).can_fetch(
        "https://example.org/", "*")
    site = build(tmp_path, original)
    result = (site / "robots.txt").read_bytes()
    if not allowed:
        assert not (site / "sitemap.xml").exists()
        assert result == original
        return
    if number(path) in TOO_LARGE:
        assert result == original
        return
    assert result == original if number(path) in ALREADY_NAMED else result.startswith(original)
    assert all(parsers_see_target(result))


def test_robotparser_quirk_is_the_files_own() -> None:
    """74 is read right once its BOM is stripped, and only then (a robotparser limitation)."""
    (path,) = [p for p in FILES if number(p) in ROBOTPARSER_MISSES_AFTER_BOM]
    raw = path.read_bytes()
    with_bom = urllib.robotparser.RobotFileParser()
    with_bom.parse(raw.decode("utf-8").splitlines())
    assert not any(same_url(u) for u in with_bom.site_maps() or [])
    assert parsers_see_target(raw) == (True, True)


def test_lone_bom_gets_a_line_break(tmp_path: Path) -> None:
    """08 holds only a BOM: our line goes on its own line, so robotparser sees it unstripped."""
    (path,) = [p for p in FILES if number(p) == 8]
    result = (build(tmp_path, path.read_bytes(), respect_robots_txt=False) / "robots.txt")
    data = result.read_bytes()
    assert data == BOM + b"\n" + OUR_LINE + b"\n"
    plain = urllib.robotparser.RobotFileParser()
    plain.parse(data.decode("utf-8").splitlines())
    assert any(same_url(u) for u in plain.site_maps() or [])

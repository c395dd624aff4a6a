"""Image and video sitemap entries: which images and videos of a page are listed, and how.

The decision is pure (a page's record in, entries out), so most cases are a table; the
files are validated against Google's image and video XSDs in tests/schemas.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import read_sitemap, validate_sitemap_file
from lxml import etree

from sitemap_plugins.entry.media import MAX_IMAGES, VideoEntry
from sitemap_plugins.entry.rules import Entry, evaluate
from sitemap_plugins.page.reader import parse_html
from sitemap_plugins.products.build.pipeline import make_rules
from sitemap_plugins.vocab.options import SitemapConfig

ROOT = Path(__file__).resolve().parents[1]
BASE = "https://example.org/"
IMAGE = "{http://www.google.com/schemas/sitemap-image/1.1}"
VIDEO = "{http://www.google.com/schemas/sitemap-video/1.1}"
PAGE = ("<html><head><title>Trip - Blog</title><meta property='og:title' content='Trip'>"
        "<meta name='description' content='About the trip.'>{head}</head><body>"
        "<header><img src='/logo.png'></header><nav><img src='/icon.svg'></nav>"
        "<main>{main}</main><footer><img src='/badge.png'></footer></body></html>")


def entry_of(main: str, head: str = "", rel: str = "trip/index.html", **options: object) -> Entry:
    record = parse_html(PAGE.format(main=main, head=head).encode())
    config = SitemapConfig.from_mapping({"base_url": BASE, **options})
    decision = evaluate(rel, record, None, make_rules(config, None))
    assert isinstance(decision.result, Entry)
    return decision.result


def skipped_of(main: str) -> tuple[str, ...]:
    record = parse_html(PAGE.format(main=main, head="").encode())
    config = SitemapConfig.from_mapping({"base_url": BASE})
    return evaluate("trip/index.html", record, None, make_rules(config, None)).videos_skipped


@pytest.mark.parametrize(
    ("main", "head", "images"),
    [
        ("<img src='a.png'>", "", ("https://example.org/trip/a.png",)),
        ("<img src='/a.png'><img src='a.png'><img src='../trip/a.png'>", "",
         ("https://example.org/a.png", "https://example.org/trip/a.png")),
        ("<img src='https://cdn.example.net/p.jpg?w=1&amp;h=2'>", "",
         ("https://cdn.example.net/p.jpg?w=1&h=2",)),
        ("<img src='data:image/png;base64,AAAA'><img src='px.gif' width='1' height='1'>", "", ()),
        ("<img src='ftp://example.org/a.png'><img src='javascript:x()'>", "", ()),
        ("<img srcset='s.jpg 300w, l.jpg 900w, m.jpg 600w'>", "", ("https://example.org/trip/l.jpg",)),
        ("<picture><source srcset='w.webp 2x, n.webp 1x'><img src='f.jpg'></picture>", "",
         ("https://example.org/trip/f.jpg", "https://example.org/trip/w.webp")),
        ("<img src='a.png'>", "<base href='https://example.org/media/'>",
         ("https://example.org/media/a.png",)),
    ],
    ids=["relative", "deduplicated", "cdn-escaped-once", "data-and-pixel", "not-http",
         "largest-srcset", "picture", "base-href"],
)
def test_content_images(main: str, head: str, images: tuple[str, ...]) -> None:
    """Only the main content's images, absolute, once each; no logo, icon or badge."""
    assert entry_of(main, head).images == images


def test_images_stop_at_a_thousand_and_can_be_turned_off() -> None:
    many = "".join(f"<img src='/i/{n}.png'>" for n in range(MAX_IMAGES + 50))
    assert len(entry_of(many).images) == MAX_IMAGES
    assert entry_of(many, images=False).images == ()


@pytest.mark.parametrize(
    ("main", "videos"),
    [
        (("<figure><video src='/v.mp4' poster='/v.jpg' title='Clip'></video>"
          "<figcaption>What it shows.</figcaption></figure>"),
         (VideoEntry("https://example.org/v.jpg", "Clip", "What it shows.",
                     content_loc="https://example.org/v.mp4"),)),
        ("<video poster='v.jpg' aria-label='Clip'><source src='v.webm'></video>",
         (VideoEntry("https://example.org/trip/v.jpg", "Clip", "About the trip.",
                     content_loc="https://example.org/trip/v.webm"),)),
        ("<iframe src='https://www.youtube.com/embed/dQw4w9WgXcQ?rel=0'></iframe>",
         (VideoEntry("https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg", "Trip", "About the trip.",
                     player_loc="https://www.youtube.com/embed/dQw4w9WgXcQ?rel=0"),)),
        ("<iframe src='//www.youtube-nocookie.com/embed/abcdefghijk' title='T'></iframe>",
         (VideoEntry("https://i.ytimg.com/vi/abcdefghijk/hqdefault.jpg", "T", "About the trip.",
                     player_loc="https://www.youtube-nocookie.com/embed/abcdefghijk"),)),
        ("<iframe src='https://maps.example/embed?x=1'></iframe>", ()),
        (("<video src='/v.mp4' poster='/v.jpg'></video><video src='/v.mp4' poster='/v.jpg'>"
          "</video>"),
         (VideoEntry("https://example.org/v.jpg", "Trip", "About the trip.",
                     content_loc="https://example.org/v.mp4"),)),
    ],
    ids=["video-figure", "video-source-page-text", "youtube", "youtube-nocookie",
         "map-frame", "same-video-twice"],
)
def test_content_videos(main: str, videos: tuple[VideoEntry, ...]) -> None:
    """The element's own fields first, then the page's; a YouTube thumbnail from the ID."""
    assert entry_of(main).videos == videos


@pytest.mark.parametrize(
    ("main", "why"),
    [
        ("<iframe src='https://player.vimeo.com/video/76979871' title='V'></iframe>",
         "no thumbnail"),
        ("<video src='/v.mp4'></video>", "no thumbnail"),
        ("<video poster='/v.jpg'></video>", "no video URL"),
    ],
)
def test_videos_that_cannot_be_listed_are_counted(main: str, why: str) -> None:
    assert entry_of(main).videos == ()
    assert skipped_of(main) == (why,)


def test_a_video_without_any_title_is_left_out() -> None:
    record = parse_html(b"<body><main><video src='/v.mp4' poster='/v.jpg'></video></main></body>")
    config = SitemapConfig.from_mapping({"base_url": BASE})
    decision = evaluate("a.html", record, None, make_rules(config, None))
    assert isinstance(decision.result, Entry)
    assert (decision.result.videos, decision.videos_skipped) == ((), ("no title",))


def test_video_text_fits_the_schema_limits() -> None:
    long_title, long_caption = "word " * 60, "x" * 3000
    video = entry_of(f"<figure><video src='/v.mp4' poster='/v.jpg' title='{long_title}'></video>"
                     f"<figcaption>{long_caption}</figcaption></figure>").videos[0]
    assert len(video.title) <= 100
    assert video.title.endswith("…")
    assert video.title.startswith("word word")
    assert len(video.description) == 2048


# --- files -------------------------------------------------------------------------------


def _site(tmp_path: Path, pages: int, images_each: int) -> Path:
    site = tmp_path / "site"
    for number in range(pages):
        gallery = "".join(f"<img src='/photos/{number}/{index}.jpg'>"
                           for index in range(images_each))
        video = (f"<iframe src='https://www.youtube.com/embed/abcdefghij{number % 10}' "
                 f"title='Film {number} &amp; more'></iframe>"
                 "<iframe src='https://player.vimeo.com/video/1'></iframe>")
        page = site / f"p{number}" / "index.html"
        page.parent.mkdir(parents=True)
        page.write_text(PAGE.format(main=gallery + video, head=""), "utf-8")
    return site


def _build(site: Path, *args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "sitemap_plugins", "build", str(site),
                           "--base-url", BASE, "--no-fingerprint", "--json", *args],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    report: dict[str, object] = json.loads(done.stdout)
    return report


@pytest.mark.integration
def test_built_files_validate_and_count_media(tmp_path: Path, xsd) -> None:
    """The XSDs (image and video imported strictly) accept the file; the summary counts."""
    site = _site(tmp_path, pages=3, images_each=2)
    report = _build(site)
    assert report["media"] == {"images": 6, "videos": 3, "videos_left_out": {"no thumbnail": 3}}
    assert len(read_sitemap(site, xsd)) == 3
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    assert root.findtext(f".//{VIDEO}title") == "Film 0 & more"
    assert "&amp;amp;" not in (site / "sitemap.xml").read_text("utf-8")
    checked = subprocess.run([sys.executable, "-m", "sitemap_plugins", "check", str(site),
                              "--base-url", BASE], capture_output=True, text=True, cwd=ROOT,
                             check=False)
    assert checked.returncode == 0, checked.stderr


def test_the_size_limit_counts_the_media(tmp_path: Path, xsd) -> None:
    """Pages with many images split into parts that each stay under max_bytes."""
    site = _site(tmp_path, pages=12, images_each=40)
    limit = 20_000
    _build(site, "--max-bytes", str(limit))
    parts = sorted(site.glob("sitemap-*.xml"))
    assert len(parts) > 1
    for part in parts:
        assert part.stat().st_size <= limit
        validate_sitemap_file(part, xsd)
    assert len(read_sitemap(site, xsd)) == 12


def test_options_off_write_no_extension(tmp_path: Path) -> None:
    site = _site(tmp_path, pages=1, images_each=2)
    report = _build(site, "--no-images", "--no-videos")
    text = (site / "sitemap.xml").read_text("utf-8")
    assert "image" not in text
    assert "video" not in text
    assert report["media"] == {"images": 0, "videos": 0, "videos_left_out": {}}


@pytest.mark.integration
@pytest.mark.parametrize(
    ("old", "new", "problem", "schema_rejects"),
    [
        ("<image:loc>https://example.org/photos/0/0.jpg</image:loc>",
         "<image:loc>photos/0.jpg</image:loc>", "image:loc 'photos/0.jpg' is not an absolute",
         False),
        ("<video:title>Film 0 &amp; more</video:title>", "<video:title>" + "t" * 101
         + "</video:title>", "video:title has 101 characters", True),
        ("<video:description>About the trip.</video:description>", "",
         "<video:video> lacks <video:description>", True),
        ("<video:player_loc>https://www.youtube.com/embed/abcdefghij0</video:player_loc>", "",
         "neither content_loc nor player_loc", False),
    ],
    ids=["relative-image", "long-title", "no-description",
         "no-location"],
)
def test_check_finds_broken_media_entries(tmp_path: Path, xsd, old: str, new: str,
                                          problem: str, schema_rejects: bool) -> None:
    """check reads the extensions: each planted fault is reported. The XSD rejects only some
    (it allows relative URIs and a video without a location)."""
    site = _site(tmp_path, pages=1, images_each=1)
    _build(site, "--no-gzip")
    sitemap = site / "sitemap.xml"
    text = sitemap.read_text("utf-8")
    assert old in text
    sitemap.write_text(text.replace(old, new, 1), "utf-8")
    checked = subprocess.run([sys.executable, "-m", "sitemap_plugins", "check", str(site),
                              "--base-url", BASE], capture_output=True, text=True, cwd=ROOT,
                             check=False)
    assert checked.returncode == 1
    assert problem in checked.stderr
    assert xsd["urlset"].validate(etree.parse(str(sitemap))) is not schema_rejects


@pytest.mark.integration
def test_turning_news_off_removes_our_news_sitemap_only(tmp_path: Path) -> None:
    """With news turned off, the news sitemap an earlier build wrote goes, with its robots.txt
    line (every other byte kept); a file of that name the tool did not write stays."""
    site = _site(tmp_path, pages=1, images_each=0)
    (site / "robots.txt").write_bytes(b"User-agent: *\r\nDisallow: /private/\r\n")
    news = ["--news", "name=Daily", "--news", "language=en"]
    _build(site, *news)
    assert (site / "sitemap-news.xml").is_file()
    assert b"sitemap-news.xml" in (site / "robots.txt").read_bytes()
    report = _build(site)
    assert not (site / "sitemap-news.xml").exists()
    assert "sitemap-news.xml" in report["removed"]
    assert (site / "robots.txt").read_bytes() == (
        b"User-agent: *\r\nDisallow: /private/\r\n\r\nSitemap: https://example.org/sitemap.xml\r\n")
    own = b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset><!-- mine --></urlset>\n'
    (site / "sitemap-news.xml").write_bytes(own)
    _build(site)
    assert (site / "sitemap-news.xml").read_bytes() == own

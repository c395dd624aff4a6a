"""A listed page's images and videos, as Google's image and video sitemap extensions take them.

Pure: the reader's raw values (:class:`~sitemap_plugins.reader.PageRecord`, taken from the
page's main content region only, so logos and icons in the header or navigation are never
seen) and the URL they are resolved from in; absolute URLs and complete video entries out.

* **Images:** ``image:loc`` only (Google ignores caption, title, licence and geo since 2022);
  absolute http(s) URLs, resolved against the page (and its ``<base>``), once each, at most
  1,000 a page. Another host (a CDN) is allowed.
* **Videos:** Google requires ``thumbnail_loc``, ``title``, ``description`` and a
  ``content_loc`` or ``player_loc``. Each is taken from the element first (``poster``,
  ``title``/``aria-label``, the ``<figcaption>``), then from the page (``og:title``, the
  ``<title>``, meta description). YouTube embeds get their thumbnail from the video's ID.
  A video without an honest thumbnail or title is left out, and the reason is counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sitemap_plugins.urls import MAX_URL_LENGTH, resolve_href

if TYPE_CHECKING:
    from sitemap_plugins.reader import PageRecord, Video

MAX_IMAGES = 1_000  # Google: at most 1,000 image:image elements in one <url>
MAX_VIDEO_TITLE = 100  # sitemap-video.xsd
MAX_VIDEO_DESCRIPTION = 2_048  # sitemap-video.xsd
SKIPPED_NO_THUMBNAIL = "no thumbnail"
SKIPPED_NO_TITLE = "no title"
SKIPPED_NO_SOURCE = "no video URL"

# youtube.com/embed/ID and youtube-nocookie.com/embed/ID (www. or not): the ID is 11 of
# [A-Za-z0-9_-]. The thumbnail Google's own player shows for it:
_YOUTUBE = re.compile(
    r"https?://(?:www\.)?youtube(?:-nocookie)?\.com/embed/([A-Za-z0-9_-]{11})(?:[?#/]|\Z)",
    re.IGNORECASE)
_YOUTUBE_THUMBNAIL = "https://i.ytimg.com/vi/{}/hqdefault.jpg"
_VIMEO = re.compile(r"https?://player\.vimeo\.com/video/(\d+)(?:[?#/]|\Z)", re.IGNORECASE)


@dataclass(frozen=True)
class VideoEntry:
    """One ``video:video`` element: every field Google requires, within the schema's limits."""

    thumbnail_loc: str
    title: str
    description: str
    content_loc: str = ""
    player_loc: str = ""


def page_images(record: PageRecord, resolve_from: str) -> tuple[str, ...]:
    """The page's content images as absolute http(s) URLs, each once, in page order."""
    found: dict[str, None] = {}
    for source in record.images:
        url = resolve_href(source, resolve_from)
        if url is not None and len(url) <= MAX_URL_LENGTH:
            found.setdefault(url)
            if len(found) == MAX_IMAGES:
                break
    return tuple(found)


def page_videos(
    record: PageRecord, resolve_from: str
) -> tuple[tuple[VideoEntry, ...], tuple[str, ...]]:
    """The page's content videos that can be listed, and why each other one cannot.

    An ``<iframe>`` is a video only when it embeds a known player (YouTube, Vimeo); any other
    frame (a map, a form) is passed over without a word.
    """
    listed: list[VideoEntry] = []
    skipped: list[str] = []
    seen: set[tuple[str, str]] = set()
    for video in record.videos:
        entry = _video_entry(video, record, resolve_from)
        if entry is None:
            continue
        if isinstance(entry, str):
            skipped.append(entry)
            continue
        key = (entry.content_loc, entry.player_loc)
        if key not in seen:
            seen.add(key)
            listed.append(entry)
    return tuple(listed), tuple(skipped)


def _video_entry(video: Video, record: PageRecord, resolve_from: str) -> VideoEntry | str | None:
    """A complete entry; the reason it cannot be one; or None for a frame that is no video."""
    thumbnail = _url(video.thumbnail, resolve_from)
    content = _url(video.content, resolve_from)
    player = ""
    if video.player:
        player = _url(video.player, resolve_from)
        youtube = _YOUTUBE.match(player)
        if youtube is not None:
            thumbnail = thumbnail or _YOUTUBE_THUMBNAIL.format(youtube.group(1))
        elif _VIMEO.match(player) is None:
            return None  # a frame, not a video player we know
    if not (content or player):
        return SKIPPED_NO_SOURCE
    if not thumbnail:
        return SKIPPED_NO_THUMBNAIL
    title = _text(video.title or record.og_title or record.title or record.heading,
                  MAX_VIDEO_TITLE)
    if not title:
        return SKIPPED_NO_TITLE
    # The caption, else the page's description; a video with neither is described by its
    # title, which is all that is known of it (Google requires a description).
    description = _text(video.caption or record.description or title, MAX_VIDEO_DESCRIPTION)
    return VideoEntry(thumbnail, title, description, content, player)


def _url(value: str, resolve_from: str) -> str:
    if not value or value.lower().startswith("data:"):
        return ""
    url = resolve_href(value, resolve_from)
    return url if url is not None and len(url) <= MAX_URL_LENGTH else ""


def _text(value: str | None, limit: int) -> str:
    """White space collapsed; cut at a word, with an ellipsis, to fit ``limit`` characters."""
    text = " ".join((value or "").split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip() + "…"

"""A listed page's images and videos, as Google's image and video sitemap extensions take them.

Pure: the reader's raw values (:class:`~sitemap_plugins.page.reader.PageRecord`, taken from the
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

from sitemap_plugins.vocab.urls import comparison_key, resolve_href, url_problem
from sitemap_plugins.vocab.values import xml_text

if TYPE_CHECKING:
    from sitemap_plugins.page.content import Video
    from sitemap_plugins.page.reader import PageRecord

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
        url = _url(source, resolve_from)
        if url:
            found.setdefault(url)
            if len(found) == MAX_IMAGES:
                break
    return tuple(found)


def page_videos(
    record: PageRecord, resolve_from: str, loc: str = ""
) -> tuple[tuple[VideoEntry, ...], tuple[str, ...]]:
    """The page's content videos that can be listed, and why each other one cannot.

    An ``<iframe>`` is a video only when it embeds a known player (YouTube, Vimeo); any other
    frame (a map, a form) is passed over without a word. A video whose file would be the
    page itself (``<video src="./">``, the page's ``loc``) has none: Google requires another.
    """
    listed: list[VideoEntry] = []
    skipped: list[str] = []
    seen: set[tuple[str, str]] = set()
    for video in record.videos:
        entry = _video_entry(video, record, resolve_from,
                             {_page_key(resolve_from), _page_key(loc)})
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


def _video_entry(video: Video, record: PageRecord, resolve_from: str,
                 pages: set[str]) -> VideoEntry | str | None:
    """A complete entry; the reason it cannot be one; or None for a frame that is no video.

    ``pages``: the page's own URLs, which no video location may be.
    """
    thumbnail = _url(video.thumbnail, resolve_from)
    content = _url(video.content, resolve_from)
    content = "" if _page_key(content) in pages else content
    player = ""
    if video.player:
        player = _url(video.player, resolve_from)
        player = "" if _page_key(player) in pages else player
        youtube = _YOUTUBE.match(player)
        if youtube is not None:
            thumbnail = thumbnail or _YOUTUBE_THUMBNAIL.format(youtube.group(1))
        elif _VIMEO.match(player) is None:
            return None  # a frame, not a video player we know
    if not (content or player):
        return SKIPPED_NO_SOURCE
    if not thumbnail:
        return SKIPPED_NO_THUMBNAIL
    # The first text that is still text once cleaned: a title of only control characters
    # would be written empty, and check (as Google) refuses an empty one.
    title = _first_text((video.title, record.og_title, record.title, record.heading),
                        MAX_VIDEO_TITLE)
    if not title:
        return SKIPPED_NO_TITLE
    # The caption, else the page's description; a video with neither is described by its
    # title, which is all that is known of it (Google requires a description).
    description = _first_text((video.caption, record.description, title),
                              MAX_VIDEO_DESCRIPTION)
    return VideoEntry(thumbnail, title, description, content, player)


def _first_text(values: tuple[str | None, ...], limit: int) -> str:
    return next((text for value in values if (text := _text(value, limit))), "")


def _page_key(url: str) -> str:
    """``url`` as the page it names: ``a/index.html`` is ``a/``, escapes decoded."""
    key = comparison_key(url) if url else ""
    for index in ("index.html", "index.htm"):
        if key.endswith("/" + index):
            return key[: -len(index)]
    return key


def _url(value: str, resolve_from: str) -> str:
    """The resolved URL when ``check`` would accept it (:func:`url_problem`), else ""."""
    if not value or value.lower().startswith("data:"):
        return ""
    url = resolve_href(value, resolve_from)
    return url if url is not None and url_problem(url) is None else ""


def _text(value: str | None, limit: int) -> str:
    """``value`` fit for a media entry: characters XML forbids dropped, white space collapsed.

    Cut at a word, with an ellipsis, to fit ``limit`` characters.
    """
    text = " ".join(xml_text(value or "").split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip() + "…"

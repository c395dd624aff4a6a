"""The Google News sitemap: articles published in the two days before the build.

Pure selection and rendering; :mod:`sitemap_plugins.products.build.pipeline` feeds it each listed
page's
:class:`NewsItem` and writes the result. Google's rules: only articles published in the last
two days, at most 1,000 a file, each with ``news:publication`` (name, language),
``news:publication_date`` and ``news:title``. The file is written on every build, also when
no article qualifies, so that old articles drop out.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sitemap_plugins.entry.render import Node, XmlError, parse_xml, template_module
from sitemap_plugins.vocab.dates import Lastmod, format_w3c, parse_w3c, sort_key
from sitemap_plugins.vocab.options import NEWS_LANGUAGE, NewsPublication
from sitemap_plugins.vocab.values import names_language, xml_text

NEWS_WINDOW = timedelta(days=2)
MAX_NEWS = 1_000
_NEWS_NS = "{http://www.google.com/schemas/sitemap-news/0.9}"
_SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def news_file_name(sitemap_name: str) -> str:
    """``sitemap-news.xml`` beside ``sitemap.xml``."""
    return f"{sitemap_name}-news.xml"


@dataclass(frozen=True)
class NewsItem:
    """What a news entry needs of a listed page: when it was first published, its title."""

    loc: str
    published: Lastmod
    title: str
    language: str = ""
    """The article's own language (its ``<html lang>``) when it is one Google News takes;
    else the publication's."""


class NewsSelection:
    """The newest qualifying articles, at most :data:`MAX_NEWS`, kept as pages stream past."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.oldest = now - NEWS_WINDOW
        self._heap: list[tuple[datetime, str, NewsItem]] = []

    def offer(self, item: NewsItem) -> None:
        """Keep ``item`` if it was published in the window and is among the newest.

        An article whose title is no text once cleaned for XML (only ``&#1;``) is passed
        over: Google News requires a title, and check would refuse an empty one.
        """
        when = sort_key(item.published)
        if not self.oldest <= when <= self.now:
            return
        title = " ".join(xml_text(item.title).split())
        if not title:
            return
        if title != item.title:
            item = replace(item, title=title)
        entry = (when, item.loc, item)
        if len(self._heap) < MAX_NEWS:
            heapq.heappush(self._heap, entry)
        elif entry[:2] > self._heap[0][:2]:
            heapq.heapreplace(self._heap, entry)

    def items(self) -> list[NewsItem]:
        """Newest first; the same publication time by URL, so the bytes never vary."""
        ordered = sorted(self._heap, key=lambda entry: (-entry[0].timestamp(), entry[1]))
        return [item for _, _, item in ordered]


def news_language(lang: str | None) -> str:
    """An ``<html lang>`` as sitemap-news.xsd's language (ISO 639, or zh-cn / zh-tw), or "".

    "" (the publication's language is written) for a tag of no language: ``und``, ``zxx``,
    ``x-foo`` are ISO 639-shaped, but an article in them is in no language Google News reads.
    """
    code = (lang or "").strip().lower().replace("_", "-")
    if not names_language(code):
        return ""
    if code in ("zh-cn", "zh-tw"):
        return code
    if code.startswith(("zh-hans", "zh-sg")):
        return "zh-cn"
    if code.startswith(("zh-hant", "zh-hk")):
        return "zh-tw"
    primary = code.partition("-")[0]
    return primary if NEWS_LANGUAGE.fullmatch(primary) else ""


def render_news(publication: NewsPublication, items: list[NewsItem]) -> bytes:
    """The news sitemap's bytes (an empty ``<urlset>`` when no article qualifies)."""
    module = template_module("news.xml")
    body = "".join(str(module.url(item, publication.name,
                                  item.language or publication.language,
                                  format_w3c(item.published)))
                   for item in items)
    return (str(module.header()) + body + str(module.footer())).encode("utf-8")


def fit_news(publication: NewsPublication, items: list[NewsItem],
             max_bytes: int) -> tuple[bytes, int]:
    """The news sitemap of the newest ``items`` that fit in ``max_bytes`` and Google's 1,000.

    Returns its bytes and how many articles it holds: the oldest that would pass the limit
    (a very long publication name, long titles) are left out, never a file too large.
    """
    module = template_module("news.xml")
    header, footer = str(module.header()).encode(), str(module.footer()).encode()
    size, pieces = len(header) + len(footer), [header]
    for item in items[:MAX_NEWS]:
        piece = str(module.url(item, publication.name, item.language or publication.language,
                               format_w3c(item.published))).encode("utf-8")
        if size + len(piece) > max_bytes:
            break
        pieces.append(piece)
        size += len(piece)
    pieces.append(footer)
    return b"".join(pieces), len(pieces) - 2


def is_own_news_sitemap(data: bytes) -> bool:
    """Whether ``data`` is a news sitemap exactly as :func:`render_news` writes one.

    Re-rendered from what it holds and compared byte for byte: a file of the site's own (a
    hand-written one, another tool's) is never taken for ours.
    """
    try:
        root = parse_xml(data).root
    except XmlError:
        return False
    items: list[NewsItem] = []
    name = ""
    for url in root.children:
        news = url.find(f"{_NEWS_NS}news")
        if news is None:
            return False
        publication = news.find(f"{_NEWS_NS}publication") or Node("", {}, 0)
        published = parse_w3c(news.find_text(f"{_NEWS_NS}publication_date"))
        if published is None:
            return False
        name = publication.find_text(f"{_NEWS_NS}name")
        items.append(NewsItem(url.find_text(f"{_SITEMAP_NS}loc"), published,
                              news.find_text(f"{_NEWS_NS}title"),
                              publication.find_text(f"{_NEWS_NS}language")))
    # Every item names its own language; a name that differs between items fails the
    # comparison, as it should (one file is one publication).
    return render_news(NewsPublication(name, ""), items) == data

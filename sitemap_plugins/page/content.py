"""The main content of a parsed page: its region, what of it counts, and what it holds.

Finds the region, drops what is not content, and takes the fingerprint (steps in
docs/how-it-works.md, "The content fingerprint"), the first heading, images and videos.
What it looks for is in :mod:`~sitemap_plugins.page.rulebook`. A change to a step bumps
:data:`~sitemap_plugins.page.reader.FINGERPRINT_VERSION` and ``READER_VERSION``.
"""

from __future__ import annotations

import functools
import re
import threading
from typing import TYPE_CHECKING, NamedTuple

import xxhash
from selectolax.lexbor import LexborCSSSelector

from sitemap_plugins.page import rulebook as rb

if TYPE_CHECKING:
    from collections.abc import Iterator

    from selectolax.lexbor import LexborHTMLParser, LexborNode

# HTML strips only ASCII whitespace around a URL; str.strip() would eat a leading U+3000.
URL_SPACE = " \t\n\r\f"
# Longer titles, headings and descriptions are not titles; a record stays small.
_MAX_TEXT = 2_048
LINKING = rb.LINKING
# Links in code (a line's number) and in headings (a permalink).
_CODE_AND_HEADING_LINKS = ('pre a[href^="#"]', *(f"h{level} a" for level in range(1, 7)))
_CODE_OR_HEADINGS = frozenset({"pre", *(f"h{level}" for level in range(1, 7))})
_DROPPED_SELECTOR = ", ".join((*rb.DROPPED, *rb.LINE_NUMBERS, *_CODE_AND_HEADING_LINKS))
_DROPPED_IN_CONTENT_SELECTOR = ", ".join(
    (*rb.DROPPED_IN_CONTENT, *rb.LINE_NUMBERS, *_CODE_AND_HEADING_LINKS))
_CONTENT_ELEMENTS = ("h1", "pre", *LINKING)
_CONTENT_SELECTOR = ", ".join(_CONTENT_ELEMENTS)
_SRCSET_DESCRIPTOR = re.compile(r"(\d{1,12}(?:\.\d{1,12})?)[wx]", re.IGNORECASE)
_MAX_SRCSET = 65_536  # characters of a srcset attribute that are read
_MAX_MEDIA = 1_000


class Video(NamedTuple):
    """One video of the main content, as the page gives it (raw attribute values)."""

    content: str
    """The media file (``<video src>`` or its first ``<source src>``); empty for embeds."""
    player: str
    """The embedding player (an ``<iframe src>``); empty for ``<video>``."""
    thumbnail: str
    """``poster``; empty when the page gives none."""
    title: str
    """``title`` or ``aria-label``; empty when none."""
    caption: str
    """The text of the enclosing ``<figure>``'s ``<figcaption>``; empty when none."""


# --- Text as the record keeps it (the reader's head facts too) ----------------------------


def short_text(text: str | None) -> str | None:
    """A title-like text, white space collapsed and cut at ``_MAX_TEXT``; None when empty."""
    return _collapse(text[: _MAX_TEXT * 4])[:_MAX_TEXT] or None if text else None


def _collapse(text: str) -> str:
    return " ".join(text.split())


def url_value(value: str | None) -> str:
    """A URL attribute's value without the ASCII white space HTML strips; "" for none."""
    return value.strip(URL_SPACE) if value else ""


# selectolax makes a page's selector engine at its first query (25,000 instructions, a fifth
# of a query); the engine keeps no page between queries, so one a thread serves every page.
_ENGINES = threading.local()


def select(node: LexborNode, query: str) -> list[LexborNode]:
    """``node.css(query)``: the elements in and under ``node`` that match, in document order."""
    engine: LexborCSSSelector | None = getattr(_ENGINES, "engine", None)
    if engine is None:
        engine = _ENGINES.engine = LexborCSSSelector()  # type: ignore[no-untyped-call]
    return engine.find(query, node)


# --- Step 1: the region -------------------------------------------------------------------


def main_regions(tree: LexborHTMLParser) -> list[LexborNode]:
    """The main content region (see the module docstring, step 1)."""
    mains = _shown(tree.tags("main"))
    if mains:
        return [mains[0]]
    articles = _shown(tree.tags("article"))
    if articles:
        ids = {article.mem_id for article in articles}
        return [a for a in articles if not _has_ancestor_in(a, ids)]
    body = tree.body
    if body is None:
        return []
    # One selector in C: role="main" themes put the whole navigation before the region.
    found = body.css_first(rb.ROLE_MAIN)
    if found is not None and _hidden(found):
        found = next(iter(_shown(body.css(rb.ROLE_MAIN))), None)
    return [found if found is not None else body]


def _ancestors(node: LexborNode) -> Iterator[LexborNode]:
    """The elements that hold ``node``, nearest first."""
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _hidden(node: LexborNode) -> bool:
    return any(parent.tag in rb.NOT_SHOWN for parent in _ancestors(node))


def _shown(nodes: list[LexborNode]) -> list[LexborNode]:
    """``nodes`` without those inside a ``<noscript>`` or ``<template>``."""
    return [node for node in nodes if not _hidden(node)]


def _has_ancestor_in(node: LexborNode, ids: set[int]) -> bool:
    return any(parent.mem_id in ids for parent in _ancestors(node))


# --- Step 2: what of the region is not content --------------------------------------------


class Scope:
    """Where the regions' elements are looked for: one query over their nearest common root."""

    def __init__(self, regions: list[LexborNode]) -> None:
        self.regions = regions
        self.root: LexborNode | None = regions[0] if regions else None
        # The regions and the ancestors between them and the root: never dropped.
        self.around: set[int] = {region.mem_id for region in regions}
        self._inside: dict[int, bool] | None = None
        if len(regions) > 1:
            self._inside = dict.fromkeys(self.around, True)
            chain: list[LexborNode] = []
            node: LexborNode | None = regions[0]
            while node is not None:
                chain.append(node)
                node = node.parent
            depth = {link.mem_id: index for index, link in enumerate(chain)}
            deepest = 0
            for region in regions[1:]:
                node = region
                while node is not None and node.mem_id not in depth:
                    self.around.add(node.mem_id)
                    node = node.parent
                deepest = max(deepest, depth[node.mem_id] if node is not None else len(chain) - 1)
            self.root = chain[deepest]
            self.around.update(link.mem_id for link in chain[: deepest + 1])

    def select(self, selector: str) -> list[LexborNode]:
        """The elements inside the regions that match ``selector``, in document order."""
        if self.root is None:
            return []
        found = select(self.root, selector)
        return found if self._inside is None else [n for n in found if self._within(n)]

    def _within(self, node: LexborNode) -> bool:
        """Whether ``node`` lies inside a region; each ancestor's answer is kept."""
        assert self._inside is not None
        known = self._inside
        path = []
        parent = node.parent
        found = False
        while parent is not None:
            seen = known.get(parent.mem_id)
            if seen is not None:
                found = seen
                break
            path.append(parent.mem_id)
            parent = parent.parent
        for ident in path:
            known[ident] = found
        return found


def is_whole_body(regions: list[LexborNode], body: LexborNode) -> bool:
    """Whether the region is the page's ``<body>``: a theme without landmarks."""
    return len(regions) == 1 and regions[0].mem_id == body.mem_id


def drop_non_content(scope: Scope, body: LexborNode | None) -> None:
    """Take the dropped elements (step 2) out of the regions: unlinked, never freed."""
    regions = scope.regions
    # Several regions are articles, never the body (their common ancestor may well be it).
    whole_body = body is not None and is_whole_body(regions, body)
    # One query for dropped elements and links in code and headings (each query is costly).
    selector = _DROPPED_SELECTOR if whole_body else _DROPPED_IN_CONTENT_SELECTOR
    anchors = []
    for node in scope.select(selector):
        if node.tag == "a":
            anchors.append(node)
        elif node.mem_id not in scope.around:  # a region, or what holds one, stays
            node.remove(False)  # unlinked whole, its subtree kept
    for anchor in anchors:
        holder = anchor.parent
        while holder is not None and holder.tag not in _CODE_OR_HEADINGS:
            holder = holder.parent
        if holder is None:
            continue
        if holder.tag == "pre":
            if (url_value(anchor.attributes.get("href")).startswith("#")
                    and rb.LINE_NUMBER.fullmatch(anchor.text(strip=True))):
                anchor.remove(False)
        elif _is_permalink(anchor, holder):
            anchor.remove(False)


def _is_permalink(anchor: LexborNode, heading: LexborNode) -> bool:
    """Whether a link in ``heading`` is its permalink (:data:`~.rulebook.PERMALINK_CLASSES`)."""
    attributes = anchor.attributes
    classes = set((attributes.get("class") or "").split())
    # Read as the heading is, each text node apart: "acm <span>1</span>" is "acm 1".
    own = anchor.text(separator=" ", strip=True)
    if not (classes & rb.PERMALINK_CLASSES or (
            url_value(attributes.get("href")).startswith("#")
            and not rb.PERMALINK_WORD.search(own))):
        return False
    whole = heading.text(separator=" ", strip=True)
    return bool(whole.replace(own, "", 1).strip())  # the heading has text of its own besides


# --- Steps 3 and 4: what counts in the fingerprint ----------------------------------------


def content_elements(scope: Scope) -> dict[str, list[LexborNode]]:
    """The regions' headings and linking elements, by name, in document order (one selector)."""
    found: dict[str, list[LexborNode]] = {name: [] for name in _CONTENT_ELEMENTS}
    for node in scope.select(_CONTENT_SELECTOR):
        bucket = found.get(node.tag or "")
        if bucket is not None:  # always, but for a foreign element's odd spelling
            bucket.append(node)
    return found


def content_fingerprint(regions: list[LexborNode], elements: dict[str, list[LexborNode]]) -> str:
    """Steps 3 and 4 of the fingerprint (module docstring), of what steps 1 and 2 left."""
    # Text nodes are trimmed (by Lexbor): reflowing markup between elements changes nothing.
    texts = [region.text(separator=" ", strip=True, skip_empty=True) for region in regions]
    links = [value for value in _links(elements) if not rb.ASSET.search(value)]
    # Without white space: markup splitting text into nodes, or wrapped Markdown lines, is
    # no change. A <pre>'s text counts once more as it is: re-indented code is changed code.
    prose = plain_typography(" ".join(texts)).encode("utf-8", "surrogatepass").translate(
        None, _ASCII_SPACE)  # bytes: deleting the white space runs in C
    code = "\0".join(node.text() for node in elements["pre"])
    content = "\n" + code + "\n" + "\n".join(links)
    return xxhash.xxh3_128_hexdigest(prose + content.encode("utf-8", "surrogatepass"))


# Found by one pass in C; a page holds few of them, each replaced through the table.
_TYPOGRAPHIC = re.compile("[" + "".join(rb.TYPOGRAPHY) + "]")
_DASHES = re.compile(r"-{3,}")
_ASCII_SPACE = b" \t\n\r\x0b\x0c"


def plain_typography(text: str) -> str:
    """``text`` with plain ASCII typography (the site's setting); ``--`` and ``-`` stay apart."""
    if not text.isascii():
        text = _TYPOGRAPHIC.sub(lambda match: rb.TYPOGRAPHY[match.group()], text)
    return _DASHES.sub("--", text) if "---" in text else text


def _links(elements: dict[str, list[LexborNode]]) -> list[str]:
    """``href`` and ``src`` values of the regions' linking elements, by element name.

    A link to the very image it holds (a lightbox's) is that image, counted by its ``src``.
    """
    zooms = _image_links(elements["img"])
    found: list[str] = []
    for name in LINKING:
        for node in elements[name]:
            attributes = node.attributes
            for attribute in ("href", "src"):
                value = attributes.get(attribute)
                if value and not (name == "a" and zooms.get(node.mem_id) == value):
                    found.append(_emoji_name(value) if name == "img" and _is_emoji_image(
                        attributes, value) else value)
    return found


def _is_emoji_image(attributes: dict[str, str | None], source: str) -> bool:
    classes = {name.lower() for name in (attributes.get("class") or "").split()}
    return bool(classes & rb.EMOJI_CLASSES) or rb.EMOJI_URL.match(source.strip()) is not None


def _emoji_name(source: str) -> str:
    """An emoji image's file name without folder and type (the CDN is the site's setting)."""
    name = url_value(source).split("?", 1)[0].split("#", 1)[0].rsplit("/", 1)[-1]
    return "emoji:" + name.rsplit(".", 1)[0]


_MAX_ZOOM_DEPTH = 3  # an image sits in its link, or in a <picture> or <span> inside it


def _image_links(images: list[LexborNode]) -> dict[int, str]:
    """Each link that holds an image, by ``mem_id``, with that image's ``src``."""
    found: dict[int, str] = {}
    for image in images:
        parent = image.parent
        for _ in range(_MAX_ZOOM_DEPTH):
            if parent is None:
                break
            if parent.tag == "a":
                source = image.attributes.get("src")
                if source:
                    found.setdefault(parent.mem_id, source)
                break
            parent = parent.parent
    return found


# --- The heading: what names the page -----------------------------------------------------


def first_heading(elements: dict[str, list[LexborNode]], regions: list[LexborNode]) -> str | None:
    """The main content's first ``<h1>`` outside a ``<header>`` (a blog index's); else in one."""
    inside = {region.mem_id for region in regions}
    in_header: LexborNode | None = None
    for node in elements["h1"]:
        if not _in_header(node, inside):
            return short_text(node.text())
        if in_header is None:
            in_header = node
    if in_header is not None and len(regions) == 1:
        return short_text(in_header.text())
    return None


def _in_header(node: LexborNode, regions: set[int]) -> bool:
    """Whether a ``<header>`` lies between ``node`` and the region that holds it."""
    parent = node.parent
    while parent is not None and parent.mem_id not in regions:
        if parent.tag == "header":
            return True
        parent = parent.parent
    return False


# --- Images and videos --------------------------------------------------------------------


def content_images(elements: dict[str, list[LexborNode]], home: str = "") -> tuple[str, ...]:
    """The content's images (as lazy loaders show them), each once, but for decoration."""
    found: dict[str, None] = {}
    around = _Surroundings(home)
    for node in elements["img"]:
        if len(found) >= _MAX_MEDIA:
            break
        attributes = node.attributes
        if _is_pixel(attributes):
            continue
        source = _lazy_source(attributes) or url_value(attributes.get("src")) or (
            _largest_srcset(attributes.get("srcset") or ""))
        if source and not source.lower().startswith("data:") and not around.decoration(
                node, attributes, source):
            found.setdefault(source)
    pictures: dict[int, LexborNode | None] = {}
    for node in elements["source"]:
        if len(found) >= _MAX_MEDIA:
            break
        parent = node.parent
        if parent is None or parent.tag != "picture":
            continue
        attributes = node.attributes
        source = _lazy_source(attributes) or _largest_srcset(attributes.get("srcset") or "")
        if not source or source.lower().startswith("data:"):
            continue
        if parent.mem_id not in pictures:  # each picture's own <img>, found once
            pictures[parent.mem_id] = next(
                (child for child in parent.iter() if child.tag == "img"), None)
        image = pictures[parent.mem_id]
        if not around.decoration(image or node, (image or node).attributes, source):
            found.setdefault(source)
    return tuple(found)[:_MAX_MEDIA]




def _lazy_source(attributes: dict[str, str | None]) -> str:
    """The image a lazy loader will show in place of ``src`` (not a ``data:`` URI), or ""."""
    for name in (*rb.LAZY_SOURCES, *rb.LAZY_SRCSETS):
        value = attributes.get(name) or ""
        value = _largest_srcset(value) if name in rb.LAZY_SRCSETS else url_value(value)
        if value and not value.lower().startswith("data:"):
            return value
    return ""


def _largest_srcset(srcset: str) -> str:
    """The URL of the widest (or densest) candidate; the first when none says (linear)."""
    if len(srcset) > _MAX_SRCSET:
        head, comma, _ = srcset[:_MAX_SRCSET].rpartition(",")
        srcset = head if comma else srcset[:_MAX_SRCSET]
    best, best_size = "", -1.0
    for item in srcset.split(","):
        words = item.rsplit(None, 1)
        if not words:
            continue
        descriptor = _SRCSET_DESCRIPTOR.fullmatch(words[-1]) if len(words) == 2 else None  # noqa: PLR2004
        if descriptor is not None:
            url, size = words[0].strip(URL_SPACE), float(descriptor.group(1))
        else:
            url, size = item.split(None, 1)[0], 1.0
        if size > best_size:
            best, best_size = url, size
    return best


def _is_pixel(attributes: dict[str, str | None]) -> bool:
    return (attributes.get("width") or "").strip() in ("0", "1") and (
        attributes.get("height") or "").strip() in ("0", "1")


# --- Decoration: images a page shows that are not its content (the rule book's images) ---


def is_decoration(source: str, attributes: dict[str, str | None],
                  where: tuple[bool, bool, bool]) -> bool:
    """Whether an ``<img>`` decorates the page: a badge, emoji, avatar, control or logo.

    ``where``: whether it sits in a link home, in a banner (``<header>``, ``<nav>``), in a link.
    """
    classes, alt = attributes.get("class") or "", attributes.get("alt") or ""
    in_home_link, in_banner, in_link = where
    url = source.strip()
    if _is_badge(url, alt.strip() if in_link else "") or rb.EMOJI_URL.match(
            url if not url.startswith("//") else "https:" + url):
        return True
    path = _URL_HOST.sub("", _QUERY.split(url, 1)[0])
    if rb.AVATAR_URL.match(url) or any(rb.AVATAR.search(value) for value in (classes, alt, path)):
        return True
    class_names = {name.lower() for name in classes.split()}
    text = alt.strip()
    if (class_names & (rb.EMOJI_CLASSES | rb.CONTROL_CLASSES) or rb.EMOJI_SHORTCODE.match(text)
            or _is_emoji(text)):
        return True
    return (in_home_link or in_banner) and bool(rb.LOGO.search(classes) or rb.LOGO.search(alt))


_URL_HOST = re.compile(r"\A(?:[a-z][a-z0-9+.-]*:)?//[^/]*", re.IGNORECASE)
# An absolute or scheme-relative URL's authority (user information, host, port) and path.
_AUTHORITY = re.compile(r"(?:https?:)?//([^/?#]*)([^?#]*)", re.IGNORECASE)
_WORD_BREAKS = re.compile(r"[-_.]")
_QUERY = re.compile(r"[?#]")
_MAX_BADGE_ALT = 40  # a badge's label is a word or two ("PyPI version"), never a sentence


def _host(authority: str) -> str:
    """The host as a browser reads it: no user information, port, final dot; lower case."""
    host = authority.rpartition("@")[2]
    return (host if host.startswith("[") else host.partition(":")[0]).rstrip(".").lower()


def _is_badge(url: str, label: str = "") -> bool:
    """Whether ``url`` is a badge's: by host, path, style, or by ``label`` (alt inside a link)."""
    authority = _AUTHORITY.match(url)
    path = url
    if authority is not None:
        host = _host(authority.group(1))
        if host in rb.BADGE_HOSTS or any(host.endswith("." + domain)
                                         for domain in rb.BADGE_DOMAINS):
            return True
        if any(rb.BADGE_WORDS & set(_WORD_BREAKS.split(part))
               for part in host.split(".")[:-2]):  # a subdomain's words, not the site's name
            return True
        path = url[authority.end(1):]
    if "style=" in url and rb.BADGE_STYLE.search(url):
        return True
    path = _QUERY.split(path, 1)[0].lower()
    if any(status in path for status in rb.STATUS_PATHS):
        return True
    *folders, name = path.split("/")
    if name in rb.STATUS_FILES or any(folder in rb.BADGE_WORDS for folder in folders):
        return True
    stem, dot, extension = name.rpartition(".")
    if dot and extension == "svg" and rb.BADGE_WORDS & set(_WORD_BREAKS.split(stem)):
        return True
    return bool(label) and len(label) <= _MAX_BADGE_ALT and (
        extension if dot else "") in rb.BADGE_FORMATS and rb.BADGE_ALT.match(label) is not None


_EMOJI_MAX_CHARS = 10  # the longest ZWJ family sequences
_FIRST_SYMBOL = 0x2190  # arrows: below it, ASCII and Latin punctuation ("-", "*", "\u00b7")


def _is_emoji(text: str) -> bool:
    """An alt that is one emoji: symbols only (a flag, a ZWJ sequence, a variation selector)."""
    return 0 < len(text) <= _EMOJI_MAX_CHARS and all(
        not c.isalnum() and not c.isspace() for c in text) and any(
        ord(c) >= _FIRST_SYMBOL for c in text)


@functools.lru_cache(maxsize=1024)  # the same few links home, on every page
def _site_root(url: str) -> tuple[str, str] | None:
    """An absolute URL's host and path, without ``index.html`` and final slash; else None."""
    found = _AUTHORITY.fullmatch(url.split("#", 1)[0].split("?", 1)[0])
    if found is None or not found.group(1):
        return None
    path = found.group(2)
    if path.lower().endswith(("/index.html", "/index.htm")):
        path = path.rpartition("/")[0]
    return _host(found.group(1)), path.rstrip("/")


class _Surroundings:
    """Where the content's images sit: in a link, a link home, a banner (linear, kept per node)."""

    def __init__(self, home: str = "") -> None:
        self._known: dict[int, tuple[bool, bool, bool]] = {}
        self._home = home

    def decoration(self, node: LexborNode, attributes: dict[str, str | None],
                   source: str) -> bool:
        """:func:`is_decoration` of the image ``node`` showing ``source``, where it sits."""
        return is_decoration(source, attributes, self._around(node))

    def _is_home(self, href: str) -> bool:
        if rb.HOME_HREF.match(href.split("#", 1)[0]):
            return True
        return bool(self._home) and "//" in href and _site_root(href) == _site_root(self._home)

    def _around(self, node: LexborNode) -> tuple[bool, bool, bool]:
        """Whether an ancestor of ``node`` below ``<body>`` is a link home, a banner, a link."""
        unknown: list[LexborNode] = []
        found = (False, False, False)
        parent = node.parent
        while parent is not None and parent.tag not in ("body", "html"):
            known = self._known.get(parent.mem_id)
            if known is not None:
                found = known
                break
            unknown.append(parent)
            parent = parent.parent
        for element in reversed(unknown):  # from the outermost down
            home, banner, link = found
            if element.tag == "a":
                link = True
                home = home or self._is_home(url_value(element.attributes.get("href")))
            elif element.tag in rb.BANNERS or (element.attributes.get("role") or "") == "banner":
                banner = True
            found = (home, banner, link)
            self._known[element.mem_id] = found
        return found


def _caption(node: LexborNode, captions: dict[int, str]) -> str:
    """The text of the ``<figcaption>`` around ``node``, or "" (each figure's found once)."""
    parent = node.parent
    while parent is not None and parent.tag not in ("figure", "body"):
        parent = parent.parent
    if parent is None or parent.tag != "figure":
        return ""
    found = captions.get(parent.mem_id)
    if found is None:
        found = next((_collapse(child.text()) for child in parent.iter()
                      if child.tag == "figcaption"), "")
        captions[parent.mem_id] = found
    return found


def content_videos(elements: dict[str, list[LexborNode]]) -> tuple[Video, ...]:
    """The first ``_MAX_MEDIA`` videos and players of the content (the rest is not read)."""
    found: list[Video] = []
    captions: dict[int, str] = {}
    for node in elements["video"][:_MAX_MEDIA]:
        attributes = node.attributes
        content = url_value(attributes.get("src"))
        if not content:
            content = next((url_value(child.attributes.get("src")) for child in node.iter()
                            if child.tag == "source" and child.attributes.get("src")), "")
        title = (attributes.get("title") or attributes.get("aria-label") or "").strip()
        found.append(Video(content, "", url_value(attributes.get("poster")), title,
                           _caption(node, captions)))
    for node in elements["iframe"]:
        if len(found) >= _MAX_MEDIA:
            break
        attributes = node.attributes
        player = url_value(attributes.get("src"))
        if player:
            title = (attributes.get("title") or attributes.get("aria-label") or "").strip()
            found.append(Video("", player, "", title, _caption(node, captions)))
    return tuple(found)

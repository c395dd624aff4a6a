"""The one page reader: a built file's bytes in, one :class:`PageRecord` out.

An HTML page is parsed once, by Lexbor (a C HTML5 parser, through ``selectolax``), and the
record holds everything the later steps need:

* the head facts: canonical, robots meta, meta refresh, hreflang alternates, ``<html lang>``,
  ``<base href>``, modification and publication dates, title, description, feed links;
* the content fingerprint (below), so that lastmod moves only when the content does;
* the main content's images and videos, and its first heading, for media sitemaps and the
  site map for people.

Values are raw (attribute text, entities decoded): resolving URLs and judging them is
evaluation's work (:mod:`sitemap_plugins.rules`), which needs no file.

**The fingerprint**, exactly:

1. The main content region: the first ``<main>`` element; else every outermost
   ``<article>``; else the first element whose ``role`` names ``main``; else ``<body>``.
2. Inside it, these elements are removed with everything in them: ``nav``, ``footer``,
   ``aside``, ``script``, ``style``, ``noscript``, ``template``, ``svg`` (comments are never
   text), and ``header`` when the region is ``<body>`` or the header's ``role`` names
   ``banner``. Navigation, sidebars, build stamps and inline assets do not count, so adding a
   page to the site's navigation changes no other page's fingerprint. A ``<header>`` inside a
   ``<main>``, ``<article>`` or ``role=main`` region is the content's own (an article's
   title, byline and date, each article's on a blog's index) and counts, but for the
   navigation and the rest dropped inside it; a ``<body>``'s header is the site's banner.
   A ``<body>`` region (a theme without landmarks) read whole from disk also loses the site's
   chrome when the build gives it (:class:`SiteChrome`: the command line's, measured once per
   build on the home page and the page it links to that shares the fewest blocks with it):
   each element found at the same place (path of tags, ids and classes from ``<body>``, with
   its rank among like siblings) with the same text and links, whole; an element that differs
   is looked into. A page with a ``<main>``, ``<article>`` or ``role=main`` region is never
   touched by this rule; the hosts hand over their content without the theme and need none.
3. What remains is its text (entities decoded; each text node stripped of the white space at
   its ends, so that indenting or minifying the markup around it does not count) plus the
   ``href`` and ``src`` values of its elements that do not point at versioned assets (links
   and images are content; a hash in an asset's file name is not).
4. XXH3-128 of that (UTF-8), as hex: a change detector, not a seal.

A file that is not an HTML page, or one larger than :data:`MAX_PARSED_BYTES`, is
fingerprinted by a digest of all of its bytes, taken in chunks as it is read; such a page is
parsed only up to the bound, so memory stays bounded whatever the file's size.
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import re
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import xxhash
from selectolax.lexbor import LexborHTMLParser

from sitemap_plugins.values import is_language_tag

if TYPE_CHECKING:
    from collections.abc import Iterator

    from selectolax.lexbor import LexborNode

# Bumped whenever the same bytes would give another record, so that cached records and
# recorded fingerprints of an older reader are never taken for this one's.
READER_VERSION = "8"
NOTES = frozenset({"bad-lang"})
"""Codes of :attr:`PageRecord.problems` that are notes for the user, not warnings."""
FINGERPRINT_VERSION = "6"
MAX_PARSED_BYTES = 4 * 1024 * 1024
# HTML strips only ASCII whitespace around a URL attribute; str.strip() would also eat a
# no-break space or U+3000 that starts or ends a file name written as an IRI.
URL_SPACE = " \t\n\r\f"
_DROPPED = ("nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg")
# Elements whose href or src count as content links (script and svg are dropped anyway).
_LINKING = ("a", "area", "img", "iframe", "embed", "source", "track", "video", "audio", "input")
_DROPPED_SELECTOR = ", ".join(_DROPPED)
# Inside a <main>, <article> or role=main region a <header> is the content's own (HTML-AAM
# maps a header scoped to these to no landmark); one that names itself the banner is not.
_DROPPED_IN_CONTENT_SELECTOR = ", ".join(
    'header[role~="banner" i]' if name == "header" else name for name in _DROPPED)
_CONTENT_ELEMENTS = ("h1", *_LINKING)
_CONTENT_SELECTOR = ", ".join(_CONTENT_ELEMENTS)
# Asset links whose names carry a build hash (style.4f3a9c.css, app.js?v=123).
_ASSET = re.compile(r"\.(?:css|js|mjs|map|woff2?|ttf|ico)(?:[?#].*)?\Z", re.IGNORECASE)
# The first element whose role names main (a role attribute is a list of tokens).
_ROLE_MAIN = '[role~="main" i]'
_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.IGNORECASE
)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Markup-significant ASCII (and escape-like sequences) that an ASCII-compatible encoding
# must decode unchanged.
_ASCII_PROBE = bytes(range(0x20, 0x7F)) + b"\t\r\n \\x41 \\u0041 +AGEA- ~{"
# Meta names and properties whose content is the page's own last change or first publication.
_MODIFIED_KEYS = frozenset(
    {"article:modified_time", "og:updated_time", "dcterms.modified", "last-modified",
     "datemodified", "dc.date.modified"}
)
_PUBLISHED_KEYS = frozenset(
    {"article:published_time", "dcterms.created", "datepublished", "date", "dc.date",
     "dc.date.created", "dcterms.date"}
)
_FEED_TYPES = frozenset({"application/rss+xml", "application/atom+xml", "application/feed+json"})
_SRCSET_DESCRIPTOR = re.compile(r"(\d{1,12}(?:\.\d{1,12})?)[wx]", re.IGNORECASE)
_MAX_SRCSET = 65_536  # characters of a srcset attribute that are read
_MAX_MEDIA = 1_000
# Titles, headings and descriptions are for people and for media entries; a longer one is
# not a title, and a record stays small whatever the page holds.
_MAX_TEXT = 2_048


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


class PageRecord(NamedTuple):
    """What one read of one built file found: the input of evaluation and of every writer.

    A tuple: a build makes one for every page, and this is the cheapest record type.
    """

    fingerprint: str
    """See the module docstring; ``raw:`` and a digest of the bytes for non-HTML files."""
    html: bool = False
    canonical: str | None = None
    robots: frozenset[str] = frozenset()
    refresh_url: str | None = None
    alternates: tuple[tuple[str, str], ...] = ()
    """``(hreflang, href)`` from ``<link rel="alternate" hreflang>``, in page order."""
    lang: str | None = None
    base_href: str | None = None
    modified: str | None = None
    published: str | None = None
    title: str | None = None
    heading: str | None = None
    """The text of the main content's first ``<h1>``."""
    description: str | None = None
    og_title: str | None = None
    feeds: tuple[str, ...] = ()
    images: tuple[str, ...] = ()
    """Image sources in the main content: ``src``, else the largest ``srcset`` candidate."""
    videos: tuple[Video, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()
    """``(code, message)`` pairs about the page: an encoding guessed, a page too large."""

    @property
    def unreadable(self) -> bool:
        """Whether the file could not be read as a page at all (binary)."""
        return any(code == "binary" for code, _ in self.problems)


# --- reading ------------------------------------------------------------------------------


class PageBytes(NamedTuple):
    """A file's bytes as read: all of them, or the first ``MAX_PARSED_BYTES`` and a digest."""

    raw: bytes
    complete: bool
    """Whether ``raw`` is the whole file."""
    digest: bytes
    """XXH3-128 of all the file's bytes: the key of the record cache."""
    mtime: float


def read_record(page: PageBytes, *, html: bool, chrome: SiteChrome | None = None) -> PageRecord:
    """The record of a file whose bytes are ``page``.

    A file that is not a page, or a page past the parsing bound, is fingerprinted by the
    digest :func:`sitemap_plugins.site.read_bytes` already took of all its bytes: the file is
    never read twice. ``chrome``: the site's repeated blocks (:func:`site_chrome`).
    """
    raw_fingerprint = "raw:" + page.digest.hex()
    if not html:
        return PageRecord(raw_fingerprint)
    record = parse_html(page.raw, truncated=not page.complete, chrome=chrome)
    if page.complete:
        return record
    problem = ("page-too-large",
               f"is larger than {MAX_PARSED_BYTES:,} bytes; only that much was parsed")
    return record._replace(fingerprint=raw_fingerprint, problems=(*record.problems, problem))


# --- parsing ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _text_encoding(label_bytes: bytes) -> str | None:
    """The Python codec for a declared charset label, or None when it cannot be used."""
    label = label_bytes.decode("ascii", "replace").lower()
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    # HTML: a meta tag can only declare an ASCII-compatible encoding; utf-16 means utf-8.
    if info.name.startswith("utf-16"):
        return "utf-8"
    # Python also knows byte-to-byte codecs ("hex", "base64") and codecs that are not
    # ASCII-compatible ("utf-7", "cp037", "unicode_escape"); a page declaring one is read as
    # if it declared nothing, instead of crashing or being garbled.
    if not getattr(info, "_is_text_encoding", True):
        return None
    try:
        with warnings.catch_warnings():  # unicode_escape warns about "\]" in the probe
            warnings.simplefilter("ignore")
            if _ASCII_PROBE.decode(info.name) != _ASCII_PROBE.decode("ascii"):
                return None
    except (UnicodeError, LookupError):
        return None
    return info.name


def decode_html(raw: bytes, *, truncated: bool = False) -> tuple[str, tuple[str, str] | None]:
    """Decode page bytes: BOM, then a declared charset, then UTF-8, then Windows-1252.

    Returns the text and a ``(code, message)`` problem when the bytes had to be guessed.
    ``truncated``: the bytes are the start of a longer page, so a multi-byte character cut at
    the very end is dropped quietly.
    """
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return raw[len(bom) :].decode(encoding, "replace"), None
    match = _META_CHARSET.search(raw, 0, 4096)
    declared = _text_encoding(match.group(1)) if match else None
    if declared and declared != "utf-8":
        try:
            return raw.decode(declared, "replace"), None
        except (UnicodeError, LookupError):  # a codec that cannot "replace" (e.g. idna)
            declared = None
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as err:
        if truncated and err.start >= len(raw) - 3 and err.reason == "unexpected end of data":
            return raw[: err.start].decode("utf-8"), None
        how = "declares UTF-8 but" if declared else "declares no charset and"
        guess = f"{how} is not valid UTF-8; read as Windows-1252"
        return raw.decode("cp1252", "replace"), ("not-utf8", guess)


def _short(text: str | None) -> str | None:
    """A title-like text, white space collapsed and cut at ``_MAX_TEXT``; None when empty."""
    return _collapse(text[: _MAX_TEXT * 4])[:_MAX_TEXT] or None if text else None


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _url_value(value: str | None) -> str:
    return value.strip(URL_SPACE) if value else ""


@dataclass
class _Head:
    """What a page's head says, collected in one pass over its children."""

    canonicals: list[str] = field(default_factory=list)
    robots: set[str] = field(default_factory=set)
    alternates: list[tuple[str, str]] = field(default_factory=list)
    feeds: list[str] = field(default_factory=list)
    refresh_url: str | None = None
    base_href: str | None = None
    title: str | None = None
    slots: dict[str, str] = field(default_factory=dict)
    """modified, published, description, og_title: the first of each."""


def _markup(raw: bytes, *, truncated: bool) -> tuple[bytes | str, tuple[str, str] | None]:
    """What the parser is given: the bytes themselves when they are UTF-8.

    Lexbor reads UTF-8 bytes in half the time it takes to read the same page as a string.
    """
    # ASCII bytes read the same in every encoding a page may declare, but for the ISO-2022
    # family, whose escape sequences (ESC, an ASCII byte) switch to other character sets.
    if raw.isascii() and b"\x1b" not in raw:
        return raw, None
    if not raw.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        match = _META_CHARSET.search(raw, 0, 4096)
        declared = _text_encoding(match.group(1)) if match else None
        if declared in (None, "utf-8"):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                return raw, None
    return decode_html(raw, truncated=truncated)


# An HTML5 parser checks the open elements' scope at every tag: deep nesting costs the square
# of its depth (40,000 unclosed <nav> took Lexbor 2.6 s). Real pages nest a few dozen deep.
_MAX_DEPTH = 1_000
_MANY_TAGS = 2 * _MAX_DEPTH
_TAG = re.compile(rb"<(/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(/?)>")
_VOID = frozenset({b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link",
                   b"meta", b"source", b"track", b"wbr", b"p", b"li", b"option", b"td", b"tr",
                   b"th", b"dt", b"dd"})  # and elements a parser closes by itself


def _too_deep(raw: bytes) -> int | None:
    """Where the tags first nest deeper than ``_MAX_DEPTH``, or None (the usual answer).

    Only a page with many tags is looked at, each tag once.
    """
    # The bytes without their "<": a copy made at memory speed, where count() goes byte by
    # byte (2 µs against 6 for a 17 KB page).
    if len(raw) - len(raw.replace(b"<", b"")) < _MANY_TAGS:
        return None
    depth = 0
    for match in _TAG.finditer(raw):
        closing, name, self_closing = match.groups()
        if self_closing or name.lower() in _VOID:
            continue
        if closing:
            depth = max(0, depth - 1)
        else:
            depth += 1
            if depth > _MAX_DEPTH:
                return match.start()
    return None


def parse_html(raw: bytes, *, truncated: bool = False,
               chrome: SiteChrome | None = None) -> PageRecord:
    """The record of an HTML page's bytes (any markup: HTML5 parsing never fails).

    ``truncated``: the bytes are the first part of a page too large to parse whole.
    ``chrome``: the site's repeated blocks (:func:`site_chrome`), left out of a page whose
    region is its ``<body>`` (step 2 of the fingerprint).
    """
    if b"\x00" in raw[:1024] and not raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return PageRecord("raw:" + hashlib.blake2b(raw, digest_size=16).hexdigest(),
                          problems=(("binary", "is not an HTML text file (it holds NUL bytes)"),))
    cut = _too_deep(raw)
    if cut is not None:  # parsed up to there: the rest would cost the square of its depth
        record = parse_html(raw[:cut], truncated=True, chrome=chrome)
        deep = f"nests elements more than {_MAX_DEPTH:,} deep; only what comes before was read"
        return record._replace(
            fingerprint="raw:" + hashlib.blake2b(raw, digest_size=16).hexdigest(),
            problems=(*record.problems, ("nested-too-deep", deep)))
    markup, problem = _markup(raw, truncated=truncated)
    tree = LexborHTMLParser(markup)
    regions = _main_regions(tree)
    scope = _Scope(regions)
    body = tree.body
    _drop_non_content(scope, body)
    if chrome is not None and body is not None and _is_whole_body(regions, body):
        _drop_chrome(body, chrome)
    record = _assemble(tree, regions, _content_elements(scope), problem)
    _hold(tree, len(raw))
    return record


# --- the site's chrome (the CLI's pages without a content region) ---------------------------


class SiteChrome(NamedTuple):
    """The blocks a site repeats on its pages, each by its place and its content.

    A page read whole from disk whose content region is its ``<body>`` leaves out each block
    found at the same place in these with the same content: the header, menu and footer
    that a theme without landmarks repeats on every page.
    """

    blocks: frozenset[int]
    """XXH3-64 of each block's place (:func:`_places`) and content (:func:`_block_content`)."""
    places: frozenset[int]
    """XXH3-64 of the places of these blocks and of the elements around them: a page's other
    elements hold none of the blocks, and are neither compared nor looked into."""


class PageBlocks(NamedTuple):
    """A page's blocks (as :attr:`SiteChrome.blocks`, each with its place) and local links."""

    blocks: dict[int, str]
    links: tuple[str, ...]
    """``href`` values of its links without a scheme or host, in page order."""


HOME_PAGE = "index.html"
"""The home page, at the site's root: the page whose blocks are measured for the chrome."""
CHROME_WITNESSES = 8
"""Pages the home page links to that are read to tell its chrome from its content."""
# Blocks of a page that are kept, and how deep its tree is walked: a theme's header and
# footer lie a few levels under <body>, and the set stays small whatever the page holds.
_MAX_CHROME_BLOCKS = 20_000
_MAX_CHROME_DEPTH = 24


def page_blocks(page: PageBytes) -> PageBlocks | None:
    """The blocks of a page's ``<body>``, and its local links.

    Step 2's elements are dropped first, as they are from every page. None for a page that
    is not read whole as HTML.
    """
    if not page.complete or b"\x00" in page.raw[:1024] or _too_deep(page.raw) is not None:
        return None
    markup, _problem = _markup(page.raw, truncated=False)
    tree = LexborHTMLParser(markup)
    body = tree.body
    if body is None:
        return None
    _drop_non_content(_Scope([body]), body)
    blocks: dict[int, str] = {}
    for node, place in _places(body):
        blocks[_block_digest(node, place)] = place
        if len(blocks) >= _MAX_CHROME_BLOCKS:
            break
    links = []
    for anchor in body.css("a[href]"):
        href = _url_value(anchor.attributes.get("href"))
        if href and not _NOT_LOCAL.match(href):
            links.append(href)
    return PageBlocks(blocks, tuple(links))


# A link with a scheme (http:, mailto:), to another host (//), or to a fragment of the page.
_NOT_LOCAL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//|#")


def site_chrome(home: PageBlocks, witnesses: list[PageBlocks]) -> SiteChrome | None:
    """The blocks the home page shares with the witness that shares the fewest with it.

    Any page of the theme shares the chrome with the home page; a listing may share the
    home's content too (an archive that lists the same posts), so the witness that shares
    the least is the one whose share is the chrome alone. None without a witness: one page
    alone cannot tell its chrome from its content.
    """
    shared = [home.blocks.keys() & witness.blocks.keys() for witness in witnesses]
    fewest = min(shared, key=len, default=set())
    if not fewest:
        return None
    places: set[int] = set()
    for block in fewest:
        place = home.blocks[block]
        # Every "/" may end an ancestor's place (one in an id or class only adds a place
        # that no element has).
        places.update(_place_digest(place[:end]) for end, char in enumerate(place)
                      if char == "/" and end)
        places.add(_place_digest(place))
    return SiteChrome(frozenset(fewest), frozenset(places))


def _is_whole_body(regions: list[LexborNode], body: LexborNode) -> bool:
    return len(regions) == 1 and regions[0].mem_id == body.mem_id


def _children(node: LexborNode, place: str) -> Iterator[tuple[LexborNode, str]]:
    """``node``'s child elements, each with its place.

    A place is the path of tags, ids and classes, with the rank among the siblings that
    share all three: blocks are matched in order, never merely found somewhere in the home.
    """
    seen: dict[str, int] = {}
    for child in node.iter():
        attributes = child.attributes
        classes = " ".join(sorted((attributes.get("class") or "").split()))
        name = f"{child.tag}#{attributes.get('id') or ''}.{classes}"
        rank = seen.get(name, 0)
        seen[name] = rank + 1
        yield child, f"{place}/{name}[{rank}]"


def _places(body: LexborNode) -> Iterator[tuple[LexborNode, str]]:
    """Every element under ``body`` down to the depth bound, with its place."""
    stack: list[tuple[LexborNode, str, int]] = [(body, "", 0)]
    while stack:
        node, place, depth = stack.pop()
        for child, child_place in _children(node, place):
            yield child, child_place
            if depth + 1 < _MAX_CHROME_DEPTH:
                stack.append((child, child_place, depth + 1))


_LINKING_SELECTOR = ", ".join(_LINKING)


def _block_content(node: LexborNode) -> str:
    """What of a block counts in a fingerprint: its text and its elements' links."""
    text = node.text(separator=" ", strip=True, skip_empty=True)
    links = [value for element in (node, *node.css(_LINKING_SELECTOR))
             if element.tag in _LINKING
             for value in (element.attributes.get("href"), element.attributes.get("src"))
             if value]
    return text + "\n" + "\n".join(links)


def _place_digest(place: str) -> int:
    return xxhash.xxh3_64_intdigest(place.encode("utf-8", "surrogatepass"))


def _block_digest(node: LexborNode, place: str) -> int:
    return xxhash.xxh3_64_intdigest(
        f"{place}\0{_block_content(node)}".encode("utf-8", "surrogatepass"))


def _drop_chrome(body: LexborNode, chrome: SiteChrome) -> None:
    """Unlink the blocks of ``body`` that the home page has at the same place, the same.

    Top down: a block that differs (the header that holds the page's own title) is looked
    into, and what in it is the home page's too (the menu beside that title) goes.
    """
    stack: list[tuple[LexborNode, str, int]] = [(body, "", 0)]
    while stack:
        node, place, depth = stack.pop()
        for child, child_place in list(_children(node, place)):
            if _place_digest(child_place) not in chrome.places:
                continue  # no block of the chrome is there, nor inside
            if _block_digest(child, child_place) in chrome.blocks:
                child.remove(False)  # unlinked whole, as step 2's elements are
            elif depth + 1 < _MAX_CHROME_DEPTH:
                stack.append((child, child_place, depth + 1))


class HostPage(NamedTuple):
    """A page as its host rendered it: the written page's head and the content it wrapped.

    MkDocs gives ``page.content`` and the output it writes (``on_post_page``); Pelican an
    article's or page's ``content``, a listing's items (:func:`listing_items`), and the file
    it just wrote, of which only the head is read. The theme's chrome is in neither part.
    """

    head: str | bytes
    """The written page up to its ``</head>`` (the ``<html lang>`` with it)."""
    content: str
    """The content as the host rendered it, an HTML fragment."""
    media: bool = True
    """Whether the content's images and videos are the page's own (a listing's are its
    articles')."""


def parts_digest(page: HostPage) -> bytes:
    """The record cache's key for a host's page: a digest of both parts (and of ``media``)."""
    head = page.head if isinstance(page.head, bytes) else page.head.encode(
        "utf-8", "surrogatepass")
    hasher = xxhash.xxh3_128(b"host page\0" if page.media else b"host listing\0")
    hasher.update(head)
    hasher.update(b"\0")
    hasher.update(page.content.encode("utf-8", "surrogatepass"))
    return hasher.digest()


# A custom element (no HTML end tag closes it by accident) that holds a host's content.
_HOST_CONTENT = b"sitemap-plugins-content"


def read_parts(page: HostPage) -> PageRecord:
    """The record of a page its host rendered (:class:`HostPage`), head and content apart.

    The head facts come from the head; the content is the main content region, and steps 2
    to 4 of the fingerprint (module docstring) apply to it as to a region found in a whole
    page: a host's page is fingerprinted as a page read from disk, without the theme.
    """
    # One document, one parse: the head as written, then the content as the body. Lexbor
    # reads UTF-8 bytes in half the time it takes to read a string, and a parser costs as
    # much to start as a short page to read.
    problem: tuple[str, str] | None = None
    head = page.head
    if isinstance(head, bytes):
        try:
            head.decode("utf-8")
        except UnicodeDecodeError:
            text, problem = decode_html(head, truncated=True)
            head = text.encode("utf-8", "surrogatepass")
    else:
        head = head.encode("utf-8", "surrogatepass")
    # The content in an element of its own: what a head lets slip into the body (a
    # <noscript><img> tracker in a <head>) stays outside it.
    markup: bytes | str = b"".join(
        (head, b"</head><body><", _HOST_CONTENT, b">",
         page.content.encode("utf-8", "surrogatepass"), b"</", _HOST_CONTENT, b">"))
    match = _META_CHARSET.search(head, 0, 4096)
    if match is not None and _text_encoding(match.group(1)) not in (None, "utf-8"):
        # A head that declares another charset: the parser must not decode the bytes by it.
        markup = markup.decode("utf-8", "surrogatepass") if isinstance(markup, bytes) else markup
    tree = LexborHTMLParser(markup)
    regions = tree.tags(_HOST_CONTENT.decode())[:1]
    scope = _Scope(regions)
    _drop_non_content(scope, None)  # the host's content holds no banner: its headers count
    record = _assemble(tree, regions, _content_elements(scope), problem, media=page.media)
    _hold(tree, len(markup))
    return record


def titled(title: str, content: str) -> str:
    """A host's content with its title as its first heading, unless it has a heading already.

    A page's title is content (editing it moves the page), but Pelican's content, and
    MkDocs' when the title comes from the nav or the front matter, never holds it: the theme
    writes it around the content.
    """
    if not title or "<h1" in content or "<H1" in content:
        return content
    from html import escape  # noqa: PLC0415  # only the hosts come this way

    return f"<h1>{escape(title)}</h1>{content}"


def listing_items(items: list[tuple[str, str, str, str]]) -> str:
    """A listing page's content: its items, each ``(url, title, date, summary HTML)``.

    What a listing says is which pages it lists, under which titles and dates, with which
    summaries; the theme decides how they look, which is no change of the listing.
    """
    from html import escape  # noqa: PLC0415  # only the hosts come this way

    return "".join(
        f'<article><h2><a href="{escape(url)}">{escape(title)}</a></h2>'
        f"<time>{escape(date)}</time>{summary}</article>"
        for url, title, date, summary in items)


def _assemble(tree: LexborHTMLParser, regions: list[LexborNode],
              elements: dict[str, list[LexborNode]],
              problem: tuple[str, str] | None, *, media: bool = True) -> PageRecord:
    """The record from a parsed head (in ``tree``) and the content's regions and elements."""
    head = _read_head(tree)
    problems = [problem] if problem else []
    canonicals = head.canonicals
    if len(set(canonicals)) > 1:
        conflict = (f"has {len(canonicals)} different canonical links; the first, "
                    f"{canonicals[0]!r}, is used")
        problems.append(("conflicting-canonicals", conflict))
    root = tree.root
    lang = _language(root.attributes.get("lang") if root is not None else None, problems)
    heading = _heading(elements, regions)
    slots = head.slots
    return PageRecord(
        _fingerprint(regions, elements), True,  # noqa: FBT003
        canonicals[0] if canonicals else None,
        frozenset(head.robots), head.refresh_url, tuple(head.alternates), lang or None,
        head.base_href, slots.get("modified"), slots.get("published"), head.title, heading,
        _short(slots.get("description")), _short(slots.get("og_title")), tuple(head.feeds),
        _images(elements) if media else (), _videos(elements) if media else (),
        tuple(problems),
    )


# The last ordinary page's tree, kept until the next page is parsed. Freeing each tree at
# once hands its memory back to the system (glibc trims the top of the heap), and the next
# parse faults it in again: that doubled the parse time (67 µs against 37 µs a 17 KB page).
_HELD: list[LexborHTMLParser] = []
_HOLD_AT_MOST = 512 * 1024


def _hold(tree: LexborHTMLParser, size: int) -> None:
    _HELD.clear()
    if size <= _HOLD_AT_MOST:  # a huge page's tree is let go at once
        _HELD.append(tree)


def _read_head(tree: LexborHTMLParser) -> _Head:
    """Canonical links, robots, refresh, alternates, base, dates, title, feeds."""
    found = _Head()
    head = tree.head
    for node in head.iter() if head is not None else ():
        tag = node.tag
        if tag == "meta":
            attributes = node.attributes
            key = attributes.get("name") or attributes.get("property") or attributes.get(
                "itemprop")
            if key:
                slot = _META_SLOTS.get(key) or _META_SLOTS.get(key.strip().lower())
                if slot is not None:
                    _meta(slot, (attributes.get("content") or "").strip(), found)
            elif "http-equiv" in attributes:
                _http_equiv(attributes, found)
        elif tag == "link":
            attributes = node.attributes
            rel = attributes.get("rel")
            # Most links are stylesheets, icons and preloads: passed over on one look.
            if rel and ("anonical" in rel or "lternate" in rel or "ANONICAL" in rel
                        or "LTERNATE" in rel or not rel.islower()):
                _link(attributes, rel, found)
        elif tag == "base":
            href = _url_value(node.attributes.get("href"))
            if href and found.base_href is None:
                found.base_href = href
        elif tag == "title" and found.title is None:
            found.title = _short(node.text())
    return found


def _link(attributes: dict[str, str | None], rel: str, found: _Head) -> None:
    href = _url_value(attributes.get("href"))
    if not href:
        return
    rels = rel.lower().split()
    if "canonical" in rels:
        found.canonicals.append(href)
    if "alternate" in rels:
        if "hreflang" in attributes:
            found.alternates.append(((attributes["hreflang"] or "").strip(), href))
        elif (attributes.get("type") or "").strip().lower() in _FEED_TYPES:
            found.feeds.append(href)


_META_SLOTS = {
    **dict.fromkeys(_MODIFIED_KEYS, "modified"), **dict.fromkeys(_PUBLISHED_KEYS, "published"),
    "description": "description", "og:title": "og_title", "robots": "robots",
    "googlebot": "robots",
}


def _meta(slot: str, content: str, found: _Head) -> None:
    if slot == "robots":
        found.robots.update(word for word in re.split(r"[\s,]+", content.lower()) if word)
    elif content:
        found.slots.setdefault(slot, content)


def _http_equiv(attributes: dict[str, str | None], found: _Head) -> None:
    if (attributes["http-equiv"] or "").strip().lower() == "refresh":
        _, sep, target = (attributes.get("content") or "").partition(";")
        target = re.sub(r"^\s*url\s*=\s*", "", target, flags=re.IGNORECASE).strip(" '\"")
        if sep and target:
            found.refresh_url = target


def _main_regions(tree: LexborHTMLParser) -> list[LexborNode]:
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
    # A selector runs in C: themes with role="main" (MkDocs' own) put a page's whole
    # navigation before it, which a walk in Python paid for element by element.
    found = body.css_first(_ROLE_MAIN)
    if found is not None and _hidden(found):
        found = next(iter(_shown(body.css(_ROLE_MAIN))), None)
    return [found if found is not None else body]


# Elements whose content a reader never sees as the page: the parser builds their children as
# elements (Lexbor parses as if scripting were off), but a browser shows a <noscript>'s only
# without scripts, and a <template>'s never. (A <main> in a script's string is text already.)
_NOT_SHOWN = frozenset({"noscript", "template"})


def _hidden(node: LexborNode) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.tag in _NOT_SHOWN:
            return True
        parent = parent.parent
    return False


def _shown(nodes: list[LexborNode]) -> list[LexborNode]:
    """``nodes`` without those inside a ``<noscript>`` or ``<template>``."""
    return [node for node in nodes if not _hidden(node)]


def _has_ancestor_in(node: LexborNode, ids: set[int]) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.mem_id in ids:
            return True
        parent = parent.parent
    return False


class _Scope:
    """Where the regions' elements are looked for: one selector query over one subtree.

    A selector is compiled anew at every query (about 5 µs), so the query runs once, over
    the region itself or, for several regions (a blog's index of ``<article>`` elements),
    over their nearest common ancestor, whose other elements are then passed over.
    """

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
        found = self.root.css(selector)
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


def _drop_non_content(scope: _Scope, body: LexborNode | None) -> None:
    """Take the dropped elements (step 2) out of the regions: unlinked, never freed."""
    regions = scope.regions
    # Several regions are articles, never the body (their common ancestor may well be it).
    whole_body = body is not None and _is_whole_body(regions, body)
    selector = _DROPPED_SELECTOR if whole_body else _DROPPED_IN_CONTENT_SELECTOR
    for node in scope.select(selector):
        if node.mem_id not in scope.around:  # a region, or what holds one, stays
            node.remove(False)  # unlinked whole, its subtree kept (and never walked)


def _heading(elements: dict[str, list[LexborNode]], regions: list[LexborNode]) -> str | None:
    """The main content's first ``<h1>`` outside a ``<header>``; else the first in one.

    A theme's ``<article><header><h1>`` names the page when the content is one region; on a
    blog's index each article's header names that article, not the page. (A ``<body>``
    region keeps no header: its header is the site's banner.)
    """
    inside = {region.mem_id for region in regions}
    in_header: LexborNode | None = None
    for node in elements["h1"]:
        if not _in_header(node, inside):
            return _heading_text(node)
        if in_header is None:
            in_header = node
    if in_header is not None and len(regions) == 1:
        return _heading_text(in_header)
    return None


_PERMALINK_SELECTOR = 'a[href^="#"], a.headerlink, a.hash-link'


def _heading_text(node: LexborNode) -> str | None:
    """The heading's text without its permalink, a link to a fragment of the page.

    Python-Markdown's toc (``¶``, or ``¤`` as set), Sphinx, Docusaurus (a zero-width space)
    and Hugo themes (``#``) put one in each heading; it names nothing. Known by its
    fragment-only ``href``, or by the class Python-Markdown, Sphinx (``headerlink``) and
    Docusaurus (``hash-link``) give it whatever its ``href``. A heading that is all one such
    link keeps its text.
    """
    # Most headings hold no link: a walk over their few nodes costs a tenth of a selector,
    # which Lexbor compiles anew at every query.
    if not any(child.tag == "a" for child in node.traverse()):
        return _short(node.text())
    anchors = {anchor.mem_id for anchor in node.css(_PERMALINK_SELECTOR)}
    if not anchors:
        return _short(node.text())
    kept: list[str] = []
    for child in node.traverse(include_text=True):
        if child.tag != "-text":
            continue
        parent = child.parent
        while parent is not None and parent.mem_id != node.mem_id:
            if parent.mem_id in anchors:
                break
            parent = parent.parent
        else:
            kept.append(child.text_content or "")
    return _short("".join(kept)) or _short(node.text())


def _in_header(node: LexborNode, regions: set[int]) -> bool:
    """Whether a ``<header>`` lies between ``node`` and the region that holds it."""
    parent = node.parent
    while parent is not None and parent.mem_id not in regions:
        if parent.tag == "header":
            return True
        parent = parent.parent
    return False


def _content_elements(scope: _Scope) -> dict[str, list[LexborNode]]:
    """The regions' headings and linking elements, by name, each list in document order.

    One selector for them all, asked of the regions only: the navigation and sidebars
    around them (most of a themed page's links) are never visited.
    """
    found: dict[str, list[LexborNode]] = {name: [] for name in _CONTENT_ELEMENTS}
    for node in scope.select(_CONTENT_SELECTOR):
        bucket = found.get(node.tag or "")
        if bucket is not None:  # always, but for a foreign element's odd spelling
            bucket.append(node)
    return found


def _fingerprint(regions: list[LexborNode], elements: dict[str, list[LexborNode]]) -> str:
    # Each text node's own white space at either end goes (in C, by Lexbor): indenting,
    # minifying or reflowing markup between elements changes nothing.
    texts = [region.text(separator=" ", strip=True, skip_empty=True) for region in regions]
    links = [value for value in _links(elements) if not _ASSET.search(value)]
    content = " ".join(texts) + "\n" + "\n".join(links)
    return xxhash.xxh3_128_hexdigest(content.encode("utf-8", "surrogatepass"))


def _links(elements: dict[str, list[LexborNode]]) -> list[str]:
    """``href`` and ``src`` values of the regions' linking elements.

    By element name, then in document order: the same bytes always give the same list.
    """
    found: list[str] = []
    for name in _LINKING:
        for node in elements[name]:
            attributes = node.attributes
            for attribute in ("href", "src"):
                value = attributes.get(attribute)
                if value:
                    found.append(value)
    return found


def _largest_srcset(srcset: str) -> str:
    """The URL of the widest (or densest) candidate; the first when none says.

    Linear: split on commas, then each candidate on white space, never a pattern searched
    from every position (which took a minute for one 100 KB attribute of spaces). Only the
    first ``_MAX_SRCSET`` characters count, cut at a comma; no real list comes near.
    """
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


def _language(value: str | None, problems: list[tuple[str, str]]) -> str:
    """The page's ``<html lang>`` when it is a BCP 47 tag; else "" and a note saying so.

    It becomes a path (the HTML site map's page for that language), an ``hreflang`` and a
    news language: anything else (``english``, ``../x``, a control character) would write
    outside a folder or a value no engine reads. ``en_US`` is read as ``en-US``.
    """
    text = (value or "").strip(URL_SPACE)
    if not text:
        return ""
    if is_language_tag(text.replace("_", "-")):
        return text.replace("_", "-")
    note = (f"<html lang={_quoted(text)}> is not a BCP 47 language tag (such as 'en' or "
            "'pt-BR'); the page counts as having none")
    problems.append(("bad-lang", note))
    return ""


def _quoted(text: str, most: int = 40) -> str:
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def _is_pixel(attributes: dict[str, str | None]) -> bool:
    return (attributes.get("width") or "").strip() in ("0", "1") and (
        attributes.get("height") or "").strip() in ("0", "1")


# --- Decoration: images a page shows that are not its content -----------------------------
# Badges (CI, coverage, package versions), emoji drawn as images, avatars and the logo sit in
# the content region on most themes (authors put badges and emoji in the Markdown; themes
# without landmarks put the logo beside the text), so landmarks never exclude them.

# Hosts that serve nothing but badges.
_BADGE_HOSTS = frozenset({
    "img.shields.io", "badge.fury.io", "badgen.net", "badges.gitter.im", "coveralls.io",
    "travis-ci.org", "travis-ci.com", "secure.travis-ci.org", "api.travis-ci.org",
    "api.travis-ci.com", "results.pre-commit.ci", "api.codeclimate.com", "codecov.io",
    "app.codecov.io", "static.pepy.tech", "pepy.tech", "api.netlify.com", "snyk.io",
    "ci.appveyor.com", "circleci.com", "dl.circleci.com", "app.fossa.com",
    "api.securityscorecards.dev", "www.bestpractices.dev", "bestpractices.coreinfrastructure.org",
})
# A badge elsewhere: GitHub Actions' workflows/<name>/badge.svg, Read the Docs'
# projects/<name>/badge/, GitLab's pipeline.svg and coverage.svg, anything under /badge(s)/.
_BADGE_PATH = re.compile(
    r"/(?:badges?)(?:/|\.svg\Z|\.png\Z|\Z)|/(?:pipeline|coverage|build-status|status)\.svg\Z",
    re.IGNORECASE)
# Emoji drawn as images: pymdownx's and Material's CDNs (twemoji, emojione), GitHub's gemoji,
# WordPress's and Twitter's own.
_EMOJI_URL = re.compile(
    r"https?://(?:twemoji\.maxcdn\.com/|cdn\.jsdelivr\.net/(?:gh/[^/]+/twemoji|emojione|"
    r"npm/twemoji|npm/emojione)|cdnjs\.cloudflare\.com/ajax/libs/(?:emojione|twemoji)/|"
    r"github\.githubassets\.com/images/icons/emoji/|assets-cdn\.github\.com/images/icons/emoji/|"
    r"abs\.twimg\.com/emoji/|s\.w\.org/images/core/emoji/)", re.IGNORECASE)
# Classes of emoji images (pymdownx's index names, jemoji's and markdown-it's "emoji").
_EMOJI_CLASSES = frozenset({"twemoji", "emojione", "gemoji", "emoji", "wp-smiley"})
# Avatars: people's pictures from their profiles (contributor tables, post bylines).
_AVATAR_URL = re.compile(r"(?:https?:)?//(?:avatars\d*\.githubusercontent\.com/|"
                         r"(?:[a-z0-9-]+\.)?gravatar\.com/avatar/)", re.IGNORECASE)
_SHORTCODE = re.compile(r":[\w+-]+:\Z")
_LOGO = re.compile(r"(?:\A|[\W_])logo(?:\Z|[\W_])", re.IGNORECASE)


def is_decoration(source: str, *, classes: str = "", alt: str = "", in_home_link: bool = False,
                  in_banner: bool = False) -> bool:
    """Whether an ``<img>`` decorates the page rather than being its content.

    ``source``: the image's URL as written; ``classes`` and ``alt``: its attributes;
    ``in_home_link``: it sits in a link to the site's home; ``in_banner``: in a ``<header>``,
    ``<nav>`` or banner. A badge (by host or path), an emoji (by class, CDN or a ``:code:`` or
    one-emoji alt), an avatar (GitHub's, Gravatar's) or a logo (``logo`` in its class or alt,
    in a home link or a banner) is decoration.
    """
    url = source.strip()
    host = re.match(r"(?:https?:)?//([^/?#:]+)", url, re.IGNORECASE)
    path = re.sub(r"[?#].*", "", url)
    if host is not None and host.group(1).lower() in _BADGE_HOSTS:
        return True
    if _BADGE_PATH.search(path) or _EMOJI_URL.match(url if host is None or url.startswith(
            ("http:", "https:")) else "https:" + url):
        return True
    if _AVATAR_URL.match(url):
        return True
    class_names = {name.lower() for name in classes.split()}
    text = alt.strip()
    if class_names & _EMOJI_CLASSES or _SHORTCODE.match(text) or _is_emoji(text):
        return True
    return (in_home_link or in_banner) and bool(
        _LOGO.search(classes) or _LOGO.search(alt))


_EMOJI_MAX_CHARS = 10  # the longest ZWJ family sequences
_FIRST_SYMBOL = 0x2190  # arrows: below it, ASCII and Latin punctuation ("-", "*", "\u00b7")


def _is_emoji(text: str) -> bool:
    """An alt that is one emoji: symbols only (a flag, a ZWJ sequence, a variation selector)."""
    return 0 < len(text) <= _EMOJI_MAX_CHARS and all(
        not c.isalnum() and not c.isspace() for c in text) and any(
        ord(c) >= _FIRST_SYMBOL for c in text)


# A link to the site's home, as themes write it: "/", "./", "../..", "index.html", or an
# absolute URL with no path.
_HOME_HREF = re.compile(r"\A(?:/|\./|(?:\.\./)*\.\.?/?|[a-z][a-z0-9+.-]*://[^/?#]+/?)?"
                        r"(?:index\.html?)?\Z", re.IGNORECASE)
_BANNERS = frozenset({"header", "nav"})


def _decoration(node: LexborNode, source: str) -> bool:
    """:func:`is_decoration`, with where the image sits."""
    in_home_link = in_banner = False
    parent = node.parent
    while parent is not None and parent.tag not in ("body", "html"):
        if parent.tag == "a":
            href = (parent.attributes.get("href") or "").strip()
            in_home_link = in_home_link or bool(_HOME_HREF.match(href.split("#")[0]))
        elif parent.tag in _BANNERS or (parent.attributes.get("role") or "") == "banner":
            in_banner = True
        parent = parent.parent
    attributes = node.attributes
    return is_decoration(source, classes=attributes.get("class") or "",
                         alt=attributes.get("alt") or "", in_home_link=in_home_link,
                         in_banner=in_banner)


def _images(elements: dict[str, list[LexborNode]]) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for node in elements["img"]:
        attributes = node.attributes
        if _is_pixel(attributes):
            continue
        source = _url_value(attributes.get("src")) or _largest_srcset(
            attributes.get("srcset") or "")
        if source and not source.lower().startswith("data:") and not _decoration(node, source):
            found.setdefault(source)
    for node in elements["source"]:
        parent = node.parent
        if parent is None or parent.tag != "picture":
            continue
        source = _largest_srcset(node.attributes.get("srcset") or "")
        if source and not source.lower().startswith("data:"):
            found.setdefault(source)
    return tuple(found)[:_MAX_MEDIA]


def _caption(node: LexborNode, captions: dict[int, str]) -> str:
    """The text of the ``<figcaption>`` of the ``<figure>`` around ``node``, or "".

    ``captions`` holds each figure's, found once: a figure of many videos is walked once,
    not once for each of them (20,000 videos in one figure took a minute).
    """
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


def _videos(elements: dict[str, list[LexborNode]]) -> tuple[Video, ...]:
    """The first ``_MAX_MEDIA`` videos and players of the content (the rest is not read)."""
    found: list[Video] = []
    captions: dict[int, str] = {}
    for node in elements["video"][:_MAX_MEDIA]:
        attributes = node.attributes
        content = _url_value(attributes.get("src"))
        if not content:
            content = next((_url_value(child.attributes.get("src")) for child in node.iter()
                            if child.tag == "source" and child.attributes.get("src")), "")
        title = (attributes.get("title") or attributes.get("aria-label") or "").strip()
        found.append(Video(content, "", _url_value(attributes.get("poster")), title,
                           _caption(node, captions)))
    for node in elements["iframe"]:
        if len(found) >= _MAX_MEDIA:
            break
        attributes = node.attributes
        player = _url_value(attributes.get("src"))
        if player:
            title = (attributes.get("title") or attributes.get("aria-label") or "").strip()
            found.append(Video("", player, "", title, _caption(node, captions)))
    return tuple(found)

"""The one page reader: a built file's bytes in, one :class:`PageRecord` out.

A page is parsed once, by Lexbor (``selectolax``): head facts here, main-content facts by
:mod:`~sitemap_plugins.page.content`. A host's page is read in two parts (:class:`HostPage`).
Values are raw; :mod:`~sitemap_plugins.entry.rules` judges them. A non-HTML file, or one past
:data:`MAX_PARSED_BYTES`, is fingerprinted by a digest of all its bytes.
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

from sitemap_plugins.page import rulebook as rb
from sitemap_plugins.page.chrome import PageBlocks, SiteChrome, body_blocks, drop_chrome
from sitemap_plugins.page.content import (
    URL_SPACE,
    Scope,
    Video,
    content_elements,
    content_fingerprint,
    content_images,
    content_videos,
    drop_non_content,
    first_heading,
    is_whole_body,
    main_regions,
    short_text,
    url_value,
)
from sitemap_plugins.page.stated import read_stated
from sitemap_plugins.vocab.values import is_language_tag

if TYPE_CHECKING:
    from selectolax.lexbor import LexborNode

# Bumped whenever the same bytes would give another record, so that cached records and
# recorded fingerprints of an older reader are never taken for this one's.
READER_VERSION = "12"
NOTES = frozenset({"bad-lang"})
"""Codes of :attr:`PageRecord.problems` that are notes for the user, not warnings."""
FINGERPRINT_VERSION = "7"
# The rule book's data these versions were set for (tests/test_rulebook.py computes it).
RULEBOOK_DIGEST = "18465a7e6c6d2739"
MAX_PARSED_BYTES = 4 * 1024 * 1024
# A head cut inside an inline <script> or <style> (megabytes of JSON-LD or CSS) is read on past
# that element's end, its body skipped, keeping at most this much more (memory stays bounded).
MAX_HEAD_BYTES = MAX_PARSED_BYTES + 1024 * 1024
HEAD_END = re.compile(rb"</head\s*>|<body[\s>]", re.IGNORECASE)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.IGNORECASE
)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Markup-significant ASCII that an ASCII-compatible encoding must decode unchanged.
_ASCII_PROBE = bytes(range(0x20, 0x7F)) + b"\t\r\n \\x41 \\u0041 +AGEA- ~{"


class PageRecord(NamedTuple):
    """What one read of one built file found (a tuple: the cheapest record type)."""

    fingerprint: str
    """See :mod:`sitemap_plugins.page.content`; ``raw:`` and a digest of the bytes for non-HTML
    files."""
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
    source_link: str | None = None
    """The theme's link to the page's source, "Edit this page" (:mod:`.stated`)."""

    @property
    def unreadable(self) -> bool:
        """Whether the file could not be read as a page at all (binary)."""
        return any(code == "binary" for code, _ in self.problems)

    @property
    def template(self) -> bool:
        """Whether the file is a template, not a page (:func:`_is_template`)."""
        return any(code == "not-a-page" for code, _ in self.problems)


# --- reading ------------------------------------------------------------------------------


class PageBytes(NamedTuple):
    """A file's bytes as read: all of them, or the first ``MAX_PARSED_BYTES`` and a digest."""

    raw: bytes
    complete: bool
    """Whether ``raw`` is the whole file."""
    digest: bytes
    """XXH3-128 of all the file's bytes: the key of the record cache."""
    mtime: float


def read_record(page: PageBytes, *, html: bool, chrome: SiteChrome | None = None,
                home: str = "") -> PageRecord:
    """The record of a file whose bytes are ``page``.

    A non-page, or a page past the parsing bound, is fingerprinted by the digest already
    taken of all its bytes. ``chrome``: the site's repeated blocks; ``home``: the base URL
    (a logo linking there is the site's, not content).
    """
    raw_fingerprint = "raw:" + page.digest.hex()
    if not html:
        return PageRecord(raw_fingerprint)
    record = parse_html(page.raw, truncated=not page.complete, chrome=chrome, home=home)
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
    # Byte-to-byte codecs ("hex") and non-ASCII-compatible ones ("utf-7") count as none.
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



def _markup(raw: bytes, *, truncated: bool) -> tuple[bytes | str, tuple[str, str] | None]:
    """What the parser is given: the bytes themselves when UTF-8 (Lexbor reads them 2x faster)."""
    # ASCII reads the same in every encoding but the ISO-2022 family (ESC switches sets).
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
# Lexbor's attribute lookup is quadratic in an element's distinct attributes.
_MAX_ATTRIBUTES = 1_000
_FEW_BYTES = 64 * 1024  # no smaller text holds enough attributes to matter
# A start tag this long is the only place so many attributes can be; they are then counted.
_LONG_TAG = re.compile(rb"<[A-Za-z](?:[^>\"']|\"[^\"]*\"|'[^']*'){%d}" % (3 * _MAX_ATTRIBUTES))
_TAG_REST = re.compile(rb"(?:[^>\"']|\"[^\"]*\"|'[^']*')*")
_ATTRIBUTE = re.compile(rb"""([^\s/>="']+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?""")


def _too_costly(raw: bytes) -> tuple[int, str, str] | None:
    """Where a page first costs its parser the square of its size (place, code, message)."""
    cut = _too_deep(raw)
    if cut is not None:
        return cut, "nested-too-deep", (
            f"nests elements more than {_MAX_DEPTH:,} deep; only what comes before was read")
    cut = _too_many_attributes(raw)
    if cut is not None:
        return cut, "too-many-attributes", (
            f"has an element of more than {_MAX_ATTRIBUTES:,} attributes; only what comes "
            "before it was read")
    return None


def _too_deep(raw: bytes) -> int | None:
    """Where the tags first nest deeper than ``_MAX_DEPTH``; only pages with many tags."""
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


def _too_many_attributes(raw: bytes) -> int | None:
    """Where the first element of over ``_MAX_ATTRIBUTES`` attributes starts; large pages only."""
    if len(raw) < _FEW_BYTES:
        return None
    start = 0
    while (tag := _LONG_TAG.search(raw, start)) is not None:
        end = _TAG_REST.match(raw, tag.end()).end()  # type: ignore[union-attr]  # matches ""
        names = {name.lower() for name in _ATTRIBUTE.findall(raw, tag.start() + 2, end)}
        if len(names) > _MAX_ATTRIBUTES:
            return tag.start()
        start = end
    return None


def parse_html(raw: bytes, *, truncated: bool = False,
               chrome: SiteChrome | None = None, home: str = "") -> PageRecord:
    """The record of an HTML page's bytes (HTML5 parsing never fails).

    ``truncated``: the bytes start a larger page. ``chrome``: left out of a page whose region
    is its ``<body>``.
    """
    if b"\x00" in raw[:1024] and not raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return PageRecord("raw:" + hashlib.blake2b(raw, digest_size=16).hexdigest(),
                          problems=(("binary", "is not an HTML text file (it holds NUL bytes)"),))
    costly = _too_costly(raw)
    if costly is not None:  # parsed up to there: the rest would cost the square of its size
        cut, code, message = costly
        record = parse_html(raw[:cut], truncated=True, chrome=chrome, home=home)
        return record._replace(
            fingerprint="raw:" + hashlib.blake2b(raw, digest_size=16).hexdigest(),
            problems=(*record.problems, (code, message)))
    markup, problem = _markup(raw, truncated=truncated)
    tree = LexborHTMLParser(markup)
    stated = read_stated(tree)  # before step 2 drops the headers and scripts it reads
    refresh = _body_refresh(tree) if _REFRESH.search(raw) else None  # before step 2 too
    regions = main_regions(tree)
    scope = Scope(regions)
    body = tree.body
    drop_non_content(scope, body)
    if chrome is not None and body is not None and is_whole_body(regions, body):
        drop_chrome(body, chrome)
    record = _assemble(tree, regions, content_elements(scope), problem, home=home)
    title = record.title
    if title is None and (node := tree.css_first("title")) is not None:
        title = node.text()  # a <title> after text (a layout's front matter) stands in the body
    if _is_template(raw, body, title):
        record = record._replace(problems=(*record.problems, _NOT_A_PAGE))
    if record.refresh_url is None and refresh is not None:
        record = record._replace(refresh_url=refresh)
    _hold(tree, len(raw))
    if stated is None:
        return record
    return record._replace(modified=record.modified or stated.modified,
                           published=record.published or stated.published,
                           source_link=stated.source_link)


_NOT_A_PAGE = ("not-a-page", "is a template file, not a page")
_REFRESH = re.compile(rb"(?i)http-equiv\s*=\s*[\"']?\s*refresh")


def _body_refresh(tree: LexborHTMLParser) -> str | None:
    """The target of a meta refresh in the body (browsers follow it there too).

    A JavaScript redirect's ``<noscript>`` fallback stands there in some stubs.
    """
    found = _Head()
    for node in tree.css("body meta[http-equiv]"):
        _http_equiv(node.attributes, found)
    return found.refresh_url


def _is_template(raw: bytes, body: LexborNode | None, title: str | None) -> bool:
    """Whether a file is a theme's template copied as is (:data:`.rulebook.TEMPLATE_SYNTAX`).

    Template syntax in its own text and no ``<html>``, ``<head>``, ``<body>`` or doctype outside
    comments (a partial, a macro file); or a layout with a template tag in its title.
    """
    if title and rb.TEMPLATE_TAG.search(title):
        return True
    if body is None or rb.TEMPLATE_SYNTAX.search(body.text(deep=False)) is None:
        return False
    return rb.PAGE_ELEMENTS.search(rb.COMMENTS.sub(b"", raw)) is None


def page_blocks(page: PageBytes) -> PageBlocks | None:
    """The blocks of a page's ``<body>`` (step 2 dropped), and its local links; None if not HTML."""
    if not page.complete or b"\x00" in page.raw[:1024] or _too_costly(page.raw) is not None:
        return None
    markup, _problem = _markup(page.raw, truncated=False)
    tree = LexborHTMLParser(markup)
    body = tree.body
    if body is None:
        return None
    drop_non_content(Scope([body]), body)
    return body_blocks(body)


# --- a host's page ------------------------------------------------------------------------


class HostPage(NamedTuple):
    """A page as its host rendered it: its written head and the content the theme wrapped."""

    head: str | bytes | None
    """The written page up to ``</head>``; None: read from the written file."""
    content: str
    """The content as the host rendered it, an HTML fragment."""
    media: bool = True
    """Whether the content's media are the page's own (a listing's are its articles')."""


def parts_digest(page: HostPage) -> bytes:
    """The record cache's key for a host's page: a digest of both parts (and of ``media``)."""
    head = page.head if isinstance(page.head, bytes) else (page.head or "").encode(
        "utf-8", "surrogatepass")
    hasher = xxhash.xxh3_128(b"host page\0" if page.media else b"host listing\0")
    hasher.update(head)
    hasher.update(b"\0")
    hasher.update(page.content.encode("utf-8", "surrogatepass"))
    return hasher.digest()


# A custom element (no HTML end tag closes it by accident) that holds a host's content.
_HOST_CONTENT = b"sitemap-plugins-content"


def read_parts(page: HostPage, home: str = "") -> PageRecord:
    """The record of a host's page, head and content parsed as one document (content: region)."""
    problem: tuple[str, str] | None = None
    head = page.head
    if isinstance(head, bytes):
        try:
            head.decode("utf-8")
        except UnicodeDecodeError:
            text, problem = decode_html(head, truncated=True)
            head = text.encode("utf-8", "surrogatepass")
    else:
        head = (head or "").encode("utf-8", "surrogatepass")
    # The content in an element of its own: a <noscript><img> slipping out of a head stays out.
    content = page.content.encode("utf-8", "surrogatepass")
    costly = _too_costly(content)
    if costly is not None:  # read up to there: the rest would cost the square of its size
        cut, code, message = costly
        record = read_parts(page._replace(content=content[:cut].decode("utf-8", "replace")),
                            home)
        return record._replace(
            fingerprint="raw:" + hashlib.blake2b(content, digest_size=16).hexdigest(),
            problems=(*record.problems, (code, message)))
    markup: bytes | str = b"".join(
        (head, b"</head><body><", _HOST_CONTENT, b">", content, b"</", _HOST_CONTENT, b">"))
    match = _META_CHARSET.search(head, 0, 4096)
    if match is not None and _text_encoding(match.group(1)) not in (None, "utf-8"):
        # A head that declares another charset: the parser must not decode the bytes by it.
        markup = markup.decode("utf-8", "surrogatepass") if isinstance(markup, bytes) else markup
    tree = LexborHTMLParser(markup)
    regions = tree.tags(_HOST_CONTENT.decode())[:1]
    scope = Scope(regions)
    drop_non_content(scope, None)  # the host's content holds no banner: its headers count
    record = _assemble(tree, regions, content_elements(scope), problem, media=page.media,
                       home=home)
    _hold(tree, len(markup))
    return record


_HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)


def head_of(output: str) -> str | None:
    """A written page up to its ``</head>``; None when it has none (read it whole then)."""
    end = output.find("</head>")
    if end < 0:
        found = _HEAD_END.search(output)
        if found is None:
            return None
        end = found.start()
    return output[:end]


def generator_of(raw: bytes) -> str | None:
    """What the page's ``<meta name="generator">`` names (``Jekyll v4.3.3``), short, printable."""
    head = LexborHTMLParser(raw).head
    for node in head.css("meta[name]") if head is not None else ():
        if (node.attributes.get("name") or "").strip().lower() == "generator":
            text = "".join(c for c in node.attributes.get("content") or "" if c.isprintable())
            return " ".join(text.split())[:60] or None
    return None


def titled(title: str, content: str) -> str:
    """A host's content with its title as first heading (the theme writes it), unless it has one."""
    if not title or "<h1" in content or "<H1" in content:
        return content
    from html import escape  # noqa: PLC0415  # only the hosts come this way

    return f"<h1>{escape(title)}</h1>{content}"


_MARKUP_TAG = re.compile(r"<[A-Za-z/!?][^<>]*>")


def host_title(title: object) -> str:
    """A host's title as the text it shows: tags dropped, entities decoded."""
    markup = str(title or "")
    if "<" not in markup and "&" not in markup:
        return markup
    from html import unescape  # noqa: PLC0415  # only the hosts come this way

    return unescape(_MARKUP_TAG.sub("", markup))


def listing_items(items: list[tuple[str, str, str, str]]) -> str:
    """A listing page's content: its items, each ``(url, title, date, summary HTML)``."""
    from html import escape  # noqa: PLC0415  # only the hosts come this way

    return "".join(
        f'<article><h2><a href="{escape(url)}">{escape(title)}</a></h2>'
        f"<time>{escape(date)}</time>{summary}</article>"
        for url, title, date, summary in items)


# --- the record ---------------------------------------------------------------------------


def _assemble(tree: LexborHTMLParser, regions: list[LexborNode],
              elements: dict[str, list[LexborNode]],
              problem: tuple[str, str] | None, *, media: bool = True,
              home: str = "") -> PageRecord:
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
    heading = first_heading(elements, regions)
    slots = head.slots
    return PageRecord(
        content_fingerprint(regions, elements), True,  # noqa: FBT003
        canonicals[0] if canonicals else None,
        frozenset(head.robots), head.refresh_url, tuple(head.alternates), lang or None,
        head.base_href, slots.get("modified"), slots.get("published"), head.title, heading,
        short_text(slots.get("description")), short_text(slots.get("og_title")),
        tuple(head.feeds),
        content_images(elements, home) if media else (), content_videos(elements) if media else (),
        tuple(problems),
    )


# The last small page's tree is kept until the next parse: freeing it at once returns its
# memory to the system, and faulting it back in doubled the parse time.
_HELD: list[LexborHTMLParser] = []
_HOLD_AT_MOST = 512 * 1024


def _hold(tree: LexborHTMLParser, size: int) -> None:
    _HELD.clear()
    if size <= _HOLD_AT_MOST:  # a huge page's tree is let go at once
        _HELD.append(tree)


# --- the head facts -----------------------------------------------------------------------


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
            href = url_value(node.attributes.get("href"))
            if href and found.base_href is None:
                found.base_href = href
        elif tag == "title" and found.title is None:
            found.title = short_text(node.text())
        elif tag == "noscript":  # a redirect's refresh (Material's, sphinx-reredirects')
            for child in node.iter():
                if child.tag == "meta" and "http-equiv" in child.attributes:
                    _http_equiv(child.attributes, found)
    return found


def _link(attributes: dict[str, str | None], rel: str, found: _Head) -> None:
    href = url_value(attributes.get("href"))
    if not href:
        return
    rels = rel.lower().split()
    if "canonical" in rels:
        found.canonicals.append(href)
    if "alternate" in rels:
        if "hreflang" in attributes:
            found.alternates.append(((attributes["hreflang"] or "").strip(), href))
        elif (attributes.get("type") or "").strip().lower() in rb.FEED_TYPES:
            found.feeds.append(href)


_META_SLOTS = {
    **dict.fromkeys(rb.MODIFIED_KEYS, "modified"), **dict.fromkeys(rb.PUBLISHED_KEYS, "published"),
    **dict.fromkeys(rb.ROBOTS_KEYS, "robots"), "description": "description", "og:title": "og_title",
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


def _language(value: str | None, problems: list[tuple[str, str]]) -> str:
    """The page's ``<html lang>`` when a BCP 47 tag (``en_US`` read as ``en-US``); else "".

    It becomes a path, an ``hreflang`` and a news language, so anything else is noted and dropped.
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

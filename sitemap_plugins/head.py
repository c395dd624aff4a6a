"""Read what a sitemap needs from the ``<head>`` of a built HTML page.

Only the head is read (up to ``</head>`` or ``<body>``, at most ``MAX_HEAD_BYTES``), with
the tolerant stdlib ``html.parser``: minified pages with unquoted attributes, upper-case tags
and unclosed elements all parse. A page that cannot be read becomes a diagnostic, never an
exception.
"""

from __future__ import annotations

import codecs
import functools
import os
import re
import warnings
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

READ_CHUNK = 16_384
MAX_HEAD_BYTES = 1_048_576
# HTML strips only ASCII whitespace around a URL attribute; str.strip() would also eat a
# no-break space or U+3000 that starts or ends a file name written as an IRI.
URL_SPACE = " \t\n\r\f"
_HEAD_END = re.compile(rb"</head\s*>|<body[\s>/]", re.IGNORECASE)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.IGNORECASE
)
# Markup-significant ASCII (and escape-like sequences) that an ASCII-compatible encoding
# must decode unchanged.
_ASCII_PROBE = bytes(range(0x20, 0x7F)) + b"\t\r\n \\x41 \\u0041 +AGEA- ~{"
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Meta names and properties whose content is the page's own last change or first publication.
_MODIFIED_KEYS = frozenset(
    {"article:modified_time", "og:updated_time", "dcterms.modified", "last-modified",
     "datemodified", "dc.date.modified"}
)
_PUBLISHED_KEYS = frozenset(
    {"article:published_time", "dcterms.created", "datepublished", "date", "dc.date",
     "dc.date.created", "dcterms.date"}
)


@dataclass
class PageMeta:
    """What the head of one page says about itself (raw attribute values, not yet resolved)."""

    canonical: str | None = None
    robots: set[str] = field(default_factory=set)
    refresh_url: str | None = None
    alternates: list[tuple[str, str]] = field(default_factory=list)
    lang: str | None = None
    base_href: str | None = None
    modified: str | None = None
    published: str | None = None
    problems: list[tuple[str, str]] = field(default_factory=list)
    """``(code, message)`` pairs about the page: encoding guesses, a head that never ends."""


class _HeadDone(Exception):  # noqa: N818  # control flow, not an error
    pass


class HeadParser(HTMLParser):
    """Collects canonical, robots, refresh, hreflang, lang, base and date meta tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta = PageMeta()
        self._canonicals: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Collect from ``link``, ``meta``, ``html`` and ``base``; stop at ``body``."""
        if tag == "body":
            raise _HeadDone
        if tag not in ("link", "meta", "html", "base"):
            return
        values = {name: (value or "") for name, value in attrs}
        if tag == "link":
            self._link(values)
        elif tag == "meta":
            self._meta(values)
        elif tag == "html":
            lang = values.get("lang", "").strip()
            if lang:
                self.meta.lang = lang
        elif self.meta.base_href is None and values.get("href", "").strip(URL_SPACE):
            self.meta.base_href = values["href"].strip(URL_SPACE)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Treat ``<link/>`` like ``<link>``."""
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        """Stop at ``</head>``."""
        if tag == "head":
            raise _HeadDone

    def _link(self, values: dict[str, str]) -> None:
        rels = values.get("rel", "").lower().split()
        href = values.get("href", "").strip(URL_SPACE)
        if not href:
            return
        if "canonical" in rels:
            self._canonicals.append(href)
        if "alternate" in rels and "hreflang" in values:
            self.meta.alternates.append((values["hreflang"].strip(), href))

    def _meta(self, values: dict[str, str]) -> None:
        content = values.get("content", "")
        name = values.get("name", "").strip().lower()
        if name in ("robots", "googlebot"):
            self.meta.robots.update(t for t in re.split(r"[\s,]+", content.lower()) if t)
        if values.get("http-equiv", "").strip().lower() == "refresh":
            _, sep, target = content.partition(";")
            target = re.sub(r"^\s*url\s*=\s*", "", target, flags=re.IGNORECASE).strip(" '\"")
            if sep and target:
                self.meta.refresh_url = target
        key = name or values.get("property", "").strip().lower()
        key = key or values.get("itemprop", "").strip().lower()
        if key in _MODIFIED_KEYS and self.meta.modified is None and content.strip():
            self.meta.modified = content.strip()
        elif key in _PUBLISHED_KEYS and self.meta.published is None and content.strip():
            self.meta.published = content.strip()

    def finish(self) -> PageMeta:
        """Settle the canonical: conflicting ones are reported and the first is kept."""
        if self._canonicals:
            self.meta.canonical = self._canonicals[0]
            if len(set(self._canonicals)) > 1:
                self.meta.problems.append(
                    ("conflicting-canonicals",
                     (f"has {len(self._canonicals)} different canonical links; "
                     f"the first, {self._canonicals[0]!r}, is used"))
                )
        return self.meta


def parse_head(text: str) -> PageMeta:
    """Parse head markup (any HTML text; parsing stops at ``</head>`` or ``<body>``)."""
    parser = HeadParser()
    try:
        # feed() only, no close(): close() re-scans every unterminated construct to the end
        # of the text, which is quadratic on CPython before 3.13.4 / 3.12.11 (gh-135462,
        # CVE-2025-6069): a 1 MB head of "</</</..." took 74 s. What close() would still
        # flush is an unterminated tag or text, which holds no link or meta we could use.
        parser.feed(text)
    except _HeadDone:
        pass
    except Exception as err:  # noqa: BLE001  # html.parser may still trip on odd markup
        parser.meta.problems.append(("unparseable-head", f"head could not be parsed: {err}"))
    return parser.finish()


def _declared_encoding(raw: bytes) -> str | None:
    match = _META_CHARSET.search(raw[:4096])
    return _text_encoding(match.group(1)) if match else None


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
    # Python also knows byte-to-byte codecs ("hex", "base64": decoding raises LookupError)
    # and codecs that are not ASCII-compatible ("utf-7", "cp037", "unicode_escape"); a page
    # declaring one is read as if it declared nothing, instead of crashing or being garbled.
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

    ``truncated`` says the bytes are the start of a longer file, so a multi-byte character
    cut at the very end is not an error. Returns the text and a ``(code, message)`` problem
    when the bytes had to be guessed.
    """
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return raw[len(bom) :].decode(encoding, "replace"), None
    declared = _declared_encoding(raw)
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
        problem = ("not-utf8", f"{how} is not valid UTF-8; read as Windows-1252")
        return raw.decode("cp1252", "replace"), problem


def read_head(path: str) -> PageMeta:
    """Read and parse the head of the page at ``path`` (at most ``MAX_HEAD_BYTES``).

    Raises:
        OSError: when the file cannot be opened or read.
    """
    return read_page(path, whole=False)[0]


_FAST: list[Callable[[str], PageMeta | None]] = []


def _fast_parser() -> Callable[[str], PageMeta | None]:
    """``fasthead.parse_head_fast``, imported once (it imports this module, so not at the top)."""
    if not _FAST:
        from sitemap_plugins.fasthead import parse_head_fast  # noqa: PLC0415

        _FAST.append(parse_head_fast)
    return _FAST[0]


def read_page(
    path: str, *, whole: bool, max_bytes: int = 8 * 1024 * 1024
) -> tuple[PageMeta, str | None]:
    """Read a page's head, and with ``whole`` also return the whole decoded text.

    The text is None when the page was not read whole: not asked for, not text, or larger
    than ``max_bytes`` (then only the head is read, so memory stays bounded).

    Raises:
        OSError: when the file cannot be opened or read.
    """
    raw, at_eof, _ = read_page_bytes(path, whole=whole, max_bytes=max_bytes)
    return parse_page(raw, at_eof=at_eof, whole=whole and len(raw) <= max_bytes)


def read_page_bytes(
    path: str, *, whole: bool, max_bytes: int
) -> tuple[bytes, bool, os.stat_result]:
    """The bytes :func:`read_page` parses, whether they reach the end, the file's status.

    The status is taken before the bytes are read.
    With ``whole``, the whole file, unless it is larger than ``max_bytes`` (then a little
    more than ``max_bytes``: too large to parse whole). Otherwise at least the head.

    Raises:
        OSError: when the file cannot be opened or read.
    """
    # The file descriptor itself, not a buffered file object: a third less per page, which
    # a rebuild pays for every page a host wrote again.
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(descriptor)
        if whole:
            # read(n) allocates n bytes up front: ask for the file's size, not the limit.
            size = status.st_size
            count = min(size, max_bytes) + 1
            raw = os.read(descriptor, count)
            # The size fstat gave is the end: no read that returns nothing to show it. (A file
            # that grows meanwhile gets new times: the next build reads it again.)
            if raw and len(raw) != size and len(raw) < count:
                raw += _read_up_to(descriptor, count - len(raw))  # a short read: read on
            if size < len(raw) <= max_bytes:  # grew since fstat
                raw += _read_up_to(descriptor, max_bytes + 1 - len(raw))
            if len(raw) <= max_bytes:
                return raw, True, status
            whole = False  # too large to parse whole: read only the head
        else:
            raw = _read_up_to(descriptor, READ_CHUNK)
        at_eof = len(raw) < READ_CHUNK
        while not at_eof and len(raw) < MAX_HEAD_BYTES and not _HEAD_END.search(raw):
            more = _read_up_to(descriptor, READ_CHUNK * 4)
            raw += more
            at_eof = len(more) < READ_CHUNK * 4
    finally:
        os.close(descriptor)
    return raw, at_eof, status


def _read_up_to(descriptor: int, count: int) -> bytes:
    """``count`` bytes, fewer only at the end of the file (a read may return less)."""
    data = os.read(descriptor, count)
    if len(data) == count or not data:
        return data
    parts = [data]
    missing = count - len(data)
    while missing:
        more = os.read(descriptor, missing)
        if not more:
            break
        parts.append(more)
        missing -= len(more)
    return b"".join(parts)


def parse_page(raw: bytes, *, at_eof: bool, whole: bool) -> tuple[PageMeta, str | None]:
    """The head of a page's bytes, and with ``whole`` (all of the file) its decoded text."""
    at_eof = at_eof or whole
    if b"\x00" in raw[:1024] and not raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        meta = PageMeta()
        meta.problems.append(("binary", "is not an HTML text file (it holds NUL bytes)"))
        return meta, None
    # Only the head goes to the parser: html.parser is slow on long odd markup, and nothing
    # after </head> or <body> counts.
    end = _HEAD_END.search(raw, 0, MAX_HEAD_BYTES)
    head = raw[: end.end()] if end else raw[:MAX_HEAD_BYTES]
    complete = end is not None or (at_eof and len(raw) <= MAX_HEAD_BYTES)
    text, problem = decode_html(head, truncated=not (at_eof and len(head) == len(raw)))
    # The narrow scanner reads plain heads about 3x faster and gives up (None) on anything
    # unusual; html.parser stays the reference and the fallback.
    meta = _fast_parser()(text) or parse_head(text)
    if problem:
        meta.problems.append(problem)
    if not complete:
        meta.problems.append(
            ("head-too-long",
             f"head does not end within {MAX_HEAD_BYTES:,} bytes; only that much was read")
        )
    if not whole:
        return meta, None
    full_text = text if len(head) == len(raw) else decode_html(raw)[0]
    return meta, full_text

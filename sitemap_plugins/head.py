"""Read what a sitemap needs from the ``<head>`` of a built HTML page.

Only the head is read (up to ``</head>`` or ``<body>``, at most ``MAX_HEAD_BYTES``), with
the tolerant stdlib ``html.parser``: minified pages with unquoted attributes, upper-case tags
and unclosed elements all parse. A page that cannot be read becomes a diagnostic, never an
exception.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

READ_CHUNK = 16_384
MAX_HEAD_BYTES = 1_048_576
_HEAD_END = re.compile(rb"</head\s*>|<body[\s>/]", re.IGNORECASE)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.IGNORECASE
)
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
        elif self.meta.base_href is None and values.get("href", "").strip():
            self.meta.base_href = values["href"].strip()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Treat ``<link/>`` like ``<link>``."""
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        """Stop at ``</head>``."""
        if tag == "head":
            raise _HeadDone

    def _link(self, values: dict[str, str]) -> None:
        rels = values.get("rel", "").lower().split()
        href = values.get("href", "").strip()
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
        parser.feed(text)
        parser.close()
    except _HeadDone:
        pass
    except Exception as err:  # noqa: BLE001  # html.parser may still trip on odd markup
        parser.meta.problems.append(("unparseable-head", f"head could not be parsed: {err}"))
    return parser.finish()


def _declared_encoding(raw: bytes) -> str | None:
    match = _META_CHARSET.search(raw[:4096])
    if not match:
        return None
    label = match.group(1).decode("ascii", "replace").lower()
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    # HTML: a meta tag can only declare an ASCII-compatible encoding; utf-16 means utf-8.
    return "utf-8" if name.startswith("utf-16") else name


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
        return raw.decode(declared, "replace"), None
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


def read_page(
    path: str, *, whole: bool, max_bytes: int = 8 * 1024 * 1024
) -> tuple[PageMeta, str | None]:
    """Read a page's head, and with ``whole`` also return the whole decoded text.

    The text is None when the page was not read whole: not asked for, not text, or larger
    than ``max_bytes`` (then only the head is read, so memory stays bounded).

    Raises:
        OSError: when the file cannot be opened or read.
    """
    with open(path, "rb") as handle:
        raw = handle.read(max_bytes + 1 if whole else READ_CHUNK)
        if whole and len(raw) <= max_bytes:
            complete = at_eof = True
        else:
            whole = False
            raw = raw[: max(READ_CHUNK, min(len(raw), MAX_HEAD_BYTES))]
            handle.seek(len(raw))
            complete = at_eof = len(raw) < READ_CHUNK
        while not complete:
            if _HEAD_END.search(raw):
                complete = True
                break
            if len(raw) >= MAX_HEAD_BYTES:
                break
            more = handle.read(READ_CHUNK * 4)
            raw += more
            if len(more) < READ_CHUNK * 4:
                complete = at_eof = True
    if b"\x00" in raw[:1024] and not raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        meta = PageMeta()
        meta.problems.append(("binary", "is not an HTML text file (it holds NUL bytes)"))
        return meta, None
    text, problem = decode_html(raw, truncated=not at_eof)
    meta = parse_head(text)
    if problem:
        meta.problems.append(problem)
    if not complete:
        meta.problems.append(
            ("head-too-long",
             f"head does not end within {MAX_HEAD_BYTES:,} bytes; only that much was read")
        )
    return meta, text if whole else None

"""Rendering: entries in, sitemap text out, split into parts by the protocol's limits.

The middle floor: ``<urlset>`` elements, the ``<sitemapindex>``, the text sitemap, deterministic
gzip, and the Jinja2 environment of the XML templates. The part writers stream into sinks that
:mod:`sitemap_plugins.disk.site` provides (:class:`~sitemap_plugins.disk.site.Staged` files); gzip
is a
stream over bytes. The format the other way too, over bytes: the files' names, who wrote a
sitemap (by the bytes its templates write) and the one expat reader of sitemaps, with line
numbers (:class:`SitemapParser`: ``check``, and :func:`stream_sitemap_entries` over the
chunks :func:`sitemap_plugins.disk.site.sitemap_entries` reads for ``merge`` and
:mod:`~sitemap_plugins.disk.owned`), and gzip inflated a chunk at a time (:func:`gunzip`). Opens
no file: :func:`template_path` only looks for a template.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import re
import struct
import xml.parsers.expat
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import jinja2
import markupsafe

from sitemap_plugins.vocab.dates import Lastmod, format_w3c, sort_key
from sitemap_plugins.vocab.errors import SitemapError
from sitemap_plugins.vocab.urls import is_under
from sitemap_plugins.vocab.values import xml_text

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence


# The HTML site map's markers, known to its renderer and to the proof of what is ours.
HTML_MAP_MARKER = "<!-- sitemap-plugins:html-sitemap -->"
"""Where a host's themed page wants the list: the host renders a page holding it, and the
list replaces it once the sitemap is known."""
HTML_MAP_MARK = "<!-- sitemap-plugins: HTML site map -->"
"""Ends every page of the site map this tool writes: what proves a file there is ours."""
HTML_MAP_EARLIER_MARK = b'<meta name="generator" content="sitemap-plugins">'
"""What pages of earlier versions carry instead."""


# -------------------- who wrote a sitemap, by its bytes

_SITEMAP_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
_DECL = b'<?xml version="1.0" encoding="UTF-8"?>\n'
# This tool's own output (urlset.xml, sitemapindex.xml): the header with any of the
# extension namespaces, then the first entry or the end.
_OWN_URLSET = re.compile(
    re.escape(_DECL) + rb"<urlset " + re.escape(_SITEMAP_NS.encode())
    + rb'(?: xmlns:xhtml="http://www\.w3\.org/1999/xhtml")?'
    rb'(?: xmlns:image="http://www\.google\.com/schemas/sitemap-image/1\.1")?'
    rb'(?: xmlns:video="http://www\.google\.com/schemas/sitemap-video/1\.1")?>\n'
    rb"  <url>\n    <loc>")
_OWN_INDEX = re.compile(re.escape(_DECL) + rb"<sitemapindex " + re.escape(_SITEMAP_NS.encode())
                        + rb">\n  <sitemap>\n    <loc>")
# Other generators, by the first bytes their templates write.
_GENERATORS: tuple[tuple[str, re.Pattern[bytes]], ...] = (
    ("Hugo", re.compile(
        rb'<\?xml version="1\.0" encoding="(?i:utf-8)" standalone="yes"\?>\s*'
        rb'<(?:urlset ' + re.escape(_SITEMAP_NS.encode())
        + rb'\s+xmlns:xhtml="http://www\.w3\.org/1999/xhtml">|sitemapindex '
        + re.escape(_SITEMAP_NS.encode()) + rb">)")),
    ("MkDocs' built-in template", re.compile(
        re.escape(_DECL) + rb"<urlset " + re.escape(_SITEMAP_NS.encode())
        + rb">(?:\n    <url>\n         <loc>|\n</urlset>\s*\Z)")),
    ("pelican-sitemap", re.compile(
        rb'<\?xml version="1\.0" encoding="utf-8"\?>\n<urlset '
        rb'xmlns:xsi="http://www\.w3\.org/2001/XMLSchema-instance"\n'
        rb'xsi:schemaLocation="http://www\.sitemaps\.org/schemas/sitemap/0\.9 '
        rb'http://www\.sitemaps\.org/schemas/sitemap/0\.9/sitemap\.xsd"\n')),
    # ElementTree's declaration (single quotes); xhtml declared first when alternates exist.
    ("sphinx-sitemap", re.compile(
        rb"<\?xml version='1\.0' encoding='utf-8'\?>\n<urlset "
        rb'(?:xmlns:xhtml="http://www\.w3\.org/1999/xhtml" )?' + re.escape(_SITEMAP_NS.encode())
        + rb">\s*<(?:url>|/urlset>)")),
)
OWN = "sitemap-plugins"
"""What :func:`identify` calls this tool's own output."""
HONEST_DATES = frozenset({"Hugo"})
"""Generators whose ``<lastmod>`` is the content's own date: Hugo's is the page's ``lastmod``
(front matter or, with ``enableGitInfo``, its last commit), a listing's its newest page's.
Not MkDocs' built-in template (the build date) nor pelican-sitemap (file times under
``DEFAULT_DATE = 'fs'``), whose replaced dates say nothing."""


def identify_bytes(head: bytes, tail: bytes) -> str | None:
    """Which generator wrote a sitemap of this start and end (:data:`OWN` for this tool).

    Each is known by the bytes its templates write; None for any other file.
    """
    if (_OWN_URLSET.match(head) and tail.endswith(b"</urlset>\n")) or (
            _OWN_INDEX.match(head) and tail.endswith(b"</sitemapindex>\n")):
        return OWN
    for name, pattern in _GENERATORS:
        if pattern.match(head) and tail.rstrip().endswith((b"</urlset>", b"</sitemapindex>")):
            return name
    return None


def is_own_index_head(head: bytes) -> bool:
    """Whether ``head`` starts a sitemap index as this tool writes one."""
    return _OWN_INDEX.match(head) is not None


# -------------------- reading them back: one expat reader, with line numbers

class XmlError(ValueError):
    """The bytes are not a well-formed XML document that may be read."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


_NO_ATTRIBUTES: dict[str, str] = {}  # shared by every element without attributes; never changed


class Node:
    """One element: its Clark name, attributes, direct text, children and line.

    Lean on purpose (a 50 MiB sitemap has a million elements): no list for an element
    without children, one string for text that came in one piece.
    """

    __slots__ = ("attributes", "children", "line", "parts", "tag")

    def __init__(self, tag: str, attributes: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attributes = attributes
        self.line = line
        self.children: list[Node] | tuple[()] = ()
        self.parts: str | list[str] = ""

    @property
    def text(self) -> str:
        """The character data directly inside (between children too), as written."""
        return self.parts if isinstance(self.parts, str) else "".join(self.parts)

    def add_text(self, data: str) -> None:
        """Keep a piece of character data (a second piece turns the string into a list)."""
        if isinstance(self.parts, list):
            self.parts.append(data)
        elif self.parts:
            self.parts = [self.parts, data]
        else:
            self.parts = data

    def add_child(self, child: Node) -> None:
        """Append a child element."""
        if isinstance(self.children, list):
            self.children.append(child)
        else:
            self.children = [child]

    def find(self, tag: str) -> Node | None:
        """The first child named ``tag``."""
        return next((child for child in self.children if child.tag == tag), None)

    def find_text(self, tag: str) -> str:
        """The text of the first child named ``tag``, stripped; empty when there is none."""
        child = self.find(tag)
        return child.text.strip() if child is not None else ""


class Document(NamedTuple):
    """A parsed file: its root element and what its XML declaration said."""

    root: Node
    encoding: str | None
    declared: bool = False
    """Whether it has an XML declaration."""


class SitemapParser:
    """Expat with namespaces resolved; nothing is fetched and no entity is declared.

    With ``on_entry``, each child of the root (a <url>, a <sitemap>) is handed over as soon
    as it ends, with the root, and not kept: memory holds one entry, not the whole file.
    """

    def __init__(self, on_entry: Callable[[Node, Node], None] | None,
                 on_root: Callable[[Node], None] | None = None) -> None:
        parser = self.parser = xml.parsers.expat.ParserCreate(namespace_separator="}")
        parser.buffer_text = True
        stack: list[Node] = []
        self.found: list[Node] = []
        self.declaration: dict[str, str | None] = {}

        def start(name: str, attributes: dict[str, str]) -> None:
            tag = "{" + name if "}" in name else name
            attrs = {("{" + key if "}" in key else key): value
                     for key, value in attributes.items()} if attributes else _NO_ATTRIBUTES
            node = Node(tag, attrs, parser.CurrentLineNumber)
            if not stack:
                self.found.append(node)
                if on_root is not None:
                    on_root(node)
            elif on_entry is None or len(stack) > 1:
                stack[-1].add_child(node)
            stack.append(node)

        def end(_name: str) -> None:
            node = stack.pop()
            if on_entry is not None and len(stack) == 1:
                on_entry(stack[0], node)

        def text(data: str) -> None:
            if stack:
                stack[-1].add_text(data)

        def doctype(*_args: object) -> None:
            raise XmlError(parser.CurrentLineNumber, (
                "has a DOCTYPE; a sitemap may declare no DOCTYPE and no entities (they can "
                "expand without bound or read other files), so it was not read further"))

        def xml_declaration(_version: str, encoding: str | None, _standalone: int) -> None:
            self.declaration["encoding"] = encoding

        parser.StartElementHandler = start
        parser.EndElementHandler = end
        parser.CharacterDataHandler = text
        parser.StartDoctypeDeclHandler = doctype
        parser.EntityDeclHandler = doctype
        parser.XmlDeclHandler = xml_declaration

    def feed(self, data: bytes, *, final: bool) -> None:
        """Parse the next bytes.

        Raises:
            XmlError: not well-formed, or a DOCTYPE.
        """
        try:
            self.parser.Parse(data, final)
        except xml.parsers.expat.ExpatError as err:
            message = xml.parsers.expat.errors.messages[err.code]
            raise XmlError(err.lineno, f"is not well-formed XML (unescaped '&' or '<'?): "
                                       f"{message}") from None
        except LookupError as err:  # expat asks Python for an encoding it does not know
            raise XmlError(self.parser.CurrentLineNumber, f"declares {err}") from None


def parse_xml(raw: bytes, on_entry: Callable[[Node, Node], None] | None = None) -> Document:
    """Parse a whole file (see :class:`SitemapParser`) and return its root.

    Raises:
        XmlError: not well-formed, or a DOCTYPE (its entities could expand without bound,
            and no sitemap needs one).
    """
    parser = SitemapParser(on_entry)
    parser.feed(raw, final=True)
    return Document(parser.found[0], parser.declaration.get("encoding"),
                    "encoding" in parser.declaration)


SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
SITEMAP_KINDS = ("urlset", "sitemapindex")


class NotASitemapError(ValueError):
    """The file is not a sitemaps.org urlset or index, or not XML."""


def stream_sitemap_entries(chunks: Iterable[bytes]) -> Iterator[tuple[str, str, str]]:
    """``(root tag, loc, lastmod)`` per ``<url>`` or ``<sitemap>`` of a sitemap's bytes, streamed.

    Raises:
        NotASitemapError: when the bytes are not a sitemaps.org urlset or index, or not XML.
    """
    ready: list[tuple[str, str, str]] = []

    def root(node: Node) -> None:
        kind = node.tag[len(SITEMAP_NS):] if node.tag.startswith(SITEMAP_NS) else ""
        if kind not in SITEMAP_KINDS:
            msg = f"is not a sitemaps.org urlset or sitemap index (root element {node.tag})"
            raise NotASitemapError(msg)

    def entry(top: Node, node: Node) -> None:
        kind = top.tag[len(SITEMAP_NS):]
        if node.tag == SITEMAP_NS + ("url" if kind == "urlset" else "sitemap"):
            ready.append((kind, node.find_text(SITEMAP_NS + "loc"),
                          node.find_text(SITEMAP_NS + "lastmod")))

    parser = SitemapParser(entry, root)
    try:
        for chunk in chunks:
            parser.feed(chunk, final=False)
            yield from ready
            ready.clear()
        parser.feed(b"", final=True)
    except XmlError as err:  # "line 3: is not well-formed XML...", "line 1: has a DOCTYPE..."
        raise NotASitemapError(str(err)) from err
    yield from ready


def lists_only_under(entries: Iterable[tuple[str, str, str]], base: str) -> bool:
    """Whether a sitemap's entries (:func:`stream_sitemap_entries`) are all under ``base``.

    Read only as far as the first URL off it. An empty one lists nothing of the site: no.
    """
    listed = False
    try:
        for _, loc, _ in entries:
            if not is_under(loc, base):  # "docs/../blog/" is not under "docs/"
                return False
            listed = True
    except NotASitemapError:
        return False
    return listed


def sitemap_kind_of(chunks: Iterable[bytes]) -> str:
    """``urlset``, ``sitemapindex``, or empty when the bytes are neither.

    Read only as far as the root element.
    """
    roots: list[str] = []
    parser = SitemapParser(None, lambda node: roots.append(node.tag))
    try:
        for chunk in chunks:
            parser.feed(chunk, final=False)
            if roots:
                break
    except XmlError:
        pass
    tag = roots[0] if roots else ""
    return tag[len(SITEMAP_NS):] if tag in (SITEMAP_NS + k for k in SITEMAP_KINDS) else ""


# -------------------- the part writers


class Rendered(NamedTuple):
    """One listed URL, ready for every writer."""

    loc: str
    xml: str
    """Its ``<url>`` element (:func:`~sitemap_plugins.entry.render.render_url`)."""
    lastmod: Lastmod | None
    images: int = 0
    """``image:image`` elements in it (counted for the run's summary)."""
    videos: int = 0
    """``video:video`` elements in it."""


class Sink(Protocol):
    """Where a part's bytes go: a staged file (:class:`sitemap_plugins.disk.site.Staged`)."""

    path: Path
    """The temporary file, committed under its final name once the set is complete."""

    def write(self, data: bytes) -> None:
        """Append ``data``."""

    def close(self) -> None:
        """Finish the file."""

    def discard(self) -> None:
        """Delete it (after an error)."""


@dataclass
class Part:
    """One finished (or growing) part."""

    sink: Sink
    count: int = 0
    size: int = 0
    newest: Lastmod | None = None
    open: bool = True

    @property
    def temp(self) -> Path:
        """The part's temporary file."""
        return self.sink.path


class Writer(Protocol):
    """Turns a stream of entries into part files."""

    extension: str
    """``xml`` or ``txt``: the final files are ``<name>.<extension>`` or numbered parts."""

    def add(self, entry: Rendered) -> None:
        """Append one entry, starting a new part first if a limit would be passed."""

    def finish(self) -> list[Part]:
        """Close the last part and return all parts in order."""

    def discard(self) -> None:
        """Delete every temporary file (after an error)."""


class _PartWriter:
    """Shared machinery: limits, rolling over to a new part, newest lastmod per part.

    ``open_part(name)``: a new sink for the part of that name (``sitemap-2.part``). Errors
    of the sinks (a full disk) are the caller's to report.
    """

    extension = ""

    def __init__(
        self, open_part: Callable[[str], Sink], name: str, *, max_urls: int, max_bytes: int,
        header: str, footer: str, render: Callable[[Rendered], str],
    ) -> None:
        self._open_part = open_part
        self._name = name
        self._max_urls = max_urls
        self._max_bytes = max_bytes
        self._header = header.encode("utf-8")
        self._footer = footer.encode("utf-8")
        self._render = render
        self._parts: list[Part] = []

    def _start_part(self) -> Part:
        self._close_current()
        part = Part(self._open_part(f"{self._name}-{len(self._parts) + 1}.part"))
        self._parts.append(part)
        part.sink.write(self._header)
        part.size = len(self._header)
        return part

    def _close_current(self) -> None:
        if self._parts and self._parts[-1].open:
            part = self._parts[-1]
            part.sink.write(self._footer)
            part.size += len(self._footer)
            part.open = False
            part.sink.close()

    def add(self, entry: Rendered) -> None:
        data = self._render(entry).encode("utf-8")
        room = self._max_bytes - len(data) - len(self._footer)  # for what is before it
        part = self._parts[-1] if self._parts else None
        if part is None or part.count >= self._max_urls or (part.count and part.size > room):
            part = self._start_part()
        if part.size > room:
            msg = f"one entry ({len(data):,} bytes) does not fit in max_bytes"
            raise ValueError(msg)
        part.sink.write(data)
        part.size += len(data)
        part.count += 1
        lastmod = entry.lastmod
        # Pages share few dates (a kept one is one object per text): compare only new ones.
        if lastmod is not None and lastmod is not part.newest and (
            part.newest is None or sort_key(lastmod) > sort_key(part.newest)
        ):
            part.newest = lastmod

    def finish(self) -> list[Part]:
        if not self._parts:
            self._start_part()
        self._close_current()
        return self._parts

    def discard(self) -> None:
        for part in self._parts:
            part.open = False
            with contextlib.suppress(Exception):
                part.sink.discard()


def _element(entry: Rendered) -> str:
    return entry.xml


class XmlSitemapWriter(_PartWriter):
    """``<urlset>`` parts."""

    extension = "xml"

    def __init__(
        self, open_part: Callable[[str], Sink], name: str, *, max_urls: int, max_bytes: int,
        xhtml: bool, image: bool = False, video: bool = False,
    ) -> None:
        super().__init__(
            open_part, name, max_urls=max_urls, max_bytes=max_bytes,
            header=render_header(xhtml=xhtml, image=image, video=video),
            footer=render_footer(), render=_element,
        )


class TextSitemapWriter(_PartWriter):
    """Plain-text parts, one URL a line."""

    extension = "txt"

    def __init__(self, open_part: Callable[[str], Sink], name: str, *, max_urls: int,
                 max_bytes: int) -> None:
        super().__init__(
            open_part, name, max_urls=max_urls, max_bytes=max_bytes,
            header="", footer="", render=render_line,
        )


# -------------------- formerly writers/templates.py

_PACKAGE_DIR = Path(__file__).resolve().parents[1]
TEMPLATE_DIRS = (_PACKAGE_DIR / "templates", _PACKAGE_DIR.parent / "templates")


def template_path(name: str) -> Path:
    """Where template ``name`` is.

    Raises:
        FileNotFoundError: when it is missing from the installation.
    """
    for folder in TEMPLATE_DIRS:
        if (folder / name).is_file():
            return folder / name
    searched = ", ".join(str(d) for d in TEMPLATE_DIRS)
    msg = f"template {name!r} is missing from the installation (looked in {searched})"
    raise FileNotFoundError(msg)


def template_environment(*extra_folders: str) -> jinja2.Environment:
    """The one Jinja2 set-up of every output: ``extra_folders`` first, then the shipped ones.

    Every template escapes everything: select_autoescape() would go by file suffix.
    """
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([*extra_folders, *(str(d) for d in TEMPLATE_DIRS)]),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
        finalize=_xml_safe,
    )


def _xml_safe(value: object) -> object:
    """What a template prints, without the characters XML 1.0 forbids (a page's ``&#1;``).

    Every ``{{ }}`` of every template passes here before autoescape, the user's templates
    too: no text reaches a file unfiltered. Markup (a macro's output) stays Markup.
    """
    if isinstance(value, markupsafe.Markup):
        cleaned = xml_text(value)
        return value if cleaned is value else markupsafe.Markup(cleaned)  # noqa: S704
    if isinstance(value, str):
        return xml_text(value)
    return value


@cache
def template_module(name: str) -> Any:  # noqa: ANN401  # Jinja's TemplateModule is untyped
    """The macros of template ``name`` (``urlset.xml``, ``sitemapindex.xml``)."""
    template_path(name)
    return template_environment().get_template(name).module


# -------------------- formerly writers/xml_sitemap.py

def render_header(*, xhtml: bool, image: bool = False, video: bool = False) -> str:
    """The XML declaration and the opening ``<urlset>``, with the extensions' namespaces.

    Declared by option, not by content: the same options always give the same header.
    """
    return str(template_module("urlset.xml").header(xhtml, image, video))


class UrlFields(Protocol):
    """What :func:`render_url` reads of an entry (a :class:`sitemap_plugins.entry.rules.Entry`)."""

    @property
    def loc(self) -> str: ...  # noqa: D102
    @property
    def lastmod(self) -> Lastmod | None: ...  # noqa: D102
    @property
    def lastmod_w3c(self) -> str: ...  # noqa: D102
    @property
    def changefreq(self) -> str | None: ...  # noqa: D102
    @property
    def priority(self) -> float | None: ...  # noqa: D102
    @property
    def priority_text(self) -> str: ...  # noqa: D102
    @property
    def alternates(self) -> Sequence[Any]: ...  # noqa: D102  # hreflang, href
    @property
    def images(self) -> Sequence[str]: ...  # noqa: D102
    @property
    def videos(self) -> Sequence[Any]: ...  # noqa: D102  # the video:video children


def render_url(entry: UrlFields) -> str:
    """One ``<url>`` element with its children, indented, ending in a newline.

    Built with string operations, not a template: a build renders one for every page, and a
    template macro's call cost more than the element itself. Child order follows
    sitemap.xsd: loc, lastmod, changefreq, priority, then the extension elements
    (``xhtml:link``, ``image:image``, ``video:video``, whose children follow
    sitemap-video.xsd's order); every value is XML-escaped exactly once.
    """
    lines = ["  <url>\n    <loc>", _escape(entry.loc), "</loc>\n"]
    if entry.lastmod is not None:
        lines += ("    <lastmod>", _escape(entry.lastmod_w3c), "</lastmod>\n")
    if entry.changefreq:
        lines += ("    <changefreq>", _escape(entry.changefreq), "</changefreq>\n")
    if entry.priority is not None:
        lines += ("    <priority>", _escape(entry.priority_text), "</priority>\n")
    for alternate in entry.alternates:
        lines += ('    <xhtml:link rel="alternate" hreflang="', _escape(alternate.hreflang),
                  '" href="', _escape(alternate.href), '"/>\n')
    for image in entry.images:
        lines += ("    <image:image>\n      <image:loc>", _escape(image),
                  "</image:loc>\n    </image:image>\n")
    for video in entry.videos:
        lines += ("    <video:video>\n      <video:thumbnail_loc>", _escape(video.thumbnail_loc),
                  "</video:thumbnail_loc>\n      <video:title>", _escape(video.title),
                  "</video:title>\n      <video:description>", _escape(video.description),
                  "</video:description>\n")
        if video.content_loc:
            lines += ("      <video:content_loc>", _escape(video.content_loc),
                      "</video:content_loc>\n")
        if video.player_loc:
            lines += ("      <video:player_loc>", _escape(video.player_loc),
                      "</video:player_loc>\n")
        lines.append("    </video:video>\n")
    lines.append("  </url>\n")
    return "".join(lines)


def _escape(value: object) -> str:
    """XML text and attribute escaping, as the templates' autoescape does (markupsafe).

    Characters XML 1.0 forbids are dropped first (:func:`~sitemap_plugins.vocab.values.xml_text`),
    as the templates' ``finalize`` drops them.
    """
    text = xml_text(str(value))
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text or ">" in text or "'" in text or '"' in text:
        text = (text.replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;")
                .replace('"', "&#34;"))
    return text


def render_footer() -> str:
    """The closing ``</urlset>``."""
    return str(template_module("urlset.xml").footer())


# -------------------- formerly writers/sitemap_index.py

def render_indexes(entries: Sequence[tuple[str, str]], *, max_urls: int, max_bytes: int,
                   ) -> list[tuple[bytes, int]]:
    """Index files over ``(loc, lastmod_w3c)`` entries, each with its entry count.

    Split before either limit (sitemaps.org: an index names no index); no empty lastmod.
    """
    module = template_module("sitemapindex.xml")
    header = str(module.header()).encode("utf-8")
    footer = str(module.footer()).encode("utf-8")
    indexes: list[tuple[bytes, int]] = []
    pieces: list[bytes] = []
    size = len(header) + len(footer)
    for loc, lastmod in entries:
        piece = str(module.sitemap(loc, lastmod)).encode("utf-8")
        if pieces and (len(pieces) >= max_urls or size + len(piece) > max_bytes):
            indexes.append((header + b"".join(pieces) + footer, len(pieces)))
            pieces, size = [], len(header) + len(footer)
        pieces.append(piece)
        size += len(piece)
    indexes.append((header + b"".join(pieces) + footer, len(pieces)))
    return indexes


def newest_of(parts: Iterable[Part]) -> Lastmod | None:
    """The newest lastmod of any of ``parts`` (an index's own date); None when none is dated."""
    dated = [p.newest for p in parts if p.newest is not None]
    return max(dated, key=sort_key) if dated else None


def index_of_parts(parts: Sequence[Part], name: str, extension: str, base: str, *,
                   max_urls: int, max_bytes: int, extra: Sequence[str] = (),
                   ) -> tuple[list[str], bytes]:
    """The names of a split set's parts (``sitemap-1.xml``, ...) and the index naming them.

    ``extra``: other tools' sitemaps the index names after the parts (``extra_sitemaps``).

    Raises:
        SitemapError: when the index would pass ``max_urls`` entries or ``max_bytes``.
    """
    names = [f"{name}-{number}.{extension}" for number in range(1, len(parts) + 1)]
    indexes = render_indexes([*((base + final, format_w3c(part.newest) if part.newest else "")
                                for final, part in zip(names, parts, strict=True)),
                              *((url, "") for url in extra)],
                             max_urls=max_urls, max_bytes=max_bytes)
    if len(indexes) > 1:
        msg = (f"{len(parts) + len(extra):,} sitemaps would pass the index limit of "
               f"{max_urls:,} entries or max_bytes; raise max_urls or max_bytes")
        raise SitemapError(msg)
    return names, indexes[0][0]


# -------------------- formerly writers/text_sitemap.py

def render_line(entry: Rendered) -> str:
    """The entry's URL and a newline. URLs are percent-encoded, so they hold no line break."""
    return entry.loc + "\n"


# -------------------- formerly writers/compress.py

# zlib's own default, as gzip(1) uses: on a sitemap, level 9 takes 2.6 times as long for a
# file 9 % smaller (a 10 MB part: 0.15 s against 0.06 s).
COMPRESS_LEVEL = 6
_INFLATED_CHUNK = 1 << 20


def header_time(newest: Lastmod | None) -> int:
    """The gzip header mtime for a file whose newest lastmod is ``newest``."""
    value = int(sort_key(newest).timestamp()) if newest is not None else 0
    return value if 0 <= value < 2**32 else 0


def gzip_stream(chunks: Iterable[bytes], newest: Lastmod | None = None) -> Iterator[bytes]:
    """``chunks`` compressed as a gzip file, a piece at a time (bounded memory).

    The bytes the gzip module writes with no file name, the newest lastmod as the header's
    time (:func:`header_time`), so the same sitemap always gives the same ``.gz``.
    """
    # RFC 1952: magic, deflate, no flags, mtime, extra flags (0: level 6), OS unknown (255).
    yield b"\x1f\x8b\x08\x00" + struct.pack("<L", header_time(newest)) + b"\x00\xff"
    compressor = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS,
                                  zlib.DEF_MEM_LEVEL, 0)
    crc = size = 0
    for chunk in chunks:
        crc = zlib.crc32(chunk, crc)
        size += len(chunk)
        if packed := compressor.compress(chunk):
            yield packed
    yield compressor.flush() + struct.pack("<LL", crc, size & 0xFFFFFFFF)


def gunzip(data: bytes, most: int) -> Iterator[bytes]:
    """A gzip file's bytes, inflated a chunk at a time, ``most`` + 1 of them at most.

    A small file that inflates to gigabytes (a gzip bomb) costs no more memory than it.

    Raises:
        OSError, EOFError, zlib.error: when it is not a whole gzip file.
    """
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as inflated:
        while most >= 0 and (chunk := inflated.read(min(_INFLATED_CHUNK, most + 1))):
            most -= len(chunk)
            yield chunk

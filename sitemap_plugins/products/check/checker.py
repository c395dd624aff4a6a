"""``sitemap-plugins check``: check the sitemap files already in a site against the protocol.

Independent of the writers: expat reads what is on disk, schema.py's table applies the
schemas, then the protocol's own rules (UTF-8, limits, scope, duplicates, a file behind each
URL, the build's rules for a listed page, ``.gz`` copies, the robots.txt line).
"""

from __future__ import annotations

import codecs
import functools
import os
import re
import stat
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote_to_bytes, urlsplit

from sitemap_plugins.disk.owned import another_tool, identify
from sitemap_plugins.disk.site import is_inside, is_regular, read_in_site
from sitemap_plugins.entry.news import MAX_NEWS
from sitemap_plugins.entry.render import OWN, Node, XmlError, gunzip, parse_xml
from sitemap_plugins.entry.robots_txt import MAX_ROBOTS_BYTES, RobotsRules, names_sitemap
from sitemap_plugins.entry.rules import (
    REASON_404,
    REASON_NOINDEX,
    REASON_REDIRECT,
    is_not_found_page,
    page_says_leave_out,
    same_page,
)
from sitemap_plugins.page.reader import parse_html
from sitemap_plugins.products.check.schema import (
    NEWS,
    SITEMAP,
    VIDEO,
    XHTML,
    beyond_schema,
    check_date,
    collapse,
    display,
    unescaped_text,
    validate_entry,
    validate_root,
)
from sitemap_plugins.products.check.schema import check_url as schema_url
from sitemap_plugins.vocab.dates import parse_w3c, sort_key
from sitemap_plugins.vocab.errors import ScanError, shown_path, shown_text, special_kind
from sitemap_plugins.vocab.options import PROTOCOL_MAX_BYTES, PROTOCOL_MAX_URLS, text_index_name
from sitemap_plugins.vocab.urls import (
    INDEX_NAMES,
    is_public,
    is_under,
    lower_scheme_and_host,
    resolve_href,
)
from sitemap_plugins.vocab.values import FUTURE_SLACK

if TYPE_CHECKING:
    from collections.abc import Callable

    from sitemap_plugins.products.build.progress import Progress
    from sitemap_plugins.vocab.options import SitemapConfig

NS = SITEMAP
_PAGE_HEAD_BYTES = 1 << 20  # of a listed page, read for its robots meta tag and canonical
_PAGE_START_BYTES = 1 << 16
_HTML = (".html", ".htm", ".xhtml")
_HEAD_END = re.compile(rb"</head\s*>", re.IGNORECASE)


_LEFT_OUT = {REASON_NOINDEX: "says noindex in its robots meta tag",
             REASON_404: "is the site's 404 page",
             REASON_REDIRECT: "redirects elsewhere (a meta refresh)"}


def _shown(text: str, most: int = 80) -> str:
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def _urls(count: int) -> str:
    return f"{count:,} URL{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class Problem:
    """One protocol problem in one file; a ``warning`` does not fail the check."""

    file: str
    message: str
    warning: bool = False

    def __str__(self) -> str:
        return f"{shown_path(self.file)}: {shown_text(self.message)}"


class _Checker:
    def __init__(self, site: Path, config: SitemapConfig,
                 progress: Progress | None = None, now: datetime | None = None) -> None:
        self.site = site
        self.latest = (now or datetime.now(timezone.utc)) + FUTURE_SLACK
        """A lastmod after this lies in the future (a wrong clock, a typo in a year)."""
        self.pages: dict[str, None] = {}
        """Listed URLs already checked as pages (the text sitemap lists them too)."""
        self.progress = progress
        self.base = str(config.base_url)
        self.config = config
        self.problems: list[Problem] = []
        self.seen: dict[str, str] = {}
        self.scope = self.base
        """The folder URL the file being checked may list (a merged child's folder)."""
        self.own_locs: list[str] = []
        """URLs of the urlsets at the site root (not in a merged build's folder)."""
        self.tree = False
        """True when an index names sitemaps in sub-folders (``sitemap-plugins merge``)."""
        self.served: dict[str, str | None] = {}
        """URL -> the site file serving it (None: none), as found by local_file."""
        self.robots: bytes | OSError | None = None
        """robots.txt as read (or why it could not be), once for all its Sitemap: lines."""
        self.unread: set[str] = set()
        """Files that could not be read (already reported; nothing is compared with them)."""
        self.news: dict[str, int] = {}
        """news:news elements read in each file (Google takes 1,000 in any one)."""

    def problem(self, file: str, message: str) -> None:
        self.problems.append(Problem(file, message))

    def warning(self, file: str, message: str) -> None:
        self.problems.append(Problem(file, message, warning=True))

    def local_file(self, url: str) -> str | None:
        """The site file a URL under the base maps to (remembered), never one outside it."""
        if url in self.served:
            return self.served[url]
        found = self._local_file(url)
        self.served[url] = found
        return found

    def _local_file(self, url: str) -> str | None:
        rel_bytes = unquote_to_bytes(urlsplit(url[len(self.base) - 1 :]).path.lstrip("/"))
        rel = os.fsdecode(rel_bytes)
        if any(part in (".", "..") for part in rel.split("/")) or "\x00" in rel:
            return None
        # A URL without .html is what a host lists when the server adds it (try_files).
        candidates = [rel + name for name in INDEX_NAMES] if rel.endswith("/") or not rel \
            else [rel, rel + "/index.html", rel + ".html"]
        for candidate in candidates:
            path = self.site / candidate
            if is_inside(self.site, path) and path.is_file():
                return candidate
        return None

    def read(self, name: str, limit: int = PROTOCOL_MAX_BYTES) -> bytes:
        """A regular file of the site, at most ``limit`` + 1 bytes of it (else OSError)."""
        return read_in_site(self.site, name, limit + 1)

    def read_sitemap(self, name: str) -> bytes | None:
        """A sitemap's bytes, inflated if ``.gz`` (at most the limit + 1); None: reported why."""
        try:
            raw = self.read(name)
        except OSError as err:
            self.problem(name, f"cannot be read: {err.strerror or err}")
            self.unread.add(name)
            return None
        if not name.endswith(".gz"):
            return raw
        try:  # a gzip bomb inflates no further than the limit
            return b"".join(gunzip(raw, PROTOCOL_MAX_BYTES))
        except (OSError, EOFError, zlib.error) as err:
            why = err.strerror if isinstance(err, OSError) and err.strerror else err
            self.problem(name, f"is not a valid gzip file: {why}")
            self.unread.add(name)
            return None

    def check_url(self, file: str, where: str, url: str, *, needs_file: bool = True,
                  syntax: bool = True) -> bool:
        """A listed URL: well-formed (unless checked already), in scope, served; whether so."""
        ok = True
        reason = schema_url(url) if syntax else None
        if reason is not None:
            self.problem(file, f"{where}: URL {_shown(url)} {reason}")
            return False  # nothing more to say of it, and no comparison may trip on it
        url = lower_scheme_and_host(url)
        if "#" in url:  # engines drop it: the entry names a place in a page, not a page
            self.problem(file, f"{where}: URL {_shown(url)} has a fragment "
                               f"({_shown(url[url.index('#'):], 20)}); list the page's own URL")
            ok = False
        # Compared without dot segments: ".../blog/../admin/" is not under ".../blog/".
        if not is_under(url, self.base):
            self.problem(
                file, f"{where}: URL {url!r} is not under the base URL {self.base!r} "
                      "(same scheme, host, port and path)")
            return False
        if not is_under(url, self.scope):
            self.problem(
                file, f"{where}: URL {url!r} is not under {self.scope!r}, the folder of this "
                      "sitemap (a sitemap lists only URLs in its own folder and below)")
            return False
        if needs_file:
            served = self.local_file(url)
            if served is None:
                self.problem(file, f"{where}: no file in the site serves {url!r}")
                ok = False
            elif url not in self.pages:
                self.pages[url] = None
                if self.robots_rules is not None and not self.robots_rules.allows(url):
                    self.problem(file, f"{where}: robots.txt disallows {url!r}; a sitemap "
                                       "lists only pages to index (build leaves it out)")
                if served.lower().endswith(_HTML):
                    self.check_page(file, where, url, served)
        return ok

    @functools.cached_property
    def robots_rules(self) -> RobotsRules | None:
        """The site's robots.txt, as the build reads it to leave disallowed pages out."""
        try:
            data = self.read("robots.txt", MAX_ROBOTS_BYTES) if os.path.lexists(
                self.site / "robots.txt") else b""
        except OSError:
            return None  # check_robots says so
        return RobotsRules.from_bytes(data) if data else None

    def check_page(self, file: str, where: str, url: str, served: str) -> None:
        """The listed page: nothing the build leaves out by it; a canonical of its own."""
        try:
            # Only the head says either; the body is not parsed.
            raw = self.read(served, _PAGE_START_BYTES)
            end = _HEAD_END.search(raw, 0, _PAGE_START_BYTES)
            if end is None and len(raw) > _PAGE_START_BYTES:
                raw = self.read(served, _PAGE_HEAD_BYTES)
                end = _HEAD_END.search(raw, 0, _PAGE_HEAD_BYTES)
        except OSError:
            return  # a page that cannot be read is the site's problem, not the sitemap's
        head = raw[: end.end()] if end is not None else raw[:_PAGE_HEAD_BYTES]
        record = parse_html(head, truncated=end is None and len(raw) > _PAGE_HEAD_BYTES)
        resolve_from = (resolve_href(record.base_href, url) or url) if record.base_href else url
        # The build's own rule: what it leaves out, a sitemap must not list.
        reason = (REASON_404 if is_not_found_page(served)
                  else page_says_leave_out(record, url, resolve_from))
        if reason is not None:
            self.problem(file, f"{where}: the page {served!r} {_LEFT_OUT.get(reason, reason)}; "
                               "a sitemap lists only pages to index (build leaves it out)")
        if record.canonical is None:
            return
        canonical = resolve_href(record.canonical, resolve_from)
        if canonical is not None and not same_page(canonical, url):
            self.warning(file, f"{where}: the page {served!r} names another page as its "
                               f"canonical ({_shown(canonical)}); list that one instead")

    def parse(self, name: str, on_entry: Callable[[Node, Node, int], None] | None = None,
              *, empty_ok: bool = False) -> Node | None:
        """Read one XML file, reporting what breaks the protocol or the schemas; its root.

        Each entry is checked, handed to ``on_entry`` (root, entry, number) and dropped.
        """
        raw = self.read_sitemap(name)
        if raw is None:
            return None
        if len(raw) > PROTOCOL_MAX_BYTES:
            self.problem(name, "more than 52,428,800 bytes uncompressed (the limit); not read "
                               "further")
            self.unread.add(name)
            return None
        marked = raw.startswith(codecs.BOM_UTF8)
        if marked:  # XML 1.0 allows it; some readers trip on it
            self.warning(name, "starts with a byte order mark; better without: the XML "
                               "declaration at byte 0")
        if not raw.startswith(b"<?xml", len(codecs.BOM_UTF8) if marked else 0):
            # Optional in XML 1.0 and taken by every engine (Hugo 0.70 wrote none).
            self.warning(name, "does not start with the XML declaration"
                               + (" after its byte order mark" if marked else " at byte 0")
                               + "; better with it")
        try:
            raw.decode("utf-8")  # not kept: the parse holds a few entries, not a copy
        except UnicodeDecodeError as err:
            self.problem(name, f"is not UTF-8 (byte {err.start:,}); sitemaps must be UTF-8")
            self.unread.add(name)
            return None
        entries = 0
        ids: set[str] = set()

        def entry(root: Node, node: Node) -> None:
            nonlocal entries
            entries += 1
            for line, message in validate_entry(root, node, ids):
                self.problem(name, f"line {line}: {message}")
            if on_entry is not None:
                on_entry(root, node, entries)

        try:
            document = parse_xml(raw, entry)
        except XmlError as err:
            self.problem(name, str(err))
            self.unread.add(name)
            return None
        # Looked for only in a well-formed file, where the scan is linear.
        escape = unescaped_text(raw.decode("utf-8"))
        if escape is not None:
            self.problem(name, f"line {escape[0]}: {escape[1]!r} in text is not entity-escaped "
                               "(sitemaps.org: every data value escapes & ' \" < >)")
        if document.encoding is not None and document.encoding.lower() not in ("utf-8",
                                                                                "utf8"):
            self.problem(name, f"declares the encoding {document.encoding!r}; sitemaps must "
                               "be UTF-8")
        for line, message in validate_root(document.root, entries):
            if empty_ok and entries == 0 and message == "<urlset> lacks <url>":
                continue
            self.problem(name, f"line {line}: {message}")
        news = self.news.pop(name, 0)
        if news > MAX_NEWS:
            self.problem(name, f"{news:,} news:news articles; Google takes at most {MAX_NEWS:,} "
                               "in one sitemap")
        if entries > PROTOCOL_MAX_URLS:
            what = "sitemaps" if document.root.tag == f"{NS}sitemapindex" else "URLs"
            self.problem(name, f"{entries:,} {what}; the limit is 50,000")
        return document.root

    def check_gzip(self, name: str) -> None:
        """The ``.gz`` holds the same bytes as the file beside it (chunk by chunk: no bomb)."""
        packed = self.site / (name + ".gz")
        if not packed.exists() and not packed.is_symlink():
            return
        try:
            compressed = self.read(name + ".gz")
            original = self.read(name)
            same, position = True, 0
            for chunk in gunzip(compressed, len(original)):
                if chunk != original[position : position + len(chunk)]:
                    same = False
                    break
                position += len(chunk)
            same = same and position == len(original)
        except (OSError, EOFError, zlib.error) as err:
            why = err.strerror if isinstance(err, OSError) and err.strerror else err
            self.problem(name + ".gz", f"is not a valid gzip file, or cannot be read: {why}")
            return
        if not same:
            self.problem(name + ".gz", f"does not hold the same bytes as {name}")

    def check_urlset(self, name: str, parts: list[Node] | None = None,
                     ) -> tuple[Node | None, list[str]]:
        """Parse ``name``, check each <url>; the root (None: unreadable) and the URLs listed.

        An index's entries go to ``parts`` (when given).
        """
        locs: list[str] = []
        progress = self.progress

        def url(root: Node, node: Node, number: int) -> None:
            if root.tag == f"{NS}sitemapindex" and parts is not None:
                parts.append(node)
            if root.tag != f"{NS}urlset" or node.tag != f"{NS}url":
                return
            if progress is not None:  # the total shows itself file by file: found = checked
                progress.found()
                progress.done()
            self.check_url_children(name, f"<url> #{number}", node, locs)

        return self.parse(name, url), locs

    def check_url_children(self, name: str, where: str, url: Node, locs: list[str]) -> None:
        languages: dict[str, str] = {}
        for child in url.children:
            if child.tag == f"{XHTML}link":
                self.check_alternate(name, where, child)
                code = child.attributes.get("hreflang", "").lower()
                if code in languages:
                    self.problem(name, f"{where}: hreflang {code!r} is given twice (one URL a "
                                       "language)")
                languages.setdefault(code, collapse(child.attributes.get("href", "")))
        self.check_future(name, where, url.find(f"{NS}lastmod"))
        for child in url.children:
            if child.tag == f"{NEWS}news":
                self.check_news_entry(name, where, child)
        self.beyond(name, where, url)
        loc_node = url.find(f"{NS}loc")
        if loc_node is None or schema_url(loc_node.text) is not None:
            return  # the schema check said why
        loc = lower_scheme_and_host(collapse(loc_node.text))
        where = f"{where} ({loc})"
        if languages and loc not in {lower_scheme_and_host(h) for h in languages.values()}:
            # Google: "each language version must list itself and every other version".
            self.problem(name, f"{where}: its xhtml:link alternates do not include the page "
                               "itself")
        for video in (child for child in url.children if child.tag == f"{VIDEO}video"):
            for place in (video.find(f"{VIDEO}content_loc"), video.find(f"{VIDEO}player_loc")):
                if place is not None and schema_url(place.text) is None \
                        and same_page(lower_scheme_and_host(collapse(place.text)), loc):
                    self.problem(name, f"{where}: {display(place.tag)} is the page itself; "
                                       "Google requires the video's own URL")
        self.check_url(name, where, loc, syntax=False)
        if loc in self.seen:
            self.problem(name, f"{where}: duplicate URL, also in {self.seen[loc]}")
        else:
            self.seen[loc] = name
        locs.append(loc)

    def check_news(self, name: str) -> None:
        """The news sitemap: each <url> one news:news with the fields Google requires.

        It may be empty (no recent article), as Google allows.
        """
        def article(root: Node, url: Node, number: int) -> None:
            if root.tag != f"{NS}urlset" or url.tag != f"{NS}url":
                return
            loc_node = url.find(f"{NS}loc")
            loc = collapse(loc_node.text) if loc_node is not None else ""
            where = f"<url> #{number} ({loc})"
            if loc_node is not None and schema_url(loc_node.text) is None:
                self.check_url(name, where, loc, syntax=False)
            news = [child for child in url.children if child.tag == f"{NEWS}news"]
            if len(news) != 1:
                self.problem(name, f"{where}: holds {len(news)} news:news elements, not one")
                return
            self.check_news_entry(name, where, news[0])
            self.beyond(name, where, news[0])

        root = self.parse(name, article, empty_ok=True)
        if root is None:
            return
        if root.tag != f"{NS}urlset":
            self.problem(name, f"root element is {display(root.tag)}, not urlset")

    def beyond(self, name: str, where: str, node: Node) -> None:
        """What schema.py's table adds to the schemas, in ``node`` and below."""
        for message, warning in beyond_schema(node):
            (self.warning if warning else self.problem)(name, f"{where}: {message}")

    def check_news_entry(self, name: str, where: str, item: Node) -> None:
        """One news:news, wherever it stands: counted in its file, its date not ahead."""
        self.news[name] = self.news.get(name, 0) + 1
        self.check_future(name, where, item.find(f"{NEWS}publication_date"))

    def check_future(self, name: str, where: str, node: Node | None) -> None:
        """A date (lastmod, publication date) must not lie after the check's day."""
        if node is None or check_date(node.text) is not None:
            return  # none, or the schema check said why
        when = parse_w3c(collapse(node.text))
        if when is not None and sort_key(when) > self.latest:
            self.warning(name, f"{where}: {display(node.tag)} {collapse(node.text)!r} lies in "
                               "the future (a wrong clock or year?); engines distrust such dates")

    def check_alternate(self, name: str, where: str, link: Node) -> None:
        """An hreflang alternate: rel="alternate", a language code, a public URL (any site's)."""
        if link.attributes.get("rel") != "alternate":
            self.problem(name, f'{where}: xhtml:link without rel="alternate"')
        if "hreflang" not in link.attributes:
            self.problem(name, f"{where}: xhtml:link without hreflang")
        href = link.attributes.get("href")
        if href is None:
            self.problem(name, f"{where}: xhtml:link without href")
        elif (schema_url(href) is None and not collapse(href).startswith(self.base)
              and not is_public(collapse(href))):
            self.problem(name, f"{where}: alternate {collapse(href)!r} names a local address, "
                               "not a public site")

    def check_xml_set(self, name: str) -> list[str]:
        parts: list[Node] = []  # an index's entries: small, kept to be followed after
        root, locs = self.check_urlset(name, parts)
        if root is None:
            return []
        self.check_gzip(name)
        if root.tag == f"{NS}urlset":
            return locs
        if root.tag != f"{NS}sitemapindex":
            return []  # the schema check named the root
        named: dict[str, int] = {}  # each part's URL -> its entry's number
        for number, part in enumerate(parts, start=1):
            loc_element = part.find(f"{NS}loc")
            if part.tag != f"{NS}sitemap" or loc_element is None \
                    or schema_url(loc_element.text) is not None:
                continue  # the schema check said why
            loc = lower_scheme_and_host(collapse(loc_element.text))
            if loc in named:  # read once: its URLs are not duplicates of themselves
                self.problem(name, f"<sitemap> #{number}: names {loc!r} again (as "
                                   f"<sitemap> #{named[loc]:,} does); name each sitemap once")
                continue
            named[loc] = number
            self.check_future(name, f"<sitemap> #{number}", part.find(f"{NS}lastmod"))
            # A pipe there is the part's own problem; a link out of the site is no file of it.
            special = self.special_part(loc)
            if not self.check_url(name, f"<sitemap> #{number}", loc, syntax=False,
                                  needs_file=not special):
                self.unread.add(loc)  # its URLs are unknown: nothing is compared with them
                continue
            part_name = loc[len(self.base):]
            folder, _, _ = part_name.rpartition("/")
            if not special and (any(segment in ("", ".", "..")
                                    for segment in part_name.split("/"))
                                or not is_regular(self.site / part_name)):
                self.problem(name, f"<sitemap> #{number}: names {loc!r}, which is not in the "
                                   "site folder")
                self.unread.add(loc)
                continue
            # A merged index's build sitemaps list only URLs in their own folders (sitemaps.org).
            self.tree = self.tree or bool(folder)
            self.scope = self.base + folder + "/" if folder else self.base
            if part_name.endswith((".txt", ".txt.gz")):  # read_sitemap inflates a .gz
                locs.extend(self.check_text(part_name))
                self.scope = self.base
                continue
            part_root, part_locs = self.check_urlset(part_name)
            self.scope = self.base
            if part_root is None:
                continue
            self.check_gzip(part_name)
            if part_root.tag != f"{NS}urlset":
                self.problem(part_name, "a sitemap named by the index must be a urlset (an "
                                        "index may not name an index)")
                self.unread.add(part_name)
                continue
            locs.extend(part_locs)
            if not folder:
                self.own_locs.extend(part_locs)
        return locs

    def check_text(self, name: str) -> list[str]:
        raw = self.read_sitemap(name)
        if raw is None:
            return []
        if len(raw) > PROTOCOL_MAX_BYTES:
            self.problem(name, "more than 52,428,800 bytes (the limit); not read further")
            self.unread.add(name)
            return []
        if raw.startswith(codecs.BOM_UTF8):
            self.warning(name, "starts with a byte order mark; better without: a text sitemap "
                               "holds only URLs")
            raw = raw[len(codecs.BOM_UTF8):]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            self.problem(name, f"is not UTF-8 (byte {err.start:,}); sitemaps must be UTF-8")
            self.unread.add(name)
            return []
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if lines and all(line.endswith("\r") for line in lines):
            # Windows line ends: every reader takes them, so the URLs are read without them.
            self.warning(name, "ends its lines with CR LF; better LF alone")
            lines = [line[:-1] for line in lines]
        if len(lines) > PROTOCOL_MAX_URLS:
            self.problem(name, f"{len(lines):,} URLs; the limit is 50,000")
        first: dict[str, int] = {}
        for number, line in enumerate(lines, start=1):
            if line != line.strip() or not line:
                self.problem(name, f"line {number}: must hold one URL and nothing else")
                continue
            if line in first:
                self.problem(name, f"line {number}: duplicate URL {_shown(line)}, also on line "
                                   f"{first[line]:,}")
                continue
            first[line] = number
            self.check_url(name, f"line {number}", line)
        return [lower_scheme_and_host(line) for line in lines]

    def check_author(self, name: str) -> None:
        """Say when the sitemap is another tool's: a build step that did not run leaves it."""
        who = identify(self.site / name) if name not in self.unread else OWN
        if who != OWN:
            (self.problem if self.config.fail_on_foreign else self.warning)(name, (
                f"was written by {who or another_tool(self.site)}, not by sitemap-plugins: "
                "run its build after the site's, and turn the other sitemap off"))

    def special_part(self, loc: str) -> bool:
        """Whether ``loc`` names a pipe, socket or device in the site (not a link)."""
        if not loc.startswith(self.base):
            return False
        name = loc[len(self.base):]
        if not name or any(segment in ("", ".", "..") for segment in name.split("/")):
            return False
        try:
            mode = os.lstat(self.site / name).st_mode
        except OSError:
            return False
        return special_kind(mode) is not None and not stat.S_ISLNK(mode)

    def check_robots(self, sitemap_url: str) -> None:
        robots = self.site / "robots.txt"
        if self.config.base_url.has_path or not os.path.lexists(robots):
            return
        if self.robots is None:
            try:  # what crawlers read of it, at most; read once, reported once
                self.robots = self.read("robots.txt", MAX_ROBOTS_BYTES)[:MAX_ROBOTS_BYTES]
            except OSError as err:
                self.robots = err
                self.problem("robots.txt", f"cannot be read: {err.strerror or err}")
        data = self.robots
        if isinstance(data, OSError):
            return
        if not names_sitemap(data, sitemap_url):
            self.problem("robots.txt", f"has no 'Sitemap: {sitemap_url}' line")


def check_site(
    site_dir: str | os.PathLike[str], config: SitemapConfig, progress: Progress | None = None,
    now: datetime | None = None,
) -> tuple[list[Problem], int]:
    """Check the sitemap files in ``site_dir``; returns the problems and the URLs checked.

    Dates a day after ``now`` (default: the clock's) lie in the future. Raises ScanError
    when the folder does not exist or cannot be read.
    """
    site = Path(site_dir)
    _readable_folder(site)
    checker = _Checker(site, config, progress, now)
    try:
        return _check_files(site, config, checker)
    except OSError as err:  # the folder changed under the check (made unreadable, removed)
        raise ScanError(str(site), f"cannot be read: {err.strerror or err}") from err
    finally:
        if progress is not None:
            progress.finish()


def _readable_folder(site: Path) -> None:
    """Raise a one-line ScanError unless ``site`` is a folder that can be listed and entered."""
    try:
        mode = os.stat(site).st_mode
        if not stat.S_ISDIR(mode):
            raise ScanError(str(site), "is not a folder")
        with os.scandir(site):
            pass
    except FileNotFoundError as err:
        raise ScanError(str(site), "is not a folder") from err
    except OSError as err:
        raise ScanError(str(site), f"cannot be read: {err.strerror or err}; check needs "
                                   "to read the site folder") from err
    if not os.access(site, os.X_OK):
        raise ScanError(str(site), "cannot be read: permission denied (no search "
                                   "permission); check needs to read the site folder")


def _check_files(site: Path, config: SitemapConfig, checker: _Checker) -> tuple[list[Problem], int]:
    name = config.sitemap_name
    # lexists, not is_file: a pipe or a link out is named as such, not reported missing.
    if not os.path.lexists(site / f"{name}.xml"):
        checker.problem(f"{name}.xml", "is missing")
        return checker.problems, 0
    xml_locs = checker.check_xml_set(f"{name}.xml")
    checker.check_author(f"{name}.xml")
    number = 2
    # More root indexes, past the limits of one (sitemap-plugins merge): none may nest.
    while os.path.lexists(site / f"{name}-index-{number}.xml"):
        xml_locs.extend(checker.check_xml_set(f"{name}-index-{number}.xml"))
        checker.check_robots(f"{config.base_url}{name}-index-{number}.xml")
        number += 1
    text_name = f"{name}.txt" if os.path.lexists(site / f"{name}.txt") else None
    if text_name is None and os.path.lexists(site / text_index_name(name)):
        text_name = text_index_name(name)
    if text_name is not None:
        checker.seen = {}
        text_locs = (checker.check_text(text_name) if text_name.endswith(".txt")
                     else checker.check_xml_set(text_name))
        # Under a merged index, the root's text sitemap lists only the root's own pages.
        compared = checker.own_locs if checker.tree else xml_locs
        text_set, xml_set = set(text_locs), set(compared)
        if text_set != xml_set and not checker.unread:
            only_text, only_xml = sorted(text_set - xml_set), sorted(xml_set - text_set)
            differ = "; ".join(part for part in (
                f"{_urls(len(only_text))} not in the XML sitemap (first: {_shown(only_text[0])})"
                if only_text else "",
                f"{_urls(len(only_xml))} of the XML sitemap missing (first: {_shown(only_xml[0])})"
                if only_xml else "") if part)
            checker.problem(text_name, f"does not list the XML sitemap's URLs: {differ}")
    checker.check_robots(f"{config.base_url}{name}.xml")
    news_name = f"{name}-news.xml"
    if os.path.lexists(site / news_name):
        checker.check_news(news_name)
        checker.check_robots(f"{config.base_url}{news_name}")
    return checker.problems, len(xml_locs)

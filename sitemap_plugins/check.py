"""``sitemap-plugins check``: check the sitemap files already in a site against the protocol.

Independent of the writers on purpose: it parses what is on disk with the standard library's
XML parser and checks namespaces, required elements and their order, the limits, W3C dates,
the scope of every URL under the base URL, escaping (well-formedness), duplicates, that each
listed URL is backed by a file, that ``.gz`` copies match, and the robots.txt line.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import stat
import xml.etree.ElementTree as ET  # our own files, no external entities
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote_to_bytes, urlsplit

from sitemap_plugins.config import CHANGEFREQ_WORDS, PROTOCOL_MAX_BYTES, PROTOCOL_MAX_URLS
from sitemap_plugins.errors import ScanError
from sitemap_plugins.news import MAX_NEWS, NEWS_LANGUAGE
from sitemap_plugins.output import text_index_name
from sitemap_plugins.urls import MAX_URL_LENGTH
from sitemap_plugins.writers.robots import MAX_ROBOTS_BYTES, names_sitemap

if TYPE_CHECKING:
    from sitemap_plugins.config import SitemapConfig
    from sitemap_plugins.progress import Progress

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
IMAGE = "{http://www.google.com/schemas/sitemap-image/1.1}"
VIDEO = "{http://www.google.com/schemas/sitemap-video/1.1}"
# sitemap-video.xsd: the required children first, in this order, then at least one location.
_VIDEO_REQUIRED = ("thumbnail_loc", "title", "description")
_VIDEO_LIMITS = {"title": 100, "description": 2048}
_MAX_IMAGES = 1_000  # Google's limit of image:image elements in one <url>
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"
_INFLATE_CHUNK = 1 << 20
_W3C_DATE = re.compile(
    r"\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?\Z"
)
_PRIORITY = re.compile(r"(0(\.\d+)?|1(\.0+)?|\.\d+)\Z")
_URL_CHARS = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*\Z")
_LANGUAGE_CODE = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*\Z")
_URL_ORDER = {f"{NS}loc": 0, f"{NS}lastmod": 1, f"{NS}changefreq": 2, f"{NS}priority": 3}
_EXTENSION_RANK = 4  # elements of other namespaces come after the four sitemap elements


@dataclass(frozen=True)
class Problem:
    """One protocol problem in one file."""

    file: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


class _Checker:
    def __init__(self, site: Path, config: SitemapConfig,
                 progress: Progress | None = None) -> None:
        self.site = site
        self.real_site = os.path.realpath(site)
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

    def problem(self, file: str, message: str) -> None:
        self.problems.append(Problem(file, message))

    def local_file(self, url: str) -> str | None:
        """The site file that a URL under the base maps to, or None.

        Never a file outside the site: a ``..`` segment (``%2e%2e`` too) or a symlink that
        leads out maps to nothing, and nothing outside is looked at.
        """
        rel_bytes = unquote_to_bytes(urlsplit(url[len(self.base) - 1 :]).path.lstrip("/"))
        rel = os.fsdecode(rel_bytes)
        if any(part in (".", "..") for part in rel.split("/")) or "\x00" in rel:
            return None
        candidates = [rel + "index.html", rel + "index.htm"] if rel.endswith("/") or not rel \
            else [rel, rel + "/index.html"]
        for candidate in candidates:
            path = self.site / candidate
            if self.inside(path) and path.is_file():
                return candidate
        return None

    def inside(self, path: Path) -> bool:
        """Whether ``path``, its links followed, lies in the site folder."""
        real = os.path.realpath(path)
        return os.path.commonpath([real, self.real_site]) == self.real_site

    def read(self, name: str, limit: int = PROTOCOL_MAX_BYTES) -> bytes:
        """A sitemap file of the site, at most ``limit`` + 1 bytes of it.

        Raises:
            OSError: when it cannot be read, leads out of the site, or is not a regular file
                (a named pipe would make check wait forever).
        """
        path = self.site / name
        if any(part == ".." for part in Path(name).parts) or not self.inside(path):
            raise OSError(0, "leads out of the site folder; not read")
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | os.O_NONBLOCK)
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise OSError(0, "is not a regular file (a pipe, socket or device)")
            return handle.read(limit + 1)

    def check_url(self, file: str, where: str, url: str, *, needs_file: bool = True) -> bool:
        ok = True
        if len(url) > MAX_URL_LENGTH:
            self.problem(file, f"{where}: URL has {len(url):,} characters (at most 2,048)")
            ok = False
        if not _URL_CHARS.match(url):
            self.problem(file, f"{where}: URL is not percent-encoded per RFC 3986: {url!r}")
            ok = False
        if not url.startswith(self.base):
            self.problem(
                file, f"{where}: URL {url!r} is not under the base URL {self.base!r} "
                      "(same scheme, host, port and path)")
            return False
        if not url.startswith(self.scope):
            self.problem(
                file, f"{where}: URL {url!r} is not under {self.scope!r}, the folder of this "
                      "sitemap (a sitemap lists only URLs in its own folder and below)")
            return False
        if needs_file and self.local_file(url) is None:
            self.problem(file, f"{where}: no file in the site serves {url!r}")
            ok = False
        return ok

    def parse(self, name: str) -> ET.Element | None:
        try:
            raw = self.read(name)
        except OSError as err:
            self.problem(name, f"cannot be read: {err.strerror or err}")
            return None
        if len(raw) > PROTOCOL_MAX_BYTES:
            self.problem(name, "more than 52,428,800 bytes uncompressed (the limit); not read "
                               "further")
            return None
        if not raw.startswith(b"<?xml"):
            self.problem(name, "does not start with the XML declaration at byte 0")
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            self.problem(name, "is not UTF-8")
        try:
            return ET.fromstring(raw)  # noqa: S314
        except ET.ParseError as err:
            self.problem(name, f"is not well-formed XML (unescaped '&' or '<'?): {err}")
            return None

    def check_gzip(self, name: str) -> None:
        """The ``.gz`` holds the same bytes as the file beside it.

        Compared as it is inflated, a chunk at a time: a small file that inflates to
        gigabytes (a gzip bomb) costs no more memory than the original.
        """
        packed = self.site / (name + ".gz")
        if not packed.exists() and not packed.is_symlink():
            return
        try:
            compressed = self.read(name + ".gz")
            original = self.read(name)
            inflated = gzip.GzipFile(fileobj=io.BytesIO(compressed))
            same, position = True, 0
            while chunk := inflated.read(_INFLATE_CHUNK):
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

    def check_urlset(self, name: str, root: ET.Element) -> list[str]:
        locs: list[str] = []
        entries = list(root)
        if len(entries) > PROTOCOL_MAX_URLS:
            self.problem(name, f"{len(entries):,} URLs; the limit is 50,000")
        if not entries:
            self.problem(name, "lists no URL (the schema needs at least one)")
        progress = self.progress
        for number, url in enumerate(entries, start=1):
            if progress is not None:  # the total shows itself file by file: found = checked
                progress.found()
                progress.done()
            where = f"<url> #{number}"
            if url.tag != f"{NS}url":
                self.problem(name, f"{where}: unexpected element {url.tag}")
                continue
            self.check_url_children(name, where, url, locs)
        return locs

    def check_url_children(
        self, name: str, where: str, url: ET.Element, locs: list[str]
    ) -> None:
        order = -1
        loc = None
        images = 0
        for child in url:
            rank = _URL_ORDER.get(child.tag)
            if rank is None:
                if child.tag.startswith(NS):
                    self.problem(name, f"{where}: unknown element {child.tag[len(NS):]}")
                elif child.tag == f"{XHTML}link":
                    self.check_alternate(name, where, child)
                elif child.tag == f"{IMAGE}image":
                    images += 1
                    self.check_image(name, where, child)
                elif child.tag == f"{VIDEO}video":
                    self.check_video(name, where, child)
                rank = _EXTENSION_RANK
            elif rank <= order:
                self.problem(name, f"{where}: <{child.tag[len(NS):]}> is repeated or out of "
                                   "order (loc, lastmod, changefreq, priority)")
            order = max(order, rank)
            text = (child.text or "").strip()
            if child.tag == f"{NS}loc":
                loc = text
            elif child.tag == f"{NS}lastmod" and not _W3C_DATE.match(text):
                self.problem(name, f"{where}: lastmod {text!r} is not a W3C datetime with a "
                                   "time zone")
            elif child.tag == f"{NS}changefreq" and text not in CHANGEFREQ_WORDS:
                self.problem(name, f"{where}: changefreq {text!r} is not one of the seven words")
            elif child.tag == f"{NS}priority" and not _PRIORITY.match(text):
                self.problem(name, f"{where}: priority {text!r} is not a number from 0.0 to 1.0")
        if images > _MAX_IMAGES:
            self.problem(name, f"{where}: {images:,} image:image elements; Google takes at "
                               f"most {_MAX_IMAGES:,} a page")
        if loc is None:
            self.problem(name, f"{where}: has no <loc>")
            return
        where = f"{where} ({loc})"
        self.check_url(name, where, loc)
        if loc in self.seen:
            self.problem(name, f"{where}: duplicate URL, also in {self.seen[loc]}")
        else:
            self.seen[loc] = name
        locs.append(loc)

    def check_news(self, name: str) -> None:
        """The news sitemap: each <url> one news:news with the fields Google requires.

        An empty one is what a build writes when no article is recent enough: Google takes
        it, though sitemap.xsd wants at least one <url>.
        """
        root = self.parse(name)
        if root is None:
            return
        if root.tag != f"{NS}urlset":
            self.problem(name, f"root element is {root.tag}, not urlset")
            return
        if len(root) > MAX_NEWS:
            self.problem(name, f"{len(root):,} articles; Google takes at most {MAX_NEWS:,}")
        for number, url in enumerate(root, start=1):
            loc = (url.findtext(f"{NS}loc") or "").strip()
            where = f"<url> #{number} ({loc})"
            self.check_url(name, where, loc)
            news = url.findall(f"{NEWS}news")
            if len(news) != 1:
                self.problem(name, f"{where}: holds {len(news)} news:news elements, not one")
                continue
            item = news[0]
            language = (item.findtext(f"{NEWS}publication/{NEWS}language") or "").strip()
            if not (item.findtext(f"{NEWS}publication/{NEWS}name") or "").strip():
                self.problem(name, f"{where}: news:publication has no name")
            if not NEWS_LANGUAGE.fullmatch(language):
                self.problem(name, f"{where}: news:language {language!r} is not an ISO 639 code")
            published = (item.findtext(f"{NEWS}publication_date") or "").strip()
            if not _W3C_DATE.match(published):
                self.problem(name, f"{where}: news:publication_date {published!r} is not a W3C "
                                   "date")
            if not (item.findtext(f"{NEWS}title") or "").strip():
                self.problem(name, f"{where}: news:title is missing or empty")

    def check_image(self, name: str, where: str, image: ET.Element) -> None:
        """One image:image: a single image:loc, an absolute URL (any host: CDNs are fine)."""
        locs = [child for child in image if child.tag == f"{IMAGE}loc"]
        if len(locs) != 1 or len(image) != 1:
            self.problem(name, f"{where}: image:image must hold exactly one image:loc (the "
                               "other image tags are deprecated)")
        for loc in locs:
            self.check_absolute(name, where, "image:loc", (loc.text or "").strip())

    def check_video(self, name: str, where: str, video: ET.Element) -> None:
        """One video:video: thumbnail, title, description, then content or player location."""
        children = list(video)
        tags = [child.tag.removeprefix(VIDEO) for child in children]
        if tuple(tags[:3]) != _VIDEO_REQUIRED:
            self.problem(name, f"{where}: video:video must start with thumbnail_loc, title and "
                               f"description, in that order (found {', '.join(tags) or 'none'})")
        if "content_loc" not in tags and "player_loc" not in tags:
            self.problem(name, f"{where}: video:video has neither content_loc nor player_loc")
        for tag, child in zip(tags, children, strict=True):
            text = (child.text or "").strip()
            if tag in ("thumbnail_loc", "content_loc", "player_loc"):
                self.check_absolute(name, where, f"video:{tag}", text)
            elif tag in _VIDEO_LIMITS:
                if not text:
                    self.problem(name, f"{where}: video:{tag} is empty")
                elif len(text) > _VIDEO_LIMITS[tag]:
                    self.problem(name, f"{where}: video:{tag} has {len(text):,} characters; "
                                       f"at most {_VIDEO_LIMITS[tag]:,} are allowed")

    def check_absolute(self, name: str, where: str, what: str, url: str) -> None:
        """An absolute http(s) URL of at most 2,048 characters, in URI characters."""
        if not re.match(r"https?://[^/?#]", url) or not _URL_CHARS.match(url):
            self.problem(name, f"{where}: {what} {url!r} is not an absolute http(s) URL")
        elif len(url) > MAX_URL_LENGTH:
            self.problem(name, f"{where}: {what} has {len(url):,} characters; at most 2,048")

    def check_alternate(self, name: str, where: str, link: ET.Element) -> None:
        if link.get("rel") != "alternate":
            self.problem(name, f'{where}: xhtml:link without rel="alternate"')
        hreflang = link.get("hreflang", "")
        if not _LANGUAGE_CODE.match(hreflang):
            self.problem(name, f"{where}: hreflang {hreflang!r} is not a language code")
        href = link.get("href", "")
        if not re.match(r"https?://", href):
            self.problem(name, f"{where}: alternate href {href!r} is not absolute")

    def check_xml_set(self, name: str) -> list[str]:
        root = self.parse(name)
        if root is None:
            return []
        self.check_gzip(name)
        if root.tag == f"{NS}urlset":
            return self.check_urlset(name, root)
        if root.tag != f"{NS}sitemapindex":
            self.problem(name, f"root element is {root.tag}, not the sitemaps.org 0.9 urlset "
                               "or sitemapindex")
            return []
        locs: list[str] = []
        parts = list(root)
        if len(parts) > PROTOCOL_MAX_URLS:
            self.problem(name, f"the index names {len(parts):,} sitemaps; the limit is 50,000")
        for number, part in enumerate(parts, start=1):
            loc_element = part.find(f"{NS}loc")
            if part.tag != f"{NS}sitemap" or loc_element is None:
                self.problem(name, f"<sitemap> #{number}: malformed entry")
                continue
            loc = (loc_element.text or "").strip()
            lastmod = part.find(f"{NS}lastmod")
            if lastmod is not None and not _W3C_DATE.match((lastmod.text or "").strip()):
                self.problem(name, f"<sitemap> #{number}: lastmod is not a W3C datetime")
            if not self.check_url(name, f"<sitemap> #{number}", loc):
                continue
            part_name = loc[len(self.base):]
            folder, _, _ = part_name.rpartition("/")
            if (any(segment in ("", ".", "..") for segment in part_name.split("/"))
                    or not (self.site / part_name).is_file()
                    or (self.site / part_name).is_symlink()):
                self.problem(name, f"<sitemap> #{number}: names {loc!r}, which is not in the "
                                   "site folder")
                continue
            # A merged root index names the builds' sitemaps in their folders: each may list
            # only URLs in its own folder (sitemaps.org, "Sitemap file location").
            self.tree = self.tree or bool(folder)
            self.scope = self.base + folder + "/" if folder else self.base
            if part_name.endswith(".txt"):
                locs.extend(self.check_text(part_name))
                continue
            part_root = self.parse(part_name)
            if part_root is None:
                continue
            self.check_gzip(part_name)
            if part_root.tag != f"{NS}urlset":
                self.problem(part_name, "a sitemap named by the index must be a urlset")
                continue
            part_locs = self.check_urlset(part_name, part_root)
            self.scope = self.base
            locs.extend(part_locs)
            if not folder:
                self.own_locs.extend(part_locs)
        return locs

    def check_text(self, name: str) -> list[str]:
        try:
            raw = self.read(name)
        except OSError as err:
            self.problem(name, f"cannot be read: {err.strerror or err}")
            return []
        if len(raw) > PROTOCOL_MAX_BYTES:
            self.problem(name, "more than 52,428,800 bytes (the limit); not read further")
            return []
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.problem(name, "is not UTF-8")
            return []
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > PROTOCOL_MAX_URLS:
            self.problem(name, f"{len(lines):,} URLs; the limit is 50,000")
        for number, line in enumerate(lines, start=1):
            if line != line.strip() or not line:
                self.problem(name, f"line {number}: must hold one URL and nothing else")
                continue
            self.check_url(name, f"line {number}", line)
        return lines

    def check_robots(self, sitemap_url: str) -> None:
        robots = self.site / "robots.txt"
        if self.config.base_url.has_path or not robots.is_file():
            return
        try:  # what crawlers read of it, at most
            data = self.read("robots.txt", MAX_ROBOTS_BYTES)[:MAX_ROBOTS_BYTES]
        except OSError as err:
            self.problem("robots.txt", f"cannot be read: {err.strerror or err}")
            return
        if not names_sitemap(data, sitemap_url):
            self.problem("robots.txt", f"has no 'Sitemap: {sitemap_url}' line")


def check_site(
    site_dir: str | os.PathLike[str], config: SitemapConfig, progress: Progress | None = None,
) -> tuple[list[Problem], int]:
    """Check the sitemap files in ``site_dir``; returns the problems and the URLs checked.

    ``progress`` counts the URLs as they are checked (a front-end shows it).

    Raises:
        ScanError: when the folder does not exist.

    """
    site = Path(site_dir)
    if not site.is_dir():
        raise ScanError(str(site), "is not a folder")
    checker = _Checker(site, config, progress)
    try:
        return _check_files(site, config, checker)
    finally:
        if progress is not None:
            progress.finish()


def _check_files(site: Path, config: SitemapConfig, checker: _Checker) -> tuple[list[Problem], int]:
    name = config.sitemap_name
    if not (site / f"{name}.xml").is_file():
        checker.problem(f"{name}.xml", "is missing")
        return checker.problems, 0
    xml_locs = checker.check_xml_set(f"{name}.xml")
    number = 2
    # More root indexes, past the limits of one (sitemap-plugins merge): none may nest.
    while (site / f"{name}-index-{number}.xml").is_file():
        xml_locs.extend(checker.check_xml_set(f"{name}-index-{number}.xml"))
        checker.check_robots(f"{config.base_url}{name}-index-{number}.xml")
        number += 1
    text_name = f"{name}.txt" if os.path.lexists(site / f"{name}.txt") else None
    if text_name is None and (site / text_index_name(name)).is_file():
        text_name = text_index_name(name)
    if text_name is not None:
        checker.seen = {}
        text_locs = (checker.check_text(text_name) if text_name.endswith(".txt")
                     else checker.check_xml_set(text_name))
        # Under a merged index, the root's text sitemap lists only the root's own pages.
        compared = checker.own_locs if checker.tree else xml_locs
        if set(text_locs) != set(compared):
            checker.problem(text_name, f"lists {len(set(text_locs)):,} URLs but the XML sitemap "
                                       f"lists {len(set(compared)):,}; they should match")
    checker.check_robots(f"{config.base_url}{name}.xml")
    news_name = f"{name}-news.xml"
    if (site / news_name).is_file():
        checker.check_news(news_name)
        checker.check_robots(f"{config.base_url}{news_name}")
    return checker.problems, len(xml_locs)

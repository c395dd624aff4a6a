"""``sitemap-plugins diff OLD NEW``: the URLs two sitemaps list, compared.

Each side is a built site's folder or a sitemap file (urlset, index with its parts, ``.gz``,
text), streamed; memory holds each URL and its lastmod. Indexes do not nest (sitemaps.org).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from sitemap_plugins.disk.site import is_inside, is_regular, sitemap_chunks
from sitemap_plugins.entry.render import NotASitemapError, stream_sitemap_entries
from sitemap_plugins.vocab.dates import parse_w3c, sort_key
from sitemap_plugins.vocab.errors import ConfigError, PathError

if TYPE_CHECKING:
    from collections.abc import Iterator

CHANGES = ("added", "removed", "redated")
"""What ``--fail-on`` may name."""


class DiffError(PathError):
    """A side cannot be read as a sitemap: missing, not XML, a DOCTYPE, a bomb, a loop..."""


@dataclass
class Diff:
    """What changed from the old sitemap to the new one."""

    old: str
    new: str
    old_urls: int = 0
    new_urls: int = 0
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    redated: list[tuple[str, str, str]] = field(default_factory=list)
    """``(url, old lastmod, new lastmod)``; empty: none (a text sitemap's redate nothing)."""

    def counts(self) -> dict[str, int]:
        """Each kind of change, counted."""
        return {kind: len(getattr(self, kind)) for kind in CHANGES}

    def summary(self) -> str:
        """The one line a pull request's CI shows."""
        counted = ", ".join(f"{n:,} {kind}" for kind, n in self.counts().items())
        return f"{self.old_urls:,} URLs -> {self.new_urls:,} URLs: {counted}"


def check_fail_on(value: str) -> tuple[str, ...]:
    """``--fail-on removed,redated`` as its words.

    Raises:
        ConfigError: for a word that is not a kind of change.
    """
    words = tuple(word.strip() for word in value.split(",") if word.strip())
    if any(word not in CHANGES for word in words):
        msg = f"Expected some of added, removed, redated (comma-separated) but received: {value!r}"
        raise ConfigError("fail_on", msg)
    return words


def diff_sitemaps(old: str, new: str, sitemap_name: str = "sitemap") -> Diff:
    """Compare the URLs and lastmods the sitemaps at ``old`` and ``new`` list.

    Raises:
        DiffError: naming the file that cannot be read as a sitemap, and why.
    """
    before, after = read_sitemap(Path(old), sitemap_name), read_sitemap(Path(new), sitemap_name)
    result = Diff(old, new, len(before), len(after))
    result.added = sorted(after.keys() - before.keys())
    result.removed = sorted(before.keys() - after.keys())
    for url in sorted(before.keys() & after.keys()):
        old_date, new_date = before[url], after[url]
        if old_date is not None and new_date is not None and _moved(old_date, new_date):
            result.redated.append((url, old_date, new_date))
    return result


def _moved(old: str, new: str) -> bool:
    """Whether a lastmod moved (or came or went): ``2024-05-01`` is ``...T00:00:00Z``."""
    was, now = parse_w3c(old), parse_w3c(new)
    if was is None or now is None:
        return old.strip() != new.strip()
    return sort_key(was) != sort_key(now)


def read_sitemap(source: Path, sitemap_name: str = "sitemap") -> dict[str, str | None]:
    """URL -> lastmod of every URL the sitemap at ``source`` lists (a folder: its own sitemap).

    A text sitemap's URLs have None (no dates, so nothing is redated).

    Raises:
        DiffError: when it cannot be read as a sitemap.
    """
    if source.is_dir():
        site = source
        names = [f"{sitemap_name}{end}" for end in (".xml", ".xml.gz", ".txt")]
        name = next((n for n in names if (source / n).exists()), None)
        if name is None:
            msg = f"holds no {', '.join(names)} (build the site first?)"
            raise DiffError(str(source), msg)
    elif source.exists():
        site, name = source.parent, source.name
    else:
        raise DiffError(str(source), "does not exist")
    urls: dict[str, str | None] = {}
    if name.endswith((".txt", ".txt.gz")):
        urls.update((url, None) for url in _lines(site / name))
        return urls
    parts: list[str] = []
    for kind, loc, lastmod in sitemap_entries(site / name):
        if kind == "urlset":
            urls[loc] = lastmod
        else:
            parts.append(loc)
    for loc in parts:
        path = part_file(site, name, loc)
        for kind, url, lastmod in sitemap_entries(path):
            if kind != "urlset":
                raise DiffError(str(path), "is a sitemap index named by a sitemap index; "
                                           "indexes do not nest (sitemaps.org)")
            urls[url] = lastmod
    return urls


def sitemap_entries(path: Path) -> Iterator[tuple[str, str, str]]:
    """``(root tag, loc, lastmod)`` per entry of the sitemap file at ``path``."""
    try:
        yield from stream_sitemap_entries(_checked(path))
    except NotASitemapError as err:
        raise DiffError(str(path), str(err)) from None


def part_file(site: Path, index: str, loc: str) -> Path:
    """The file of ``site`` a part's URL names: the longest end of its path found there."""
    segments = [s for s in unquote(urlsplit(loc).path).split("/") if s]
    if not any(s in (".", "..") for s in segments):
        for start in range(len(segments)):
            path = site.joinpath(*segments[start:])
            if is_regular(path) and is_inside(site, path):
                return path
    msg = f"names {loc[:200]!r}, which is not a file in {site}"
    raise DiffError(str(site / index), msg)


def _lines(path: Path) -> Iterator[str]:
    """The URLs of a text sitemap, one a line; a line that is not an http(s) URL stops it."""
    text = b"".join(_checked(path)).removeprefix(b"\xef\xbb\xbf")  # at most 50 MiB
    for number, raw in enumerate(text.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise DiffError(str(path), f"line {number:,} is not UTF-8") from None
        if line and not line.startswith(("https://", "http://")):
            msg = f"line {number:,} is not an http(s) URL: {line[:80]!r} (a text sitemap?)"
            raise DiffError(str(path), msg)
        if line:
            yield line


def _checked(path: Path) -> Iterator[bytes]:
    try:
        yield from sitemap_chunks(path)
    except NotASitemapError as err:
        raise DiffError(str(path), str(err)) from None
    except OSError as err:
        raise DiffError(str(path), f"cannot be read ({err.strerror or err})") from None

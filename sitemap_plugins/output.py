"""Put the finished parts in place under their final names, and update robots.txt.

Order matters for crash safety: numbered parts (and their ``.gz``) are moved into place
first, the file that names them (``sitemap.xml`` as urlset or index) last, and only then are
parts that the new index no longer names removed. A crash at any point leaves every file
either the complete old one or the complete new one, and never an index naming a missing part.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sitemap_plugins.dates import Lastmod, format_w3c, sort_key
from sitemap_plugins.errors import Diagnostic, Level, SitemapError, WriteError
from sitemap_plugins.ownership import Ownership, digests_of
from sitemap_plugins.writers import robots as robots_txt
from sitemap_plugins.writers.atomic import (
    commit,
    explain,
    refuse_special,
    temp_path_for,
    write_bytes_atomic,
)
from sitemap_plugins.writers.compress import gzip_file
from sitemap_plugins.writers.sitemap_index import render_index

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sitemap_plugins.config import SitemapConfig
    from sitemap_plugins.writers import Part


# A news sitemap holds at most 1,000 entries: far below this.
PROTOCOL_NEWS_BYTES = 16 * 1024 * 1024


@dataclass
class Installed:
    """What was written where."""

    files: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    split: bool = False


def sitemap_file_pattern(name: str) -> re.Pattern[str]:
    """Every file name the sitemap writers may produce for base name ``name``."""
    escaped = re.escape(name)
    return re.compile(rf"{escaped}(?:-\d+\.(?:xml|txt)|\.xml|\.txt|-txt-index\.xml)(?:\.gz)?\Z")


def text_index_name(name: str) -> str:
    """The index over text parts (the protocol has no text index format, so it is XML)."""
    return f"{name}-txt-index.xml"


def _newest(parts: list[Part]) -> Lastmod | None:
    dated = [p.newest for p in parts if p.newest is not None]
    return max(dated, key=sort_key) if dated else None


def _stage_set(
    site: Path, config: SitemapConfig, parts: list[Part], extension: str,
    staged: list[tuple[Path, Path, Lastmod | None]], temps: list[Path],
) -> bool:
    """Stage one format's files in commit order; True when it was split into parts."""
    name = config.sitemap_name
    base = str(config.base_url)
    main = site / (f"{name}.xml" if extension == "xml" else text_index_name(name))
    if len(parts) == 1:
        staged.append((parts[0].temp, site / f"{name}.{extension}", parts[0].newest))
        return False
    if len(parts) > config.max_urls:
        msg = (f"{len(parts):,} parts would pass the index limit of {config.max_urls:,} entries; "
               f"raise max_urls or max_bytes")
        raise SitemapError(msg)
    listing: list[tuple[str, str]] = []
    for number, part in enumerate(parts, start=1):
        final = site / f"{name}-{number}.{extension}"
        staged.append((part.temp, final, part.newest))
        listing.append((base + final.name, format_w3c(part.newest) if part.newest else ""))
    index = render_index(listing).encode("utf-8")
    if len(index) > config.max_bytes:
        msg = f"the sitemap index would hold {len(index):,} bytes, past max_bytes"
        raise SitemapError(msg)
    temp = temp_path_for(main)
    temps.append(temp)
    temp.write_bytes(index)
    staged.append((temp, main, _newest(parts)))
    return True


def install(
    site: Path, config: SitemapConfig, xml_parts: list[Part], text_parts: list[Part] | None,
    owned: Ownership | None = None,
) -> Installed:
    """Move parts into place, write the index and ``.gz`` copies, remove stale parts.

    ``owned``: the record of the files this tool wrote into the site (none kept when None):
    only those are written over quietly or removed as stale.

    Raises:
        SitemapError: when the index would pass the limits, or a file that is not ours
            stands where one must be written (nothing is changed then).
        WriteError: when a file cannot be written (temporary files are removed).

    """
    if owned is None:
        owned = Ownership(site, None, config.replace_files)
    installed = Installed()
    staged: list[tuple[Path, Path, Lastmod | None]] = []
    temps: list[Path] = [p.temp for p in xml_parts] + [p.temp for p in text_parts or []]
    try:
        installed.split = _stage_set(site, config, xml_parts, "xml", staged, temps)
        if text_parts is not None:
            _stage_set(site, config, text_parts, "txt", staged, temps)
        if config.gzip:
            with_gz: list[tuple[Path, Path, Lastmod | None]] = []
            for temp, final, newest in staged:
                with_gz.append((temp, final, newest))
                if final.suffix == ".xml":
                    packed = temp_path_for(final.with_name(final.name + ".gz"))
                    temps.append(packed)
                    gzip_file(temp, packed, newest)
                    with_gz.append((packed, final.with_name(final.name + ".gz"), newest))
            staged = with_gz
        owned.adopt_earlier(sitemap_file_pattern(config.sitemap_name))
        owned.check_targets(final.name for _, final, _ in staged)
        # Recorded before anything moves: a run killed during the commit leaves files that
        # the next run still knows as its own (old or new bytes), and so cleans up.
        written = digests_of((temp, final.name) for temp, final, _ in staged)
        owned.intend(written)
    except OSError as err:
        _discard(temps)
        raise WriteError(str(site), f"cannot write the sitemap: {explain(err)}") from err
    except BaseException:
        _discard(temps)
        raise
    # Parts first, then the files that name them: the main file of each set is staged last
    # within its set, so an index never names a part that is not yet in place.
    try:
        for temp, final, _ in staged:
            commit(temp, final)
            installed.files.append(final.name)
    except BaseException:
        _discard(temps)
        raise
    installed.removed = remove_stale(owned, set(installed.files), written)
    return installed


def remove_stale(owned: Ownership, keep: set[str], written: dict[str, str] | None = None,
                 ) -> list[str]:
    """Remove the sitemap files this tool wrote earlier that the new set does not include.

    Only files the record (or their own bytes) show to be ours go; a user's
    ``sitemap-2019.xml`` or ``sitemap-1.txt`` stays whatever its name.
    """
    removed = owned.remove_stale(keep)
    owned.settle(written or {}, removed)
    return removed


def _discard(temps: list[Path]) -> None:
    for temp in temps:
        with contextlib.suppress(OSError):
            temp.unlink()


def _small_regular_file(path: Path) -> bytes | None:
    """The bytes of a regular file of at most a news sitemap's size, else None.

    Missing, a link, a pipe or device, unreadable or larger: it cannot be ours then.
    """
    if path.is_symlink() or not path.is_file():
        return None
    try:
        refuse_special(path)
        with path.open("rb") as handle:
            data = handle.read(PROTOCOL_NEWS_BYTES + 1)
    except (OSError, WriteError):
        return None
    return data if len(data) <= PROTOCOL_NEWS_BYTES else None


def is_own_file(site: Path, name: str) -> bool:
    """Whether the news sitemap or the fragment at ``name`` holds what this tool writes there.

    Proved by the bytes: the news sitemap re-renders to itself; the fragment starts with the
    lines only this tool writes.
    """
    from sitemap_plugins.news import is_own_news_sitemap  # noqa: PLC0415

    data = _small_regular_file(site / name)
    if data is None:
        return False
    if name == robots_txt.FRAGMENT_NAME:
        return robots_txt.fragment_sitemap(data) is not None
    return is_own_news_sitemap(data)


def without_sitemap(site: Path, config: SitemapConfig, sitemap_url: str) -> Installed:
    """After a run that wrote no sitemap: nothing may still point crawlers at it.

    The fragment is ours and goes. A ``Sitemap:`` line in robots.txt stays, because it may be
    the site's own (added by hand, or by an earlier run: the two cannot be told apart), and
    robots.txt loses no byte; a warning names it instead.
    """
    result = Installed()
    fragment = site / robots_txt.FRAGMENT_NAME
    if is_own_file(site, robots_txt.FRAGMENT_NAME):
        try:
            fragment.unlink()
        except OSError as err:
            result.diagnostics.append(Diagnostic(
                robots_txt.FRAGMENT_NAME, "stale-sitemap-line",
                f"names {sitemap_url}, which was not written, and cannot be removed "
                f"({explain(err)})"))
        else:
            result.removed.append(robots_txt.FRAGMENT_NAME)
    target = site / "robots.txt"
    if config.robots_txt == "off" or not target.is_file():
        return result
    try:
        refuse_special(target)
        with target.open("rb") as handle:  # what crawlers read of it, at most
            names_it = robots_txt.names_sitemap(
                handle.read(robots_txt.MAX_ROBOTS_BYTES), sitemap_url)
    except (OSError, WriteError):
        return result  # unreadable: the rules were not read either, and that was reported
    if names_it:
        result.diagnostics.append(Diagnostic(
            "robots.txt", "stale-sitemap-line",
            f"names {sitemap_url}, which was not written because no page can be listed: "
            "crawlers that read it will find nothing there; remove that line"))
    return result


def update_robots(
    site: Path, config: SitemapConfig, sitemap_url: str, feeds: Sequence[str] = ()
) -> Installed:
    """Add the ``Sitemap:`` line to robots.txt, or write a fragment, as ``robots_txt`` says.

    ``feeds``: more URLs to name as sitemaps after it: the news sitemap, and the site's feeds
    (``announce_feeds``).
    """
    result = Installed()
    mode = config.robots_txt
    if mode == "off":
        return result
    if config.base_url.has_path and mode != "fragment":
        root = f"{config.base_url.scheme}://{config.base_url.netloc}/"
        result.diagnostics.append(Diagnostic(
            "", "robots-below-root",
            f"the site lives below the host root ({config.base_url.path}), so its robots.txt "
            f"is not the one crawlers read at {root}robots.txt; wrote "
            f"{robots_txt.FRAGMENT_NAME} with the Sitemap: line to add there", Level.INFO))
        mode = "fragment"
    if mode == "fragment":
        root = f"{config.base_url.scheme}://{config.base_url.netloc}/"
        target = site / robots_txt.FRAGMENT_NAME
        data = robots_txt.render_fragment(sitemap_url, root, feeds)
        try:
            same = target.is_file() and not target.is_symlink() and target.read_bytes() == data
        except OSError:
            same = False  # unreadable: written anew (write_bytes_atomic refuses a special file)
        if not same:
            write_bytes_atomic(target, data)
        result.files.append(target.name)
        return result
    target = site / "robots.txt"
    if target.is_symlink():
        real = Path(os.path.realpath(target))
        if os.path.commonpath([real, os.path.realpath(site)]) != os.path.realpath(site):
            result.diagnostics.append(Diagnostic(
                "robots.txt", "symlink-out",
                "is a symlink that leaves the site folder; not read or changed"))
            return result
        target = real
    if target.exists():
        # A folder, pipe or device named robots.txt, or an unreadable file, is reported, never
        # a traceback, and never opened: reading a pipe would wait for a writer forever.
        try:
            refuse_special(target)
        except WriteError as err:
            result.diagnostics.append(Diagnostic(
                "robots.txt", "unreadable", f"{err.message.partition(';')[0]}; not read or "
                "changed, so no Sitemap: line was added"))
            return result
        try:
            editable, why = robots_txt.read_editable(target)
        except OSError as err:
            result.diagnostics.append(Diagnostic(
                "robots.txt", "unreadable",
                f"cannot be read ({err.strerror}); no Sitemap: line was added"))
            return result
        if editable is None:
            result.diagnostics.append(Diagnostic("robots.txt", "robots-too-large", why))
            return result
        original = editable
        try:
            merged = (robots_txt.merge_sitemap_lines(original, [sitemap_url, *feeds]) if feeds
                      else robots_txt.merge_sitemap_line(original, sitemap_url))
        except UnicodeError:
            result.diagnostics.append(Diagnostic(
                "robots.txt", "unreadable",
                "starts with a UTF-16 byte-order mark but is not UTF-16; left as it is, so no "
                "Sitemap: line was added"))
            return result
        if merged != original:
            write_bytes_atomic(target, merged)
            result.files.append("robots.txt")
        return result
    if mode == "create":
        write_bytes_atomic(target, robots_txt.create_robots(sitemap_url, feeds))
        result.files.append("robots.txt")
        return result
    result.diagnostics.append(Diagnostic(
        "", "no-robots-txt",
        "the site has no robots.txt, so no Sitemap: line was added "
        "(set robots_txt to 'create' to make one)", Level.INFO))
    return result


def remove_obsolete_news(site: Path, config: SitemapConfig) -> Installed:
    """With ``news`` off: the news sitemap an earlier build wrote, and its robots.txt line, go.

    Only a file that is ours byte for byte (:func:`~sitemap_plugins.news.is_own_news_sitemap`)
    is removed; a site's own file of that name stays, whatever it holds.
    """
    from sitemap_plugins.news import is_own_news_sitemap, news_file_name  # noqa: PLC0415

    result = Installed()
    name = news_file_name(config.sitemap_name)
    path = site / name
    data = _small_regular_file(path)
    if data is None or not is_own_news_sitemap(data):
        return result
    try:
        path.unlink()
    except OSError as err:
        result.diagnostics.append(Diagnostic(name, "stale-news-sitemap", (
            f"was written by an earlier build with news on, and cannot be removed "
            f"({explain(err)})")))
        return result
    result.removed.append(name)
    robots = site / "robots.txt"
    if config.robots_txt == "off" or robots.is_symlink() or not robots.is_file():
        return result
    try:
        original, _ = robots_txt.read_editable(robots)
    except OSError:
        return result
    if original is not None:
        kept = robots_txt.without_sitemap_lines(original, {f"{config.base_url}{name}"})
        if kept != original:
            write_bytes_atomic(robots, kept)
            result.files.append("robots.txt")
    return result

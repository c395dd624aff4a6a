"""robots.txt: the ``Sitemap:`` lines a build or a merge adds, and those it takes back.

Every other byte of the file is kept (its encoding too); a file that is not ours is edited,
never replaced, and one that is a link out of the site, a pipe or too large is left alone.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from sitemap_plugins.disk.owned import Installed, remove_own
from sitemap_plugins.disk.proofs import PROOFS
from sitemap_plugins.disk.site import (
    is_inside,
    is_regular,
    read_editable,
    read_file,
    refuse_special,
    write_bytes_atomic,
    write_if_changed,
)
from sitemap_plugins.entry.news import news_file_name
from sitemap_plugins.entry.robots_txt import (
    MAX_ROBOTS_BYTES,
    create_robots,
    merge_sitemap_line,
    merge_sitemap_lines,
    names_sitemap,
    render_fragment,
    without_sitemap_lines,
)
from sitemap_plugins.vocab.errors import Diagnostic, Level, WriteError, explain
from sitemap_plugins.vocab.options import FRAGMENT_NAME

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from sitemap_plugins.vocab.options import SitemapConfig


def without_sitemap(site: Path, config: SitemapConfig, sitemap_url: str) -> Installed:
    """After a run that wrote no sitemap: nothing may still point crawlers at it.

    The fragment goes. A ``Sitemap:`` line in robots.txt may be the site's own, so it stays,
    with a warning naming it.
    """
    result = Installed()
    gone = remove_own(site, FRAGMENT_NAME, PROOFS["fragment"])
    if isinstance(gone, OSError):
        result.diagnostics.append(Diagnostic(
            FRAGMENT_NAME, "stale-sitemap-line",
            f"names {sitemap_url}, which was not written, and cannot be removed "
            f"({explain(gone)})"))
    elif gone:
        result.removed.append(FRAGMENT_NAME)
    target = site / "robots.txt"
    if config.robots_txt == "off" or not target.is_file():
        return result
    try:
        refuse_special(target)
        names_it = names_sitemap(  # what crawlers read of it, at most
            read_file(target, MAX_ROBOTS_BYTES), sitemap_url)
    except (OSError, WriteError):
        return result  # unreadable: the rules were not read either, and that was reported
    if names_it:
        result.diagnostics.append(Diagnostic(
            "robots.txt", "stale-sitemap-line",
            f"names {sitemap_url}, which was not written because no page can be listed: "
            "crawlers that read it will find nothing there; remove that line"))
    return result


def update_robots(
    site: Path, config: SitemapConfig, sitemap_url: str, feeds: Sequence[str] = (),
    dropped: Collection[str] = (),
) -> Installed:
    """Add the ``Sitemap:`` line to robots.txt, or write a fragment, as ``robots_txt`` says.

    ``feeds``: more sitemap URLs to name after it (news, feeds, a merge's indexes).
    ``dropped``: sitemaps whose lines go (a merge's builds).
    """
    result = Installed()
    mode = config.base_url.robots_mode(config.robots_txt)
    if mode == "off":
        return result
    if mode != config.robots_txt:
        result.diagnostics.append(Diagnostic(
            "", "robots-below-root",
            f"the site lives below the host root ({config.base_url.path}), so its robots.txt "
            f"is not the one crawlers read at {config.base_url.host_root}robots.txt; wrote "
            f"{FRAGMENT_NAME} with the Sitemap: line to add there", Level.INFO))
    if mode == "fragment":
        target = site / FRAGMENT_NAME
        data = render_fragment(sitemap_url, config.base_url.host_root, feeds)
        # Unreadable: written anew (write_bytes_atomic refuses a special file).
        write_if_changed(target, data)
        result.files.append(target.name)
        return result
    target = site / "robots.txt"
    if target.is_symlink():
        real = Path(os.path.realpath(target))
        if not is_inside(site, real):
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
            editable, why = read_editable(target)
        except OSError as err:
            result.diagnostics.append(Diagnostic(
                "robots.txt", "unreadable",
                f"cannot be read ({err.strerror}); no Sitemap: line was added"))
            return result
        if editable is None:
            result.diagnostics.append(Diagnostic("robots.txt", "robots-too-large", why))
            return result
        original = editable
        kept = without_sitemap_lines(original, set(dropped)) if dropped else original
        try:
            merged = (merge_sitemap_lines(kept, [sitemap_url, *feeds]) if feeds
                      else merge_sitemap_line(kept, sitemap_url))
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
        write_bytes_atomic(target, create_robots(sitemap_url, feeds))
        result.files.append("robots.txt")
        return result
    result.diagnostics.append(Diagnostic(
        "", "no-robots-txt",
        "the site has no robots.txt, so no Sitemap: line was added "
        "(set robots_txt to 'create' to make one)", Level.INFO))
    return result


def drop_gone_sitemaps(site: Path, config: SitemapConfig, gone: Collection[str]) -> Installed:
    """Take out of robots.txt the ``Sitemap:`` lines naming files this build removed."""
    result = Installed()
    urls = {f"{config.base_url}{name}" for name in gone if not os.path.lexists(site / name)}
    if urls and config.robots_txt != "off" and _drop_sitemap_lines(site / "robots.txt", urls):
        result.files.append("robots.txt")
    return result


def _drop_sitemap_lines(robots: Path, urls: set[str]) -> bool:
    """Take the ``Sitemap:`` lines naming ``urls`` out of an editable robots.txt; if it changed."""
    if not is_regular(robots):
        return False
    try:
        original, _ = read_editable(robots)
    except OSError:
        return False
    if original is None:
        return False
    kept = without_sitemap_lines(original, urls)
    if kept == original:
        return False
    write_bytes_atomic(robots, kept)
    return True


def remove_obsolete_news(site: Path, config: SitemapConfig) -> Installed:
    """With ``news`` off: an earlier news sitemap (ours byte for byte) and its robots line go."""
    result = Installed()
    name = news_file_name(config.sitemap_name)
    gone = remove_own(site, name, PROOFS["news"])
    if isinstance(gone, OSError):
        result.diagnostics.append(Diagnostic(name, "stale-news-sitemap", (
            f"was written by an earlier build with news on, and cannot be removed "
            f"({explain(gone)})")))
    if gone is not True:
        return result
    result.removed.append(name)
    if config.robots_txt != "off" and _drop_sitemap_lines(
            site / "robots.txt", {f"{config.base_url}{name}"}):
        result.files.append("robots.txt")
    return result

"""The files a build writes beside the sitemap, once the sitemap set is in place.

Called by :mod:`sitemap_plugins.products.build.pipeline`. Touches the disk only through the
door: :mod:`~sitemap_plugins.disk.owned` for the files this tool writes in the
site, :mod:`~sitemap_plugins.disk.site` for the news sitemap's atomic write. In the build's order:

    check_extra_targets   the news sitemap and the fragment may be written over (before any page)
    write_extras          HTML site map pages, llms.txt, news sitemap, robots.txt lines
    withdraw              after a build that listed nothing: stale files and pointers go
    publish_key_file      the IndexNow key file

Each step adds what it wrote, removed and has to say to the build's :class:`Result`. The
IndexNow and feed modules are imported only when their options are on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemap_plugins.disk.owned import (
    is_own_file,
    remove_obsolete_fragment,
    remove_own,
    remove_stale,
)
from sitemap_plugins.disk.proofs import PROOFS
from sitemap_plugins.disk.robots import (
    drop_gone_sitemaps,
    remove_obsolete_news,
    update_robots,
    without_sitemap,
)
from sitemap_plugins.disk.site import write_bytes_atomic
from sitemap_plugins.entry.news import fit_news, news_file_name
from sitemap_plugins.vocab.errors import Diagnostic, Level
from sitemap_plugins.vocab.options import FRAGMENT_NAME, LLMS_NAME, sitemap_file_pattern

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from sitemap_plugins.disk.owned import Ownership
    from sitemap_plugins.entry.news import NewsSelection
    from sitemap_plugins.products.build.result import Result
    from sitemap_plugins.products.html_map.pages import SiteMapPages
    from sitemap_plugins.products.html_map.plan import HtmlEntry, NavNode
    from sitemap_plugins.vocab.options import SitemapConfig


def own_names(config: SitemapConfig) -> frozenset[str]:
    """More files of ours at the site root that the scan never lists: llms.txt, the key file."""
    llms = {LLMS_NAME} if config.llms_txt else set()
    if not config.indexnow_key:
        return frozenset(llms)
    from sitemap_plugins.products.submit import key_file_name  # noqa: PLC0415  # only with a key

    return frozenset({*llms, key_file_name(config.indexnow_key)})


def check_extra_targets(site: Path, config: SitemapConfig, owned: Ownership) -> None:
    """Before any page is read: the news sitemap and the fragment may be written over.

    Raises:
        WriteError: when a file that is not ours stands there (see :class:`Ownership`).
    """
    names = [LLMS_NAME] if config.llms_txt else []
    if config.news is not None:
        names.append(news_file_name(config.sitemap_name))
    if config.base_url.robots_mode(config.robots_txt) == "fragment":
        names.append(FRAGMENT_NAME)
    owned.check_targets(names, own_content=lambda name: is_own_file(site, name))


def write_extras(site: Path, config: SitemapConfig, result: Result,
                 html: SiteMapPages | None, news: NewsSelection | None,
                 listed: tuple[Sequence[HtmlEntry], Sequence[NavNode], str] = ((), (), ""),
                 ) -> None:
    """After the sitemap set: the HTML site map's pages, llms.txt, the news sitemap, robots.txt.

    ``listed``: what llms.txt lists (the pages as the HTML site map shows them, the host's
    navigation and its name of the site).

    robots.txt (or the fragment) names the sitemap, the news sitemap and the announced feeds;
    an earlier build's fragment and news sitemap go when this one wrote none, and so do the
    lines naming files of ours that this build removed.
    """
    if html is not None and html.pages:
        written, gone = html.write()
        result.files.extend(written)
        result.removed.extend(gone)
    if config.llms_txt:
        from sitemap_plugins.products.html_map.llms_txt import render_llms_txt  # noqa: PLC0415

        shown, outline, name = listed
        write_bytes_atomic(site / LLMS_NAME, render_llms_txt(
            shown, str(config.base_url), depth=config.html_sitemap_depth, outline=outline,
            map_pages=html.pages if html is not None else (), name=name).encode())
        result.files.append(LLMS_NAME)
    elif remove_own(site, LLMS_NAME, PROOFS["llms"]) is True:  # an earlier build's
        result.removed.append(LLMS_NAME)
    also_named: list[str] = []
    if news is not None and config.news is not None:
        _write_news(site, config, news, result)
        also_named.append(f"{config.base_url}{news_file_name(config.sitemap_name)}")
    feeds: list[str] = []
    if config.announce_feeds:
        from sitemap_plugins.products.build.feeds import announced_feeds  # noqa: PLC0415  # only when asked

        feeds = announced_feeds(site, config, result.add_diagnostic)
    robots = update_robots(site, config, result.sitemap_url,
                           [*also_named, *config.extra_sitemaps, *feeds])
    result.removed.extend(remove_obsolete_fragment(site, robots.files))
    if config.news is None:
        obsolete = remove_obsolete_news(site, config)
        result.removed.extend(obsolete.removed)
        robots.files.extend(f for f in obsolete.files if f not in robots.files)
        robots.diagnostics.extend(obsolete.diagnostics)
    # Our own old lines go with our files (a renamed sitemap_name): none names a 404.
    stale_lines = drop_gone_sitemaps(site, config, result.removed)
    robots.files.extend(f for f in stale_lines.files if f not in robots.files)
    result.files.extend(robots.files)
    for diagnostic in robots.diagnostics:
        result.add_diagnostic(diagnostic)


def _write_news(site: Path, config: SitemapConfig, news: NewsSelection, result: Result) -> None:
    """Write the news sitemap, also when it is empty: yesterday's articles must drop out."""
    assert config.news is not None
    items = news.items()
    name = news_file_name(config.sitemap_name)
    data, listed = fit_news(config.news, items, config.max_bytes)
    write_bytes_atomic(site / name, data)
    if listed < len(items):
        result.add_diagnostic(Diagnostic(name, "news-too-large", (
            f"the {len(items):,} recent articles do not fit in max_bytes "
            f"({config.max_bytes:,} bytes); the newest {listed:,} are listed (a shorter news "
            "name makes room)")))
    result.files.append(name)
    result.news = listed


def withdraw(site: Path, config: SitemapConfig, result: Result, owned: Ownership) -> None:
    """After a build that listed nothing: its old sitemap files go, and what points at them."""
    owned.adopt_earlier(sitemap_file_pattern(config.sitemap_name))
    result.removed = remove_stale(owned, set())
    if remove_own(site, LLMS_NAME, PROOFS["llms"]) is True:  # it would list what is gone
        result.removed.append(LLMS_NAME)
    result.add_diagnostic(Diagnostic(
        "", "nothing-listed", "no page can be listed, so no sitemap was written"))
    pointers = without_sitemap(site, config, result.sitemap_url)
    result.removed.extend(pointers.removed)
    for diagnostic in pointers.diagnostics:
        result.add_diagnostic(diagnostic)


def publish_key_file(site: Path, config: SitemapConfig, result: Result) -> None:
    """Write the IndexNow key file at the site root (``indexnow_key``)."""
    from sitemap_plugins.products.submit import publish_key  # noqa: PLC0415  # only with a key

    assert config.indexnow_key is not None
    files, diagnostics = publish_key(site, config.indexnow_key)
    result.files.extend(files)
    for diagnostic in diagnostics:
        result.add_diagnostic(diagnostic)
    if not config.fingerprint:
        result.add_diagnostic(Diagnostic(
            "", "indexnow-no-changes", "indexnow_key is set but fingerprint is off: builds "
            "record no changed URLs for 'sitemap-plugins submit' to send", Level.INFO))

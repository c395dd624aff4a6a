"""The site's own feeds, to announce in robots.txt as sitemaps (``announce_feeds``).

Search engines take RSS and Atom feeds as sitemaps; these are the ones the home page links
in its ``<head>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemap_plugins.disk.site import read_bytes
from sitemap_plugins.page.reader import read_record
from sitemap_plugins.vocab.errors import Diagnostic, Level
from sitemap_plugins.vocab.urls import INDEX_NAMES, is_within, resolve_href

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from sitemap_plugins.vocab.options import SitemapConfig

def announced_feeds(site: Path, config: SitemapConfig,
                    add_diagnostic: Callable[[Diagnostic], None]) -> list[str]:
    """The feed URLs the home page links, under the base URL, in page order.

    A feed elsewhere is left out with a warning (a sitemap names only URLs under its place).
    """
    home = next((name for name in INDEX_NAMES if (site / name).is_file()), None)
    if home is None:
        add_diagnostic(Diagnostic(
            "", "no-feeds", "announce_feeds: the site has no index.html at its root, so no "
            "feed was announced", Level.INFO))
        return []
    try:
        record = read_record(read_bytes(str(site / home)), html=True)
    except OSError as err:
        add_diagnostic(Diagnostic(
            home, "unreadable", f"cannot be read ({err.strerror}); no feed was announced"))
        return []
    base = str(config.base_url)
    against = resolve_href(record.base_href, base) if record.base_href else base
    feeds: list[str] = []
    for href in record.feeds:
        url = resolve_href(href, against or base)
        if url is None or not is_within(url, config.base_url):
            add_diagnostic(Diagnostic(
                home, "feed-out-of-scope",
                f"links the feed {href!r}, which is not under {base}: not announced in "
                "robots.txt (a sitemap may only name URLs under its own location)"))
            continue
        if url not in feeds:
            feeds.append(url)
    if not feeds and not record.feeds:
        add_diagnostic(Diagnostic(
            "", "no-feeds", f"announce_feeds: the home page {home} links no Atom or RSS feed "
            '(<link rel="alternate" type="application/atom+xml">), so none was announced',
            Level.INFO))
    return feeds

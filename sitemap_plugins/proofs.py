"""What proves that a file in the site is this tool's: one proof per kind of file, by its bytes.

Floor: the middle (pure: each proof looks at bytes given to it). :mod:`owned` reads the
site's files and applies them: only a file proved ours is replaced quietly or removed. The
sitemap set is told by its record and its own bytes (:class:`~sitemap_plugins.owned.Ownership`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sitemap_plugins.news import is_own_news_sitemap
from sitemap_plugins.render import HTML_MAP_EARLIER_MARK, HTML_MAP_MARK
from sitemap_plugins.robots_txt import fragment_sitemap

if TYPE_CHECKING:
    from collections.abc import Callable

PROTOCOL_NEWS_BYTES = 16 * 1024 * 1024  # a news sitemap holds 1,000 entries: far below this
MAX_MAP_PAGE = 256 * 1024 * 1024  # an HTML site map page lists a few thousand links


@dataclass(frozen=True)
class Proof:
    """How one kind of file this tool writes is told from a file of the site's own."""

    kind: str
    most: int
    """Bytes read to tell, at most: a larger file is not ours."""
    holds: Callable[[bytes], bool]
    """Whether the bytes are what this tool writes there."""


PROOFS: dict[str, Proof] = {
    "news": Proof("news sitemap", PROTOCOL_NEWS_BYTES, is_own_news_sitemap),  # re-renders
    "fragment": Proof("robots.txt fragment", PROTOCOL_NEWS_BYTES,
                      lambda data: fragment_sitemap(data) is not None),
    # Each page of the HTML site map ends with its mark (earlier versions: a generator meta).
    "html-map": Proof("HTML site map page", MAX_MAP_PAGE,
                      lambda data: HTML_MAP_MARK.encode() in data or HTML_MAP_EARLIER_MARK in data),
}
"""Kind -> proof, for every file of ours but the sitemap set
(:class:`~sitemap_plugins.owned.Ownership`)."""


def key_proof(key: str) -> Proof:
    """The IndexNow key file holds the key (a BOM and white space around it allowed)."""
    return Proof("IndexNow key file", 64 * 1024,
                 lambda data: data.decode("utf-8-sig", "replace").strip() == key)

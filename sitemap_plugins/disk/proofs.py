"""What proves that a file in the site is this tool's: one proof per kind of file, by its bytes.

Pure: :mod:`~sitemap_plugins.disk.owned` applies the proofs; only a file proved ours is
replaced quietly or removed, any other only as :func:`replacing` says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sitemap_plugins.entry.news import is_own_news_sitemap
from sitemap_plugins.entry.render import HTML_MAP_EARLIER_MARK, HTML_MAP_MARK, HTML_MAP_MARKER
from sitemap_plugins.entry.robots_txt import fragment_sitemap
from sitemap_plugins.vocab.errors import Diagnostic, Level
from sitemap_plugins.vocab.options import LLMS_MARK
from sitemap_plugins.vocab.urls import is_under

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

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
    "llms": Proof("llms.txt", MAX_MAP_PAGE, lambda data: LLMS_MARK.encode() in data[-64:]),
}
"""Kind -> proof, for every file of ours but the sitemap set
(:class:`~sitemap_plugins.disk.owned.Ownership`)."""


def marker_page(data: bytes) -> str | None:
    """A host's themed page holding the HTML site map's marker, as text; None for any other."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if HTML_MAP_MARKER in text else None


def may_hold_map(data: bytes) -> bool:
    """Whether an HTML site map page may be written over these bytes (ours, or a marker page)."""
    return HTML_MAP_MARKER.encode() in data or PROOFS["html-map"].holds(data)


def key_proof(key: str) -> Proof:
    """The IndexNow key file holds the key (a BOM and white space around it allowed)."""
    return Proof("IndexNow key file", 64 * 1024,
                 lambda data: data.decode("utf-8-sig", "replace").strip() == key)


# -------------------- the sitemap set, by its own bytes

# What is looked at of a file to tell whose it is: its start and its end.
HEAD_BYTES = 4_096
TAIL_BYTES = 64


def is_text_sitemap(lines: Iterable[bytes], base: str = "") -> bool:
    """A text sitemap: one absolute http(s) URL a line, each ending in LF, as this tool writes it.

    With ``base``: also another generator's text sitemap of this site, every URL under
    ``base`` (CR LF, or no last line end, allowed), and at least one.
    """
    found = False
    try:
        for raw in lines:
            line = raw.decode("utf-8")
            url = line.rstrip("\r\n") if base else line[:-1]
            if ((not base and not line.endswith("\n"))
                    or not (is_under(url, base) if base else url.startswith(("https://", "http://")))
                    or any(c.isspace() for c in url)):
                return False
            found = True
    except UnicodeDecodeError:
        return False
    return found or not base


def replacing(name: str, who: str | None, *, replace_files: bool) -> Diagnostic | None:
    """What a build says as it replaces the file ``name`` that is not proved ours.

    ``who``: the generator of another's sitemap (replaced, with a warning). None when it may
    not be replaced at all, unless ``replace_files``.
    """
    if who is not None:
        return Diagnostic(name, "replaced-sitemap", (
            f"was a sitemap written by {who}; replaced by this build's (turn that "
            "generator's sitemap off so that one tool owns the file)"))
    if replace_files:
        return Diagnostic(name, "replaced-file", (
            "was not written by this tool; replaced, as replace_files says"), Level.INFO)
    return None

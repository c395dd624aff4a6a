"""The site's chrome: the blocks a theme without landmarks repeats on every page.

Measured once per build (:func:`site_chrome`); every ``<body>`` region read from disk then
leaves those blocks out (:func:`drop_chrome`). Hosts hand over content without the theme.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote, urlsplit

import xxhash

from sitemap_plugins.page.content import url_value
from sitemap_plugins.page.rulebook import LINKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from selectolax.lexbor import LexborNode


class SiteChrome(NamedTuple):
    """The blocks a site repeats on its pages, each by its place and its content."""

    blocks: frozenset[int]
    """XXH3-64 of each block's place (:func:`_places`) and content (:func:`_block_content`)."""
    places: frozenset[int]
    """XXH3-64 of the places of these blocks and their ancestors (others are not compared)."""


class PageBlocks(NamedTuple):
    """A page's blocks (as :attr:`SiteChrome.blocks`, each with its place) and its links."""

    blocks: dict[int, str]
    links: tuple[str, ...]
    """``href`` values of its links to pages (paths and http(s) URLs), in page order."""


HOME_PAGE = "index.html"
"""The home page, at the site's root: the page whose blocks are measured for the chrome."""
CHROME_WITNESSES = 8
"""Pages the home page links to that are read to tell its chrome from its content."""
# Blocks kept, and how deep the tree is walked: headers and footers lie a few levels down.
_MAX_CHROME_BLOCKS = 20_000
_MAX_CHROME_DEPTH = 24


# A link with a scheme other than http(s) (mailto:, javascript:), or to a fragment of the page.
_NOT_A_PAGE = re.compile(r"(?!https?:)[A-Za-z][A-Za-z0-9+.-]*:|#", re.IGNORECASE)


def body_blocks(body: LexborNode) -> PageBlocks:
    """The blocks of a page's ``<body>`` (step 2's elements dropped) and its links to pages."""
    blocks: dict[int, str] = {}
    for node, place in _places(body):
        blocks[_block_digest(node, place)] = place
        if len(blocks) >= _MAX_CHROME_BLOCKS:
            break
    links = []
    for anchor in body.css("a[href]"):
        href = url_value(anchor.attributes.get("href"))
        if href and not _NOT_A_PAGE.match(href):
            links.append(href)
    return PageBlocks(blocks, tuple(links))


def site_chrome(home: PageBlocks, witnesses: list[PageBlocks]) -> SiteChrome | None:
    """The blocks the home page shares with the witness sharing the fewest (None: no witness)."""
    shared = [home.blocks.keys() & witness.blocks.keys() for witness in witnesses]
    fewest = min(shared, key=len, default=set())
    if not fewest:
        return None
    places: set[int] = set()
    for block in fewest:
        place = home.blocks[block]
        # Every "/" may end an ancestor's place.
        places.update(_place_digest(place[:end]) for end, char in enumerate(place)
                      if char == "/" and end)
        places.add(_place_digest(place))
    return SiteChrome(frozenset(fewest), frozenset(places))


def _children(node: LexborNode, place: str) -> Iterator[tuple[LexborNode, str]]:
    """``node``'s child elements, each with its place (tags, ids, classes and rank)."""
    seen: dict[str, int] = {}
    for child in node.iter():
        attributes = child.attributes
        classes = " ".join(sorted((attributes.get("class") or "").split()))
        name = f"{child.tag}#{attributes.get('id') or ''}.{classes}"
        rank = seen.get(name, 0)
        seen[name] = rank + 1
        yield child, f"{place}/{name}[{rank}]"


def _places(body: LexborNode) -> Iterator[tuple[LexborNode, str]]:
    """Every element under ``body`` down to the depth bound, with its place."""
    stack: list[tuple[LexborNode, str, int]] = [(body, "", 0)]
    while stack:
        node, place, depth = stack.pop()
        for child, child_place in _children(node, place):
            yield child, child_place
            if depth + 1 < _MAX_CHROME_DEPTH:
                stack.append((child, child_place, depth + 1))


LINKING_SELECTOR = ", ".join(LINKING)


def _block_content(node: LexborNode) -> str:
    """What of a block counts in a fingerprint: its text and its elements' links."""
    text = node.text(separator=" ", strip=True, skip_empty=True)
    links = [value for element in (node, *node.css(LINKING_SELECTOR))
             if element.tag in LINKING
             for value in (element.attributes.get("href"), element.attributes.get("src"))
             if value]
    return text + "\n" + "\n".join(links)


def _place_digest(place: str) -> int:
    return xxhash.xxh3_64_intdigest(place.encode("utf-8", "surrogatepass"))


def _block_digest(node: LexborNode, place: str) -> int:
    return xxhash.xxh3_64_intdigest(
        f"{place}\0{_block_content(node)}".encode("utf-8", "surrogatepass"))


def drop_chrome(body: LexborNode, chrome: SiteChrome) -> None:
    """Unlink, top down, the blocks of ``body`` that the home page has at the same place."""
    stack: list[tuple[LexborNode, str, int]] = [(body, "", 0)]
    while stack:
        node, place, depth = stack.pop()
        for child, child_place in list(_children(node, place)):
            if _place_digest(child_place) not in chrome.places:
                continue  # no block of the chrome is there, nor inside
            if _block_digest(child, child_place) in chrome.blocks:
                child.remove(False)  # unlinked whole, as step 2's elements are
            elif depth + 1 < _MAX_CHROME_DEPTH:
                stack.append((child, child_place, depth + 1))


def local_pages(href: str, base_url: str) -> list[str]:
    """The site files a home page's link may name, the likeliest first.

    ``about/`` is ``about/index.html``; a URL of the site is read from there; ``about`` is
    ``about/index.html`` or ``about.html`` (servers that add the suffix).
    """
    link = urlsplit(href.split("#", 1)[0])
    base = urlsplit(base_url)
    path = unquote(link.path)
    if link.netloc or link.scheme:
        if link.netloc.lower() != base.netloc.lower():
            return []  # another site
        path = path or "/"
    if path.startswith("/"):
        if not path.startswith(base.path):
            return []  # outside the site
        path = path[len(base.path):]
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts or "\\" in path:
        return []  # never a file outside the site
    if not parts or path.endswith("/"):
        return ["/".join([*parts, HOME_PAGE])]
    rel = "/".join(parts)
    if "." not in parts[-1]:
        return [f"{rel}/{HOME_PAGE}", f"{rel}.html"]
    return [rel]

"""The site's chrome: the blocks a theme without landmarks repeats on every page.

On such a theme a page's region is its whole ``<body>``. The command line measures the chrome
once per build: the blocks the home page shares with the page it links to that shares the
fewest with it (:func:`site_chrome`), each by place and content; every ``<body>`` region then
leaves them out (:func:`drop_chrome`). The hosts hand over their content without the theme.
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
    """The blocks a site repeats on its pages, each by its place and its content.

    A page read whole from disk whose content region is its ``<body>`` leaves out each block
    found at the same place in these with the same content: the header, menu and footer
    that a theme without landmarks repeats on every page.
    """

    blocks: frozenset[int]
    """XXH3-64 of each block's place (:func:`_places`) and content (:func:`_block_content`)."""
    places: frozenset[int]
    """XXH3-64 of the places of these blocks and of the elements around them: a page's other
    elements hold none of the blocks, and are neither compared nor looked into."""


class PageBlocks(NamedTuple):
    """A page's blocks (as :attr:`SiteChrome.blocks`, each with its place) and its links."""

    blocks: dict[int, str]
    links: tuple[str, ...]
    """``href`` values of its links to pages (paths, and http(s) URLs, which may be the site's
    own: Pelican's are, with ``RELATIVE_URLS`` off), in page order."""


HOME_PAGE = "index.html"
"""The home page, at the site's root: the page whose blocks are measured for the chrome."""
CHROME_WITNESSES = 8
"""Pages the home page links to that are read to tell its chrome from its content."""
# Blocks of a page that are kept, and how deep its tree is walked: a theme's header and
# footer lie a few levels under <body>, and the set stays small whatever the page holds.
_MAX_CHROME_BLOCKS = 20_000
_MAX_CHROME_DEPTH = 24


# A link with a scheme other than http(s) (mailto:, javascript:), or to a fragment of the page.
_NOT_A_PAGE = re.compile(r"(?!https?:)[A-Za-z][A-Za-z0-9+.-]*:|#", re.IGNORECASE)


def body_blocks(body: LexborNode) -> PageBlocks:
    """The blocks of a page's ``<body>`` and its links to pages.

    :func:`sitemap_plugins.page.reader.page_blocks` parses the page and drops step 2's elements
    (:func:`sitemap_plugins.page.content.drop_non_content`) first, as from every page.
    """
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
    """The blocks the home page shares with the witness that shares the fewest with it.

    Any page of the theme shares the chrome with the home page; a listing may share the
    home's content too (an archive that lists the same posts), so the witness that shares
    the least is the one whose share is the chrome alone. None without a witness: one page
    alone cannot tell its chrome from its content.
    """
    shared = [home.blocks.keys() & witness.blocks.keys() for witness in witnesses]
    fewest = min(shared, key=len, default=set())
    if not fewest:
        return None
    places: set[int] = set()
    for block in fewest:
        place = home.blocks[block]
        # Every "/" may end an ancestor's place (one in an id or class only adds a place
        # that no element has).
        places.update(_place_digest(place[:end]) for end, char in enumerate(place)
                      if char == "/" and end)
        places.add(_place_digest(place))
    return SiteChrome(frozenset(fewest), frozenset(places))


def _children(node: LexborNode, place: str) -> Iterator[tuple[LexborNode, str]]:
    """``node``'s child elements, each with its place.

    A place is the path of tags, ids and classes, with the rank among the siblings that
    share all three: blocks are matched in order, never merely found somewhere in the home.
    """
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
    """Unlink the blocks of ``body`` that the home page has at the same place, the same.

    Top down: a block that differs (the header that holds the page's own title) is looked
    into, and what in it is the home page's too (the menu beside that title) goes.
    """
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

    ``about/`` is ``about/index.html``; a URL of the site (Pelican's, with ``RELATIVE_URLS``
    off: Elegant's menu) and a path below the site's own path are read from there; ``about``
    is ``about/index.html`` or ``about.html`` (a server that adds the suffix: Netlify's).
    Any file: the caller reads the HTML pages among them.
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

"""What a whole page states of itself in its body: its dates, and the source it names.

Read in one query before the content's headers and scripts are dropped. Dates follow
docs/lastmod.md ("what counts, in order"): JSON-LD, microdata, h-entry, a header's
``<time>``, the one time right after the first heading; only the page's own item counts.
The source is the theme's "Edit this page" link (:data:`EDIT_LINKS`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote, urlsplit

from sitemap_plugins.page.content import select
from sitemap_plugins.vocab.dates import parse_w3c

if TYPE_CHECKING:
    from collections.abc import Container, Iterator

    from selectolax.lexbor import LexborHTMLParser, LexborNode


class Stated(NamedTuple):
    """A page's dates stated in its body, raw W3C text, and its edit link."""

    modified: str | None = None
    published: str | None = None
    source_link: str | None = None


# A theme's link to the page's source: a GitHub/GitLab/Gitea edit URL, or Docusaurus' and
# just-the-docs' classes.
EDIT_LINKS = 'a:is([href*="edit/"], .theme-edit-this-page, #edit-this-page)'
# One query finds them all; each selector part costs a test of every element and each find a
# Python object, so only JSON-LD scripts are asked for and microdata is sorted out by
# :func:`_counts`. An element that several parts match is found once a part.
_STATING = f'time, script[type*="ld+json" i], [itemprop], {EDIT_LINKS}'
_MAX_JSON = 256 * 1024  # characters of one JSON-LD script that are read
_MAX_SCRIPTS = 16
_MAX_SEGMENTS = 16


def read_stated(tree: LexborHTMLParser) -> Stated | None:
    """What the page in ``tree`` states in its body; None: nothing (most pages)."""
    root = tree.root
    nodes = [node for node in select(root, _STATING) if _counts(node)] if root is not None else []
    if not nodes:
        return None
    dated = [node for node in nodes if node.tag != "a" or _is_property(node)]
    link = next((href for node in nodes if node.tag == "a" and not _is_property(node)
                 and (href := _absolute(node))), None)
    modified, published = _dates(tree, dated) if dated else (None, None)
    if modified is None and published is None and link is None:
        return None
    return Stated(modified, published, link)


def linked_source(link: str, tracked: Container[str]) -> str | None:
    """The file of ``tracked`` (paths from a work tree's top) that an edit link names.

    The longest ending of the link's path that is tracked: no forge URL parsing.
    """
    parts = [part for part in unquote(urlsplit(link).path).split("/") if part]
    for start in range(max(0, len(parts) - _MAX_SEGMENTS), len(parts)):
        path = "/".join(parts[start:])
        if path in tracked:
            return path
    return None


def _counts(node: LexborNode) -> bool:
    """Whether a node the query found is one of this module's (a JSON-LD script, a date)."""
    tag, attributes = node.tag, node.attributes
    if tag == "script":
        return "ld+json" in (attributes.get("type") or "").lower()
    if tag == "time":
        return "datetime" in attributes or _is_property(node)
    if "itemprop" in attributes and tag != "a":
        return "date" in (attributes.get("itemprop") or "")
    return True


def _is_property(node: LexborNode) -> bool:
    """Whether a link is a dated property (microdata, h-entry), not an edit link."""
    attributes = node.attributes
    return "itemprop" in attributes or "dt-" in (attributes.get("class") or "")


def _absolute(node: LexborNode) -> str | None:
    href = (node.attributes.get("href") or "").strip()
    return href if href.startswith(("https://", "http://")) else None


def _dates(tree: LexborHTMLParser, nodes: list[LexborNode]) -> tuple[str | None, str | None]:
    """The page's last change and publication, each the first source's in the order above."""
    found: dict[str, list[tuple[int, str]]] = {}  # source -> (its item, the date), page order
    beside = _beside_heading(tree) if any(node.tag == "time" for node in nodes) else None
    scripts = 0
    for node in nodes:
        if node.tag == "script":
            scripts += 1
            text = node.text()
            if scripts <= _MAX_SCRIPTS and "date" in text:
                for key, value in _json_ld(text):
                    found.setdefault(key, []).append((0, value))
            continue
        props = (node.attributes.get("itemprop") or "").split()
        for prop in ("dateModified", "datePublished"):
            if prop in props:
                _add(found, "md:" + prop, _item(node), _value(node))
        classes = (node.attributes.get("class") or "").split()
        for name in ("dt-updated", "dt-published"):
            if name in classes:
                _add(found, name, _entry(node), _value(node))
        if node.tag == "time":
            _add(found, "header", _article_header(node), _value(node))
            if beside is not None and _inside(node, beside):
                _add(found, "beside", beside.mem_id, _value(node))
    return (_first(found, ("dateModified", "md:dateModified", "dt-updated")),
            _first(found, ("datePublished", "md:datePublished", "dt-published", "header",
                           "beside")))


def _add(found: dict[str, list[tuple[int, str]]], key: str, root: int | None,
         value: str | None) -> None:
    if root is not None and value and parse_w3c(value) is not None:
        found.setdefault(key, []).append((root, value))


def _first(found: dict[str, list[tuple[int, str]]], keys: tuple[str, ...]) -> str | None:
    """The first date of the first source that dates one item only (not a list of posts)."""
    for key in keys:
        dates = found.get(key)
        if dates and len({root for root, _ in dates}) == 1 and (
                key != "beside" or len(dates) == 1):
            return dates[0][1]
    return None


def _value(node: LexborNode) -> str | None:
    attributes = node.attributes
    value = attributes.get("datetime") or attributes.get("content") or node.text()[:64]
    return value.strip() if value else None


def _ancestors(node: LexborNode) -> Iterator[LexborNode]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _item(node: LexborNode) -> int | None:
    """The microdata item a property belongs to, when that item is no other item's property."""
    for parent in _ancestors(node):
        if "itemscope" in parent.attributes:
            return None if "itemprop" in parent.attributes else parent.mem_id
    return None


def _entry(node: LexborNode) -> int | None:
    """The h-entry a ``dt-`` property belongs to, when it is no other item's part."""
    root: int | None = None
    for parent in _ancestors(node):
        if any(name.startswith("h-") for name in (parent.attributes.get("class") or "").split()):
            if root is not None:
                return None  # a comment's (an h-cite or h-entry inside the entry)
            if "h-entry" not in (parent.attributes.get("class") or "").split():
                return None
            root = parent.mem_id
    return root


def _article_header(node: LexborNode) -> int | None:
    """The article whose own ``<header>`` holds ``node``, when it is in no other article."""
    header = False
    root: int | None = None
    for parent in _ancestors(node):
        if parent.tag == "header" and root is None:
            header = True
        elif parent.tag == "article":
            if root is not None or not header:
                return None  # a comment's article, or outside the header
            root = parent.mem_id
    return root


def _beside_heading(tree: LexborHTMLParser) -> LexborNode | None:
    """The element right after the first ``<h1>`` (not a paragraph: its dates are text)."""
    heading = tree.css_first("h1")
    after = heading.next if heading is not None else None
    while after is not None and after.tag in ("-text", "-comment"):
        after = after.next
    return after if after is not None and after.tag != "p" else None


def _inside(node: LexborNode, holder: LexborNode) -> bool:
    """Whether ``node`` is ``holder`` or in it, and in no list item that links elsewhere."""
    for parent in (node, *_ancestors(node)):
        if parent.tag == "li" and parent.css_first("a[href]") is not None:
            return False
        if parent.mem_id == holder.mem_id:
            return True
    return False


def _json_ld(text: str) -> Iterator[tuple[str, str]]:
    """``(key, date)`` of the top-level objects of a JSON-LD script (a list, an ``@graph``)."""
    if len(text) > _MAX_JSON:
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return  # a broken script dates nothing
    items = data if isinstance(data, list) else [data]
    for item in list(items):
        if isinstance(item, dict) and isinstance(item.get("@graph"), list):
            items.extend(item["@graph"])
    for item in items:
        if not isinstance(item, dict):
            continue
        for key in ("dateModified", "datePublished"):
            value = item.get(key)
            if isinstance(value, str) and parse_w3c(value.strip()) is not None:
                yield key, value.strip()

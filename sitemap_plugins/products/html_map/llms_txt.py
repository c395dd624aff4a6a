"""``llms.txt`` (llmstxt.org): the listed pages as the HTML site map groups and titles them.

An H1 with the site's name, the home page's description, the top pages, then an H2 per
section; the site map's own pages under ``## Optional``. Pure: text out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from sitemap_plugins.products.html_map.plan import SITE_SUFFIX, Section, build_tree, in_order
from sitemap_plugins.vocab.options import LLMS_MARK
from sitemap_plugins.vocab.urls import INDEX_NAMES

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from sitemap_plugins.products.html_map.plan import HtmlEntry, MapPage, NavNode

def _text(value: str) -> str:
    return " ".join(value.split())


def _link(title: str, loc: str, notes: str = "") -> str:
    title = _text(title).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    url = loc.replace("(", "%28").replace(")", "%29").replace(" ", "%20")
    return f"- [{title}]({url})" + (f": {_text(notes)}" if _text(notes) else "")


def site_name(site_title: str, base_url: str) -> str:
    """The site's name: the home page's ``<title>`` suffix ("Page - Site"), or all of it."""
    title = _text(site_title)
    suffix = SITE_SUFFIX.search(title)
    return (suffix.group(0).strip()[1:].strip() if suffix else title) or urlsplit(
        base_url).netloc


def render_llms_txt(entries: Sequence[HtmlEntry], base_url: str, *, depth: int,
                    outline: Sequence[NavNode] = (), map_pages: Iterable[MapPage] = (),
                    name: str = "") -> str:
    """The file's text for the listed ``entries`` (and the HTML site map's pages).

    ``name``: the host's name of the site; else the home page's title names it.
    """
    home = next((e for e in entries if e.rel_path in INDEX_NAMES), None)
    lines = [f"# {_text(name) or site_name(home.site if home else '', base_url)}", ""]
    if home is not None and _text(home.notes):
        lines += [f"> {_text(home.notes)}", ""]
    tree = build_tree(entries, depth, outline)
    top = [item for item in ([tree.index] if tree.index else []) + tree.items
           if not isinstance(item, Section)]
    if top:
        lines += [*(_link(e.title, e.loc, e.notes) for e in top), ""]
    for item in tree.items:
        if isinstance(item, Section):
            name = item.index.title if item.index else item.name
            lines += [f"## {_text(name)}", "",
                      *(_link(e.title, e.loc, e.notes) for e in in_order(item)), ""]
    own = [_link(page.title if page.part == 1 else f"{page.title} ({page.part})", page.loc,
                 page.language_name if page.translations else "") for page in map_pages]
    if own:
        lines += ["## Optional", "", *own, ""]
    return "\n".join([*lines, LLMS_MARK, ""])

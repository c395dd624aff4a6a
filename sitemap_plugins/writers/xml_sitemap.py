"""Render ``<urlset>`` pieces from entries (pure: entries in, text out)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemap_plugins.writers.templates import template_module

if TYPE_CHECKING:
    from sitemap_plugins.entry import Entry


def render_header(*, xhtml: bool, image: bool = False, video: bool = False) -> str:
    """The XML declaration and the opening ``<urlset>``, with the extensions' namespaces.

    Declared by option, not by content: the same options always give the same header.
    """
    return str(template_module("urlset.xml").header(xhtml, image, video))


def render_url(entry: Entry) -> str:
    """One ``<url>`` element with its children, indented, ending in a newline."""
    return str(template_module("urlset.xml").url(entry))


def render_footer() -> str:
    """The closing ``</urlset>``."""
    return str(template_module("urlset.xml").footer())

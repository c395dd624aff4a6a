"""Render a ``<sitemapindex>`` over the numbered parts (pure)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemap_plugins.writers.templates import template_module

if TYPE_CHECKING:
    from collections.abc import Iterable


def render_index(parts: Iterable[tuple[str, str]]) -> str:
    """The whole index for ``(loc, lastmod_w3c)`` pairs; an empty lastmod is left out."""
    module = template_module("sitemapindex.xml")
    pieces = [str(module.header())]
    pieces.extend(str(module.sitemap(loc, lastmod)) for loc, lastmod in parts)
    pieces.append(str(module.footer()))
    return "".join(pieces)

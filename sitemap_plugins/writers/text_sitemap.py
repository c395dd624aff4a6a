"""Render the text sitemap: one absolute URL a line, UTF-8, nothing else (sitemaps.org)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sitemap_plugins.writers import Rendered


def render_line(entry: Rendered) -> str:
    """The entry's URL and a newline. URLs are percent-encoded, so they hold no line break."""
    return entry.loc + "\n"

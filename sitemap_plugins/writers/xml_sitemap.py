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
    """One ``<url>`` element with its children, indented, ending in a newline.

    Built with string operations, not a template: a build renders one for every page, and a
    template macro's call cost more than the element itself. Child order follows
    sitemap.xsd: loc, lastmod, changefreq, priority, then the extension elements
    (``xhtml:link``, ``image:image``, ``video:video``, whose children follow
    sitemap-video.xsd's order); every value is XML-escaped exactly once.
    """
    lines = ["  <url>\n    <loc>", _escape(entry.loc), "</loc>\n"]
    if entry.lastmod is not None:
        lines += ("    <lastmod>", _escape(entry.lastmod_w3c), "</lastmod>\n")
    if entry.changefreq:
        lines += ("    <changefreq>", _escape(entry.changefreq), "</changefreq>\n")
    if entry.priority is not None:
        lines += ("    <priority>", _escape(entry.priority_text), "</priority>\n")
    for alternate in entry.alternates:
        lines += ('    <xhtml:link rel="alternate" hreflang="', _escape(alternate.hreflang),
                  '" href="', _escape(alternate.href), '"/>\n')
    for image in entry.images:
        lines += ("    <image:image>\n      <image:loc>", _escape(image),
                  "</image:loc>\n    </image:image>\n")
    for video in entry.videos:
        lines += ("    <video:video>\n      <video:thumbnail_loc>", _escape(video.thumbnail_loc),
                  "</video:thumbnail_loc>\n      <video:title>", _escape(video.title),
                  "</video:title>\n      <video:description>", _escape(video.description),
                  "</video:description>\n")
        if video.content_loc:
            lines += ("      <video:content_loc>", _escape(video.content_loc),
                      "</video:content_loc>\n")
        if video.player_loc:
            lines += ("      <video:player_loc>", _escape(video.player_loc),
                      "</video:player_loc>\n")
        lines.append("    </video:video>\n")
    lines.append("  </url>\n")
    return "".join(lines)


def _escape(value: object) -> str:
    """XML text and attribute escaping, as the templates' autoescape does (markupsafe)."""
    text = str(value)
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text or ">" in text or "'" in text or '"' in text:
        text = (text.replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;")
                .replace('"', "&#34;"))
    return text


def render_footer() -> str:
    """The closing ``</urlset>``."""
    return str(template_module("urlset.xml").footer())

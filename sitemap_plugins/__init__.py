"""Correct, complete and honest sitemaps for static sites.

The core reads a built site folder and writes ``sitemap.xml`` (and ``.gz``), ``sitemap.txt``,
a sitemap index with numbered parts past the protocol limits, and a robots.txt ``Sitemap:``
line. It imports neither MkDocs nor Pelican; their adapters are ``sitemap_plugins.mkdocs``
and ``sitemap_plugins.pelican``.
"""

from __future__ import annotations

__version__ = "0.1.0"

from sitemap_plugins.build import Result, generate
from sitemap_plugins.errors import (
    ConfigError,
    Diagnostic,
    Level,
    ScanError,
    SitemapError,
    WriteError,
)
from sitemap_plugins.options import DEFAULTS, SitemapConfig
from sitemap_plugins.rules import Alternate, Entry, PageHints

__all__ = [
    "DEFAULTS",
    "Alternate",
    "ConfigError",
    "Diagnostic",
    "Entry",
    "Level",
    "PageHints",
    "Result",
    "ScanError",
    "SitemapConfig",
    "SitemapError",
    "WriteError",
    "__version__",
    "generate",
]

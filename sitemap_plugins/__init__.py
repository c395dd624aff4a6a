"""Correct, complete and honest sitemaps for static sites.

The core reads a built site folder and writes ``sitemap.xml`` (and ``.gz``), ``sitemap.txt``,
a sitemap index with numbered parts past the protocol limits, and a robots.txt ``Sitemap:``
line. It imports neither MkDocs, Pelican nor Sphinx; their adapters are
``sitemap_plugins.mkdocs``, ``sitemap_plugins.pelican`` and ``sitemap_plugins.sphinx``.

Floor: the top. The names below are imported when first used, not with the package: every
``import sitemap_plugins.x`` runs this file first, and importing the pipeline here would make
each module's import load all of them (and stand at both ends of an import loop).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from sitemap_plugins.entry.rules import Alternate, Entry, PageHints
    from sitemap_plugins.products.build.pipeline import Result, generate
    from sitemap_plugins.vocab.errors import (
        ConfigError,
        Diagnostic,
        Level,
        ScanError,
        SitemapError,
        WriteError,
    )
    from sitemap_plugins.vocab.options import DEFAULTS, SitemapConfig

# Public name -> the module that defines it.
_HOMES = {
    "Result": "products.build.pipeline", "generate": "products.build.pipeline",
    **dict.fromkeys(("ConfigError", "Diagnostic", "Level", "ScanError", "SitemapError",
                     "WriteError"), "vocab.errors"),
    "DEFAULTS": "vocab.options", "SitemapConfig": "vocab.options",
    "Alternate": "entry.rules", "Entry": "entry.rules", "PageHints": "entry.rules",
}


def __getattr__(name: str) -> object:
    """The public name ``name``, from the module that defines it (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


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

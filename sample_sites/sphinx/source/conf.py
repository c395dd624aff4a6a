"""Sphinx sample site for sitemap_plugins.sphinx (see ../README.md)."""

import os
import sys

sys.path.insert(0, os.path.abspath(".."))  # tinypkg, for autodoc

project = "Sample Docs"
author = "sitemap-plugins"
copyright = "2025, sitemap-plugins"
version = "1.0"
release = "1.0.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "sitemap_plugins.sphinx",
]
html_theme = os.environ.get("SAMPLE_THEME", "alabaster")
html_baseurl = "https://docs.example.org/sample/"
html_extra_path = ["extra"]
exclude_patterns = ["extra"]

sitemap_plugins = {
    "html_sitemap": "site-map/",
    "robots_txt": "create",
}

"""Other generators' real sitemaps (tests/data/foreign_sitemaps/), and who each names."""

from __future__ import annotations

from pathlib import Path

FOREIGN = Path(__file__).parent / "data" / "foreign_sitemaps"
_WHO = "another tool (the home page names {} as its generator)"
# (folder, the sitemap file, how a warning names its generator)
GENERATORS = [
    ("jekyll", "sitemap.xml", _WHO.format("Jekyll v4.3.3")),
    ("eleventy", "sitemap.xml", "another tool"),
    ("zensical", "sitemap.xml", _WHO.format("zensical-0.0.51")),
    ("docusaurus", "sitemap.xml", _WHO.format("Docusaurus v3.6.3")),
    ("pelican-direct-templates", "sitemap.xml", _WHO.format("Pelican")),
    ("astro", "sitemap-index.xml", _WHO.format("Astro v4.16.18")),
]

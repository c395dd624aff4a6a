"""The validation fixture itself rejects what the schema forbids (so passing means something)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path


def test_schema_rejects_relative_loc(tmp_path: Path, sitemap_urls) -> None:
    """A urlset whose loc is not an absolute URL fails validation."""
    (tmp_path / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>x</loc></url></urlset>\n")
    with pytest.raises(AssertionError, match=r"sitemap\.xml"):
        sitemap_urls(tmp_path)


def test_schema_accepts_alternates(tmp_path: Path, sitemap_urls) -> None:
    """xhtml:link alternates validate with the XHTML schema imported."""
    (tmp_path / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>https://example.org/a</loc>'
        '<xhtml:link rel="alternate" hreflang="fr" href="https://example.org/fr/a"/>'
        "</url></urlset>\n")
    assert sitemap_urls(tmp_path) == ["https://example.org/a"]

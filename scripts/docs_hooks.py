"""MkDocs hooks for this project's documentation site (mkdocs.yml at the repository root).

The options page's table is made from ``config.OPTIONS`` at build time, so it cannot drift
from the code; ``<!-- include: PATH -->`` puts a file of the repository (a recipe, the
benchmarks' README) into a page, so each text lives in one place.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sitemap_plugins.vocab.options import options_markdown

ROOT = Path(__file__).resolve().parents[1]
OPTIONS_MARKER = "<!-- options-table -->"
INCLUDE = re.compile(r"<!-- include: (\S+) -->")


def _include(match: re.Match[str]) -> str:
    return (ROOT / match.group(1)).read_text("utf-8")


def on_page_markdown(markdown: str, **_kwargs: Any) -> str:
    """The generated options table and the included files, in place of their markers."""
    markdown = markdown.replace(OPTIONS_MARKER, options_markdown())
    return INCLUDE.sub(_include, markdown)

"""MkDocs hooks for this project's documentation site (mkdocs.yml at the repository root).

``<!-- include: PATH -->`` puts a file of the repository (a recipe, the benchmarks' README)
into a page, so each text lives in one place. (The options page holds the option table's own
Markdown: tests/test_packaging.py keeps it so.)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = re.compile(r"<!-- include: (\S+) -->")


def _include(match: re.Match[str]) -> str:
    return (ROOT / match.group(1)).read_text("utf-8")


def on_page_markdown(markdown: str, **_kwargs: Any) -> str:
    """The included files, in place of their markers."""
    return INCLUDE.sub(_include, markdown)

"""The floors: what any tool that reads pages must do, and nothing else.

* The I/O floor: walk a site and read the first 8 KiB of every HTML page: the least a tool
  that reads page heads must do.
* The parse floor (``--parse``): walk it, read every HTML page whole and parse it with Lexbor,
  the reader's parser, holding the last tree as the reader does: the least a tool must do that
  reads the main content (its fingerprint, images, videos, headings), as the reader does.

``run.py`` times both in a fresh process, like the build, so interpreter start-up is counted
on every side.

Usage::

    python benchmarks/floor.py SITE_DIR [--bytes 8192 | --parse]
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator


def html_files(root: str) -> Iterator[str]:
    """Every ``.html`` and ``.htm`` file below ``root``, walked with ``os.scandir``."""
    stack = [root]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as listing:
            for entry in listing:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.endswith((".html", ".htm")):
                    yield entry.path


def read_floor(root: str, size: int = 8192) -> tuple[int, int]:
    """Return ``(pages read, bytes read)``."""
    pages = total = 0
    for path in html_files(root):
        with open(path, "rb", buffering=0) as handle:
            total += len(handle.read(size))
        pages += 1
    return pages, total


def parse_floor(root: str) -> tuple[int, int]:
    """Return ``(pages parsed, bytes read)``: every page read whole and parsed."""
    from selectolax.lexbor import LexborHTMLParser  # noqa: PLC0415  # only this floor needs it

    pages = total = 0
    held = None
    for path in html_files(root):
        with open(path, "rb", buffering=0) as handle:
            raw = handle.read()
        held = LexborHTMLParser(raw)  # the last tree freed after the next parse, as the reader
        total += len(raw)
        pages += 1
    del held
    return pages, total


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "--parse":
        count, read = parse_floor(sys.argv[1])
    else:
        size = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--bytes" else 8192
        count, read = read_floor(sys.argv[1], size)
    print(f"{count} {read}")

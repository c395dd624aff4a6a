"""The I/O floor: walk a site and read the first 8 KiB of every HTML page, nothing else.

This is the least any tool that reads page heads must do. ``run.py`` times it in a fresh
process, like the build, so interpreter start-up is counted on both sides.

Usage::

    python benchmarks/floor.py SITE_DIR [--bytes 8192]
"""

from __future__ import annotations

import os
import sys


def read_floor(root: str, size: int = 8192) -> tuple[int, int]:
    """Return ``(pages read, bytes read)``."""
    pages = total = 0
    stack = [root]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as listing:
            for entry in listing:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.endswith((".html", ".htm")):
                    with open(entry.path, "rb", buffering=0) as handle:
                        total += len(handle.read(size))
                    pages += 1
    return pages, total


if __name__ == "__main__":
    size = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--bytes" else 8192
    count, read = read_floor(sys.argv[1], size)
    print(f"{count} {read}")

"""Deterministic gzip: no file name and a fixed time in the header.

The header time is ``SOURCE_DATE_EPOCH`` when set, else 0 ("no time stamp" in RFC 1952), so
the same sitemap always gives the same ``.gz`` bytes.
"""

from __future__ import annotations

import gzip
import os
import shutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

COMPRESS_LEVEL = 9


def header_time() -> int:
    """The gzip header mtime: ``SOURCE_DATE_EPOCH`` or 0."""
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    try:
        value = int(text) if text else 0
    except ValueError:
        return 0
    return value if 0 <= value < 2**32 else 0


def gzip_file(source: Path, target: Path) -> None:
    """Compress ``source`` into ``target`` (streamed, bounded memory)."""
    with source.open("rb") as raw, target.open("wb") as out:
        with gzip.GzipFile(
            filename="", mode="wb", fileobj=out, compresslevel=COMPRESS_LEVEL, mtime=header_time()
        ) as packed:
            shutil.copyfileobj(raw, packed, 1 << 20)
        out.flush()
        os.fsync(out.fileno())

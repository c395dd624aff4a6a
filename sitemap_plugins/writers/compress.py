"""Deterministic gzip: no file name, and a header time that depends only on the content.

The header time is the newest lastmod in the file (when its content last changed), clamped
to ``SOURCE_DATE_EPOCH`` when that is set (the reproducible-builds rule), else 0 ("no time
stamp" in RFC 1952). It never holds the build time, so the same sitemap always gives the
same ``.gz`` bytes, whenever it is built.
"""

from __future__ import annotations

import gzip
import os
import shutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

from sitemap_plugins.dates import Lastmod, sort_key

COMPRESS_LEVEL = 9


def header_time(newest: Lastmod | None) -> int:
    """The gzip header mtime for a file whose newest lastmod is ``newest``."""
    value = int(sort_key(newest).timestamp()) if newest is not None else 0
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if text:
        try:
            value = min(value, int(text))
        except ValueError:
            pass
    return value if 0 <= value < 2**32 else 0


def gzip_file(source: Path, target: Path, newest: Lastmod | None = None) -> None:
    """Compress ``source`` into ``target`` (streamed, bounded memory)."""
    mtime = header_time(newest)
    with source.open("rb") as raw, target.open("wb") as out:
        with gzip.GzipFile(
            filename="", mode="wb", fileobj=out, compresslevel=COMPRESS_LEVEL, mtime=mtime
        ) as packed:
            shutil.copyfileobj(raw, packed, 1 << 20)
        out.flush()
        os.fsync(out.fileno())

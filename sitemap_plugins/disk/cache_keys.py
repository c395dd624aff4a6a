"""Where a site's files are kept in a cache folder: the folder's default place, the site's key."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def default_cache_dir(site: Path) -> Path:
    """The cache folder when none is configured: ``.sitemap-cache`` beside the site."""
    return site.resolve().parent / ".sitemap-cache"


def site_key(site: Path, cache_dir: Path, base_url: str = "") -> str:
    """A name for the site inside a cache folder that other sites may share.

    The folder's name, made safe, then a digest of the site's resolved path relative to the
    cache folder (as bytes) and of ``base_url``: two sites named ``public`` never share a key,
    and a checkout moved with its cache keeps its key.
    """
    real = os.path.realpath(site)
    where = real
    with contextlib.suppress(ValueError):  # another drive (Windows): the whole path
        where = os.path.relpath(real, os.path.realpath(cache_dir))
    name = os.fsencode(os.path.basename(real)) or b"root"
    safe = re.sub(rb"[^A-Za-z0-9._-]", b"_", name)[:64].decode("ascii")
    digest = hashlib.sha256(os.fsencode(where) + b"\0" + base_url.encode("utf-8"))
    return f"{safe}-{digest.hexdigest()[:12]}"


def former_site_key(site: Path) -> str:
    """The key earlier versions gave ``site`` (its folder's name), read once on upgrade."""
    name = os.path.basename(os.path.realpath(site)) or "root"
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:64]
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{safe}-{digest}"

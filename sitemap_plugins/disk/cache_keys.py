"""Where a site's files are kept in a cache folder: the folder's default place, the site's key.

Names only: the lock is named after the key; :mod:`history` and :mod:`owned` name the site's
history and record of files after it.
"""

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

    The folder's name, made safe, for people to read; then a digest of where the site is,
    its resolved path relative to the cache folder, and of ``base_url`` when given. Two
    sites named ``public`` in different places (or one folder built for two base URLs) never
    share a key, so never each other's history or temporary files, while a checkout moved
    elsewhere together with its cache (a CI runner's new workspace) keeps its key. The
    digest is of the path's bytes (``os.fsencode``): the key does not depend on the locale.
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
    """The key that earlier versions gave ``site`` (its folder's name only), to read on.

    Their files in the cache are read once when the site has none of its own key yet, so
    that an upgrade keeps the history and the record of the files written.
    """
    name = os.path.basename(os.path.realpath(site)) or "root"
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:64]
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{safe}-{digest}"

"""Where a build's own files go outside the site: the cache folder and the changes file.

Both are checked before any write: no file of the site is replaced, nothing private published.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from sitemap_plugins.disk.cache_keys import default_cache_dir
from sitemap_plugins.disk.site import is_inside, refuse_special
from sitemap_plugins.vocab.errors import ConfigError

if TYPE_CHECKING:
    from sitemap_plugins.vocab.options import SitemapConfig


def cache_folder(site: Path, config: SitemapConfig) -> Path:
    """Where the manifest lives: ``cache_dir``, or ``.sitemap-cache`` beside the site.

    Raises:
        ConfigError: when that folder is inside the published site.
    """
    default = default_cache_dir(site)
    # Absolute: the manifest is opened by URI, which a relative path cannot be.
    folder = Path(os.path.abspath(config.cache_dir)) if config.cache_dir else default
    if is_inside(site, folder):
        msg = (f"{str(folder)!r} is inside the published site {str(site)!r}; choose a folder "
               "outside it so the manifest is never published")
        raise ConfigError("cache_dir", msg)
    return folder


def check_changes_file(site: Path, config: SitemapConfig, cache_dir: Path | None) -> None:
    """Refuse a ``changes_file`` inside the published site or the cache, before any write.

    There it would replace a page or the manifest, and go online. A folder, a link or a pipe
    at that path, or a missing folder above it, is refused too.

    Raises:
        ConfigError: naming the path.
        WriteError: when a link, a pipe or a device stands there.
    """
    if not config.changes_file:
        return
    path = Path(os.path.abspath(config.changes_file))
    if is_inside(site, path):
        msg = (f"{config.changes_file!r} is inside the published site {str(site)!r}; choose "
               "a path outside it, so that no file of the site is replaced and the report "
               "is not published")
        raise ConfigError("changes_file", msg)
    if cache_dir is not None and (is_inside(cache_dir, path) or is_inside(path, cache_dir)):
        msg = (f"{config.changes_file!r} and the cache folder {str(cache_dir)!r} overlap (one "
               "holds the other); choose a path outside the cache folder")
        raise ConfigError("changes_file", msg)
    # Found only once the sitemap was written, these failed the build after all (exit 1).
    refuse_special(path)  # a link, a pipe, a device: WriteError, left as it is
    if path.is_dir():
        msg = f"{config.changes_file!r} is a folder, not a file; choose the path of a file"
        raise ConfigError("changes_file", msg)
    if not path.parent.is_dir():
        msg = (f"{config.changes_file!r} is in a folder that does not exist; create "
               f"{str(path.parent)!r} first, or choose another path")
        raise ConfigError("changes_file", msg)

"""Locks: one build or merge of a site at a time, one writer of a shared cache file.

A lock file in the cache folder beside the site (never in the published folder), held with
``filelock`` on POSIX and Windows alike; a file system without locks goes on unlocked.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING

import filelock

from sitemap_plugins.disk.cache_keys import default_cache_dir, site_key
from sitemap_plugins.disk.site import make_cache_folder
from sitemap_plugins.vocab.errors import BusyError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

log = logging.getLogger(__name__)

WAIT_SECONDS = 120.0
"""How long a build waits for another build of the same site to finish."""
_POLL = 0.05


@contextlib.contextmanager
def site_lock(site: Path, cache_dir: Path | None = None,
              wait: float | None = None) -> Iterator[None]:
    """Hold the site for one build or merge; wait up to ``wait`` seconds for another.

    The lock file is ``<site key>.lock`` in the default cache folder (else ``cache_dir``).

    Raises:
        BusyError: when the site is still held after ``wait`` seconds.
    """
    def busy(waited: float) -> BusyError:
        return BusyError(str(site), (
            f"another build of this site is still running after {waited:.0f} s; nothing was "
            "written: run this build again once it has finished"))

    folders = [default_cache_dir(site), *([cache_dir] if cache_dir is not None else [])]
    for folder in folders:
        with contextlib.suppress(OSError):
            make_cache_folder(folder)
            break
    # Keyed on the site's place only (no base URL): any build of it and a merge above wait.
    name = f"{site_key(site, folder)}.lock"
    with _hold(folder / name, WAIT_SECONDS if wait is None else wait, busy):
        yield


@contextlib.contextmanager
def folder_lock(folder: Path, wait: float | None = None) -> Iterator[None]:
    """Hold a cache folder while a shared file there (the IndexNow pending list) is rewritten.

    Raises:
        BusyError: when the folder is still held after ``wait`` seconds.
    """
    def busy(waited: float) -> BusyError:
        return BusyError(str(folder), (
            f"another build or submit is still updating it after {waited:.0f} s; run this "
            "one again once it has finished"))

    with _hold(folder / ".sitemap-plugins.lock", WAIT_SECONDS if wait is None else wait, busy):
        yield


@contextlib.contextmanager
def _hold(path: Path, wait: float, busy: Callable[[float], BusyError]) -> Iterator[None]:
    lock = filelock.FileLock(str(path))
    started = time.monotonic()
    try:
        lock.acquire(timeout=wait, poll_interval=_POLL)
    except filelock.Timeout:
        raise busy(time.monotonic() - started) from None
    except (OSError, NotImplementedError) as err:
        # A folder that cannot be written, a file system without locks: go on unlocked.
        log.debug("%s cannot be locked (%s): builds are not serialised", path, err)
        yield
        return
    try:
        yield
    finally:
        lock.release()

"""One build of a site at a time: two at once would interleave their files and manifests.

The lock is the site folder itself, locked with ``flock`` (POSIX): it needs no file of its
own (nothing is published, nothing left behind by a killed run, since the system drops the
lock with the process), and it holds whatever the cache folder and the options. A second
build waits for the first, a bounded time, then fails with one line.

Windows has no lock on a folder: there a lock file in the cache folder is locked with
``msvcrt`` when a cache folder is in use; without one builds are not serialised (a debug line
says so).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sys
import time
from typing import TYPE_CHECKING

from sitemap_plugins.errors import BusyError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

log = logging.getLogger(__name__)

WAIT_SECONDS = 120.0
"""How long a build waits for another build of the same site to finish."""
_POLL = 0.05


def _busy(site: Path, waited: float) -> BusyError:
    return BusyError(str(site), (
        f"another build of this site is still running after {waited:.0f} s; nothing was "
        "written: run this build again once it has finished"))


@contextlib.contextmanager
def site_lock(site: Path, lock_file: Path | None, wait: float | None = None) -> Iterator[None]:
    """Hold the site for one build; wait up to ``wait`` seconds for another to finish.

    ``lock_file``: where to lock on Windows (in the cache folder), or None.

    Raises:
        BusyError: when the site is still held after ``wait`` seconds.
    """
    with _hold(site, lock_file, WAIT_SECONDS if wait is None else wait, lambda waited: _busy(
            site, waited)):
        yield


@contextlib.contextmanager
def folder_lock(folder: Path, wait: float | None = None) -> Iterator[None]:
    """Hold a cache folder while a file that several sites share there is read and rewritten.

    The IndexNow pending list is such a file: sibling sites' builds and ``submit`` each read,
    merge and write it, and two at once would lose one's URLs.

    Raises:
        BusyError: when the folder is still held after ``wait`` seconds.
    """
    def busy(waited: float) -> BusyError:
        return BusyError(str(folder), (
            f"another build or submit is still updating it after {waited:.0f} s; run this "
            "one again once it has finished"))

    with _hold(folder, folder / ".sitemap-plugins.lock", WAIT_SECONDS if wait is None else wait,
               busy):
        yield


@contextlib.contextmanager
def _hold(folder: Path, lock_file: Path | None, wait: float,
          busy: Callable[[float], BusyError]) -> Iterator[None]:
    if sys.platform == "win32":  # pragma: no cover - tested on POSIX only
        with _windows_lock(folder, lock_file, wait, busy):
            yield
        return
    import fcntl  # noqa: PLC0415  # POSIX only

    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as err:
        log.debug("%s cannot be locked (%s): builds are not serialised", folder, err)
        yield
        return
    def take() -> bool:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            # A file system without locks (some network mounts): go on unlocked.
            log.debug("%s cannot be locked (%s): not serialised", folder, err)
        return True

    try:
        _wait_for(take, wait, busy)
        yield
    finally:
        os.close(handle)  # drops the lock


@contextlib.contextmanager
def _windows_lock(  # pragma: no cover - tested on POSIX only
    site: Path, lock_file: Path | None, wait: float, busy: Callable[[float], BusyError],
) -> Iterator[None]:
    import msvcrt  # noqa: PLC0415  # Windows only

    if lock_file is None:
        log.debug("no cache folder to lock %s in: builds are not serialised", site)
        yield
        return
    try:
        lock_file.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(lock_file, os.O_RDWR | os.O_CREAT)
    except OSError as err:
        log.debug("%s cannot be locked (%s): builds are not serialised", site, err)
        yield
        return
    def take() -> bool:
        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True

    try:
        _wait_for(take, wait, busy)
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                os.lseek(handle, 0, os.SEEK_SET)
                msvcrt.locking(handle, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
    finally:
        os.close(handle)


def _wait_for(take: Callable[[], bool], wait: float,
              busy: Callable[[float], BusyError]) -> None:
    """Try ``take`` until it holds the lock, for at most ``wait`` seconds.

    Raises:
        BusyError: from ``busy`` once the wait is over.
    """
    started = time.monotonic()
    while not take():
        waited = time.monotonic() - started
        if waited >= wait:
            raise busy(waited)
        time.sleep(_POLL)

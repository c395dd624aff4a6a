"""The door to the published folder: walk it, read it, lock it, write into it atomically.

Floor: the door (the only module that touches the published site, with :mod:`owned` for what
this tool wrote there and :mod:`history` for the cache folder). May touch: the site folder.

The walk is iterative (10,000 nested folders do not hit the recursion limit), never leaves
the site through a symlink, never loops, and skips hidden entries (``.git``, ``.well-known``).
Each folder's listing is sorted by name, so the same tree always gives the same order.
Writes go to a temporary file beside the target, then a rename: a crash at any point leaves
the old file whole. Temporary files carry a recognisable hidden name so that the walk never
lists them and the next run removes any that a killed run left behind.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import secrets
import stat
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from sitemap_plugins.errors import BusyError, Diagnostic, Level, WriteError
from sitemap_plugins.options import own_file_pattern

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator
    from pathlib import Path


# -------------------- formerly scan.py

SkipCallback = Callable[[str, str, "Diagnostic | None"], None]

REASON_HIDDEN = "hidden"
REASON_SYMLINK = "symlink out of the site"
REASON_SITEMAP_FILE = "sitemap file"
REASON_DUPLICATE = "duplicate URL"
REASON_LINKED = "symlink to a page listed under its own path"
REASON_UNREADABLE = "unreadable"
_INDEX_NAMES = ("index.html", "index.htm")


class BuiltFile(NamedTuple):
    """One file of the built site that may be listed."""

    rel_path: str
    """POSIX path relative to the site root, e.g. ``guide/index.html``."""
    abs_path: str


def scan_site(
    root: str,
    *,
    extensions: tuple[str, ...],
    sitemap_name: str,
    directory_urls: bool,
    on_skip: SkipCallback,
    own_names: frozenset[str] = frozenset(),
) -> Iterator[BuiltFile]:
    """Yield the files under ``root`` whose extension is listed, in a stable order.

    Files passed over for a reason worth counting (hidden, symlinks out, our own sitemap
    files, a second index file for the same folder URL) are reported through ``on_skip``.
    ``own_names``: more files of ours at the root, never listed (the IndexNow key file).
    """
    real_root = os.path.realpath(root)
    own_files = own_file_pattern(sitemap_name)
    root_stat = os.stat(real_root)
    # (its relative path, remaining entries in reverse walk order, its (dev, inode))
    stack: list[tuple[str, list[os.DirEntry[str]], tuple[int, int]]] = []
    ancestors: set[tuple[int, int]] = set()
    followed: set[str] = set()  # targets of the links followed (hidden folders or files)

    def push(path: str, rel: str, ident: tuple[int, int]) -> None:
        try:
            with os.scandir(path) as listing:
                entries = list(listing)
            if len(entries) > 1:  # most folders of a site with directory URLs hold one page
                entries.sort(key=_walk_order, reverse=True)
        except OSError as err:
            on_skip(rel or ".", REASON_UNREADABLE, Diagnostic(
                rel or ".", "unreadable-folder", f"folder cannot be read: {err.strerror}"))
            return
        stack.append((rel, entries, ident))
        ancestors.add(ident)

    push(real_root, "", (root_stat.st_dev, root_stat.st_ino))
    report = on_skip
    while stack:
        rel_dir, entries, ident = stack[-1]
        if not entries:
            stack.pop()
            ancestors.discard(ident)
            continue
        entry = entries.pop()
        rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
        if entry.name.startswith("."):
            report(rel, REASON_HIDDEN, None)
            continue
        try:
            is_link = entry.is_symlink()
            is_dir = entry.is_dir()  # follows links
        except OSError as err:
            report(rel, REASON_UNREADABLE, Diagnostic(rel, "unreadable", str(err.strerror)))
            continue
        path = entry.path
        if is_link:
            target = os.path.realpath(path)
            if not is_dir and not _has_extension(entry.name, extensions):
                continue  # never a page, wherever it leads: nothing to say (robots.txt says)
            if os.path.commonpath([target, real_root]) != real_root:
                report(rel, REASON_SYMLINK, Diagnostic(
                    rel, "symlink-out", "is a symlink that leaves the site folder; not followed"))
                continue
            if not os.path.exists(target):
                report(rel, REASON_UNREADABLE, Diagnostic(
                    rel, "broken-symlink", "is a symlink to nothing"))
                continue
            # A file reached by several paths is listed once, under its own: links to what
            # the walk reaches anyway are not followed, and a hidden target (which it does
            # not reach) is followed through one link only. Links fanning out to the same
            # folders made the walk exponential (14 pages gave 16,370 URLs).
            own = os.path.relpath(target, real_root).replace(os.sep, "/")
            walked = own != "." and not any(part.startswith(".") for part in own.split("/"))
            if ((walked or target in followed) and (is_dir or os.path.isfile(target))
                    and not _is_ancestor(target, is_dir, ancestors)):
                report(rel, REASON_LINKED, Diagnostic(
                    rel, "symlink-duplicate",
                    f"is a symlink to {own if own != '.' else 'the site root'}, which is "
                    "listed under its own path; not followed", Level.INFO))
                continue
            followed.add(target)
        if is_dir:
            if is_link:
                try:
                    info = entry.stat()
                except OSError as err:
                    report(rel, REASON_UNREADABLE,
                           Diagnostic(rel, "unreadable", str(err.strerror)))
                    continue
                child = (info.st_dev, info.st_ino)
            else:
                # Only a link can lead back up, so a plain folder needs no stat call: the
                # listing gives its inode. Past
                # a mount point the device is the parent's; a link into such a folder is
                # then caught one level further down, where its own stat is recorded.
                child = (ident[0], entry.inode())
            if child in ancestors:
                report(rel, REASON_SYMLINK, Diagnostic(
                    rel, "symlink-loop", "is a symlink loop back to a parent folder; not followed",
                    Level.INFO))
                continue
            push(path, rel, child)
            continue
        name = entry.name
        if not _has_extension(name, extensions):
            continue
        if not rel_dir and (own_files.match(name) or name in own_names):
            on_skip(rel, REASON_SITEMAP_FILE, None)
            continue
        # A named pipe called "x.html" would block the reader forever (open() waits for a
        # writer); sockets and devices are not pages either. is_file() follows symlinks.
        try:
            is_file = entry.is_file()
        except OSError:
            is_file = False
        if not is_file:
            on_skip(rel, REASON_UNREADABLE, Diagnostic(
                rel, "not-a-file", "is not a regular file (a pipe, socket or device); not read"))
            continue
        if directory_urls and name in _INDEX_NAMES and _shadowed_index(name, entries):
            on_skip(rel, REASON_DUPLICATE, Diagnostic(
                rel, "duplicate-index",
                f"has the same folder URL as another index file in {rel_dir or 'the root'!r}",
                Level.INFO))
            continue
        yield BuiltFile(rel, path)


def _has_extension(name: str, extensions: tuple[str, ...]) -> bool:
    dot = name.rfind(".")
    return dot > 0 and name[dot:].lower() in extensions


def _is_ancestor(target: str, is_dir: bool, ancestors: set[tuple[int, int]]) -> bool:  # noqa: FBT001
    """Whether a link's target is a folder the walk is inside (a loop, reported as one)."""
    if not is_dir:
        return False
    try:
        info = os.stat(target)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) in ancestors


def _walk_order(entry: os.DirEntry[str]) -> tuple[bool, bool, str]:
    """A folder's index page first, then its other files, then its subfolders, by name.

    The sitemap then reads like the site's tree: a section's page before the pages in it.
    Only ``index.html`` and ``index.htm`` are index pages (``Index.html`` is a page of its
    own: a server on a case-sensitive file system does not answer ``a/`` with it).
    """
    try:
        is_dir = entry.is_dir()
    except OSError:
        is_dir = False
    name = entry.name
    return (is_dir, name not in _INDEX_NAMES, name)


def _shadowed_index(name: str, remaining: list[os.DirEntry[str]]) -> bool:
    """Whether ``index.html`` is still to come when ``name`` is ``index.htm``.

    ``remaining`` is the rest of the folder in reverse walk order; "index.htm" sorts before
    "index.html", so the preferred one is always later in the walk.
    """
    if name != "index.htm":
        return False
    for other in remaining:
        if other.name == "index.html":
            try:
                if other.is_file():  # a folder named index.html serves nothing
                    return True
            except OSError:
                pass
    return False


# -------------------- formerly writers/atomic.py

TEMP_PREFIX = ".sitemap-plugins-tmp-"


_TOKEN_LENGTH = 12


def temp_path_for(target: Path) -> Path:
    """A fresh hidden temporary name in the target's folder (same file system)."""
    return target.parent / f"{TEMP_PREFIX}{secrets.token_hex(_TOKEN_LENGTH // 2)}-{target.name}"


def explain(err: OSError) -> str:
    """A user-facing explanation of a write failure."""
    if err.errno == errno.ENOSPC:
        return "the disk is full; the previous file was kept"
    if err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"permission denied ({err.strerror}); the previous file was kept"
    return f"{err.strerror or err}; the previous file was kept"


# A folder needs no check: a rename onto it fails by itself, and the old one is kept.
_SPECIAL = (
    (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
)


def special_kind(mode: int) -> str | None:
    """What a file of this ``st_mode`` is when it is not a regular file or folder, or None."""
    return next((what for test, what in _SPECIAL if test(mode)), None)


def refuse_special(target: Path) -> None:
    """Stop before replacing anything but a regular file: a link, a device, a pipe.

    A rename would put a file in its place (a symlink the user made to share one file, a
    device node), and opening a pipe would wait for a writer forever.

    Raises:
        WriteError: naming what stands there; it is left as it is.

    """
    try:
        mode = os.lstat(target).st_mode
    except OSError:
        return  # nothing there (or nothing we can see): the write itself will say
    for test, what in _SPECIAL:
        if test(mode):
            raise WriteError(str(target), f"is {what}, not a regular file; it was left as it "
                             "is (remove it, or choose another name, to let the file be written)")


def write_bytes_atomic(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` atomically, keeping the old file's permissions.

    Raises:
        WriteError: with the target path and a clear reason; the old file is untouched.

    """
    refuse_special(target)
    temp = temp_path_for(target)
    try:
        with temp.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temp, os.stat(target).st_mode & 0o7777)
        os.replace(temp, target)
    except BaseException as err:
        # Any failure (not only OSError: an interrupt, a bug) must not leave the temporary
        # file behind; only a clean os.replace() hands it over.
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(err, OSError):
            raise WriteError(str(target), explain(err)) from err
        raise


def commit(temp: Path, target: Path) -> None:
    """Move a finished temporary file into place.

    Raises:
        WriteError: when the rename fails.

    """
    try:
        refuse_special(target)
        os.replace(temp, target)
    except OSError as err:
        raise WriteError(str(target), explain(err)) from err
    except WriteError:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def remove_leftovers(folder: Path, targets: Collection[str] | None = None) -> list[Path]:
    """Delete temporary files that a killed earlier run left in ``folder``.

    ``targets``: only those of files of these names (a shared folder may hold another
    build's files in progress); all when None.
    """
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if name.startswith(TEMP_PREFIX) and (
                targets is None
                or name[len(TEMP_PREFIX) + _TOKEN_LENGTH + 1:] in targets):
            path = folder / name
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


# -------------------- formerly lock.py

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


_HEAD_READ = 16 * 1024
_MAX_HEAD = 1024 * 1024


def read_head(path: str) -> bytes | None:
    """The start of a page a host just wrote, up to its ``</head>``.

    None when there is none within the first MiB (the page is then read whole, as any other).
    """
    found = b""
    try:
        with open(path, "rb") as handle:  # a path as Pelican gives it
            while len(found) < _MAX_HEAD:
                chunk = handle.read(_HEAD_READ)
                if not chunk:
                    break
                start = max(0, len(found) - 8)  # "</head>" may straddle two chunks
                found += chunk
                end = found.lower().find(b"</head", start)
                if end >= 0:
                    return found[:end]
    except OSError:
        return None
    return None

"""The door to the published folder: walk it, read it, lock it, write into it atomically.

The walk is iterative, never leaves the site through a symlink, never loops, skips hidden
entries and sorts each listing, so a tree always gives the same order. Writes go to a hidden
temporary file beside the target, then a rename: a crash leaves the old file whole, and the
next run removes leftovers.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import sys
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, NamedTuple

import xxhash

from sitemap_plugins.entry.render import (
    NotASitemapError,
    gunzip,
    sitemap_kind_of,
    stream_sitemap_entries,
)
from sitemap_plugins.entry.robots_txt import MAX_ROBOTS_BYTES, editable
from sitemap_plugins.entry.rules import REASON_UNREADABLE
from sitemap_plugins.page.reader import HEAD_END, MAX_HEAD_BYTES, MAX_PARSED_BYTES, PageBytes
from sitemap_plugins.vocab.errors import (
    Diagnostic,
    Level,
    WriteError,
    explain,
    special_kind,
)
from sitemap_plugins.vocab.options import own_file_pattern, temp_name, temp_target
from sitemap_plugins.vocab.urls import INDEX_NAMES

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable


log = logging.getLogger(__name__)


# -------------------- where a path leads, and what stands there

def is_inside(site: Path | str, path: Path | str) -> bool:
    """Whether ``path``, its links followed, lies in the folder ``site``."""
    real_site = os.path.realpath(site)
    return os.path.commonpath([real_site, os.path.realpath(path)]) == real_site


def is_regular(path: Path) -> bool:
    """Whether a regular file stands at ``path`` itself (a link to one is not)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def stdout_to_nowhere(stream: IO[str] | None = None) -> None:
    """Point a standard stream (default: stdout) at the null device once it fails (``| head``)."""
    target = stream or sys.stdout
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no descriptor (a capture)
        os.dup2(os.open(os.devnull, os.O_WRONLY), target.fileno())


def fill_closed_streams() -> None:
    """Open the null device on closed descriptors 0-2 (``cmd >&-``), so no file takes them."""
    for number in (0, 1, 2):
        with contextlib.suppress(OSError):
            os.fstat(number)
            continue
        with contextlib.suppress(OSError):
            os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one


def what_stands(path: Path) -> str | None:
    """What stands at ``path`` if not a regular file (``a folder``...); None for a file or none."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as err:
        return f"something that cannot be looked at ({err.strerror})"
    if stat.S_ISREG(mode):
        return None
    return "a folder" if stat.S_ISDIR(mode) else special_kind(mode) or "not a regular file"


def refuse_special(target: Path) -> None:
    """Stop before replacing or opening anything but a regular file: a link, a device, a pipe.

    Raises:
        WriteError: naming what stands there; it is left as it is.
    """
    try:
        mode = os.lstat(target).st_mode
    except OSError:
        return  # nothing there (or nothing we can see): the write itself will say
    what = special_kind(mode)
    if what is not None:
        raise WriteError(str(target), f"is {what}, not a regular file; it was left as it "
                         "is (remove it, or choose another name, to let the file be written)")


_GITIGNORE = b"# Made by sitemap-plugins: the lastmod manifest is a cache, not a source.\n*\n"


def make_cache_folder(folder: Path) -> None:
    """Create a cache folder (and parents), with a ``.gitignore`` only when this call made it.

    Raises:
        OSError: when it cannot be created.
    """
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        if folder.is_dir():
            return
        # Said as it is: "File exists" reads as if the folder were fine.
        what = ("a file" if folder.is_file() else "a link to nothing (or a loop of links)"
                if folder.is_symlink() else "something else")
        msg = f"it is {what}, not a folder: choose another cache_dir"
        raise NotADirectoryError(errno.ENOTDIR, msg) from None
    target = folder / ".gitignore"
    if not os.path.lexists(target):
        write_bytes_atomic(target, _GITIGNORE)


# -------------------- the walk

SkipCallback = Callable[[str, str, "Diagnostic | None"], None]

REASON_HIDDEN = "hidden"
REASON_SYMLINK = "symlink out of the site"
REASON_SITEMAP_FILE = "sitemap file"
REASON_DUPLICATE = "duplicate URL"
REASON_LINKED = "symlink to a page listed under its own path"


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

    Files passed over for a reason worth counting are reported through ``on_skip``.
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
            # A file reached by several paths is listed once, under its own; a hidden target
            # through one link only (else links fanning out are exponential).
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
                # Only a link can lead back up: a plain folder's inode is the listing's.
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
        # A named pipe "x.html" would block the reader forever; is_file() follows links.
        try:
            is_file = entry.is_file()
        except OSError:
            is_file = False
        if not is_file:
            on_skip(rel, REASON_UNREADABLE, Diagnostic(
                rel, "not-a-file", "is not a regular file (a pipe, socket or device); not read"))
            continue
        if directory_urls and name in INDEX_NAMES and _shadowed_index(name, entries):
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

    Only ``index.html`` and ``index.htm`` are index pages (a case-sensitive server ignores
    ``Index.html`` for ``a/``).
    """
    try:
        is_dir = entry.is_dir()
    except OSError:
        is_dir = False
    name = entry.name
    return (is_dir, name not in INDEX_NAMES, name)


def _shadowed_index(name: str, remaining: list[os.DirEntry[str]]) -> bool:
    """Whether ``index.html`` is still to come (in reverse walk order) when ``name`` is ``.htm``."""
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


# -------------------- reading

_CHUNK = 1 << 20
_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | os.O_NONBLOCK


def read_bytes(path: str) -> PageBytes:
    """Read a page: whole up to the parsing bound, then only hashed, in chunks.

    Raises:
        OSError: when it cannot be opened or read, or is not a regular file (never waited on).
    """
    bound = MAX_PARSED_BYTES
    descriptor = os.open(path, _FLAGS)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(0, "not a regular file")
        # read(n) allocates n bytes up front: ask for the file's size, not the bound.
        wanted = min(status.st_size, bound) + 1
        parts = [os.read(descriptor, wanted)]
        size = len(parts[0])
        # A short read (network file systems): read on up to fstat's size.
        while size < min(wanted, status.st_size):
            more = os.read(descriptor, wanted - size)
            if not more:
                break
            parts.append(more)
            size += len(more)
        raw = b"".join(parts) if len(parts) > 1 else parts[0]
        if size <= bound:
            return PageBytes(raw, complete=True, digest=xxhash.xxh3_128_digest(raw),
                             mtime=status.st_mtime)
        hasher = xxhash.xxh3_128(raw)
        head_end = HEAD_END.search(raw)
        kept = [raw[:max(bound, head_end.end())] if head_end is not None else raw]
        # Cut inside a <script> or <style> of an open head: its body is skipped (hashed only),
        # and the head after it is kept up to its end or MAX_HEAD_BYTES.
        closer = _open_raw_element(raw) if head_end is None else None
        size, tail, keeping = len(raw), b"", False
        while chunk := os.read(descriptor, _CHUNK):
            hasher.update(chunk)
            if closer is None:
                continue
            if not keeping:  # inside the element's body: nothing is kept until its end tag
                joined = tail + chunk
                at = joined.lower().find(closer)
                if at < 0:
                    tail = joined[-16:]
                    continue
                chunk, tail, keeping = joined[at:], b"", True
            found = HEAD_END.search(tail + chunk)
            piece = chunk if found is None else chunk[:max(0, found.end() - len(tail))]
            piece = piece[:MAX_HEAD_BYTES - size]
            kept.append(piece)
            size += len(piece)
            tail = (tail + piece)[-16:]
            if found is not None or size >= MAX_HEAD_BYTES:
                closer = None
        return PageBytes(b"".join(kept), complete=False, digest=hasher.digest(),
                         mtime=status.st_mtime)
    finally:
        os.close(descriptor)


def _open_raw_element(raw: bytes) -> bytes | None:
    """``</script`` or ``</style`` when ``raw`` ends inside that element, else None."""
    low = raw.lower()
    opened = max(low.rfind(b"<script"), low.rfind(b"<style"))
    if opened < 0:
        return None
    closer = b"</script" if low.startswith(b"<script", opened) else b"</style"
    return closer if low.find(closer, opened) < 0 else None


def read_file(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file at ``path`` (links followed).

    Looked at before it is opened: a socket, a pipe or a device may never answer.

    Raises:
        OSError: when it cannot be read or is not a regular file.
    """
    what = special_kind(os.stat(path).st_mode)
    if what is not None:
        raise OSError(0, f"is not a regular file ({what}); not read")
    with os.fdopen(os.open(path, _FLAGS), "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode  # it may have been swapped meanwhile
        if not stat.S_ISREG(mode):
            raise OSError(0, f"is not a regular file ({special_kind(mode) or 'a folder'}); "
                             "not read")
        return handle.read(limit)


def read_own(path: Path, limit: int) -> bytes | None:
    """At most ``limit`` bytes of a regular file at ``path`` itself; None for anything else."""
    if not is_regular(path):
        return None
    try:
        return read_file(path, limit)
    except OSError:
        return None


def read_in_site(site: Path, name: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the file ``name`` of the site.

    Raises:
        OSError: when it cannot be read, leads out of the site, or is not a regular file.
    """
    path = site / name
    if any(part == ".." for part in Path(name).parts) or not is_inside(site, path):
        raise OSError(0, "leads out of the site folder; not read")
    return read_file(path, limit)


def read_robots(site: Path, limit: int) -> bytes | None:
    """What crawlers read of the site's robots.txt; None when there is none in the site.

    Raises:
        OSError: when it is there but cannot be read.
    """
    real = Path(os.path.realpath(site / "robots.txt"))
    return read_file(real, limit) if real.is_file() and is_inside(site, real) else None


def read_chunks(path: Path) -> Iterator[bytes]:
    """A file's bytes a chunk at a time (memory stays bounded).

    Raises:
        OSError: when it cannot be read.
    """
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            yield chunk


def same_files(one: Path, other: Path) -> bool:
    """Whether two files hold the same bytes, compared a chunk at a time."""
    try:
        if one.stat().st_size != other.stat().st_size:
            return False
        return all(a == b for a, b in zip(read_chunks(one), read_chunks(other), strict=True))
    except (OSError, ValueError):
        return False


def list_names(folder: Path) -> list[str]:
    """The names in ``folder``, sorted; empty when it cannot be listed."""
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


# -------------------- our own sitemaps, read back (render's one expat reader)

_MAX_SITEMAP_BYTES = 52_428_800  # the protocol's limit of one file, uncompressed


def sitemap_entries(path: Path) -> Iterator[tuple[str, str, str]]:
    """``(root tag, loc, lastmod)`` per ``<url>`` or ``<sitemap>`` of a sitemap, streamed.

    Raises:
        NotASitemapError: when the file is not a sitemaps.org urlset or index, or not XML.
        OSError: when it cannot be read.
    """
    yield from stream_sitemap_entries(sitemap_chunks(path))


def sitemap_chunks(path: Path) -> Iterator[bytes]:
    """A sitemap file's bytes a chunk at a time, inflated when its name ends in ``.gz``.

    At most the protocol's 52,428,800 bytes, inflated too: a gzip bomb stops there.

    Raises:
        NotASitemapError: when it is empty, larger, or a ``.gz`` that is not gzip.
        OSError: when it cannot be read or is not a regular file (a pipe would never end).
    """
    what = special_kind(os.stat(path).st_mode)
    if what is not None:
        raise OSError(0, f"is not a regular file ({what}); not read")
    size = path.stat().st_size
    if not 0 < size <= _MAX_SITEMAP_BYTES:
        msg = f"has {size:,} bytes; a sitemap has 1 to 52,428,800"
        raise NotASitemapError(msg)
    if not path.name.endswith(".gz"):
        yield from read_chunks(path)
        return
    inflated, packed = 0, read_file(path, _MAX_SITEMAP_BYTES)
    try:
        for chunk in gunzip(packed, _MAX_SITEMAP_BYTES):
            inflated += len(chunk)
            if inflated > _MAX_SITEMAP_BYTES:
                msg = "inflates past 52,428,800 bytes (the protocol's limit)"
                raise NotASitemapError(msg)
            yield chunk
    except (OSError, EOFError, zlib.error) as err:
        msg = f"is not a valid gzip file ({err})"
        raise NotASitemapError(msg) from None


def sitemap_kind(path: Path) -> str:
    """``urlset``, ``sitemapindex``, or "" (neither, unreadable), read up to its root element."""
    try:
        return sitemap_kind_of(read_chunks(path))
    except OSError:
        return ""


# -------------------- writing

# Temporary files named and not yet put in place or deleted: naming one records it first,
# so an interrupt at any moment leaves nothing behind (discard_unfinished).
_UNFINISHED: set[Path] = set()


def temp_path_for(target: Path) -> Path:
    """A fresh hidden temporary name in the target's folder (same file system)."""
    path = target.parent / temp_name(target.name)
    _UNFINISHED.add(path)
    return path


def finished(temp: Path) -> None:
    """``temp`` was put in place or deleted: nothing of it is left to clean up."""
    _UNFINISHED.discard(temp)


def discard_unfinished() -> None:
    """Delete the temporary files this process began and did not finish (after an interrupt)."""
    while _UNFINISHED:
        with contextlib.suppress(OSError):
            _UNFINISHED.pop().unlink()


class Staged:
    """A temporary file beside ``target``, written in pieces, then committed or discarded.

    Raises:
        OSError: when it cannot be created.
    """

    def __init__(self, target: Path, buffering: int = _CHUNK) -> None:
        self.target = target
        self.path = temp_path_for(target)
        self._handle: IO[bytes] | None = self.path.open("wb", buffering=buffering)

    def write(self, data: bytes) -> None:
        """Append ``data``."""
        assert self._handle is not None
        self._handle.write(data)

    def close(self, *, sync: bool = False) -> None:
        """Finish the file (on the disk itself with ``sync``)."""
        if self._handle is not None:  # kept until closed: discard() closes it after a failure
            if sync:
                self._handle.flush()
                os.fsync(self._handle.fileno())
            self._handle.close()
            self._handle = None

    def discard(self) -> None:
        """Delete it (after an error); whatever fails, the file goes."""
        if self._handle is not None:
            # Closing a handle whose flush failed (full disk) raises again.
            with contextlib.suppress(Exception):
                self._handle.close()
            self._handle = None
        with contextlib.suppress(OSError):
            self.path.unlink()
        finished(self.path)


def stage(target: Path, pieces: Iterable[bytes], *, sync: bool = False) -> Path:
    """A finished temporary file beside ``target`` holding ``pieces``; its path.

    Raises:
        OSError: when it cannot be written (nothing is left behind).
    """
    staged = Staged(target)
    try:
        for piece in pieces:
            staged.write(piece)
        staged.close(sync=sync)
    except BaseException:
        staged.discard()
        raise
    return staged.path


def write_bytes_atomic(target: Path, data: bytes, *, make_folder: bool = False) -> None:
    """Replace ``target`` with ``data`` atomically, keeping the old file's permissions.

    ``make_folder``: make the target's folder first when it is missing.

    Raises:
        WriteError: with the target path and a clear reason; the old file is untouched.
    """
    refuse_special(target)
    temp = temp_path_for(target)
    try:
        if make_folder:
            target.parent.mkdir(parents=True, exist_ok=True)
        with temp.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temp, os.stat(target).st_mode & 0o7777)
        os.replace(temp, target)
        finished(temp)
    except BaseException as err:
        # Any failure (an interrupt, a bug too) must not leave the temporary file behind.
        with contextlib.suppress(OSError):
            temp.unlink()
        finished(temp)
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
        finished(temp)
    except OSError as err:
        raise WriteError(str(target), explain(err)) from err
    except WriteError:
        with contextlib.suppress(OSError):
            temp.unlink()
        finished(temp)
        raise


def discard(temps: Iterable[Path]) -> None:
    """Delete temporary files (after an error), whatever fails."""
    for temp in temps:
        with contextlib.suppress(OSError):
            temp.unlink()
        finished(temp)


def remove(path: Path, *, folder_too: bool = False) -> None:
    """Delete the file at ``path`` (and its folder with ``folder_too``, when empty then).

    Raises:
        OSError: when the file cannot be removed.
    """
    path.unlink()
    finished(path)
    if folder_too:
        with contextlib.suppress(OSError):
            path.parent.rmdir()


def remove_leftovers(folder: Path, targets: Collection[str] | None = None) -> list[Path]:
    """Delete temporary files a killed earlier run left in ``folder`` (``targets``' only)."""
    removed: list[Path] = []
    for name in list_names(folder):
        target = temp_target(name)
        if target is not None and (targets is None or target in targets):
            path = folder / name
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def write_if_changed(path: Path, data: bytes) -> bool:
    """Replace ``path`` with ``data`` unless it holds them already; whether it was written.

    Raises:
        WriteError: when it cannot be written; the old file is kept.
    """
    if read_own(path, len(data) + 1) == data:
        return False
    write_bytes_atomic(path, data)
    return True


def remove_files(folder: Path, names: Iterable[str]) -> list[str]:
    """Remove the files ``names`` of ``folder`` that can be; the names removed."""
    removed: list[str] = []
    for name in names:
        try:
            remove(folder / name)
        except OSError:
            continue
        removed.append(name)
    return removed


def read_editable(path: Path) -> tuple[bytes | None, str]:
    """A robots.txt to add lines to (:func:`~sitemap_plugins.editable`).

    Raises:
        OSError: when it cannot be read.
    """
    return editable(read_file(path, MAX_ROBOTS_BYTES + 1))


_HEAD_READ = 16 * 1024
_MAX_HEAD = 1024 * 1024


def read_head(path: str) -> bytes | None:
    """A written page up to its ``</head>``; None when not within the first MiB (read whole)."""
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

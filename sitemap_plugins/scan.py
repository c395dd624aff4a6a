"""Walk a built site folder and yield its candidate files in a stable order.

The walk is iterative (10,000 nested folders do not hit the recursion limit), never leaves
the site through a symlink, never loops, and skips hidden entries (``.git``, ``.well-known``).
Each folder's listing is sorted by name, so the same tree always gives the same order.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from sitemap_plugins.errors import Diagnostic, Level

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


def own_file_pattern(sitemap_name: str) -> re.Pattern[str]:
    """Names of the files this tool writes at the site root (never listed as pages)."""
    name = re.escape(sitemap_name)
    return re.compile(
        rf"(?:{name}(?:-\d+)?\.(?:xml|txt)|{name}-txt-index\.xml|{name}-news\.xml)(?:\.gz)?\Z|robots-sitemap\.txt\Z"
    )


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

"""Errors the core raises and the diagnostics it reports back to its callers.

It imports nothing of the package. The words every message shares live here too:
:func:`received`, :func:`unknown_key`, :func:`explain` and :func:`special_kind`.
"""

from __future__ import annotations

import difflib
import errno
import re
import stat
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable


_SHOWN = 240
"""Characters of a path a message shows: room for a deep absolute path, not for the
2,000-character one of a trap."""


def shown_path(path: str) -> str:
    """``path`` fit for a one-line message: a long one keeps its start and end around "…"."""
    if len(path) <= _SHOWN:
        return path
    keep = (_SHOWN - 1) // 2
    return f"{path[:keep]}…{path[-keep:]}"


_LONG_WORD = re.compile(rf"\S{{{_SHOWN + 1},}}")


def shown_text(message: str) -> str:
    """``message`` with each path or URL in it longer than a line shortened (:func:`shown_path`)."""
    return _LONG_WORD.sub(lambda found: shown_path(found.group()), message)


class SitemapError(Exception):
    """Base class of every error the core raises on purpose."""


class ConfigError(SitemapError):
    """An option has a bad value; the message does not name it (each caller adds where)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option
        self.message = message


# A bad value is shown this far: a message stays one readable line.
_MOST_SHOWN = 200


def received(value: object) -> str:
    """A bad value as every message shows it, ``'docs/*' (str)``, bounded for huge values."""
    try:
        shown = repr(value)
    except (ValueError, RecursionError):
        shown = "a value too large to show"
    if len(shown) > _MOST_SHOWN:
        shown = shown[:_MOST_SHOWN] + "..."
    return f"{shown} ({type(value).__name__})"


def unknown_key(key: object, known: Iterable[str], what: str = "option") -> str:
    """The message for a key that is not one of ``known``, with the closest one as a hint."""
    close = difflib.get_close_matches(str(key), sorted(known), n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    return f"Unrecognised {what}.{hint}"


class PageValueError(SitemapError):
    """A page's own sitemap value (front matter, metadata) is bad; it stops the build."""

    def __init__(self, page: str, key: str, message: str) -> None:
        super().__init__(message)
        self.page = page
        self.key = key
        self.message = message

    def __str__(self) -> str:
        return f"Page {shown_path(self.page)!r} sitemap value {self.key!r}: {self.message}"


class PathError(SitemapError):
    """An error about one file or folder; ``path`` says which."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return f"{shown_path(self.path)}: {shown_text(self.message)}"


class BusyError(PathError):
    """Something the build needs is held by another process longer than it waits (no write)."""

    def __reduce__(self) -> tuple[type[BusyError], tuple[str, str]]:
        # Raised in a worker process too, and sent back to the main one.
        return type(self), (self.path, self.message)


class ScanError(PathError):
    """The site folder cannot be read at all (missing, not a folder)."""


class WriteError(PathError):
    """A sitemap file could not be written; the old file, if any, is left whole."""


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
    """What a file of this ``st_mode`` is when not a regular file or folder (a pipe), or None."""
    return next((what for test, what in _SPECIAL if test(mode)), None)


class Level(str, Enum):
    """How loudly a host should report a diagnostic."""

    INFO = "info"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """Something a user should hear about: a page left out for a surprising reason, a bad file.

    ``path`` is relative to the site root (POSIX style) or empty for site-wide notes.
    """

    path: str
    code: str
    message: str
    level: Level = Level.WARNING

    def __str__(self) -> str:
        where = f"{shown_path(self.path)!r}: " if self.path else ""
        return f"{where}{shown_text(self.message)}"

"""Atomic file replacement: write a temporary file beside the target, then rename.

A crash at any point leaves the old file whole. Temporary files carry a recognisable hidden
name so that the scanner never lists them and the next run removes any that a killed run
left behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from typing import TYPE_CHECKING

from sitemap_plugins.errors import WriteError

if TYPE_CHECKING:
    from collections.abc import Collection
    from pathlib import Path

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

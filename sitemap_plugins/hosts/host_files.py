"""What an adapter needs of its host's source files (adapters neither walk nor open); read-only."""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)


def files_under(path: str) -> list[str]:
    """The files a folder (or a file) copies into a site, relative POSIX paths, sorted."""
    if os.path.isfile(path):
        return [os.path.basename(path)]
    return sorted(os.path.relpath(os.path.join(parent, name), path).replace(os.sep, "/")
                  for parent, _dirs, names in os.walk(path) for name in names)


def subfolders(path: str) -> list[str]:
    """The names of the folders in ``path``, sorted (none when it is no folder)."""
    try:
        return sorted(entry.name for entry in os.scandir(path) if entry.is_dir())
    except OSError:
        return []


def source_text(path: str) -> str | None:
    """A UTF-8 source file's text (a BOM dropped); None when it cannot be read as one."""
    try:
        with open(path, encoding="utf-8-sig", errors="strict") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        log.debug("cannot read %s: %s", path, err)
        return None

"""Documentation versions side by side: mike's ``versions.json``, Read the Docs' folders.

Pure: which versions the merge's root index offers; the others keep their own sitemaps.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from sitemap_plugins.vocab.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Sequence

VERSIONS_FILE = "versions.json"
VERSIONS_SHAPE = "expected a list of objects with 'version' and 'aliases'"
"""What a ``versions.json`` that is not mike's list is told it should be."""


# -- mike -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Versions:
    """mike's ``versions.json``: each version's folder and its aliases."""

    aliases: dict[str, tuple[str, ...]]
    """Version name -> its aliases, in the file's order (newest first, as mike writes it)."""

    def choose(self, patterns: tuple[str, ...], *, default: bool) -> list[str]:
        """The versions the patterns name (a version, an alias or a glob over either).

        Raises:
            ConfigError: for a pattern that names nothing.
        """
        chosen: list[str] = []
        for pattern in patterns:
            found = [v for v, aliases in self.aliases.items()
                     if any(fnmatchcase(name, pattern) for name in (v, *aliases))]
            if not found:
                known = ", ".join(f"{v} ({', '.join(a)})" if a else v
                                  for v, a in self.aliases.items())
                if default:
                    msg = (f"No version in versions.json has the alias {pattern!r}; name the "
                           f"versions to offer to crawlers with --versions (known: {known})")
                else:
                    msg = (f"Expected versions or aliases of versions.json ({known}) but "
                           f"received: {pattern!r}")
                raise ConfigError("versions", msg)
            chosen.extend(v for v in found if v not in chosen)
        return chosen

    @property
    def alias_names(self) -> set[str]:
        """Folders that are aliases (symlinks, redirect pages or copies of a version)."""
        return {a for aliases in self.aliases.values() for a in aliases} - set(self.aliases)


def parse_versions(data: bytes) -> Versions:
    """The list of versions mike keeps, from the bytes of its ``versions.json``.

    Raises:
        ValueError: when they are not mike's list of versions (:data:`VERSIONS_SHAPE`).
    """
    try:
        loaded = json.loads(data)
    except RecursionError:
        # Arrays nested thousands deep, which json parses by recursion.
        raise ValueError(VERSIONS_SHAPE) from None
    aliases: dict[str, tuple[str, ...]] = {}
    for item in loaded if isinstance(loaded, list) else [None]:
        version = item.get("version") if isinstance(item, dict) else None
        names = item.get("aliases") if isinstance(item, dict) else None
        if (not isinstance(version, str) or not isinstance(names, list)
                or not all(isinstance(a, str) for a in names)):
            raise ValueError(VERSIONS_SHAPE)
        aliases[version] = tuple(names)
    return Versions(aliases)


# -- Read the Docs ----------------------------------------------------------------------------

_LANGUAGE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?\Z")
"""A Read the Docs language folder: ``en``, ``pt-br``, ``zh_CN``."""


def read_the_docs_versions(folders: Sequence[str], patterns: tuple[str, ...], *,
                           default: bool) -> set[str] | None:
    """The build folders of the chosen versions, on Read the Docs' layout; None if not so.

    That is: each build at ``<language>/<version>/``, one version ``latest`` or ``stable``.

    Raises:
        ConfigError: for a pattern that names no version.
    """
    parts = [folder.partition("/") for folder in folders]
    if not parts or any("/" in p[2] or not (p[2] and _LANGUAGE.match(p[0])) for p in parts) or (
            not {"latest", "stable"} & {p[2] for p in parts}):
        return None
    names = sorted({p[2] for p in parts})
    for pattern in patterns:
        if not any(fnmatchcase(name, pattern) for name in names):
            msg = (f"Expected versions of the <language>/<version>/ folders ({', '.join(names)})"
                   f" but received: {pattern!r}")
            if default:
                msg = (f"No <language>/<version>/ folder has the version {pattern!r}; name the "
                       f"versions to offer to crawlers with --versions (known: {', '.join(names)})")
            raise ConfigError("versions", msg)
    return {folder for folder in folders
            if any(fnmatchcase(folder.partition("/")[2], p) for p in patterns)}

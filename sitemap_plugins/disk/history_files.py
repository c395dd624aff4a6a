"""The small JSON files of the cache folder, as bytes: what each holds and how it is checked.

Pure (:mod:`~sitemap_plugins.disk.history` reads and writes them). Whatever is read back is
checked field by field: a cache file is data from disk, never trusted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitemap_plugins.vocab.errors import PathError

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Mapping


@dataclass
class Changes:
    """How many URLs were added, changed and removed (the URLs only for ``changes_file``)."""

    added_count: int = 0
    changed_count: int = 0
    removed_count: int = 0
    baseline: bool = False
    """True when there was a previous manifest to compare with."""
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def as_json(self) -> bytes:
        """The report written by ``changes_file``."""
        data = {"baseline": self.baseline, "added": self.added, "changed": self.changed,
                "removed": self.removed}
        return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


# -------------------- the IndexNow pending list

PENDING_NAME = "indexnow-pending.json"
PENDING_SCHEMA = "sitemap-plugins/indexnow-pending/1"


class PendingError(PathError):
    """The pending list cannot be read (damaged or not ours)."""

    def __init__(self, path: str, reason: str, remedy: str) -> None:
        super().__init__(path, f"{reason}: {remedy}")
        self.reason = reason


_REMEDY = "fix or delete it (the next build starts a new list)"


def decode_pending(data: bytes, path: str) -> dict[str, int]:
    """The URLs of a pending list's bytes, each with its version (0 in old lists), sorted.

    Raises:
        PendingError: naming ``path``, when the bytes are not a pending list.
    """
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise PendingError(path, f"is damaged ({err})", _REMEDY) from err
    urls = parsed.get("urls") if isinstance(parsed, dict) else None
    if (not isinstance(parsed, dict) or parsed.get("schema") != PENDING_SCHEMA
            or not isinstance(urls, list) or not all(isinstance(u, str) for u in urls)):
        raise PendingError(path, f"is not a pending list of this version "
                                 f"({PENDING_SCHEMA})", _REMEDY)
    versions = parsed.get("versions", {})
    if not isinstance(versions, dict):
        versions = {}  # written by a later version in another shape: each URL is still sent
    return {url: _version(versions.get(url)) for url in sorted(set(urls))}


def _version(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def encode_pending(versions: Mapping[str, int]) -> bytes:
    """A pending list's bytes: its URLs, sorted, and each one's version."""
    # "urls" stays the list an older sitemap-plugins reads; "versions" is only added to it.
    urls = sorted(versions)
    data = {"schema": PENDING_SCHEMA, "urls": urls,
            "versions": {url: versions[url] for url in urls}}
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


# -------------------- the record of the files written into the site

RECORD_SCHEMA = "sitemap-plugins/written/1"
_DIGEST = re.compile(r"[0-9a-f]{64}\Z")


def decode_written(data: bytes) -> dict[str, set[str]]:
    """File name -> the digests this tool wrote under it, from a record's bytes.

    Raises:
        ValueError: when it is not such a record (any bad name or digest spoils it).
    """
    parsed = json.loads(data.decode("utf-8"))
    if not isinstance(parsed, dict) or parsed.get("schema") != RECORD_SCHEMA:
        msg = "not a record of this version"
        raise ValueError(msg)
    files = parsed.get("files")
    if not isinstance(files, dict):
        msg = "no files"
        raise ValueError(msg)  # noqa: TRY004  # a bad record, as every other problem of it
    checked: dict[str, set[str]] = {}
    for name, digests in files.items():
        if (not isinstance(name, str) or not name or "/" in name or "\\" in name
                or name in (".", "..") or "\0" in name or not isinstance(digests, list)
                or not all(isinstance(d, str) and _DIGEST.match(d) for d in digests)):
            msg = f"a bad entry {str(name)[:80]!r}"
            raise ValueError(msg)
        checked[name] = set(digests)
    return checked


def encode_written(files: Mapping[str, set[str]]) -> bytes:
    """A record's bytes (names without digests are left out)."""
    data = {"schema": RECORD_SCHEMA,
            "files": {name: sorted(digests) for name, digests in sorted(files.items())
                      if digests}}
    return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8")


# SQLITE_BUSY and SQLITE_LOCKED (extended codes keep them in the low byte).
_BUSY_CODES = frozenset({5, 6})


def is_busy(err: sqlite3.Error) -> bool:
    """Whether ``err`` says the database is held by another connection (not damaged)."""
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _BUSY_CODES
    text = str(err).lower()  # Python 3.10 has no error code on the exception
    return "database is locked" in text or "database table is locked" in text

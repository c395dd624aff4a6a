"""Honest lastmod across rebuilds: a manifest of fingerprints, and a cache of page records.

Static builds rewrite every file, so file times say "built today" for every page. The
manifest remembers, per URL, the fingerprint of what the reader sees and the lastmod given
last time. On the next build an unchanged fingerprint keeps its lastmod; a changed one, or a
URL that is new since the last manifest, takes the build's time: only then is "now" honest,
because the manifest saw the change happen between two builds. Without a manifest (first
build, deleted cache) there is no such evidence and dates come from the host, the page or
nowhere.

Beside the dates it keeps each page's :class:`~sitemap_plugins.reader.PageRecord`, keyed by
a digest of the page's bytes: hosts rewrite every page on every build, mostly with the same
bytes, and a record found by its digest costs a tenth of a parse.

A manifest written by an older reader (another fingerprint definition) is re-baselined: its
dates are kept, and this build's fingerprints adopted, so an upgrade moves no date.

The manifest is an SQLite file in the cache folder (outside the published site), written
each run into a temporary file and renamed into place, so it is never half-written, and
memory stays flat for a million pages. A missing, corrupt, unknown-format or other-site
manifest is reported and ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitemap_plugins.dates import Lastmod, format_w3c, parse_w3c
from sitemap_plugins.errors import Diagnostic, Level, WriteError
from sitemap_plugins.reader import FINGERPRINT_VERSION, READER_VERSION
from sitemap_plugins.writers.atomic import (
    explain,
    remove_leftovers,
    temp_path_for,
    write_bytes_atomic,
)

if TYPE_CHECKING:
    from datetime import datetime
    from pathlib import Path

    from sitemap_plugins.entry import Entry

FORMAT_VERSION = "2"
# Format 1 kept the same pages table, with fingerprints of the hand-written tokenizer.
_READABLE_FORMATS = ("1", FORMAT_VERSION)
MANIFEST_NAME = "lastmod-manifest.sqlite"
# Lastmod sources that are no evidence about the page: the manifest's verdict replaces them.
# Every other source (the host's metadata, the page's own date tags) is about the page
# itself and wins over the manifest.
WEAK_SOURCES = frozenset({"", "file time"})
_BATCH = 2_000
# Rows of the previous manifest read ahead of the page asked for, at most (see RowsInOrder),
# and how many at a time.
_WINDOW = 4_096
_FETCH = 256
_PAGES_IN_ORDER = (
    "SELECT url, fingerprint, lastmod, source, rowid FROM pages WHERE rowid > ? ORDER BY rowid",
    "SELECT fingerprint, lastmod, source, rowid FROM pages WHERE url = ?")
_RECORD_BY_DIGEST = "SELECT record FROM records WHERE digest = ?"
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE pages (url TEXT PRIMARY KEY, fingerprint TEXT, lastmod TEXT, source TEXT);"
    "CREATE TABLE records (digest BLOB PRIMARY KEY, record TEXT) WITHOUT ROWID;"
)


def reader_key() -> str:
    """Names the reader whose records the cache holds: another one's are never used."""
    import selectolax  # noqa: PLC0415  # its version, once per build

    return f"reader {READER_VERSION}, selectolax {selectolax.__version__}"


@dataclass
class Changes:
    """How many URLs were added, changed and removed since the previous build.

    The URLs themselves (sorted) are only collected when asked for (``changes_file``): a
    first build of a million pages would otherwise hold a million "added" URLs in memory.
    """

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


class RecordCache:
    """The last build's page records, by digest, through a read-only connection of its own.

    Each worker process opens its own (an SQLite connection must not cross processes). A
    record that cannot be read is simply not found: the page is parsed again.
    """

    def __init__(self, path: Path | None) -> None:
        """``path``: the last manifest, or None for an empty cache."""
        self._path = path
        self._connection: sqlite3.Connection | None = None

    def __getstate__(self) -> dict[str, object]:
        return {"_path": self._path, "_connection": None}

    def get(self, digest: bytes) -> str | None:
        """The encoded record of the page with these bytes, or None."""
        if self._path is None:
            return None
        try:
            if self._connection is None:
                self._connection = sqlite3.connect(f"{self._path.as_uri()}?mode=ro", uri=True)
            found = self._connection.execute(_RECORD_BY_DIGEST, (digest,)).fetchone()
        except sqlite3.Error:
            self._path = None  # a damaged cache: parse every page, never fail
            return None
        return found[0] if found is not None and isinstance(found[0], str) else None

    def close(self) -> None:
        """Close the connection."""
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
            self._connection = None


class Manifest:
    """One run's view of the manifest: the previous one (read) and the next one (written)."""

    def __init__(self, cache_dir: Path, base_url: str, now: datetime) -> None:
        """Open the last manifest in ``cache_dir`` (if any) and start the next one.

        Raises:
            WriteError: when the cache folder cannot be written.
        """
        self.cache_dir = cache_dir
        self.path = cache_dir / MANIFEST_NAME
        self.base_url = base_url
        self.now = now
        self.diagnostics: list[Diagnostic] = []
        self.previous: sqlite3.Connection | None = None
        self._previous_rows: RowsInOrder | None = None
        self._records_usable = False
        self.rebaseline = False
        """The last manifest's fingerprints are another reader's: keep its dates as they are."""
        self._pages: list[tuple[str, str, str, str]] = []
        self._records: list[tuple[bytes, str]] = []
        self._temp = temp_path_for(self.path)
        self.next: sqlite3.Connection | None = None
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            remove_leftovers(cache_dir)  # a killed run's half-written manifest
        except OSError as err:
            raise WriteError(str(cache_dir),
                             f"cannot write the lastmod manifest: {explain(err)}") from err
        self._open_previous()
        try:
            self.next = sqlite3.connect(self._temp)
            self.next.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + _SCHEMA)
            self.next.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("version", FORMAT_VERSION), ("base_url", base_url),
                ("fingerprint", FINGERPRINT_VERSION), ("reader", reader_key())])
        except sqlite3.Error as err:
            self.discard()
            raise WriteError(str(self.path), f"cannot write the lastmod manifest: {err}") from err

    @property
    def has_baseline(self) -> bool:
        """Whether an earlier build's manifest is there to compare with."""
        return self.previous is not None

    def record_cache(self) -> RecordCache:
        """The last build's page records, when they are of this reader."""
        return RecordCache(self.path if self._records_usable else None)

    def _note(self, code: str, message: str) -> None:
        self.diagnostics.append(Diagnostic("", code, message, Level.INFO))

    def _open_previous(self) -> None:
        if not self.path.is_file():
            self._note(
                "no-manifest",
                f"no lastmod manifest from an earlier build in {self.cache_dir} (first build, "
                "or the cache was deleted): dates come only from the host and the pages this "
                "time; keep that folder between builds for honest dates")
            return
        try:
            previous = sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True)
            meta = dict(previous.execute("SELECT key, value FROM meta").fetchall())
            previous.execute("SELECT url, fingerprint, lastmod, source FROM pages LIMIT 1")
        except sqlite3.Error as err:
            self._note("bad-manifest", f"the lastmod manifest {self.path} cannot be read "
                                       f"({err}); starting a new one")
            return
        if meta.get("version") not in _READABLE_FORMATS:
            previous.close()
            self._note("old-manifest", f"the lastmod manifest {self.path} has format "
                                       f"{meta.get('version')!r}, not {FORMAT_VERSION!r}; "
                                       "starting a new one")
            return
        if meta.get("base_url") != self.base_url:
            previous.close()
            self._note("other-site-manifest",
                       f"the lastmod manifest {self.path} belongs to {meta.get('base_url')!r}, "
                       f"not {self.base_url!r}; starting a new one")
            return
        self.previous = previous
        self._previous_rows = RowsInOrder(previous, _PAGES_IN_ORDER)
        self.rebaseline = meta.get("fingerprint") != FINGERPRINT_VERSION
        if self.rebaseline:
            self._note("rebaseline", f"the lastmod manifest {self.path} was written by an "
                                     "older version: its dates are kept, and this build's "
                                     "fingerprints adopted")
        self._records_usable = meta.get("reader") == reader_key()

    def settle(self, entry: Entry) -> tuple[Lastmod | None, str]:
        """The honest lastmod of ``entry`` and its source; records it for the next build."""
        lastmod, source = entry.lastmod, entry.lastmod_source
        if source in WEAK_SOURCES and self._previous_rows is not None:
            row = self._last_row(entry.loc)
            if row is None:
                lastmod, source = self.now, "manifest: new page"
            elif row[0] != entry.fingerprint and not self.rebaseline:
                lastmod, source = self.now, "manifest: changed"
            elif isinstance(row[1], str) and row[1]:
                lastmod = parse_w3c(row[1])
                source = str(row[2] or "manifest") if lastmod is not None else ""
            else:
                lastmod, source = None, ""
        self._pages.append((entry.loc, entry.fingerprint,
                            format_w3c(lastmod) if lastmod else "", source))
        if len(self._pages) >= _BATCH:
            self._flush()
        return lastmod, source

    def keep_record(self, digest: bytes, encoded: str) -> None:
        """Keep a page's record for the next build, under the digest of its bytes."""
        self._records.append((digest, encoded))
        if len(self._records) >= _BATCH:
            self._flush()

    def _last_row(self, url: str) -> tuple[object, ...] | None:
        """The last build's row for ``url`` (fingerprint, lastmod, source, rowid)."""
        if self._previous_rows is None:
            return None
        try:
            return self._previous_rows.get(url)
        except sqlite3.Error as err:
            self._note("bad-manifest", f"the lastmod manifest {self.path} cannot be read "
                                       f"({err}); the rest of this build has no dates from it")
            self._previous_rows = None
            return None

    def _flush(self) -> None:
        assert self.next is not None
        try:
            self.next.executemany("INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?)", self._pages)
            self.next.executemany("INSERT OR IGNORE INTO records VALUES (?, ?)", self._records)
        except sqlite3.Error as err:
            raise WriteError(str(self.path), f"cannot write the lastmod manifest: {err}") from err
        self._pages.clear()
        self._records.clear()

    def changes(self, *, with_urls: bool) -> Changes:
        """Compare this build with the previous manifest; list the URLs if ``with_urls``."""
        self._flush()
        assert self.next is not None
        try:
            self.next.commit()  # old is attached and detached outside a transaction
            return self._compare(self.next, with_urls=with_urls)
        except sqlite3.Error as err:
            raise WriteError(str(self.path), f"cannot compare with the lastmod manifest: "
                                             f"{err}") from err

    def _compare(self, connection: sqlite3.Connection, *, with_urls: bool) -> Changes:
        queries: dict[str, str | None] = {
            "added": "SELECT url FROM main.pages", "changed": None, "removed": None}
        if self.previous is not None:
            connection.execute("ATTACH DATABASE ? AS old", (f"{self.path.as_uri()}?mode=ro",))
            queries = {
                "added": "SELECT url FROM main.pages WHERE url NOT IN (SELECT url FROM old.pages)",
                # After an upgrade every fingerprint differs: none of them is a change.
                "changed": None if self.rebaseline else (
                    "SELECT p.url FROM main.pages p JOIN old.pages o ON o.url = p.url "
                    "WHERE o.fingerprint IS NOT p.fingerprint"),
                "removed": "SELECT url FROM old.pages "
                           "WHERE url NOT IN (SELECT url FROM main.pages)",
            }
        changes = Changes(baseline=self.previous is not None)
        for kind, query in queries.items():
            if query is None:
                continue
            counting = f"SELECT count(*) FROM ({query})"  # noqa: S608  # fixed query text
            setattr(changes, f"{kind}_count", connection.execute(counting).fetchone()[0])
            if with_urls:
                rows = connection.execute(f"{query} ORDER BY 1")
                setattr(changes, kind, [row[0] for row in rows])
        if self.previous is not None:
            connection.execute("DETACH DATABASE old")
        return changes

    def save(self) -> None:
        """Put the new manifest in place of the old one (atomically)."""
        self._flush()
        assert self.next is not None
        try:
            self.next.commit()
            self.next.close()
            self.next = None
            if self.previous is not None:
                self.previous.close()
                self.previous = None
            os.replace(self._temp, self.path)
        except (OSError, sqlite3.Error) as err:
            self.discard()
            reason = explain(err) if isinstance(err, OSError) else str(err)
            raise WriteError(str(self.path), f"cannot save the lastmod manifest: {reason}") from err

    def discard(self) -> None:
        """Drop the new manifest (after an error); the old one stays as it was."""
        for connection in (self.next, self.previous):
            if connection is not None:
                with contextlib.suppress(sqlite3.Error):
                    connection.close()
        self.next = self.previous = None
        with contextlib.suppress(OSError):
            self._temp.unlink()


class RowsInOrder:
    """Rows of one table of the previous manifest, looked up by key.

    A build asks for its pages in scan order, the order the last build wrote them in, so the
    rows are read in one pass, a few ahead: the next row costs a tenth of a point query, and
    holding every row would not keep memory flat for a million pages. A key that is not close
    ahead (pages removed) is looked up by the index, and the pass goes on after it.
    """

    def __init__(self, connection: sqlite3.Connection, queries: tuple[str, str]) -> None:
        """``queries``: the rows after a rowid (key, values, rowid), and one key's row."""
        self._connection = connection
        self._next, self._point = queries
        self._rows: sqlite3.Cursor | None = connection.execute(self._next, (0,))
        self._ahead: OrderedDict[object, tuple[object, ...]] = OrderedDict()

    def get(self, key: object) -> tuple[object, ...] | None:
        """The values kept for ``key`` and, last, their rowid; None when there are none.

        Raises:
            sqlite3.Error: when the manifest cannot be read.
        """
        ahead = self._ahead
        while key not in ahead and len(ahead) < _WINDOW and self._rows is not None:
            rows = self._rows.fetchmany(_FETCH)
            if not rows:
                self._rows = None
            for row in rows:
                ahead[row[0]] = row[1:]
        if key in ahead:
            # The rows before it were not asked for (pages since removed): drop them.
            while True:
                found_key, values = ahead.popitem(last=False)
                if found_key == key:
                    return values
        found = self._connection.execute(self._point, (key,)).fetchone()
        if found is None:
            return None  # a new page: the rows read ahead are kept for the next ones
        rowid = found[-1]
        if not isinstance(rowid, int):
            return None
        self._rows, self._ahead = self._connection.execute(self._next, (rowid,)), OrderedDict()
        return tuple(found)


def write_changes(path: Path, changes: Changes) -> None:
    """Write the added/changed/removed report atomically."""
    write_bytes_atomic(path, changes.as_json())

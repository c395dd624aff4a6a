"""The cache folder's data: lastmod history, record cache, decisions, pending list, files written.

The manifest (SQLite) keeps per page file its URL, fingerprint, lastmod and cached record: an
unchanged fingerprint keeps its lastmod, a changed one or a new URL takes the build's time.
A missing, corrupt or other-site manifest is reported and ignored.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from sitemap_plugins.disk.cache_keys import former_site_key, site_key
from sitemap_plugins.disk.history_files import (
    _REMEDY,
    PENDING_NAME,
    Changes,
    PendingError,
    decode_pending,
    decode_written,
    encode_pending,
    encode_written,
    is_busy,
)
from sitemap_plugins.disk.locks import folder_lock
from sitemap_plugins.disk.site import (
    finished,
    is_regular,
    make_cache_folder,
    read_file,
    remove,
    remove_leftovers,
    temp_path_for,
    what_stands,
    write_bytes_atomic,
)
from sitemap_plugins.page.reader import FINGERPRINT_VERSION, READER_VERSION
from sitemap_plugins.vocab.dates import Lastmod, format_w3c, parse_w3c, sort_key
from sitemap_plugins.vocab.errors import BusyError, Diagnostic, Level, WriteError, explain

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping
    from datetime import datetime
    from pathlib import Path

FORMAT_VERSION = "2"
_OLD_FORMAT = "1"  # dates in a pages table keyed by URL
MANIFEST_NAME = "lastmod-manifest.sqlite"
"""A cache folder's one manifest before they were kept per site: read once, then replaced."""
# Sources that are no evidence about the page: the manifest's verdict replaces them.
WEAK_SOURCES = frozenset({"", "file time"})
# What a build writes into a row, at most: anything longer is damage.
_MAX_DIGEST = 64
_MAX_URL = 8_192
_MAX_TEXT = 256
_PRINTABLE = re.compile(r"[ -~]*\Z")
_URL_TEXT = re.compile(r"[!-~]+\Z")
BUSY_SECONDS = 30.0
"""How long a build waits for another program holding the manifest before it fails."""
_BATCH = 2_000
READ_AHEAD = 4_096
"""Rows of the last manifest read ahead of the file asked for, at most."""
_FETCH = 256  # rows read ahead at a time
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE files (path BLOB PRIMARY KEY, digest BLOB, record TEXT, url TEXT,"
    " fingerprint TEXT, lastmod TEXT, source TEXT, changed TEXT);"
    # A page left out of this build keeps the history of its last listing while its file stays.
    "CREATE TABLE dormant (path BLOB PRIMARY KEY, url TEXT, fingerprint TEXT, lastmod TEXT,"
    " source TEXT, changed TEXT);"
    # Why each file seen was listed or not, and its dates (JSON): read by `explain` only.
    "CREATE TABLE why (path BLOB PRIMARY KEY, decision TEXT);"
)
_FILES_IN_ORDER = (
    ("SELECT path, digest, record, url, fingerprint, lastmod, source, changed, rowid "
     "FROM files WHERE rowid > ? ORDER BY rowid"),
    ("SELECT digest, record, url, fingerprint, lastmod, source, changed, rowid FROM files "
     "WHERE path = ?"))
_BY_URL = {
    FORMAT_VERSION: "SELECT fingerprint, lastmod, source, changed FROM files WHERE url = ?",
    _OLD_FORMAT: "SELECT fingerprint, lastmod, source, '' FROM pages WHERE url = ?",
    "dormant": "SELECT fingerprint, lastmod, source, changed FROM dormant WHERE url = ?",
}
EXPLICIT_SOURCE = "explicit"
_STATED_SOURCES = frozenset({EXPLICIT_SOURCE, "page"})  # rules.STATED_SOURCES: the one rule


def reader_key() -> str:
    """Names the reader whose records the manifest holds: another one's are never used."""
    import selectolax  # noqa: PLC0415  # its version, once per build

    return f"reader {READER_VERSION}, selectolax {selectolax.__version__}"


class Kept(NamedTuple):
    """What the last build saw of one page file."""

    digest: bytes
    record: str
    """The page's record, encoded (:func:`~sitemap_plugins.page.codec.encode_record`)."""
    url: str
    """The URL it was listed under; empty when it was not listed."""
    fingerprint: str
    lastmod: str
    source: str
    changed: str
    """When a build first saw this fingerprint as a change of the page; empty when none did."""


class ManifestRow(NamedTuple):
    """What this build keeps of one page file for the next."""

    path: bytes
    digest: bytes
    record: str
    url: str
    fingerprint: str
    lastmod: str
    source: str
    changed: str
    dormant: tuple[str, str, str, str, str] | None = None
    """A page not listed: its last listing's (url, fingerprint, lastmod, source, changed)."""


class Settled(NamedTuple):
    """A listed page's honest date, where it came from, and its last change seen."""

    lastmod: Lastmod | None
    source: str
    changed: str


def path_key(rel_path: str) -> bytes:
    """A file's key: its path's bytes (a name that is not UTF-8 keeps its bytes as they are)."""
    return rel_path.encode("utf-8", "surrogatepass")


@dataclass
class History:
    """The last build's manifest, read-only (one connection per process; unreadable: absent)."""

    path: Path | None
    """The last manifest; None when there is none to read."""
    now: datetime
    fmt: str = FORMAT_VERSION
    rebaseline: bool = False
    """The last manifest's fingerprints are another reader's: keep its dates as they are."""
    records: bool = False
    """Whether its records are this reader's."""
    dormant: bool = False
    """Whether it keeps the history of pages it did not list (see :meth:`asleep`)."""
    _connection: sqlite3.Connection | None = field(default=None, repr=False)
    _files: RowsInOrder | None = field(default=None, repr=False)
    failed: str = ""
    """Why the manifest could not be read, when it could not."""

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_connection": None, "_files": None}

    def _open(self) -> sqlite3.Connection | None:
        if self._connection is None and self.path is not None:
            self._connection = sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True,
                                               timeout=BUSY_SECONDS)
        return self._connection

    def _failed(self, err: sqlite3.Error) -> None:
        """Go on without the manifest when it is damaged; stop when it is only held.

        Raises:
            BusyError: when another program holds it past :data:`BUSY_SECONDS`.
        """
        if self.path is not None and is_busy(err):
            self.close()
            raise busy_error(self.path) from err
        self.failed = f"the lastmod manifest {self.path} cannot be read ({err})"
        self.path = None
        self.close()

    def kept(self, rel_path: str) -> Kept | None:
        """What the last build saw of the file at ``rel_path``, or None."""
        if self.fmt != FORMAT_VERSION:
            return None
        try:
            connection = self._open()
            if connection is None:
                return None
            if self._files is None:
                self._files = RowsInOrder(connection, _FILES_IN_ORDER)
            row = self._files.get(path_key(rel_path))
        except sqlite3.Error as err:
            self._failed(err)
            return None
        if row is None or len(row) != len(Kept._fields) + 1:
            return None
        digest, record, url, *history = row[:-1]
        if (not isinstance(digest, bytes) or not 0 < len(digest) <= _MAX_DIGEST
                or not isinstance(record, str) or not isinstance(url, str)
                or len(url) > _MAX_URL or not self._plausible(history)):
            return None  # a damaged row: the page is read again, and dated as new
        return Kept(digest, record, url, *history)  # type: ignore[arg-type]  # checked above

    def _plausible(self, history: list[object]) -> bool:
        """Whether (fingerprint, lastmod, source, changed) are what a build writes."""
        fingerprint, lastmod, source, changed = history
        if not all(isinstance(text, str) and len(text) <= _MAX_TEXT and _PRINTABLE.match(text)
                   for text in (fingerprint, source)):
            return False
        for text, seen in ((lastmod, False), (changed, True)):
            if not isinstance(text, str):
                return False
            if text:
                when = parse_w3c(text) if len(text) <= _MAX_TEXT else None
                if when is None or (seen and sort_key(when) > self.now):
                    return False
        return True

    def settle(self, loc: str, fingerprint: str, lastmod: Lastmod | None, source: str,
               kept: Kept | None) -> Settled:
        """The honest lastmod of the page listed at ``loc``: its latest change known.

        The given date or the build that first saw the fingerprint change, whichever is later;
        a stated date wins. ``kept``: the last build's row of the same file.
        """
        if self.path is None:
            return Settled(lastmod, source, "")  # no evidence at all
        row = ((kept.fingerprint, kept.lastmod, kept.source, kept.changed)
               if kept is not None and kept.url == loc else self._by_url(loc))
        if self.path is None:  # it could not be read after all
            return Settled(lastmod, source, "")
        weak = source in WEAK_SOURCES
        if row is None:  # a URL new since the last build: no change seen, only its birth
            return (Settled(self.now, "manifest: new page", "") if weak
                    else Settled(lastmod, source, ""))
        last_fingerprint, last, last_source, changed = row
        moved = last_fingerprint != fingerprint and not self.rebaseline
        changed_text = self.now_text if moved else changed if isinstance(changed, str) else ""
        if weak:
            if moved:
                return Settled(self.now, "manifest: changed", changed_text)
            parsed = parse_w3c(last) if isinstance(last, str) and last else None
            if parsed is not None and sort_key(parsed) > self.now:
                # A future date the page no longer states: no evidence of change; dated as new.
                return Settled(self.now, "manifest: new page", "")
            if parsed is None:
                return Settled(None, "", changed_text)
            return Settled(parsed, last_source if isinstance(last_source, str) else "manifest",
                           changed_text)
        seen = parse_w3c(changed_text) if changed_text else None
        if (source not in _STATED_SOURCES and seen is not None
                and (lastmod is None or sort_key(seen) > sort_key(lastmod))):
            return Settled(seen, "manifest: changed", changed_text)
        return Settled(lastmod, source, changed_text)

    @property
    def now_text(self) -> str:
        """The build's time in W3C form."""
        return format_w3c(self.now)

    def asleep(self, rel_path: str) -> tuple[str, str, str, str, str] | None:
        """The history of ``rel_path``'s last listing, if the last build left it out too."""
        if not self.dormant:
            return None
        try:
            connection = self._open()
            found = None if connection is None else connection.execute(
                "SELECT url, fingerprint, lastmod, source, changed FROM dormant WHERE path = ?",
                (path_key(rel_path),)).fetchone()
        except sqlite3.Error as err:
            self._failed(err)
            return None
        if found is None or not isinstance(found[0], str) or not self._plausible(
                list(found[1:])):
            return None
        return tuple(found)

    def _by_url(self, url: str) -> tuple[object, ...] | None:
        try:
            connection = self._open()
            if connection is None:
                return None
            found = connection.execute(_BY_URL[self.fmt], (url,)).fetchone()
            if found is None and self.dormant:  # a page back in the sitemap
                found = connection.execute(_BY_URL["dormant"], (url,)).fetchone()
        except sqlite3.Error as err:
            self._failed(err)
            return None
        if found is None or not self._plausible(list(found)):
            return None  # none, or damaged: the URL is dated as new
        return tuple(found)

    def close(self) -> None:
        """Close the connection."""
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
        self._connection, self._files = None, None


class Manifest:
    """One run's manifest: the last one (read, as :class:`History`) and the next (written)."""

    def __init__(self, cache_dir: Path, base_url: str, now: datetime,
                 site: Path | None = None, own_files: Collection[str] = (),
                 sitemap_name: str = "sitemap") -> None:
        """Open the last manifest of ``site`` in ``cache_dir`` (if any) and start the next one.

        ``own_files``: the site's other files in the cache folder.

        Raises:
            WriteError: when the cache folder cannot be written.
        """
        self.cache_dir = cache_dir
        self.path = manifest_path(cache_dir, site, base_url) if site is not None else (
            cache_dir / MANIFEST_NAME)
        self.legacy = cache_dir / MANIFEST_NAME
        self.former = (cache_dir / f"lastmod-manifest-{former_site_key(site)}.sqlite"
                       if site is not None else self.legacy)
        """The manifest of versions that named it after the site's folder only."""
        self.previous = self.path
        """The manifest this build reads: the site's own, or the folder's former one."""
        self.base_url = base_url
        self.diagnostics: list[Diagnostic] = []
        self._rows: list[ManifestRow] = []
        self._why: list[tuple[bytes, str]] = []
        self._temp = temp_path_for(self.path)
        self.next: sqlite3.Connection | None = None
        try:
            make_cache_folder(cache_dir)
            # A killed run's half-written files of this site; a sibling's are its own.
            remove_leftovers(cache_dir, {self.path.name, MANIFEST_NAME, *own_files})
        except OSError as err:
            raise WriteError(str(cache_dir),
                             f"cannot write the lastmod manifest: {explain(err)}") from err
        self.history = self._open_previous(now)
        try:
            self.next = sqlite3.connect(self._temp, timeout=BUSY_SECONDS)
            self.next.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + _SCHEMA)
            self.next.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("version", FORMAT_VERSION), ("base_url", base_url),
                ("fingerprint", FINGERPRINT_VERSION), ("reader", reader_key()),
                ("built", self.history.now_text), ("sitemap_name", sitemap_name)])
        except sqlite3.Error as err:
            self.discard()
            raise WriteError(str(self.path), f"cannot write the lastmod manifest: {err}") from err

    def _note(self, code: str, message: str) -> None:
        self.diagnostics.append(Diagnostic("", code, message, Level.INFO))

    def _open_previous(self, now: datetime) -> History:
        none = History(None, now)
        if not self.path.is_file():
            # An older manifest, not kept per site: read on only if its base URL is this one.
            self.previous = next((older for older in (self.former, self.legacy)
                                  if older.is_file()), self.path)
        if not self.previous.is_file() and (what := what_stands(self.path)) is not None:
            if what == "a folder":  # no new one can take its place: stop before any write
                raise WriteError(str(self.path), "is a folder where the lastmod manifest goes; "
                                 "remove it, or choose another cache_dir")
            self._note("bad-manifest", f"the lastmod manifest {self.path} is {what}, not a "
                                       "file; starting a new one")
            return none
        if not self.previous.is_file():
            self._note("no-manifest", f"no lastmod manifest from an earlier build in "
                       f"{self.cache_dir} (first build, or the cache was deleted): dates come "
                       "only from the host and the pages this time; keep that folder between "
                       "builds for honest dates")
            return none
        try:
            with contextlib.closing(
                sqlite3.connect(f"{self.previous.as_uri()}?mode=ro", uri=True,
                                timeout=BUSY_SECONDS)
            ) as previous:
                meta = dict(previous.execute("SELECT key, value FROM meta").fetchall())
                dormant = bool(previous.execute("SELECT 1 FROM sqlite_master WHERE name = "
                                                "'dormant'").fetchall())
                table = "pages" if meta.get("version") == _OLD_FORMAT else "files"
                previous.execute(f"SELECT url, fingerprint, lastmod, source FROM {table} "  # noqa: S608
                                 "LIMIT 1").fetchall()
        except sqlite3.Error as err:
            if is_busy(err):  # held for a while, not damaged: its history must not be lost
                raise busy_error(self.previous) from err
            self._note("bad-manifest", f"the lastmod manifest {self.previous} cannot be read "
                                       f"({err}); starting a new one")
            return none
        fmt = meta.get("version")
        if fmt not in _BY_URL:
            self._note("old-manifest", f"the lastmod manifest {self.previous} has format "
                                       f"{fmt!r}, not {FORMAT_VERSION!r}; starting a new one")
            return none
        if meta.get("base_url") != self.base_url:
            self._note("other-site-manifest", f"the lastmod manifest {self.previous} belongs to "
                       f"{meta.get('base_url')!r}, not {self.base_url!r}; starting a new one")
            return none
        now = self._never_back(now, meta, previous_path=self.previous)
        rebaseline = meta.get("fingerprint") != FINGERPRINT_VERSION
        if rebaseline:
            self._note("rebaseline", f"the lastmod manifest {self.previous} was written by an "
                                     "older version: its dates are kept, and this build's "
                                     "fingerprints adopted")
        return History(self.previous, now, str(fmt), rebaseline,
                       records=meta.get("reader") == reader_key(), dormant=dormant)

    def _never_back(self, now: datetime, meta: dict[str, object], *,
                    previous_path: Path) -> datetime:
        """The build's time: ``now``, or the last build's when later (dates never move back)."""
        latest = _latest_build_time(meta, previous_path)
        if latest is None or sort_key(latest) <= now:
            return now
        self.diagnostics.append(Diagnostic("", "clock-behind", (
            f"this build's time, {format_w3c(now)}, is earlier than the last build's, "
            f"{format_w3c(latest)}, kept in {previous_path}: the clock (or "
            "SOURCE_DATE_EPOCH) looks wrong; pages changed now are dated "
            f"{format_w3c(latest)}, so that no date moves back"), Level.WARNING))
        return sort_key(latest)

    @property
    def has_baseline(self) -> bool:
        """Whether an earlier build's manifest is there to compare with."""
        return self.history.path is not None

    def keep(self, row: ManifestRow | None, why: tuple[str, str] | None = None) -> None:
        """Keep what this build saw of one page file (``why``: its path and decision, JSON)."""
        if row is not None:
            self._rows.append(row)
        if why is not None:
            self._why.append((path_key(why[0]), why[1]))
        if len(self._rows) + len(self._why) >= _BATCH:
            self._flush()

    def _flush(self) -> None:
        assert self.next is not None
        try:
            self.next.executemany(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [row[:-1] for row in self._rows])
            self.next.executemany("INSERT OR REPLACE INTO why VALUES (?, ?)", self._why)
            self.next.executemany("INSERT OR REPLACE INTO dormant VALUES (?, ?, ?, ?, ?, ?)",
                                  [(row.path, *row.dormant) for row in self._rows
                                   if row.dormant is not None])
        except sqlite3.Error as err:
            raise WriteError(str(self.path), f"cannot write the lastmod manifest: {err}") from err
        self._rows.clear()
        self._why.clear()

    def changes(self, *, with_urls: bool) -> Changes:
        """Compare this build with the previous manifest; list the URLs if ``with_urls``."""
        self._flush()
        assert self.next is not None
        try:
            # The index serves the next build's look-ups by URL; made once, at the end.
            self.next.execute("CREATE INDEX files_url ON files (url)")
            self.next.commit()  # old is attached and detached outside a transaction
            return self._compare(self.next, with_urls=with_urls)
        except sqlite3.Error as err:
            if is_busy(err):
                raise busy_error(self.previous) from err
            raise WriteError(str(self.path), f"cannot compare with the lastmod manifest: "
                                             f"{err}") from err

    def _compare(self, connection: sqlite3.Connection, *, with_urls: bool) -> Changes:
        new = "SELECT url, fingerprint FROM main.files WHERE url <> ''"
        history = self.history
        queries: dict[str, str | None] = {
            "added": f"SELECT url FROM ({new})", "changed": None, "removed": None}  # noqa: S608
        if history.path is not None:
            connection.execute("ATTACH DATABASE ? AS old",
                               (f"{self.previous.as_uri()}?mode=ro",))
            # Only URLs of this site reach IndexNow; judged in Python, as an interrupt inside
            # an SQLite function comes back as another error.
            base = self.base_url
            stored = ("SELECT url, fingerprint FROM old.pages" if history.fmt == _OLD_FORMAT
                      else "SELECT url, fingerprint FROM old.files WHERE url <> ''")
            on_site = [(url, fingerprint) for url, fingerprint in connection.execute(stored)
                       if isinstance(url, str) and len(url) <= _MAX_URL
                       and url.startswith(base) and _URL_TEXT.match(url) is not None]
            # Each old URL judged once, into an indexed table.
            asleep = (connection.execute("SELECT url, fingerprint FROM old.dormant").fetchall()
                      if history.dormant else [])
            connection.execute("CREATE TEMP TABLE old_urls (url, fingerprint, listed)")
            connection.executemany("INSERT INTO temp.old_urls VALUES (?, ?, ?)", [
                *((*row, 1) for row in on_site), *((url, fingerprint, 0) for url, fingerprint
                                                   in asleep if isinstance(url, str))])
            connection.execute("CREATE INDEX temp.old_urls_url ON old_urls (url)")
            old = "SELECT url, fingerprint FROM temp.old_urls WHERE listed"
            known = ("SELECT url, fingerprint FROM temp.old_urls WHERE listed OR url NOT IN "
                     "(SELECT url FROM temp.old_urls WHERE listed)")
            queries = {
                "added": f"SELECT url FROM ({new}) WHERE url NOT IN (SELECT url FROM ({known}))",  # noqa: S608
                # After an upgrade every fingerprint differs: none of them is a change.
                "changed": None if history.rebaseline else (
                    f"SELECT n.url FROM ({new}) n JOIN ({known}) o ON o.url = n.url "  # noqa: S608
                    "WHERE o.fingerprint IS NOT n.fingerprint"),
                "removed": f"SELECT url FROM ({old}) WHERE url NOT IN (SELECT url FROM ({new}))",  # noqa: S608
            }
        changes = Changes(baseline=history.path is not None)
        for kind, query in queries.items():
            if query is None:
                continue
            if with_urls:
                urls = [row[0] for row in connection.execute(f"{query} ORDER BY 1")]
                setattr(changes, kind, urls)
                setattr(changes, f"{kind}_count", len(urls))
            else:
                counting = f"SELECT count(*) FROM ({query})"  # noqa: S608  # fixed query text
                setattr(changes, f"{kind}_count", connection.execute(counting).fetchone()[0])
        if history.path is not None:
            connection.execute("DROP TABLE temp.old_urls")
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
            self.history.close()
            os.replace(self._temp, self.path)
            finished(self._temp)
        except (OSError, sqlite3.Error) as err:
            self.discard()
            reason = explain(err) if isinstance(err, OSError) else str(err)
            raise WriteError(str(self.path), f"cannot save the lastmod manifest: {reason}") from err
        if self.previous != self.path and self.history.path is not None:
            # The folder's former manifest was this site's: its history lives on here.
            with contextlib.suppress(OSError):
                remove(self.previous)

    def discard(self) -> None:
        """Drop the new manifest (after an error); the old one stays as it was."""
        if self.next is not None:
            with contextlib.suppress(sqlite3.Error):
                self.next.close()
        self.next = None
        self.history.close()
        with contextlib.suppress(OSError):
            remove(self._temp)


def busy_error(path: Path) -> BusyError:
    """The one line a build that waited for the manifest in vain ends with."""
    return BusyError(str(path), (
        f"is held by another program (waited {BUSY_SECONDS:.0f} s); nothing was written and "
        "the dates it keeps are untouched: close what holds it (an SQLite browser, a backup "
        "in progress) and build again"))


def _latest_build_time(meta: dict[str, object], path: Path) -> Lastmod | None:
    """When the build that wrote the manifest at ``path`` ran (its ``built`` entry, or rows)."""
    built = meta.get("built")
    if isinstance(built, str):
        return parse_w3c(built)
    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True,
                                                timeout=BUSY_SECONDS)) as connection:
            found = connection.execute(
                "SELECT max(changed), max(CASE WHEN source LIKE 'manifest%' THEN lastmod END) "
                "FROM files").fetchone()
    except sqlite3.Error:
        return None
    dates = [parse_w3c(text) for text in found or () if isinstance(text, str) and text]
    known = [date for date in dates if date is not None]
    return max(known, key=sort_key) if known else None


def decided(cache_dir: Path, site: Path, paths: Callable[[str], list[str]], url: str,
            ) -> tuple[dict[str, str], str, str]:
    """What the newest build of ``site`` recorded for ``explain``: (meta, path, decision).

    ``paths``: base URL -> the files the page may be; else the file listed at ``url``.

    Raises:
        sqlite3.Error: when a manifest cannot be read.
    """
    found: list[tuple[float, Path, dict[str, str]]] = []
    for path in cache_dir.glob("lastmod-manifest-*.sqlite"):
        try:  # another site's, or a damaged one: not this site's record
            with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
                meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
                kept = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'why'").fetchall()
        except sqlite3.Error:
            continue
        if kept and path == manifest_path(cache_dir, site, str(meta.get("base_url"))):
            found.append((path.stat().st_mtime, path, meta))
    if not found:
        return {}, "", ""
    _, newest, meta = max(found, key=lambda item: item[0])
    with contextlib.closing(sqlite3.connect(f"{newest.as_uri()}?mode=ro", uri=True)) as db:
        keys = [path_key(rel) for rel in paths(meta.get("base_url", ""))]
        keys += [key for (key,) in db.execute("SELECT path FROM files WHERE url = ?", (url,))]
        for key in keys:
            decision = db.execute("SELECT decision FROM why WHERE path = ?", (key,)).fetchone()
            if decision is not None:
                return meta, key.decode("utf-8", "surrogatepass"), str(decision[0])
    return meta, "", ""


def manifest_path(cache_dir: Path, site: Path, base_url: str) -> Path:
    """The manifest of ``site`` built for ``base_url`` in ``cache_dir``: one per site and URL."""
    return cache_dir / f"lastmod-manifest-{site_key(site, cache_dir, base_url)}.sqlite"


class RowsInOrder:
    """Rows of a previous-manifest table by key: one pass a few ahead, else by the index."""

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
        while key not in ahead and len(ahead) < READ_AHEAD and self._rows is not None:
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
    """Write the added/changed/removed report (``changes_file``) atomically."""
    write_bytes_atomic(path, changes.as_json())


# -------------------- the IndexNow pending list (its bytes: sitemap_plugins.disk.history_files)

_MAX_PENDING = 256 * 1024 * 1024


def pending_path(cache_dir: Path) -> Path:
    """Where the pending list lives."""
    return cache_dir / PENDING_NAME


def read_pending(cache_dir: Path) -> list[str]:
    """The URLs waiting to be submitted, sorted; empty when there is no list.

    Raises:
        PendingError: when the file is there but cannot be read as a pending list.
    """
    return sorted(read_pending_versions(cache_dir))


def read_pending_versions(cache_dir: Path) -> dict[str, int]:
    """The URLs waiting to be submitted, each with its version of changes (sorted).

    Raises:
        PendingError: when the file is there but cannot be read as a pending list.
    """
    path = pending_path(cache_dir)
    try:
        data = read_file(path, _MAX_PENDING)
    except FileNotFoundError:
        return {}
    except OSError as err:
        raise PendingError(str(path), f"cannot be read ({err.strerror})", _REMEDY) from err
    return decode_pending(data, str(path))


def _write_pending(cache_dir: Path, versions: dict[str, int]) -> None:
    write_bytes_atomic(pending_path(cache_dir), encode_pending(versions))


def record_pending(cache_dir: Path, changes: Changes) -> list[Diagnostic]:
    """Add a build's changed URLs to the pending list; a damaged one is set aside (``.damaged``).

    Raises:
        WriteError: when the list cannot be written (the old one is kept whole).
    """
    if not changes.baseline:
        return []
    # Sibling sites' builds and submit share the list: one reads, merges and writes at a time.
    with folder_lock(cache_dir):
        return _record_pending(cache_dir, changes)


def _record_pending(cache_dir: Path, changes: Changes) -> list[Diagnostic]:
    new = [*changes.added, *changes.changed, *changes.removed]
    diagnostics: list[Diagnostic] = []
    try:
        kept = read_pending_versions(cache_dir)
    except PendingError as err:
        problem = f"the IndexNow pending list {err.path} {err.reason}"
        aside = pending_path(cache_dir).with_name(PENDING_NAME + ".damaged")
        try:
            os.replace(pending_path(cache_dir), aside)
        except OSError as moving:
            # Never written over: its URLs may still be readable by hand.
            return [Diagnostic("", "bad-pending", (
                f"{problem}, and cannot be set aside ({moving.strerror}): this build's "
                f"{len(new):,} changed URLs were not recorded for IndexNow"))]
        diagnostics.append(Diagnostic("", "bad-pending", (
            f"{problem}; set aside as {aside.name} and a new list started with this build's "
            "changes")))
        kept = {}
    if new:
        # Each change is a new version: a submission under way leaves it on the list.
        for url in set(new):
            kept[url] = kept.get(url, 0) + 1
        _write_pending(cache_dir, kept)
    return diagnostics


def remove_sent(cache_dir: Path, sent: Mapping[str, int]) -> None:
    """Take the URLs an endpoint accepted off the pending list, as they were when sent.

    ``sent``: URL -> its version when read for sending; a URL changed again since stays.

    Raises:
        PendingError: when the list became unreadable meanwhile.
        WriteError: when it cannot be written.
    """
    with folder_lock(cache_dir):
        current = read_pending_versions(cache_dir)
        remaining = {url: version for url, version in current.items()
                     if url not in sent or sent[url] != version}
        if len(remaining) != len(current):
            _write_pending(cache_dir, remaining)


# -------------------- the record of the files written into the site (for disk.owned)

def record_path(cache_dir: Path, site: Path) -> Path:
    """Where the record of the files written into ``site`` is kept."""
    return cache_dir / f"written-{site_key(site, cache_dir)}.json"


def read_written(path: Path) -> dict[str, set[str]]:
    """File name -> the digests this tool wrote under it; empty when there is no record.

    Raises:
        OSError: when it cannot be read.
        ValueError: when it is not such a record (any bad name or digest spoils it).
    """
    if not os.path.lexists(path):
        return {}
    if not is_regular(path):
        raise ValueError("not a regular file")
    return decode_written(read_file(path, 16 * 1024 * 1024))


def save_written(path: Path, files: dict[str, set[str]]) -> None:
    """Replace the record with ``files`` (names without digests are left out).

    Raises:
        WriteError: when it cannot be written; the old record is kept.
    """
    write_bytes_atomic(path, encode_written(files), make_folder=True)

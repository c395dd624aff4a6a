"""Honest lastmod across rebuilds: a manifest of page fingerprints kept between builds.

Static builds rewrite every file, so file times say "built today" for every page. The
manifest remembers, per URL, the fingerprint of what the reader sees and the lastmod given
last time. On the next build an unchanged fingerprint keeps its lastmod; a changed one, or a
URL that is new since the last manifest, takes the build's time: only then is "now" honest,
because the manifest saw the change happen between two builds. Without a manifest (first
build, deleted cache) there is no such evidence and dates come from the host, the page or
nowhere.

The manifest also keeps, for each page file, its facts (head and fingerprint, see
:mod:`sitemap_plugins.page_facts`) with a digest of its bytes, so the next build only parses
the pages whose bytes changed: most of a rebuild's pages are the same bytes written again.
With them it keeps what the build made of the page (left out and why, or listed and its
rendered ``<url>``), the host's hints for it and the file's signature (its status): a page
whose hints and bytes are the same, under the same options and code (the ``rules`` key), is
written as it was, and one whose file was not touched at all is not even read.

The manifest is an SQLite file in the cache folder (outside the published site), written
each run into a temporary file and renamed into place, so it is never half-written and memory
stays flat for a million pages. When the last build's pages can be reused, the temporary file
starts as a copy of the last manifest and only the rows that differ are written: most rows of
a rebuild are the same, and writing them all again took a sixth of an untouched rebuild. (A
manifest that is more than a quarter free space, after a site shrank, is written anew
instead, compact; so is one whose rows are out of scan order, after a build appended the row
of a page added among others.) The copy is made on first need: a build that finds every
page as the last one left it (:mod:`sitemap_plugins.untouched`) leaves the last manifest as
it is. Its meta table also describes the sitemap files the build wrote (names, sizes,
SHA-256), so that the next build can tell they are still there. A missing, corrupt,
old-format or other-site manifest is reported and ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, cast

from sitemap_plugins.dates import Lastmod, format_w3c, parse_w3c
from sitemap_plugins.errors import Diagnostic, Level, WriteError
from sitemap_plugins.page_facts import PageFacts, decode_facts, parser_key
from sitemap_plugins.writers.atomic import (
    explain,
    remove_leftovers,
    temp_path_for,
    write_bytes_atomic,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from datetime import datetime
    from pathlib import Path

    from sitemap_plugins.entry import Entry

FORMAT_VERSION = "1"
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
_NO_ROW = 1 << 62  # past any rowid SQLite gives
_OUT_OF_ORDER = "out of scan order"
_PAGES_IN_ORDER = (
    "SELECT url, fingerprint, lastmod, source, rowid FROM pages WHERE rowid > ? ORDER BY rowid",
    "SELECT fingerprint, lastmod, source, rowid FROM pages WHERE url = ?")
# The columns of the two per-page tables, their key first. A manifest is amended only when
# its tables have exactly these.
_PAGES_TABLE = ("url", "fingerprint", "lastmod", "source")
_FILES_TABLE = ("path", "digest", "facts", "signature", "hints", "reason", "url",
                "fingerprint", "lastmod", "source", "xml")
_FILE_COLUMNS = ", ".join(_FILES_TABLE[1:])
_FILES_IN_ORDER = (
    f"SELECT path, {_FILE_COLUMNS}, rowid FROM files WHERE rowid > ? ORDER BY rowid",  # noqa: S608
    f"SELECT {_FILE_COLUMNS}, rowid FROM files WHERE path = ?")  # noqa: S608
_FILES_BETWEEN = (f"SELECT path, {_FILE_COLUMNS}, rowid FROM files "  # noqa: S608
                  "WHERE rowid > ? AND rowid <= ? ORDER BY rowid")
# Per file row: its key, signature and hints, then what KeptPages.get would make of its
# result (the reason it was left out, "" when listed, NULL when it gives none), its rowid
# and digest, in order. SQLite checks the types, so that the big columns are not decoded.
_FILES_MATCHED = """
    SELECT path, signature, hints,
        CASE WHEN typeof(digest) <> 'blob' OR typeof(facts) <> 'text'
                  OR typeof(signature) <> 'text' OR typeof(hints) <> 'text' THEN NULL
             WHEN typeof(reason) = 'text' AND reason <> '' THEN reason
             WHEN typeof(url) = 'text' AND url <> '' AND typeof(xml) = 'text' AND xml <> ''
                  AND typeof(fingerprint) = 'text' AND typeof(lastmod) = 'text'
                  AND typeof(source) = 'text' THEN ''
        END,
        rowid, digest
    FROM files WHERE rowid > ? AND rowid < ? ORDER BY rowid"""


class AmendError(Exception):
    """The copy of the last manifest failed to take this build's rows.

    A damaged page of the file that the reads of the last build's rows did not reach (an
    index, say) fails only when written. The build is then made again without reusing pages,
    into a new manifest, which reads the last one with every error handled.
    """


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


class Manifest:
    """One run's view of the manifest: the previous one (read) and the next one (written)."""

    def __init__(
        self, cache_dir: Path, base_url: str, now: datetime, rules_key: str = "", *,
        reuse: bool = True,
    ) -> None:
        """``rules_key``: names the options and code that turn a page into its result.

        ``reuse``: whether this build may take what the last one kept of each page file.
        """
        self.cache_dir = cache_dir
        self.rules_key = rules_key
        self.path = cache_dir / MANIFEST_NAME
        self.base_url = base_url
        self.now = now
        self.diagnostics: list[Diagnostic] = []
        self.previous: sqlite3.Connection | None = None
        self._previous_rows: RowsInOrder | None = None
        # Rows to insert (or replace, by key) and rows to update (by rowid), per table.
        self._pending = _PendingRows("pages", _PAGES_TABLE)
        self._pending_files = _PendingRows("files", _FILES_TABLE)
        self._signatures: list[tuple[str, int]] = []  # (new signature, rowid)
        self._kept_facts: bool = False
        self._kept_results: bool = False
        self._last_meta: dict[str, str] = {}
        self._open_previous()
        self._reuse = reuse and self._kept_facts
        # Amend a copy of the last manifest, unless it is mostly free space (a site that
        # shrank): a new one is written compact, in the order of this build's pages.
        self._amend = (self._reuse and self.previous is not None and _mostly_rows(self.previous)
                       and self._last_meta.get("rows") != _OUT_OF_ORDER)
        # Amending: which of the copy's rows (by rowid) this build has seen. Rows it has not
        # seen are of pages gone since, and are deleted at the end.
        self._seen_pages = bytearray()
        self._seen_files = bytearray()
        if self._amend:
            assert self.previous is not None
            try:
                self._seen_pages = _seen_rows(self.previous, "pages")
                self._seen_files = _seen_rows(self.previous, "files")
            except sqlite3.Error:
                self._amend = False
        self._swept = False
        # A row for a new page is appended to the copy. Followed by a row of the copy, it is
        # out of scan order, which the next build's pass over the rows (untouched.py) stops
        # at: that build writes the manifest anew, in order.
        self._appended = self._out_of_order = False
        # Written on first need: a build that changes nothing keeps the last manifest.
        self.next: sqlite3.Connection | None = None
        self._temp = temp_path_for(self.path)
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            remove_leftovers(cache_dir)  # a killed run's half-written manifest
        except OSError as err:
            self.discard()
            raise WriteError(str(cache_dir),
                             f"cannot write the lastmod manifest: {explain(err)}") from err

    def _writable(self) -> sqlite3.Connection:
        """The new manifest: a copy of the last one to amend, or a new one, made on first use."""
        if self.next is not None:
            return self.next
        try:
            if self._amend:
                shutil.copyfile(self.path, self._temp)
            self.next = sqlite3.connect(self._temp)
            self.next.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
            if not self._amend:
                self.next.executescript(
                    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
                    "CREATE TABLE pages (url TEXT PRIMARY KEY, fingerprint TEXT, lastmod TEXT,"
                    " source TEXT);"
                    "CREATE TABLE files (path BLOB PRIMARY KEY, digest BLOB, facts TEXT,"
                    " signature TEXT, hints TEXT, reason TEXT, url TEXT, fingerprint TEXT,"
                    " lastmod TEXT, source TEXT, xml TEXT);")
            self.next.execute("DELETE FROM meta WHERE key = 'output'")
            self.next.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                  [("version", FORMAT_VERSION), ("base_url", self.base_url),
                                   ("parser", parser_key()), ("rules", self.rules_key)])
        except sqlite3.Error as err:
            raise self._write_failed(err) from err
        except OSError as err:
            raise WriteError(str(self.cache_dir),
                             f"cannot write the lastmod manifest: {explain(err)}") from err
        return self.next

    @property
    def amends(self) -> bool:
        """Whether this build's manifest is the last one, amended (not written anew)."""
        return self._amend

    @property
    def last_output(self) -> str | None:
        """What the last build wrote (:func:`~sitemap_plugins.output.describe_output`)."""
        return self._last_meta.get("output")

    def set_output(self, description: str) -> None:
        """Remember what this build wrote, so that the next one can tell it is still there."""
        connection = self._writable()
        try:
            connection.execute("INSERT OR REPLACE INTO meta VALUES ('output', ?)", (description,))
        except sqlite3.Error as err:
            raise self._write_failed(err) from err

    def unchanged(self, signatures: Iterable[tuple[str, int]] = ()) -> Changes:
        """End a build that made the last one again: the last manifest stays as it was.

        But for ``signatures`` ((new signature, rowid) of files written again with the same
        bytes), which a copy takes. Only for a build that matched every row of the last
        manifest (see :mod:`sitemap_plugins.untouched`) and called nothing that records; and
        only when :attr:`amends`: a manifest due to be written anew, compact, is written even
        then.
        """
        assert self.next is None
        assert self._amend
        self._signatures.extend(signatures)
        if not self._signatures:
            self.discard()
            return Changes(baseline=True)
        self._swept = True  # every row was matched: none is of a page gone
        output = self.last_output
        if output is not None:
            self.set_output(output)  # the sitemap files stay as they were
        self.save()
        return Changes(baseline=True)

    @property
    def has_baseline(self) -> bool:
        """Whether an earlier build's manifest is there to compare with."""
        return self.previous is not None

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
            previous.execute("SELECT url, fingerprint, lastmod FROM pages LIMIT 1").fetchall()
        except sqlite3.Error as err:
            self._note("bad-manifest", f"the lastmod manifest {self.path} cannot be read "
                                       f"({err}); starting a new one")
            return
        if meta.get("version") != FORMAT_VERSION:
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
        self._last_meta = meta
        self._kept_facts = _trusts_facts(previous, meta)
        self._kept_results = (self._kept_facts and bool(self.rules_key)
                              and meta.get("rules") == self.rules_key)
        self._previous_rows = RowsInOrder(previous, _PAGES_IN_ORDER)

    def settle(self, entry: Entry) -> tuple[Lastmod | None, str]:
        """The honest lastmod of ``entry`` and its source; records it for the next build."""
        lastmod, source = entry.lastmod, entry.lastmod_source
        weak = source in WEAK_SOURCES
        row = self._last_row(entry.loc) if weak or self._amend else None
        if weak and self._previous_rows is not None:  # else no evidence: the entry's own date
            if row is None:
                lastmod, source = self.now, "manifest: new page"
            elif row[0] != entry.fingerprint:
                lastmod, source = self.now, "manifest: changed"
            elif row[1] and isinstance(row[1], str):
                lastmod, source = parse_w3c(row[1]), str(row[2] or "manifest")
            else:
                lastmod, source = None, ""
        self._put_page((entry.loc, entry.fingerprint, format_w3c(lastmod) if lastmod else "",
                        source), row)
        return lastmod, source

    def record(self, url: str, fingerprint: str, lastmod: str, source: str) -> None:
        """Record a listed URL's settled lastmod (W3C text) for the next build."""
        values = (url, fingerprint, lastmod, source)
        self._put_page(values, self._last_row(url) if self._amend else None)

    def _last_row(self, url: str) -> tuple[object, ...] | None:
        """The last build's row for ``url`` (fingerprint, lastmod, source, rowid)."""
        if self._previous_rows is None:
            return None
        try:
            return self._previous_rows.get(url)
        except sqlite3.Error as err:
            self._drop_previous(err)
            return None

    def _put_page(self, values: tuple[str, str, str, str], last: tuple[object, ...] | None) -> None:
        rowid = last[-1] if last is not None else 0
        if isinstance(rowid, int) and 0 < rowid < len(self._seen_pages):  # none unless amending
            self._seen_pages[rowid] = 1
            if last is not None and last[:-1] == values[1:]:
                return  # the copy holds it already
            self._pending.update(values[1:], rowid)
        else:
            self._pending.insert(values)
        if self._pending.full():
            self._flush()

    def _drop_previous(self, err: sqlite3.Error) -> None:
        self._note("bad-manifest", f"the lastmod manifest {self.path} cannot be read ({err}); "
                                   "the rest of this build has no dates from it")
        if self.previous is not None:
            with contextlib.suppress(sqlite3.Error):
                self.previous.close()
        self.previous, self._previous_rows = None, None
        self._kept_facts = self._kept_results = False

    def kept_pages(self) -> KeptPages | None:
        """What the last build kept of each page file, when it can be trusted and reused."""
        if not self._reuse:
            return None
        return KeptPages(self.path, results=self._kept_results)

    def keep_file(
        self, rel_path: str, kept: KeptFile, result: KeptResult | None, *,
        last_row: int = 0, same: bool = False, resigned: bool = False,
    ) -> None:
        """Keep what this build took from a page file, and made of it, for the next build.

        ``result`` is None when the page must be evaluated again next time (it had
        something to report, which the next build must report again). ``last_row`` is the
        file's row in the last manifest (:attr:`KeptPage.row`), when it had one; ``same``
        says that nothing of it changed, ``resigned`` that only the file's signature did.
        """
        if 0 < last_row < len(self._seen_files):  # none unless amending
            self._seen_files[last_row] = 1
            self._out_of_order = self._out_of_order or self._appended
            if same:
                return  # the copy holds it already
            if resigned:  # what a host's rebuild gives: binding the other columns costs more
                self._signatures.append((kept.signature, last_row))
            else:
                self._pending_files.update((*kept, *_result_columns(result)), last_row)
        else:
            self._appended = self._amend
            self._pending_files.insert((_path_key(rel_path), *kept, *_result_columns(result)))
        if self._pending_files.full() or len(self._signatures) >= _BATCH:
            self._flush()

    def _flush(self) -> None:
        connection = self._writable()
        try:
            self._pending.write(connection)
            self._pending_files.write(connection)
            connection.executemany("UPDATE files SET signature = ? WHERE rowid = ?",
                                   self._signatures)
            self._signatures.clear()
        except sqlite3.Error as err:
            raise self._write_failed(err) from err

    def _finish(self) -> None:
        """Write what is pending and delete the copied rows of pages gone since."""
        self._flush()
        assert self.next is not None  # made by _flush
        try:
            if not self._swept:
                self._swept = True
                for table, seen in (("pages", self._seen_pages), ("files", self._seen_files)):
                    self.next.executemany(f"DELETE FROM {table} WHERE rowid = ?",  # noqa: S608
                                          ((rowid,) for rowid in _unseen(seen)))
                if self._out_of_order:
                    self.next.execute("INSERT OR REPLACE INTO meta VALUES ('rows', ?)",
                                      (_OUT_OF_ORDER,))
            self.next.commit()
        except sqlite3.Error as err:
            raise self._write_failed(err) from err

    def _write_failed(self, err: sqlite3.Error) -> Exception:
        if self._amend:  # the copy may be damaged where the last build's reads did not go
            return AmendError(f"the copy of the lastmod manifest {self.path} cannot be "
                              f"updated ({err})")
        return WriteError(str(self.path), f"cannot write the lastmod manifest: {err}")

    def changes(self, *, with_urls: bool) -> Changes:
        """Compare this build with the previous manifest; list the URLs if ``with_urls``."""
        self._finish()
        try:
            return self._compare(with_urls=with_urls)
        except sqlite3.Error as err:
            raise self._write_failed(err) from err

    def _compare(self, *, with_urls: bool) -> Changes:
        assert self.next is not None
        queries = {"added": "SELECT url FROM main.pages", "changed": None, "removed": None}
        if self.previous is not None:
            self.next.execute("ATTACH DATABASE ? AS old", (f"{self.path.as_uri()}?mode=ro",))
            queries = {
                "added": "SELECT url FROM main.pages WHERE url NOT IN (SELECT url FROM old.pages)",
                "changed": "SELECT p.url FROM main.pages p JOIN old.pages o ON o.url = p.url "
                           "WHERE o.fingerprint IS NOT p.fingerprint",
                "removed": "SELECT url FROM old.pages "
                           "WHERE url NOT IN (SELECT url FROM main.pages)",
            }
        changes = Changes(baseline=self.previous is not None)
        for kind, query in queries.items():
            if query is None:
                continue
            counting = f"SELECT count(*) FROM ({query})"  # noqa: S608  # fixed query text
            count = self.next.execute(counting).fetchone()[0]
            setattr(changes, f"{kind}_count", count)
            if with_urls:
                rows = self.next.execute(f"{query} ORDER BY 1")
                setattr(changes, kind, [row[0] for row in rows])
        if self.previous is not None:
            self.next.execute("DETACH DATABASE old")
        return changes

    def save(self) -> None:
        """Put the new manifest in place of the old one (atomically)."""
        self._finish()
        assert self.next is not None
        try:
            self.next.close()
            if self.previous is not None:
                self.previous.close()
            os.replace(self._temp, self.path)
        except (OSError, sqlite3.Error) as err:
            self.discard()
            reason = explain(err) if isinstance(err, OSError) else str(err)
            raise WriteError(str(self.path), f"cannot save the lastmod manifest: {reason}") from err

    def discard(self) -> None:
        """Drop the new manifest (after an error); the old one stays as it was."""
        if self.next is not None:
            with contextlib.suppress(sqlite3.Error):
                self.next.close()
        if self.previous is not None:
            with contextlib.suppress(sqlite3.Error):
                self.previous.close()
        with contextlib.suppress(OSError):
            self._temp.unlink()


def _trusts_facts(previous: sqlite3.Connection, meta: dict[str, str]) -> bool:
    # Facts kept by another parser (another version, an edited one) are not trusted; a
    # manifest from before files were kept has no such table.
    try:
        for table, columns in (("pages", _PAGES_TABLE), ("files", _FILES_TABLE)):
            found = previous.execute(f"PRAGMA table_info({table})").fetchall()
            if tuple(row[1] for row in found) != columns:
                return False
    except sqlite3.Error:
        return False
    return meta.get("parser") == parser_key()


def has_kept_facts(cache_dir: Path, base_url: str) -> bool:
    """Whether the next build will find page facts it can trust in ``cache_dir``.

    A rebuild that has them reads and parses little, so a host adapter need not read pages
    ahead (which costs the host's process a little for every page it writes).
    """
    path = cache_dir / MANIFEST_NAME
    if not path.is_file():
        return False
    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as previous:
            meta = dict(previous.execute("SELECT key, value FROM meta").fetchall())
            return (meta.get("version") == FORMAT_VERSION and meta.get("base_url") == base_url
                    and _trusts_facts(previous, meta))
    except sqlite3.Error:
        return False


class _PendingRows:
    """Rows waiting to be written to one table of the new manifest, in batches."""

    def __init__(self, table: str, columns: tuple[str, ...]) -> None:
        """``columns``: the table's columns, its key first."""
        marks = ", ".join("?" * len(columns))
        self._insert_sql = f"INSERT OR REPLACE INTO {table} VALUES ({marks})"  # noqa: S608
        assignments = ", ".join(f"{column} = ?" for column in columns[1:])
        self._update_sql = f"UPDATE {table} SET {assignments} WHERE rowid = ?"  # noqa: S608
        self._inserts: list[tuple[object, ...]] = []
        self._updates: list[tuple[object, ...]] = []

    def insert(self, row: tuple[object, ...]) -> None:
        """A row for a key that the copied manifest does not hold (or holds damaged)."""
        self._inserts.append(row)

    def update(self, values: tuple[object, ...], rowid: int) -> None:
        """New values (all columns but the key) for a row of the copied manifest."""
        self._updates.append((*values, rowid))

    def full(self) -> bool:
        """Whether it is time to write."""
        return len(self._inserts) + len(self._updates) >= _BATCH

    def write(self, connection: sqlite3.Connection) -> None:
        """Write the pending rows."""
        connection.executemany(self._update_sql, self._updates)
        self._updates.clear()
        connection.executemany(self._insert_sql, self._inserts)
        self._inserts.clear()


def _mostly_rows(connection: sqlite3.Connection) -> bool:
    """Whether at most a quarter of the manifest's file is free pages."""
    try:
        free = connection.execute("PRAGMA freelist_count").fetchone()[0]
        total = connection.execute("PRAGMA page_count").fetchone()[0]
    except sqlite3.Error:
        return False
    return isinstance(free, int) and isinstance(total, int) and free * 4 <= total


def _seen_rows(connection: sqlite3.Connection, table: str) -> bytearray:
    """One flag per rowid of ``table`` up to its largest, none set."""
    largest = connection.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]  # noqa: S608
    return bytearray((largest if isinstance(largest, int) else 0) + 1)


def _unseen(seen: bytearray) -> Iterator[int]:
    """The rowids not flagged (rowid 0 is never used)."""
    rowid = seen.find(0, 1)
    while rowid != -1:
        yield rowid
        rowid = seen.find(0, rowid + 1)


def _path_key(rel_path: str) -> bytes:
    # A file name that is not UTF-8 reaches us with lone surrogates, which a TEXT column
    # refuses: the key is the bytes, with those surrogates kept as they are.
    return rel_path.encode("utf-8", "surrogatepass")


class RowsInOrder:
    """Rows of one table of the previous manifest, looked up by key.

    A build asks for its pages in scan order, the order the last build wrote them in, so the
    rows are read in one pass, a few ahead: the next row costs a tenth of a point query, and
    holding every row would not keep memory flat for a million pages. A key that is not close
    ahead (pages removed, another worker's share skipped) is looked up by the index, and the
    pass goes on after it.
    """

    def __init__(
        self, connection: sqlite3.Connection, queries: tuple[str, str], *, after: int = 0
    ) -> None:
        """``queries``: the rows after a rowid (key, values, rowid), and one key's row.

        ``after``: the pass starts after this rowid.
        """
        self._connection = connection
        self._next, self._point = queries
        self._rows: sqlite3.Cursor | None = connection.execute(self._next, (after,))
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
        self._rows, self._ahead = self._connection.execute(self._next, (found[-1],)), OrderedDict()
        return tuple(found)


class KeptFile(NamedTuple):
    """What a build takes from a page file: the same for every build while its bytes are."""

    digest: bytes
    facts: str
    """:func:`~sitemap_plugins.page_facts.encode_facts`."""
    signature: str
    """:func:`~sitemap_plugins.page_facts.file_signature`; empty when not yet settled."""
    hints: str
    """:func:`~sitemap_plugins.entry.hints_key` of the host's hints for the page."""


class KeptListing(NamedTuple):
    """How a build listed a page: its settled row in ``pages`` and its ``<url>`` element."""

    url: str
    fingerprint: str
    lastmod: str
    """Settled, as W3C text (empty when none)."""
    source: str
    xml: str


MatchedRow = tuple[object, str, str, str | None, int, bytes]
"""A file row as :meth:`KeptPages.matched_rows` gives it. The key is bytes unless damaged;
the signature, hints and digest are of their types whenever the reason is not None."""

KeptResult = KeptListing | str
"""What a build made of a page file: listed, or left out for this reason."""

_RESULT_WIDTH = 1 + len(KeptListing._fields)  # the reason, then the listing


def _result_columns(result: KeptResult | None) -> tuple[str | None, ...]:
    if result is None:
        return (None,) * _RESULT_WIDTH
    if isinstance(result, str):
        return (result, *(None,) * len(KeptListing._fields))
    return (None, *result)


class KeptPage(NamedTuple):
    """One page file as the last build left it: :class:`KeptFile`, and maybe a result.

    A tuple: a rebuild makes one for every page, and this is the cheapest value type.
    """

    file: KeptFile
    result: KeptResult | None
    """None when the result may not be reused (other options or code, or none kept)."""
    row: int = 0
    """Its rowid in the last manifest."""

    def facts(self) -> PageFacts | None:
        """The kept facts, decoded (None when damaged)."""
        return decode_facts(self.file.digest, self.file.facts)


class KeptPages:
    """What the last build's manifest kept of each page file, by path relative to the site.

    It opens a read-only connection on first use. An SQLite connection must not cross a
    fork, so a pool's worker looks pages up through its own :meth:`copy`.
    """

    def __init__(self, path: Path, *, results: bool) -> None:
        """``results``: whether the kept results may be reused (same options and code)."""
        self._path = path
        self.results = results
        self._connection: sqlite3.Connection | None = None
        self._rows: RowsInOrder | None = None
        self._after = 0

    def __getstate__(self) -> dict[str, object]:
        return {"_path": self._path, "results": self.results, "_connection": None,
                "_rows": None, "_after": 0}

    def copy(self) -> KeptPages:
        """The same pages, through a connection of the copy's own."""
        return KeptPages(self._path, results=self.results)

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = sqlite3.connect(f"{self._path.as_uri()}?mode=ro", uri=True)
        return self._connection

    def get(self, rel_path: str) -> KeptPage | None:
        """What was kept of ``rel_path``, or None (nothing kept, unreadable or damaged)."""
        try:
            if self._rows is None:
                self._rows = RowsInOrder(self._open(), _FILES_IN_ORDER, after=self._after)
            row = self._rows.get(_path_key(rel_path))
        except sqlite3.Error:
            return None  # the page is parsed again: slower, never wrong
        return _kept_page(row, results=self.results)

    def matched_rows(self, after: int = 0, before: int | None = None) -> Iterator[MatchedRow]:
        """The file rows in order, between rowids ``after`` and ``before`` (excluded).

        Each is: key, signature, hints, kept result's reason, rowid, digest. The reason is ""
        for a listed page and None when no result would be reused.

        Raises:
            sqlite3.Error: when the manifest cannot be read.
        """
        rows = self._open().execute(_FILES_MATCHED, (after, _NO_ROW if before is None else before))
        while batch := rows.fetchmany(_FETCH):
            yield from cast("list[MatchedRow]", batch)  # the query gives these types

    def middle_row(self) -> tuple[int, str, int] | None:
        """The rowid and path of the row in the middle of the file rows, and their span.

        The span (the largest rowid less the smallest, plus one) is about the number of rows,
        without counting them: counting reads the whole table. None when there are none, or
        when they cannot be read.
        """
        try:
            connection = self._open()
            first, last = connection.execute(
                "SELECT min(rowid), max(rowid) FROM files").fetchone()
            if not isinstance(first, int) or not isinstance(last, int):
                return None
            found = connection.execute(
                "SELECT rowid, path FROM files WHERE rowid >= ? ORDER BY rowid LIMIT 1",
                ((first + last) // 2,)).fetchone()
        except sqlite3.Error:
            return None
        if found is None or not isinstance(found[1], bytes):
            return None
        return found[0], found[1].decode("utf-8", "surrogatepass"), last - first + 1

    def replay(self, after: int, last_row: int) -> Iterator[tuple[str, KeptPage]]:
        """The pages of the rows after rowid ``after`` up to ``last_row``, in order.

        After them, :meth:`get` reads on from the row after ``last_row``.

        Raises:
            AmendError: when a row cannot be read (it was read a moment ago).
        """
        self._after = last_row
        try:
            rows = self._open().execute(_FILES_BETWEEN, (after, last_row))
            while batch := rows.fetchmany(_FETCH):
                for row in batch:
                    page = _kept_page(row[1:], results=self.results)
                    path = row[0]
                    if page is None or page.result is None or not isinstance(path, bytes):
                        msg = f"the lastmod manifest {self._path} changed during the build"
                        raise AmendError(msg)
                    yield path.decode("utf-8", "surrogatepass"), page
        except (sqlite3.Error, UnicodeDecodeError) as err:
            msg = f"the lastmod manifest {self._path} cannot be read again ({err})"
            raise AmendError(msg) from err

    def close(self) -> None:
        """Close the connection."""
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
        self._connection, self._rows = None, None


def _kept_page(row: tuple[object, ...] | None, *, results: bool) -> KeptPage | None:
    """A file row, without its key, as :class:`KeptPage`; None when none or damaged."""
    if row is None or len(row) != len(KeptFile._fields) + _RESULT_WIDTH + 1:
        return None
    digest, facts, signature, hints = row[:4]
    rowid = row[-1]
    if not (isinstance(digest, bytes) and isinstance(facts, str)
            and isinstance(signature, str) and isinstance(hints, str)
            and isinstance(rowid, int)):
        return None
    return KeptPage(KeptFile(digest, facts, signature, hints),
                    _result(row[4:-1]) if results else None, rowid)


def _result(values: tuple[object, ...]) -> KeptResult | None:
    reason, url, fingerprint, lastmod, source, xml = values
    if reason.__class__ is str and reason:
        return reason
    if (url.__class__ is str and fingerprint.__class__ is str and lastmod.__class__ is str
            and source.__class__ is str and xml.__class__ is str and url and xml):
        return KeptListing(url, fingerprint, lastmod, source, xml)
    return None


def write_changes(path: Path, changes: Changes) -> None:
    """Write the added/changed/removed report atomically."""
    write_bytes_atomic(path, changes.as_json())

"""Damage the cache folder's lastmod history the way disks, crashes and people do.

The one place the tests know how :mod:`sitemap_plugins.disk.history` stores its rows: a test names a
row (its number in build order) and a field of :class:`~sitemap_plugins.disk.history.Kept` (or
``path``), never a table or a column, so a change of storage changes this file only.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import TYPE_CHECKING

from sitemap_plugins.disk.history import Kept

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

FIELDS = ("path", *Kept._fields)
"""What a row holds: the file's key, then what the last build saw of it."""
META_KEYS = ("version", "base_url", "fingerprint", "reader")
"""What the history says about itself."""


@contextlib.contextmanager
def _history(path: Path) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        yield db


def _field(name: str) -> str:
    if name not in FIELDS:
        msg = f"no field {name!r}; one of {FIELDS}"
        raise ValueError(msg)
    return name


def set_field(path: Path, row: int | None, field: str, value: object) -> None:
    """Set one field of row ``row`` (of every row with None) to any SQLite value."""
    with _history(path) as db:
        if row is None:
            db.execute(f"UPDATE files SET {_field(field)} = ?", (value,))
        else:
            db.execute(f"UPDATE files SET {_field(field)} = ? WHERE rowid = ?",
                       (value, row))


def edit_records(path: Path, edit: Callable[[object], object], row: int | None = None) -> None:
    """Replace each page record (of row ``row`` only, when given) by ``edit(record)``.

    ``edit`` gets the record as JSON data and returns the new data; None leaves it as it is.
    A record that is not JSON (damaged already) is left as it is.
    """
    with _history(path) as db:
        found = db.execute("SELECT rowid, record FROM files" + (
            " WHERE rowid = ?" if row is not None else ""), (row,) if row is not None else ())
        for rowid, text in found.fetchall():
            try:
                record = json.loads(text)
            except (TypeError, ValueError):
                continue
            new = edit(record)
            if new is not None:
                db.execute("UPDATE files SET record = ? WHERE rowid = ?", (json.dumps(new), rowid))


def delete_row(path: Path, row: int) -> None:
    """Remove one row."""
    with _history(path) as db:
        db.execute("DELETE FROM files WHERE rowid = ?", (row,))


def drop_rows(path: Path) -> None:
    """Lose every row, and the place they were kept in."""
    with _history(path) as db:
        db.execute("DROP TABLE files")


def renumber_row(path: Path, row: int | None, number: int) -> None:
    """Move row ``row`` to another number (every row ``number`` further with None).

    Raises:
        sqlite3.IntegrityError: when that number is taken.
    """
    with _history(path) as db:
        if row is None:
            db.execute("UPDATE files SET rowid = rowid + ?", (number,))
        else:
            db.execute("UPDATE files SET rowid = ? WHERE rowid = ?", (number, row))


def forge_row(path: Path, row: int, key: object, url: object) -> None:
    """A copy of row ``row`` under another file key and URL (replacing that key's row)."""
    with _history(path) as db:
        db.execute("INSERT OR REPLACE INTO files SELECT ?, digest, record, ?, fingerprint, "
                   "lastmod, source, changed FROM files WHERE rowid = ?", (key, url, row))


def add_row(path: Path, key: object, url: object, fingerprint: str = "f") -> None:
    """A row of a file no build saw: only its key, URL and fingerprint."""
    with _history(path) as db:
        db.execute("INSERT INTO files (path, url, fingerprint) VALUES (?, ?, ?)",
                   (key, url, fingerprint))


def set_meta(path: Path, key: str, value: object) -> None:
    """Change what the history says about itself (its format, site, fingerprint, reader)."""
    if key not in META_KEYS:
        msg = f"no meta key {key!r}; one of {META_KEYS}"
        raise ValueError(msg)
    with _history(path) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))


def listed(path: Path, field: str) -> dict[str, object]:
    """URL -> that field, for every listed URL of the history."""
    with _history(path) as db:
        return dict(db.execute(
            f"SELECT url, {_field(field)} FROM files WHERE url <> ''"))


def write_first_format(path: Path, base_url: str,
                       rows: list[tuple[str, str, str, str]]) -> None:
    """A history as the first reader wrote it: format 1, URL -> (fingerprint, lastmod,
    source), no records."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with _history(path) as db:
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
            "CREATE TABLE pages (url TEXT PRIMARY KEY, fingerprint TEXT, lastmod TEXT,"
            " source TEXT);")
        db.executemany("INSERT INTO meta VALUES (?, ?)",
                       [("version", "1"), ("base_url", base_url), ("parser", "old")])
        db.executemany("INSERT INTO pages VALUES (?, ?, ?, ?)", rows)

"""A rebuild that reuses pages amends a copy of the last manifest: it writes only what differs.

Every test compares with a build that writes a new manifest from nothing (``reuse_pages:
false``, from the same history), and checks that a damaged copy makes the build start again
rather than fail or lose rows.
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from sitemap_plugins import SitemapConfig, SitemapError, generate
from sitemap_plugins import manifest as manifest_module
from sitemap_plugins.manifest import MANIFEST_NAME

BASE = "https://example.org/docs/"
# The package exports the function ``generate``, which hides the module of that name.
GENERATE = sys.modules["sitemap_plugins.generate"]
OUTPUTS = ("sitemap.xml", "sitemap.xml.gz", "sitemap.txt")


@pytest.fixture(autouse=True)
def _settled_and_fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(GENERATE, "SETTLE_NS", 0)  # the tests change files by hand


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every row handed to the new manifest, as (insert or update, table)."""
    seen: list[tuple[str, str]] = []
    pending = manifest_module._PendingRows
    real_insert, real_update = pending.insert, pending.update

    def insert(self: object, row: tuple[object, ...]) -> None:
        seen.append(("insert", "files" if isinstance(row[0], bytes) else "pages"))
        real_insert(self, row)  # type: ignore[arg-type]

    def update(self: object, values: tuple[object, ...], rowid: int) -> None:
        seen.append(("update", "files" if len(values) > 3 else "pages"))
        real_update(self, values, rowid)  # type: ignore[arg-type]

    monkeypatch.setattr(pending, "insert", insert)
    monkeypatch.setattr(pending, "update", update)
    return seen


def _page(name: str, text: str = "text") -> bytes:
    return (f"<!doctype html><html lang='en'><head><title>{name}</title></head>"
            f"<body><main><p>{name} {text}</p></main></body></html>").encode()


def _site(folder: Path, names: tuple[str, ...] = ("a", "b", "c", "d", "e")) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).mkdir()
        (folder / name / "index.html").write_bytes(_page(name))
    (folder / "index.html").write_bytes(_page("home"))
    return folder


def _config(cache: Path, **options: object) -> SitemapConfig:
    return SitemapConfig.from_mapping({"base_url": BASE, "cache_dir": str(cache), **options})


def _table(cache: Path, table: str, *, rowids: bool = False) -> list[tuple[object, ...]]:
    columns = "rowid, *" if rowids else "*"
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        return connection.execute(f"SELECT {columns} FROM {table} ORDER BY 2").fetchall()


def _outputs(site: Path) -> dict[str, bytes]:
    return {name: (site / name).read_bytes() for name in OUTPUTS}


def _change_the_site(site: Path) -> None:
    (site / "b" / "index.html").write_bytes(_page("b", "new text"))  # changed
    shutil.rmtree(site / "c")  # removed
    (site / "f").mkdir()
    (site / "f" / "index.html").write_bytes(_page("f"))  # added


def _twin_builds(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A site built twice into two caches with the same history."""
    site = _site(tmp_path / "site")
    amended, fresh = tmp_path / "amended", tmp_path / "fresh"
    generate(site, _config(amended))
    shutil.copytree(amended, fresh)
    return site, amended, fresh


def test_an_untouched_rebuild_writes_no_page_row(
    tmp_path: Path, queued: list[tuple[str, str]]
) -> None:
    """Every row is in the copy already; the manifest comes out the same, rowids and all."""
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    generate(site, _config(cache))
    before = {table: _table(cache, table, rowids=True) for table in ("pages", "files")}
    queued.clear()
    result = generate(site, _config(cache))
    assert result.unread == 6
    assert queued == []
    assert {table: _table(cache, table, rowids=True) for table in ("pages", "files")} == before


def test_changed_removed_and_added_pages_give_the_rows_of_a_new_manifest(
    tmp_path: Path, queued: list[tuple[str, str]]
) -> None:
    """Only the rows that differ are written, and the tables equal a manifest made anew."""
    site, amended, fresh = _twin_builds(tmp_path)
    rowids = {row[1]: row[0] for row in _table(amended, "files", rowids=True)}
    _change_the_site(site)
    queued.clear()
    result = generate(site, _config(amended))
    assert sorted(queued) == [("insert", "files"), ("insert", "pages"),  # f
                              ("update", "files"), ("update", "pages")]  # b
    assert result.changes is not None
    assert (result.changes.added_count, result.changes.changed_count,
            result.changes.removed_count) == (1, 1, 1)
    amended_outputs = _outputs(site)

    reference = generate(site, _config(fresh, reuse_pages=False))
    assert reference.changes == result.changes
    assert _outputs(site) == amended_outputs
    for table in ("pages", "files"):
        assert _table(amended, table) == _table(fresh, table)
    # Rows stay where they were, in the order the next build asks for them.
    kept_rowids = {row[1]: row[0] for row in _table(amended, "files", rowids=True)}
    assert b"c/index.html" not in kept_rowids
    for path in (b"index.html", b"a/index.html", b"b/index.html", b"d/index.html"):
        assert kept_rowids[path] == rowids[path]


def _damage_index(manifest: Path, index: str) -> None:
    """Overwrite one index's pages: the table's rows stay readable in order."""
    with sqlite3.connect(manifest) as connection:
        root = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                                  (index,)).fetchone()[0]
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    connection.close()
    with manifest.open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xa5" * page_size)


def test_a_copy_that_cannot_take_rows_makes_the_build_start_again(tmp_path: Path) -> None:
    """A damaged index fails only when written: the build is made again into a new manifest."""
    site, amended, fresh = _twin_builds(tmp_path)
    _damage_index(amended / MANIFEST_NAME, "sqlite_autoindex_files_1")
    _change_the_site(site)
    result = generate(site, _config(amended))
    notes = [d for d in result.diagnostics if d.code == "bad-manifest"]
    assert len(notes) == 1
    assert "cannot be updated" in notes[0].message
    assert "made again without reusing pages" in notes[0].message
    amended_outputs = _outputs(site)

    generate(site, _config(fresh, reuse_pages=False))
    assert _outputs(site) == amended_outputs
    assert _table(amended, "pages") == _table(fresh, "pages")  # no date was lost
    with sqlite3.connect(amended / MANIFEST_NAME) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    connection.close()
    again = generate(site, _config(amended))
    assert "bad-manifest" not in {d.code for d in again.diagnostics}
    assert again.unread == 6
    assert list(amended.iterdir()) == [amended / MANIFEST_NAME]


def test_a_manifest_with_other_columns_is_not_amended(
    tmp_path: Path, queued: list[tuple[str, str]]
) -> None:
    """Rows are written by position, so only a manifest with exactly our columns is copied."""
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    generate(site, _config(cache))
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        connection.execute("ALTER TABLE files ADD COLUMN extra TEXT")
    connection.close()
    queued.clear()
    result = generate(site, _config(cache))
    assert result.kept == 0
    assert "bad-manifest" not in {d.code for d in result.diagnostics}  # not a failed amend
    assert sorted(set(queued)) == [("insert", "files"), ("insert", "pages")]
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(files)")]
    connection.close()
    assert "extra" not in columns
    assert generate(site, _config(cache)).unread == 6


@pytest.mark.parametrize("reuse", [True, False])
def test_a_full_disk_while_writing_the_manifest_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, reuse: bool
) -> None:
    """No traceback: a SitemapError naming the manifest; the old manifest stays whole."""
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    generate(site, _config(cache))
    (site / "a" / "index.html").write_bytes(_page("a", "changed"))
    old = (cache / MANIFEST_NAME).read_bytes()

    def full(_self: object, _connection: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(manifest_module._PendingRows, "write", full)
    with pytest.raises(SitemapError, match="cannot write the lastmod manifest: database or"):
        generate(site, _config(cache, reuse_pages=reuse))
    assert (cache / MANIFEST_NAME).read_bytes() == old
    assert list(cache.iterdir()) == [cache / MANIFEST_NAME]


def test_a_manifest_left_mostly_empty_is_written_anew(
    tmp_path: Path, queued: list[tuple[str, str]]
) -> None:
    """After a site shrinks, the next build writes a compact manifest and still reuses pages."""
    names = tuple(f"page-{index:03d}" for index in range(120))
    site = _site(tmp_path / "site", names)
    cache = tmp_path / "cache"
    generate(site, _config(cache))
    generate(site, _config(cache))
    for name in names[10:]:
        shutil.rmtree(site / name)
    shrunk = generate(site, _config(cache))  # amended: the rows of 110 pages are deleted
    assert shrunk.unread == 11
    amended_size = (cache / MANIFEST_NAME).stat().st_size
    queued.clear()
    compacted = generate(site, _config(cache))
    assert compacted.unread == 11  # kept pages are still reused
    assert sorted(set(queued)) == [("insert", "files"), ("insert", "pages")]
    assert (cache / MANIFEST_NAME).stat().st_size * 3 < amended_size
    queued.clear()
    assert generate(site, _config(cache)).unread == 11
    assert queued == []  # amended again

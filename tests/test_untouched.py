"""A rebuild first matches the scan against the last manifest's rows, without evaluating.

Every test compares with a build that reuses nothing (``reuse_pages: false``) from the same
history: the pass may make a build faster, never different. An untouched site keeps its
sitemap files as they were, dates and all.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sitemap_plugins import SitemapConfig, generate, untouched
from sitemap_plugins import entry as entry_module
from sitemap_plugins import manifest as manifest_module
from sitemap_plugins.generate import Result
from sitemap_plugins.manifest import MANIFEST_NAME

BASE = "https://example.org/"
GENERATE = sys.modules["sitemap_plugins.generate"]
# Ten pages a part: the site below makes an index with numbered parts.
OPTIONS = {"max_urls": 10, "exclude": ["drafts/*"], "changes_file": None}


@pytest.fixture(autouse=True)
def _settled_and_fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(GENERATE, "SETTLE_NS", 0)  # the tests change files by hand


@pytest.fixture(params=["one process", "two processes"])
def processes(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[str, bool]]:
    """Match in one process, or in two (each half of the walk).

    Lists, for each second process, the path its half starts at and whether it answered.
    """
    halves: list[tuple[str, bool]] = []
    if request.param == "two processes":
        monkeypatch.setattr(untouched, "SPLIT_THRESHOLD", 4)
        monkeypatch.setitem(OPTIONS, "workers", 2)
        real_init, real_answer = untouched._SecondHalf.__init__, untouched._SecondHalf.answer

        def init(self, walk, kept, rules, hints, from_path, after_row):  # type: ignore[no-untyped-def]
            self.from_path = from_path
            real_init(self, walk, kept, rules, hints, from_path, after_row)

        def answer(self: untouched._SecondHalf) -> untouched.Matched | None:
            found = real_answer(self)
            halves.append((self.from_path, found is not None))  # type: ignore[attr-defined]
            return found

        monkeypatch.setattr(untouched._SecondHalf, "__init__", init)
        monkeypatch.setattr(untouched._SecondHalf, "answer", answer)
    else:
        monkeypatch.setitem(OPTIONS, "workers", 1)
    return halves


@pytest.fixture
def evaluated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The relative paths of the pages evaluated one by one, in order."""
    seen: list[str] = []
    real = entry_module.evaluate_page

    def spy(built, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(built.rel_path)
        return real(built, *args, **kwargs)

    monkeypatch.setattr(GENERATE, "evaluate_page", spy)
    return seen


def _page(name: str, head: str = "", text: str = "text") -> bytes:
    return (f"<!doctype html><html lang='en'><head><title>{name}</title>{head}</head>"
            f"<body><main><p>{name} {text}</p></main></body></html>").encode()


NAMES = tuple(f"page-{index:02d}" for index in range(24))


def _site(folder: Path) -> Path:
    """24 pages, with pages left out for every kind of reason on the way."""
    folder.mkdir(parents=True)
    (folder / "index.html").write_bytes(_page("home"))
    (folder / "404.html").write_bytes(_page("not found"))  # left out before it is read
    (folder / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /private/\n")
    for name in NAMES:
        (folder / name).mkdir()
        (folder / name / "index.html").write_bytes(_page(name))
    (folder / "page-03" / "index.html").write_bytes(
        _page("page-03", "<meta name='robots' content='noindex'>"))
    (folder / "page-05" / "index.html").write_bytes(
        _page("page-05", f"<link rel='canonical' href='{BASE}page-06/'>"))
    (folder / "page-07" / "index.html").write_bytes(_page(
        "page-07", f"<link rel='alternate' hreflang='fr' href='{BASE}page-08/'>"
                   f"<link rel='alternate' hreflang='en' href='{BASE}page-07/'>"))
    for folder_name in ("drafts", "private"):  # left out by a glob, by robots.txt
        (folder / folder_name).mkdir()
        (folder / folder_name / "index.html").write_bytes(_page(folder_name))
    (folder / "guide.pdf").write_bytes(b"%PDF-1.4 not really\n")
    return folder


def _config(cache: Path, **options: object) -> SitemapConfig:
    settings: dict[str, object] = {"base_url": BASE, "cache_dir": str(cache),
                                   "extensions": [".html", ".pdf"], **OPTIONS, **options}
    return SitemapConfig.from_mapping(settings)


def _sitemap_files(site: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(site.glob("sitemap*"))}


def _tables(cache: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        return {table: connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
                for table in ("pages", "files")}


def _summary(result: Result, *, besides: str = "") -> tuple[object, ...]:
    changes = result.changes
    assert changes is not None
    diagnostics = sorted(str(d) for d in result.diagnostics if d.code != besides)
    return (result.listed, dict(result.excluded), diagnostics,
            result.split, changes.added_count, changes.changed_count, changes.removed_count)


def _rewrite(path: Path, data: bytes) -> None:
    path.write_bytes(data)


def _touch_last(site: Path) -> None:
    _rewrite(site / NAMES[-1] / "index.html", _page(NAMES[-1], text="a longer, new text"))


def _touch_first(site: Path) -> None:
    _rewrite(site / "index.html", _page("home", text="a longer, new text"))


def _remove_middle(site: Path) -> None:
    shutil.rmtree(site / NAMES[12])


def _remove_last(site: Path) -> None:
    shutil.rmtree(site / NAMES[-1])  # its row is the manifest's last


def _add_middle(site: Path) -> None:
    (site / "page-12a").mkdir()
    _rewrite(site / "page-12a" / "index.html", _page("page-12a"))


def _edit_sitemap(site: Path) -> None:
    data = (site / "sitemap-1.xml").read_bytes()
    _rewrite(site / "sitemap-1.xml", data.replace(b"page-01", b"page-99"))  # same size


def _remove_part(site: Path) -> None:
    (site / "sitemap-2.xml.gz").unlink()


def _link_part(site: Path) -> None:
    same_bytes = site / "part-copy.bin"  # not a page: the scan passes it over
    shutil.copyfile(site / "sitemap-3.xml", same_bytes)
    (site / "sitemap-3.xml").unlink()
    (site / "sitemap-3.xml").symlink_to(same_bytes)


def _lose_the_record(site: Path) -> None:
    cache = site.parent / "matched"
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        connection.execute("UPDATE meta SET value = 'not json' WHERE key = 'output'")


CHANGES: dict[str, tuple[Callable[[Path], None], str | None, bool]] = {
    # name: (the change, the first file that differs from its row (None when none does),
    # whether the second half of the walk (from page-10, the middle row) is untouched)
    "last page changed": (_touch_last, f"{NAMES[-1]}/index.html", False),
    "first page changed": (_touch_first, "index.html", True),
    "a page removed": (_remove_middle, f"{NAMES[13]}/index.html", False),
    "a page added": (_add_middle, "page-12a/index.html", False),
    "the last page removed": (_remove_last, None, False),
    "a sitemap part edited": (_edit_sitemap, None, True),
    "a gzip part removed": (_remove_part, None, True),
    "a part replaced by a link": (_link_part, None, True),
    "no record of the output": (_lose_the_record, None, True),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_rebuild_is_the_one_that_reuses_nothing(
    tmp_path: Path, change: str, evaluated: list[str],
    sitemap_urls: Callable[..., list[str]], processes: list[tuple[str, bool]],
) -> None:
    """Output, counts, diagnostics and manifest rows equal a build that evaluates every page.

    The files before the first that differs are not evaluated one by one; the rest are,
    but for a second half that a second process found untouched.
    """
    site = _site(tmp_path / "site")
    matched_cache, fresh_cache = tmp_path / "matched", tmp_path / "fresh"
    generate(site, _config(matched_cache))
    generate(site, _config(matched_cache))  # every page's result is kept now
    shutil.copytree(matched_cache, fresh_cache)
    make_change, first_difference, second_half_untouched = CHANGES[change]
    make_change(site)
    evaluated.clear()
    processes.clear()
    matched = generate(site, _config(matched_cache))
    matched_files, matched_evaluated, halves = _sitemap_files(site), list(evaluated), processes[:]
    urls = sitemap_urls(site)
    evaluated.clear()
    fresh = generate(site, _config(fresh_cache, reuse_pages=False))
    assert _sitemap_files(site) == matched_files
    assert _summary(matched) == _summary(fresh)
    assert _tables(matched_cache) == _tables(fresh_cache)
    assert matched.files  # the sitemap was written again
    assert matched.unchanged == []
    assert len(urls) == matched.listed > 20
    assert matched.split
    in_scan_order = list(evaluated)  # a build that reuses nothing evaluates every file
    end = len(in_scan_order)
    if OPTIONS["workers"] == 2:
        assert halves == [("page-10/index.html", True)]  # it answers how far it matched
        if second_half_untouched:
            end = in_scan_order.index("page-10/index.html")
    else:
        assert halves == []
    expected = ([] if first_difference is None
                else in_scan_order[in_scan_order.index(first_difference):end])
    assert matched_evaluated == expected
    assert len(in_scan_order) > len(expected) + 2 or first_difference == "index.html"


def test_an_untouched_site_keeps_its_sitemap_files(
    tmp_path: Path, evaluated: list[str], sitemap_urls: Callable[..., list[str]],
    processes: list[bool],
) -> None:
    """Nothing is evaluated or written; the result says what the last build said."""
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    changes_file = tmp_path / "changes.json"
    config = _config(cache, changes_file=str(changes_file))
    generate(site, config)
    last = generate(site, config)
    files = {path.name: os.stat(path) for path in site.glob("sitemap*")}
    manifest_before = os.stat(cache / MANIFEST_NAME)
    changes_file.unlink()
    evaluated.clear()
    processes.clear()
    again = generate(site, config)
    assert evaluated == []
    assert processes == ([("page-10/index.html", True)] if OPTIONS["workers"] == 2 else [])
    assert again.files == []
    assert sorted(again.unchanged) == sorted(files)
    assert _summary(again) == _summary(last)
    assert (again.kept, again.unread) == (last.kept, last.unread)
    for name, before in files.items():
        now = os.stat(site / name)
        assert (now.st_ino, now.st_mtime_ns, now.st_size) == (
            before.st_ino, before.st_mtime_ns, before.st_size), name
    after = os.stat(cache / MANIFEST_NAME)
    assert (after.st_ino, after.st_mtime_ns) == (manifest_before.st_ino, manifest_before.st_mtime_ns)
    assert json.loads(changes_file.read_text("utf-8")) == {
        "baseline": True, "added": [], "changed": [], "removed": []}
    assert len(sitemap_urls(site)) == again.listed


def test_a_stale_part_is_still_removed(tmp_path: Path) -> None:
    """A leftover numbered part next to an untouched sitemap goes, as after any build."""
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    generate(site, _config(cache))
    generate(site, _config(cache))
    (site / "sitemap-9.xml").write_bytes(b"stale")
    again = generate(site, _config(cache))
    assert again.unchanged
    assert again.removed == ["sitemap-9.xml"]
    assert not (site / "sitemap-9.xml").exists()


def test_rows_that_cannot_be_read_again_make_the_build_start_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row that fails when the matched pages are handed on: the build is made again."""
    site = _site(tmp_path / "site")
    cache, fresh = tmp_path / "cache", tmp_path / "fresh"
    generate(site, _config(cache))
    generate(site, _config(cache))
    _touch_last(site)
    shutil.copytree(cache, fresh)
    real = manifest_module._kept_page
    calls = {"count": 0}

    def damaged_after_five(row, *, results):  # type: ignore[no-untyped-def]
        calls["count"] += 1
        return None if calls["count"] == 5 else real(row, results=results)

    with monkeypatch.context() as damaged:
        damaged.setattr(manifest_module, "_kept_page", damaged_after_five)
        result = generate(site, _config(cache))
    notes = [str(d) for d in result.diagnostics if d.code == "bad-manifest"]
    assert len(notes) == 1
    assert "changed during the build" in notes[0]
    assert calls["count"] == 5  # the second attempt reused nothing
    written = _sitemap_files(site)
    reference = generate(site, _config(fresh, reuse_pages=False))
    assert _sitemap_files(site) == written
    assert _summary(result, besides="bad-manifest") == _summary(reference)


def test_a_second_process_that_fails_leaves_its_half_to_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, evaluated: list[str]
) -> None:
    """Whatever goes wrong in the second process, its half is matched here: same build."""
    monkeypatch.setattr(untouched, "SPLIT_THRESHOLD", 4)
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    config = _config(cache, workers=2)
    generate(site, config)
    last = generate(site, config)
    parent = os.getpid()
    real = untouched.match_untouched
    halves: list[str] = []

    def failing_there(files, kept, rules, hints, **rows):  # type: ignore[no-untyped-def]
        if os.getpid() != parent:
            raise RuntimeError("the second process fails")
        halves.append("first" if "before_row" in rows else "second")
        return real(files, kept, rules, hints, **rows)

    monkeypatch.setattr(untouched, "match_untouched", failing_there)
    evaluated.clear()
    again = generate(site, config)
    assert halves == ["first", "second"]  # this process matched both halves
    assert evaluated == []
    assert again.unchanged
    assert _summary(again) == _summary(last)


def test_a_page_added_in_the_middle_costs_one_full_build_then_none(
    tmp_path: Path, evaluated: list[str]
) -> None:
    """Its row is appended, out of scan order: the next build writes the manifest in order."""
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    generate(site, _config(cache))
    generate(site, _config(cache))
    _add_middle(site)
    generate(site, _config(cache))  # amends: the new page's row goes last
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        paths = [row[0] for row in connection.execute("SELECT path FROM files ORDER BY rowid")]
        flag = connection.execute("SELECT value FROM meta WHERE key = 'rows'").fetchall()
    assert paths[-1] == b"page-12a/index.html"
    assert flag == [("out of scan order",)]
    written = generate(site, _config(cache))  # stops at the new page; writes all anew
    assert written.files
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        paths = [row[0] for row in connection.execute("SELECT path FROM files ORDER BY rowid")]
        flag = connection.execute("SELECT value FROM meta WHERE key = 'rows'").fetchall()
    assert paths.index(b"page-12a/index.html") == paths.index(b"page-12/index.html") + 1
    assert flag == []
    evaluated.clear()
    again = generate(site, _config(cache))
    assert again.unchanged
    assert evaluated == []


@pytest.mark.parametrize("max_read", [256, 3])
def test_pages_written_again_with_the_same_bytes_are_matched_by_the_next_build(
    tmp_path: Path, evaluated: list[str], monkeypatch: pytest.MonkeyPatch, max_read: int
) -> None:
    """What a host's rebuild does: each page is read once more, then untouched again.

    The pass reads a few such pages itself; past ``MAX_READ`` the rest are evaluated.
    """
    monkeypatch.setattr(untouched, "MAX_READ", max_read)
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    generate(site, _config(cache))
    last = generate(site, _config(cache))
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        before = dict(connection.execute("SELECT path, signature FROM files"))
    for page in sorted(site.rglob("*.htm*")):
        page.write_bytes(page.read_bytes())  # new change time, same bytes
    evaluated.clear()
    rewritten = generate(site, _config(cache))
    assert (rewritten.kept, rewritten.unread) == (last.kept, 1)  # guide.pdf was not written
    assert (evaluated == []) == (max_read == 256)
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        after = dict(connection.execute("SELECT path, signature FROM files"))
    assert after.keys() == before.keys()
    assert {path for path in after if after[path] != before[path]} == {
        path for path in after if path.endswith((b".html", b".htm"))}
    evaluated.clear()
    again = generate(site, _config(cache))
    assert evaluated == []
    assert (again.kept, again.unread) == (last.kept, last.kept)
    assert again.unchanged


def test_pages_too_recent_to_sign_are_read_again_and_left_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, evaluated: list[str]
) -> None:
    """A page changed just before a build has no signature: the next build reads it, finds
    the same bytes, signs it, and still writes nothing."""
    site = _site(tmp_path / "site")
    cache = tmp_path / "cache"
    generate(site, _config(cache))
    generate(site, _config(cache))
    _touch_last(site)
    edited_inode = os.stat(site / NAMES[-1] / "index.html").st_ino
    real_signature = entry_module.file_signature

    def too_recent(status: os.stat_result, settled_before_ns: int) -> str:
        if status.st_ino == edited_inode:  # as if it had changed a moment before the build
            return ""
        return real_signature(status, settled_before_ns)

    with monkeypatch.context() as patched:
        patched.setattr(entry_module, "file_signature", too_recent)
        edited = generate(site, _config(cache))
    assert edited.files
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        unsigned = connection.execute("SELECT path FROM files WHERE signature = ''").fetchall()
    assert unsigned == [(f"{NAMES[-1]}/index.html".encode(),)]
    files = {path.name: os.stat(path).st_mtime_ns for path in site.glob("sitemap*")}
    evaluated.clear()
    later = generate(site, _config(cache))
    assert evaluated == []
    assert later.unchanged
    assert {path.name: os.stat(path).st_mtime_ns for path in site.glob("sitemap*")} == files
    # Every page's result is kept; all but the one page were not even read.
    assert (later.kept, later.unread) == (edited.kept + 1, edited.kept)
    with sqlite3.connect(cache / MANIFEST_NAME) as connection:
        signatures = [row[0] for row in connection.execute("SELECT signature FROM files")]
        output = connection.execute("SELECT value FROM meta WHERE key = 'output'").fetchone()
    assert all(signatures)
    assert output is not None
    evaluated.clear()
    third = generate(site, _config(cache))
    assert (third.unread, evaluated, third.unchanged != []) == (later.kept, [], True)

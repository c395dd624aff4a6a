"""Results kept from the last build: an unchanged page is written as it was, unread if untouched.

A page's result (left out and why, or its rendered ``<url>``) is reused only for the same
bytes, hints, options, robots.txt and code; a file whose signature (device, inode, size,
modification and change times) is the same is not even read. Every test compares with a
build that evaluates every page again.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import sys
import time
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from test_cli import BASE, make_traps

from sitemap_plugins import SitemapConfig, generate, page_facts
from sitemap_plugins import entry as entry_module
from sitemap_plugins.entry import PageHints
from sitemap_plugins.generate import Result, make_rules, results_key
from sitemap_plugins.manifest import MANIFEST_NAME, KeptPages
from sitemap_plugins.robots_rules import RobotsRules

# The package exports the function ``generate``, which hides the module of that name.
GENERATE = sys.modules["sitemap_plugins.generate"]
OUTPUTS = ("sitemap.xml", "sitemap.xml.gz", "sitemap.txt")


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written a moment ago count as settled (the tests change them by hand)."""
    monkeypatch.setattr(GENERATE, "SETTLE_NS", 0)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The relative paths of the page files read, in order."""
    seen: list[str] = []
    real = entry_module.read_page_file

    def counting(path: str, *, whole: bool) -> page_facts.PageBytes:
        seen.append(path)
        return real(path, whole=whole)

    monkeypatch.setattr(entry_module, "read_page_file", counting)
    return seen


def _config(tmp_path: Path, **options: object) -> SitemapConfig:
    return SitemapConfig.from_mapping(
        {"base_url": BASE, "cache_dir": str(tmp_path / "cache"), **options})


def _outputs(site: Path, result: Result) -> tuple[dict[str, bytes], list[object], int]:
    return ({name: (site / name).read_bytes() for name in OUTPUTS}, result.diagnostics,
            result.listed)


def _rows(tmp_path: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(tmp_path / "cache" / MANIFEST_NAME) as connection:
        return connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()


def _kept_results(tmp_path: Path) -> int:
    return sum(1 for row in _rows(tmp_path, "files") if row[5] is not None or row[10] is not None)


def _evaluating_all(
    site: Path, config: SitemapConfig, monkeypatch: pytest.MonkeyPatch
) -> Result:
    with monkeypatch.context() as patch:
        patch.setattr(KeptPages, "get", lambda _self, _rel: None)
        patch.setattr(KeptPages, "matched_rows", lambda _self, *_rows: iter(()))
        return generate(site, config)


def _page(title: str, robots: str = "all") -> bytes:
    return (f'<!doctype html><html lang="en"><head><title>{title}</title>'
            f'<meta name="robots" content="{robots}">'
            f'<link rel="canonical" href="{BASE}{title}/"></head>'
            f"<body><main><p>{title} text</p></main></body></html>").encode()


def _small_site(folder: Path) -> Path:
    for name in ("alpha", "beta", "gamma"):
        (folder / name).mkdir(parents=True)
        (folder / name / "index.html").write_bytes(_page(name))
    (folder / "index.html").write_bytes(_page("home").replace(b"home/", b""))
    return folder


@pytest.mark.usefixtures("settled")
@pytest.mark.parametrize("workers", [1, 2])
def test_untouched_rebuild_reads_nothing_and_writes_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: list[str], sitemap_urls,
    workers: int,
) -> None:
    """The trap site rebuilt untouched: no page with a kept result is read, same bytes."""
    monkeypatch.setattr(GENERATE, "PARALLEL_THRESHOLD", 5)
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path, workers=workers)
    first = generate(site, config)
    first_reads = len(reads)
    kept_results = _kept_results(tmp_path)
    assert kept_results > 30
    manifest = {table: _rows(tmp_path, table) for table in ("pages", "files")}

    reads.clear()
    second = generate(site, config)
    if workers == 1:  # with 2, the first build read in the pool's processes, uncounted
        # Only pages that had something to report (or no result) are read again.
        assert len(reads) == first_reads - kept_results
    assert second.unread == kept_results
    assert second.kept >= kept_results
    again = _outputs(site, second)
    assert {table: _rows(tmp_path, table) for table in ("pages", "files")} == manifest
    assert again == _outputs(site, _evaluating_all(site, config, monkeypatch))
    assert _outputs(site, first)[0] == again[0]
    assert sitemap_urls(site)


@pytest.mark.usefixtures("settled")
def test_same_bytes_written_again_are_read_but_not_evaluated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: list[str]
) -> None:
    """What MkDocs and Pelican do: every file rewritten with the same bytes."""
    site = _small_site(tmp_path / "site")
    config = _config(tmp_path)
    generate(site, config)
    for page in site.rglob("*.html"):
        page.write_bytes(page.read_bytes())
    evaluated: list[str] = []
    real_facts_of = entry_module.facts_of
    monkeypatch.setattr(entry_module, "facts_of",
                        lambda page, path, **kw: evaluated.append(path) or real_facts_of(
                            page, path, **kw))
    reads.clear()
    second = generate(site, config)
    assert (len(reads), second.kept, second.unread, evaluated) == (4, 4, 0, [])
    # The new signatures are kept: the next build reads nothing.
    reads.clear()
    third = generate(site, config)
    assert (len(reads), third.unread) == (0, 4)
    assert _outputs(site, third) == _outputs(site, _evaluating_all(site, config, monkeypatch))


@pytest.mark.usefixtures("settled")
def test_a_change_that_keeps_size_and_times_is_still_seen(
    tmp_path: Path, sitemap_urls
) -> None:
    """Same length, modification time set back: the change time still tells."""
    site = _small_site(tmp_path / "site")
    config = _config(tmp_path)
    generate(site, config)
    assert f"{BASE}beta/" in sitemap_urls(site)
    page = site / "beta" / "index.html"
    before = page.stat()
    changed = page.read_bytes().replace(b'content="all"', b'content="none"')
    assert len(changed) == before.st_size + 1
    changed = changed.replace(b"beta text", b"betatext")  # the same size again
    page.write_bytes(changed)
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (page.stat().st_size, page.stat().st_mtime_ns) == (before.st_size,
                                                              before.st_mtime_ns)
    result = generate(site, config)
    assert f"{BASE}beta/" not in sitemap_urls(site)
    assert (result.unread, result.excluded["noindex"]) == (3, 1)


def test_a_file_changed_just_before_the_run_is_read_next_time(
    tmp_path: Path, reads: list[str]
) -> None:
    """Within the settling time a second change could leave no trace: no signature."""
    site = _small_site(tmp_path / "site")
    config = _config(tmp_path)
    generate(site, config)
    assert {row[3] for row in _rows(tmp_path, "files")} == {""}
    reads.clear()
    second = generate(site, config)
    assert (len(reads), second.kept, second.unread) == (4, 4, 0)


def test_file_signature_needs_a_settled_past() -> None:
    """A change time at or after the settling point, or a future mtime: no signature."""
    status = os.stat(__file__)
    assert page_facts.file_signature(status, status.st_ctime_ns + 1).endswith(
        f":{status.st_size}:{status.st_mtime_ns}:{status.st_ctime_ns}")
    assert page_facts.file_signature(status, status.st_ctime_ns) == ""
    assert page_facts.file_signature(status, min(status.st_ctime_ns, status.st_mtime_ns)) == ""
    ahead = SimpleNamespace(st_dev=1, st_ino=2, st_size=3, st_ctime_ns=status.st_ctime_ns,
                            st_mtime_ns=time.time_ns() + 3_600_000_000_000)
    assert page_facts.file_signature(cast("os.stat_result", ahead), time.time_ns()) == ""


@pytest.mark.usefixtures("settled")
@pytest.mark.parametrize("change", ["option", "robots", "rules-key", "result-damaged"])
def test_other_options_or_robots_evaluate_every_page_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sitemap_urls, change: str
) -> None:
    """Results made under other options, another robots.txt or damaged are not reused."""
    site = _small_site(tmp_path / "site")
    config = _config(tmp_path)
    generate(site, config)
    if change == "option":
        config = _config(tmp_path, changefreq={"alpha/*": "daily"})
    elif change == "robots":
        (site / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /gamma/\n")
    else:
        with sqlite3.connect(tmp_path / "cache" / MANIFEST_NAME) as connection:
            connection.execute("UPDATE meta SET value = 'other' WHERE key = 'rules'"
                               if change == "rules-key" else "UPDATE files SET url = x'41'")
    result = generate(site, config)
    assert result.unread == 0
    assert result.kept == (3 if change == "robots" else 4)  # facts still count
    urls = sitemap_urls(site)
    assert (f"{BASE}gamma/" in urls) == (change != "robots")
    if change == "option":
        assert b"<changefreq>daily</changefreq>" in (site / "sitemap.xml").read_bytes()
    assert _outputs(site, result) == _outputs(site, _evaluating_all(site, config, monkeypatch))


def test_results_key_names_options_robots_and_not_the_working_ones(tmp_path: Path) -> None:
    """Workers, cache folder, changes file and robots Sitemap: lines change no page."""
    config = _config(tmp_path)
    key = results_key(make_rules(config, None))
    assert key == results_key(make_rules(
        _config(tmp_path / "x", workers=3, changes_file="c.json"), None, settled_before_ns=9))
    assert key != results_key(make_rules(_config(tmp_path, gzip=False), None))
    robots = RobotsRules.from_bytes(b"User-agent: *\nDisallow: /a/\n")
    assert key != results_key(make_rules(config, robots))
    assert results_key(make_rules(config, robots)) != results_key(make_rules(
        config, RobotsRules.from_bytes(b"User-agent: *\nDisallow: /b/\n")))
    assert results_key(make_rules(config, robots)) == results_key(make_rules(
        config, RobotsRules.from_bytes(b"User-agent: *\nDisallow: /a/\n\nSitemap: x\n")))


@pytest.mark.usefixtures("settled")
def test_other_hints_evaluate_that_page_again(
    tmp_path: Path, reads: list[str]
) -> None:
    """A host that gives a page another date gets it; the other pages are reused unread."""
    site = _small_site(tmp_path / "site")
    config = _config(tmp_path)
    hints = {name: PageHints(lastmod=date(2024, 1, 2)) for name in
             ("alpha/index.html", "beta/index.html")}
    generate(site, config, hints=hints)
    reads.clear()
    hints["beta/index.html"] = PageHints(lastmod=date(2025, 3, 4))
    result = generate(site, config, hints=hints)
    assert [Path(path).parent.name for path in reads] == ["beta"]
    assert (result.unread, result.kept) == (3, 4)
    xml = (site / "sitemap.xml").read_text("utf-8")
    assert f"<loc>{BASE}beta/</loc>\n    <lastmod>2025-03-04</lastmod>" in xml
    assert f"<loc>{BASE}alpha/</loc>\n    <lastmod>2024-01-02</lastmod>" in xml


@pytest.mark.usefixtures("settled")
def test_with_file_times_a_rewritten_page_is_evaluated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lastmod_file_time`` reads the modification time: a touched file is evaluated."""
    site = _small_site(tmp_path / "site")
    config = _config(tmp_path, lastmod_file_time=True)
    generate(site, config)
    page = site / "alpha" / "index.html"
    os.utime(page, (1_600_000_000, 1_600_000_000))
    result = generate(site, config)
    assert (result.unread, result.kept) == (3, 4)
    assert _outputs(site, result) == _outputs(site, _evaluating_all(site, config, monkeypatch))


@pytest.mark.usefixtures("settled")
def test_a_pool_only_when_many_pages_must_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Untouched pages cost less than a trip to another process; rewritten ones do not."""
    monkeypatch.setattr(GENERATE, "PARALLEL_THRESHOLD", 4)
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path, workers=2)
    pools: list[int] = []
    real_context = multiprocessing.get_context

    class CountingContext:
        def __init__(self, method: str) -> None:
            self._context = real_context(method)

        def Pool(self, *args: object, **kwargs: object) -> object:  # multiprocessing's name
            pools.append(1)
            return self._context.Pool(*args, **kwargs)

    monkeypatch.setattr(multiprocessing, "get_context", CountingContext)
    first = _outputs(site, generate(site, config))
    second = generate(site, config)
    assert (len(pools), second.unread) == (1, _kept_results(tmp_path))
    for page in site.rglob("*.htm*"):
        if page.is_file() and not page.is_symlink():
            page.write_bytes(page.read_bytes())
    third = generate(site, config)
    assert (len(pools), third.unread) == (2, 0)
    assert first[0] == _outputs(site, third)[0]


@pytest.mark.usefixtures("settled")
def test_reuse_pages_off_evaluates_every_page_and_keeps_the_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: list[str]
) -> None:
    """``reuse_pages: false`` reads every page again; lastmods still come from the manifest."""
    site = _small_site(tmp_path / "site")
    generate(site, _config(tmp_path))
    pages = _rows(tmp_path, "pages")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")  # a later build
    reads.clear()
    result = generate(site, _config(tmp_path, reuse_pages=False))
    assert (len(reads), result.kept, result.unread) == (4, 0, 0)
    assert _rows(tmp_path, "pages") == pages  # same dates: nothing changed
    assert result.changes is not None
    assert (result.changes.baseline, result.changes.changed_count) == (True, 0)
    reads.clear()
    again = generate(site, _config(tmp_path))  # and the next build reuses again
    assert (len(reads), again.unread) == (0, 4)


@pytest.mark.usefixtures("settled")
def test_an_untouched_listed_file_of_another_kind_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sitemap_urls
) -> None:
    """A PDF is fingerprinted whole; untouched, it is not read again, and a change shows."""
    site = _small_site(tmp_path / "site")
    pdf = site / "guide.pdf"
    pdf.write_bytes(b"%PDF-1.4 " + b"x" * 50_000)
    config = _config(tmp_path, extensions=[".html", ".pdf"])
    fingerprinted: list[str] = []
    real = entry_module.fingerprint_file
    monkeypatch.setattr(entry_module, "fingerprint_file",
                        lambda path: fingerprinted.append(path) or real(path))
    generate(site, config)
    assert fingerprinted == [str(pdf)]
    fingerprinted.clear()
    second = generate(site, config)
    assert (fingerprinted, second.unread) == ([], 5)
    assert f"{BASE}guide.pdf" in sitemap_urls(site)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    pdf.write_bytes(b"%PDF-1.4 " + b"y" * 50_000)  # same size
    third = generate(site, config)
    assert (fingerprinted, third.unread) == ([str(pdf)], 4)
    assert third.changes is not None
    assert third.changes.changed_count == 1
    assert _outputs(site, third) == _outputs(site, _evaluating_all(site, config, monkeypatch))

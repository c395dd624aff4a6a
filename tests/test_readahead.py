"""Pages read ahead during the host's build give exactly the sitemap a plain run gives."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest
from test_cli import BASE, make_traps

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.page_facts import facts_from_bytes, read_facts
from sitemap_plugins.readahead import ReadAhead

HTML = (".html", ".htm", ".xhtml")
OUTPUTS = ("sitemap.xml", "sitemap.xml.gz", "sitemap.txt")


def _config(tmp_path: Path, **options: object) -> SitemapConfig:
    return SitemapConfig.from_mapping(
        {"base_url": BASE, "cache_dir": str(tmp_path / "cache"), **options})


def _pages(site: Path) -> dict[str, Path]:
    return {p.relative_to(site).as_posix(): p for p in sorted(site.rglob("*"))
            if p.is_file() and not p.is_symlink() and p.name.lower().endswith(HTML)}


def _build(site: Path, config: SitemapConfig, **kwargs: object) -> tuple[dict[str, bytes], int]:
    shutil.rmtree(config.cache_dir or "", ignore_errors=True)
    result = generate(site, config, **kwargs)  # type: ignore[arg-type]
    return {name: (site / name).read_bytes() for name in OUTPUTS}, result.read_ahead


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.mark.parametrize("fingerprint", [True, False], ids=["fingerprint", "no-fingerprint"])
def test_facts_from_bytes_equal_what_a_plain_read_finds(tmp_path: Path, fingerprint: bool) -> None:
    """The worker's reading of whole bytes equals the main reading of the file, page by page."""
    site = make_traps(tmp_path / "site")
    pages = _pages(site)
    assert len(pages) > 30
    for rel, path in pages.items():
        ahead = facts_from_bytes(path.read_bytes(), fingerprint=fingerprint)
        plain = read_facts(str(path), fingerprint=fingerprint)
        assert ahead is not None, rel
        assert (ahead.meta, ahead.fingerprint) == (plain.meta, plain.fingerprint), rel


@pytest.mark.parametrize("fingerprint", [True, False], ids=["fingerprint", "no-fingerprint"])
@pytest.mark.parametrize("by", ["file", "bytes"])
def test_trap_site_same_sitemap_with_read_ahead(
    tmp_path: Path, sitemap_urls, fingerprint: bool, by: str
) -> None:
    """Every page handed over (as a path, as bytes): the same files, and each page reused."""
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path, fingerprint=fingerprint)
    plain, reused = _build(site, config)
    assert reused == 0
    read_ahead = ReadAhead(fingerprint=fingerprint)
    pages = _pages(site)
    for rel, path in pages.items():
        if by == "file":
            read_ahead.add_file(rel, str(path))
        else:
            read_ahead.add_bytes(rel, path.read_bytes())
    known = read_ahead.collect()
    assert set(known) == set(pages)
    ahead, reused = _build(site, config, known=known)
    assert ahead == plain
    assert reused > 20  # every page that got as far as being read
    assert sitemap_urls(site)


def test_changed_pages_are_read_again(tmp_path: Path, sitemap_urls) -> None:
    """Facts of bytes the file no longer holds are not used: the page on disk decides."""
    site = make_traps(tmp_path / "site")
    page = site / "guide" / "index.html"
    assert page.is_file()
    config = _config(tmp_path)
    read_ahead = ReadAhead(fingerprint=True)
    # What the host handed over first says noindex; a later step rewrote the page.
    read_ahead.add_bytes("guide/index.html",
                         b'<html><head><meta name="robots" content="noindex"></head></html>')
    known = read_ahead.collect()
    assert known["guide/index.html"].meta.robots == {"noindex"}
    ahead, reused = _build(site, config, known=known)
    assert reused == 0
    assert f"{BASE}guide/" in sitemap_urls(site)
    plain, _ = _build(site, config)
    assert ahead == plain


def test_missing_file_and_dead_worker_fall_back(tmp_path: Path) -> None:
    """A path the worker cannot read, or a worker killed mid-build, costs nothing but time."""
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path)
    plain, _ = _build(site, config)

    read_ahead = ReadAhead(fingerprint=True)
    read_ahead.add_file("gone.html", str(site / "gone.html"))
    assert read_ahead.collect() == {}

    read_ahead = ReadAhead(fingerprint=True)
    pages = _pages(site)
    for rel, path in list(pages.items())[:40]:
        read_ahead.add_file(rel, str(path))
    processes = read_ahead._executor._processes  # type: ignore[union-attr]
    for process in list(processes.values()):
        os.kill(process.pid, signal.SIGKILL)
    for rel, path in list(pages.items())[40:]:
        read_ahead.add_file(rel, str(path))
    known = read_ahead.collect()  # returns at once: the lost worker is noticed
    assert len(known) < len(pages)
    ahead, _ = _build(site, config, known=known)
    assert ahead == plain


def test_close_stops_the_worker(tmp_path: Path) -> None:
    """A failed build closes the read-ahead: its worker process is gone."""
    site = make_traps(tmp_path / "site")
    read_ahead = ReadAhead(fingerprint=True)
    for rel, path in _pages(site).items():
        read_ahead.add_file(rel, str(path))
    processes = list(read_ahead._executor._processes.values())  # type: ignore[union-attr]
    assert processes
    read_ahead.close()
    for process in processes:
        process.join(5)
        assert not process.is_alive()


def test_for_config_is_off_for_one_worker(tmp_path: Path) -> None:
    """``workers: 1`` means no other process, read-ahead included."""
    assert ReadAhead.for_config(_config(tmp_path, workers=1), str(tmp_path / "site")) is None
    expected = (os.cpu_count() or 1) > 1
    read_ahead = ReadAhead.for_config(_config(tmp_path), str(tmp_path / "site"))
    assert (read_ahead is not None) == expected


def test_no_read_ahead_when_the_manifest_keeps_the_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rebuild with trusted kept facts parses little: reading ahead would not pay."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # the answer must not depend on the machine
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path)
    first = ReadAhead.for_config(config, str(site))
    assert first is not None  # no manifest yet
    first.close()
    generate(site, config)
    assert ReadAhead.for_config(config, str(site)) is None
    # Facts it cannot trust (another site's manifest, no fingerprints) or will not use
    # (reuse_pages off): read ahead again.
    other = _config(tmp_path, base_url="https://other.example.org/")
    for config_ in (other, _config(tmp_path, fingerprint=False),
                    _config(tmp_path, reuse_pages=False)):
        again = ReadAhead.for_config(config_, str(site))
        assert again is not None
        again.close()

"""Concurrent builds (#17): two builds of one site at once never leave a torn set of files.

Real processes throughout: two command-line builds of the same site with different part
sizes started together end with the files of one of them, exactly as if they had run one
after the other; a build that finds the site held waits, then fails with one line and
changes nothing; a killed holder frees the site at once.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import hold, release

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.cli import main
from sitemap_plugins.vocab.errors import BusyError

BASE = "https://example.org/"
ROOT = Path(__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["SOURCE_DATE_EPOCH"] = "1718000000"
    return env


def make_site(folder: Path, pages: int) -> Path:
    for i in range(pages):
        section = folder / f"s{i % 20:02d}"
        section.mkdir(parents=True, exist_ok=True)
        (section / f"p{i}.html").write_text(
            f"<html><head><title>{i}</title><meta name='date' content='2024-01-02'></head>"
            f"<body><main><h1>{i}</h1></main></body></html>")
    (folder / "index.html").write_text("<html><head><title>Home</title></head></html>")
    return folder


def _cli(site: Path, max_urls: int) -> list[str]:
    return [sys.executable, "-m", "sitemap_plugins", "-q", "build", str(site), "--base-url", BASE,
            "--max-urls", str(max_urls), "--workers", "1"]


def sitemap_files(site: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(site.iterdir())
            if p.name.startswith("sitemap") or p.name.startswith(".")}


def _sequential(tmp: Path, pages: int, first: int, second: int) -> dict[str, bytes]:
    site = make_site(tmp / "site", pages)
    for max_urls in (first, second):
        subprocess.run(_cli(site, max_urls), env=_env(), check=True)
    return sitemap_files(site)


@pytest.mark.integration
def test_two_builds_at_once_are_serialised(tmp_path: Path) -> None:
    """Two command-line builds of one site started together (parts of 300 and of 700 URLs):
    both succeed, and the site holds exactly what one build after the other leaves, in one
    of the two orders: no index naming the other's parts, no temporary file left."""
    pages = 2_000
    outcomes = [_sequential(tmp_path / "ab", pages, 300, 700),
                _sequential(tmp_path / "ba", pages, 700, 300)]
    assert outcomes[0] != outcomes[1]
    rounds = 4
    for attempt in range(rounds):
        site = make_site(tmp_path / f"race{attempt}" / "site", pages)
        runs = [subprocess.Popen(_cli(site, size), env=_env(), stderr=subprocess.PIPE,
                                 text=True) for size in (300, 700)]
        errors = [run.communicate(timeout=300)[1] for run in runs]
        assert [run.returncode for run in runs] == [0, 0], errors
        assert sitemap_files(site) in outcomes, attempt


def test_a_held_site_fails_after_the_wait_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """While another process holds the site, a build waits its bounded time, then fails
    with one line (exit 1); no file of the site changed. Once the holder is killed (even
    with SIGKILL) the next build goes through at once."""
    site = make_site(tmp_path / "site", 5)
    main(["-q", "build", str(site), "--base-url", BASE])
    before = sitemap_files(site)
    (site / "p-new.html").write_text("<html><head><title>new</title></head></html>")
    monkeypatch.setattr("sitemap_plugins.disk.locks.WAIT_SECONDS", 0.5)
    holder = hold(site, 60)
    try:
        started = time.monotonic()
        code = main(["build", str(site), "--base-url", BASE])
        waited = time.monotonic() - started
        err = capsys.readouterr().err
        assert code == 1
        assert re.fullmatch(
            f"error: {re.escape(str(site))}: another build of this site is still running "
            r"after [01] s; nothing was written: run this build again once it has finished\n",
            err), err
        assert waited >= 0.5
        assert sitemap_files(site) == before
    finally:
        holder.send_signal(signal.SIGKILL)
        release(holder)
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0  # a held lock: exit 1
    assert "p-new.html" in (site / "sitemap.txt").read_text()


def test_a_build_waits_for_the_other_to_finish(tmp_path: Path) -> None:
    """A holder that lets go after a second: the build waits for it, then writes."""
    site = make_site(tmp_path / "site", 3)
    holder = hold(site, 1.0)
    started = time.monotonic()
    config = SitemapConfig.from_mapping({"base_url": BASE, "fingerprint": False})
    result = generate(site, config)
    assert time.monotonic() - started >= 0.5
    assert result.listed == 4
    release(holder)


@pytest.mark.parametrize("fingerprint", [True, False], ids=["cache", "no-cache"])
def test_the_lock_leaves_nothing_in_the_site(tmp_path: Path, *, fingerprint: bool) -> None:
    """The lock file is in the cache folder beside the site, with or without a manifest: a
    build adds no lock file to the published site."""
    site = make_site(tmp_path / "site", 3)
    generate(site, SitemapConfig.from_mapping({"base_url": BASE, "fingerprint": fingerprint}))
    assert sorted(p.name for p in site.iterdir() if not p.is_dir()) == [
        "index.html", "sitemap.txt", "sitemap.xml", "sitemap.xml.gz"]
    assert [p.suffix for p in (tmp_path / ".sitemap-cache").glob("site-*.lock")] == [".lock"]


def test_a_build_with_its_own_cache_folder_waits_for_a_merge_of_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever cache_dir a build is given, it waits for the lock a merge (or a build with
    other options) holds on the same site: one lock file per site."""
    site = make_site(tmp_path / "site", 3)
    monkeypatch.setattr("sitemap_plugins.disk.locks.WAIT_SECONDS", 0.3)
    holder = hold(site, 30)
    try:
        config = SitemapConfig.from_mapping({"base_url": BASE,
                                             "cache_dir": str(tmp_path / "elsewhere")})
        with pytest.raises(BusyError, match="another build of this site is still running"):
            generate(site, config)
        assert not (site / "sitemap.xml").exists()
    finally:
        release(holder, kill=True)


_RECORD = """
import sys
from pathlib import Path
from sitemap_plugins.products.submit import record_pending
from sitemap_plugins.disk.history import Changes
cache, name = Path(sys.argv[1]), sys.argv[2]
for i in range(int(sys.argv[3])):
    record_pending(cache, Changes(baseline=True, added=[f"https://example.org/{name}/{i}"]))
"""


@pytest.mark.integration
def test_sibling_builds_lose_no_pending_url(tmp_path: Path) -> None:
    """Sibling sites' builds add their changed URLs to the one IndexNow pending list of the
    shared cache folder at the same moment (four processes, 40 additions each): none is lost
    (before, each read, merged and wrote the list unguarded)."""
    cache = tmp_path / ".sitemap-cache"
    cache.mkdir()
    names, rounds = ["docs", "blog", "api", "news"], 40
    runs = [subprocess.Popen([sys.executable, "-c", _RECORD, str(cache), name, str(rounds)],
                             env=_env()) for name in names]
    assert [run.wait(timeout=300) for run in runs] == [0] * len(names)
    from sitemap_plugins.products.submit import read_pending  # noqa: PLC0415

    assert len(read_pending(cache)) == len(names) * rounds

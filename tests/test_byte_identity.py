"""The same input gives the same bytes: one test, over every way a sitemap is built.

Each configuration builds a site twice: the command line builds a fresh copy at another
time and then rebuilds the first copy over its own output (with new mtimes); a host builds
its project, the sources get new mtimes, and it builds again. The two builds get different
``SOURCE_DATE_EPOCH`` values (except where the output depends on the build time by design,
the news sitemap), so a build time or file time that leaks into a file shows up. Every file
is compared, ``.gz`` included.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import tree_bytes
from hosts import DRIVERS, SAMPLE, Edit, run_step, touch

from sitemap_plugins.cli import main
from tests.test_cli import BASE, make_traps

if TYPE_CHECKING:
    from collections.abc import Callable

# Two build times a day apart, after every date in the sites; and two before them.
LATE = (1_750_000_000, 1_750_086_400)
EARLY = (1_700_000_000, 1_700_086_400)  # 2023-11: before the samples' newest dates (2024)
NEWS_TIME = "2025-06-15T10:00:00+00:00"  # within the two days before LATE[0]


def _cli(*options: str, news: bool = False) -> Callable[[Path, int, pytest.MonkeyPatch], Path]:
    """A command-line build of the trap site with ``options``; the site is made once."""

    def build(site: Path, epoch: int, monkeypatch: pytest.MonkeyPatch) -> Path:
        if not site.exists():
            make_traps(site)
            if news:
                (site / "news" / "today.html").parent.mkdir(exist_ok=True)
                (site / "news" / "today.html").write_text(
                    '<!doctype html><html lang="en"><head><title>Today</title><meta '
                    f'property="article:published_time" content="{NEWS_TIME}"></head><body>'
                    "<main><h1>Today</h1></main></body></html>", "utf-8")
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))
        assert main(["-q", "build", str(site), "--base-url", BASE,
                     "--cache-dir", str(site.parent / f"{site.name}-cache"), *options]) == 0
        return site

    return build


def _merge(site: Path, epoch: int, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two sections built apart, the root's own pages, then ``merge`` of the whole tree."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))
    cache = site.parent / f"{site.name}-cache"
    if not site.exists():
        for name in ("alpha", "beta"):
            make_traps(site / name)
            assert main(["-q", "build", str(site / name), "--base-url", f"{BASE}{name}/",
                         "--cache-dir", str(cache / name)]) == 0
        (site / "index.html").write_text("<!doctype html><title>Home</title>", "utf-8")
        assert main(["-q", "build", str(site), "--base-url", BASE, "--cache-dir",
                     str(cache / "root"), "--exclude", "alpha/**", "--exclude", "beta/**"]) == 0
    assert main(["-q", "merge", str(site), "--base-url", BASE]) == 0
    return site


@dataclass(frozen=True)
class Config:
    """One way of building: how, and at which two build times."""

    id: str
    build: Callable[[Path, int, pytest.MonkeyPatch], Path] | None
    """A build in this process (the command line); None for a host's."""
    epochs: tuple[int, int] = LATE
    host: str = ""
    """The host whose driver builds (see ``hosts.py``)."""
    urls: int = 0
    """How many URLs a host's sample lists (each build's sitemap is checked against the
    schema too)."""
    writes: tuple[str, ...] = ("sitemap.xml", "sitemap.xml.gz", "sitemap.txt")
    """Files the build must write, so that each configuration tests what it is named for."""
    marks: tuple[pytest.MarkDecorator, ...] = field(default=())


# The plain command line stays in the fast part of the suite; the other configurations build
# the trap site (another process) several times over: integration.
SLOW = (pytest.mark.integration,)
CONFIGS = [
    Config("cli", _cli()),
    Config("cli-parts-gz", _cli("--max-urls", "10"), marks=SLOW, writes=(
        "sitemap.xml", "sitemap-1.xml", "sitemap-4.xml.gz", "sitemap-txt-index.xml.gz",
        "sitemap-4.txt")),
    Config("cli-no-text-no-gz", _cli("--no-gzip", "--no-text"), marks=SLOW,
           writes=("sitemap.xml",)),
    Config("cli-html-map", _cli("--html-sitemap", "sitemap/"), marks=SLOW,
           writes=("sitemap/index.html", "sitemap-fr/index.html")),
    Config("cli-news", _cli("--news", "name=Daily", "--news", "language=en", news=True),
           marks=SLOW,
           epochs=(LATE[0], LATE[0]), writes=("sitemap-news.xml",)),
    Config("merge", _merge, marks=SLOW, writes=("sitemap-root.xml.gz", "alpha/sitemap.xml.gz")),
    # The sample sites, as their hosts build them (Material, i18n and redirects; Pelican's
    # articles, listings and translations), the rebuild with new mtimes and the cache.
    Config("mkdocs-sample", None, host="mkdocs", urls=13, marks=SLOW,
           writes=("robots.txt", "sitemap.txt", "sitemap.xml", "sitemap.xml.gz")),
    Config("pelican-sample", None, host="pelican", urls=42, marks=SLOW,
           writes=("robots.txt", "sitemap.txt", "sitemap.xml", "sitemap.xml.gz")),
    # A build time older than the site's newest date (a commit time before a post dated
    # in the future, or a pinned epoch).
    Config("pelican-sample-early-epoch", None, host="pelican", epochs=EARLY, urls=42,
           marks=SLOW,
           writes=("robots.txt", "sitemap.txt", "sitemap.xml", "sitemap.xml.gz")),
]


def _host_builds(config: Config, tmp_path: Path, sitemap_urls: Callable[[Path], list[str]],
                 ) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The host builds its sample project, the sources get new mtimes, it builds again."""
    driver = DRIVERS[config.host](tmp_path / "project", SAMPLE[config.host])
    builds = []
    for number, epoch in enumerate(config.epochs):
        if number:
            touch(driver.project)
        run = run_step(driver, Edit(), epoch)
        assert run.returncode == 0, run.log
        assert sorted(run.files) == sorted(config.writes)
        assert len(sitemap_urls(driver.output)) == config.urls
        builds.append(run.files)
    return builds[0], builds[1]


@pytest.mark.parametrize("config", [pytest.param(c, id=c.id, marks=c.marks) for c in CONFIGS])
def test_two_builds_give_identical_bytes(config: Config, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         sitemap_urls: Callable[[Path], list[str]]) -> None:
    """Two builds of the same input, at two times and with new file times, write the same
    bytes in every file; a rebuild over its own output changes none."""
    if config.build is None:
        first_files, second_files = _host_builds(config, tmp_path, sitemap_urls)
        assert second_files == first_files
        return
    first = config.build(tmp_path / "a", config.epochs[0], monkeypatch)
    built_once = tree_bytes(first)
    assert set(config.writes) <= built_once.keys()
    if config.id == "cli-news":  # the article is in it: the build time is used, on purpose
        assert b"<news:news>" in built_once["sitemap-news.xml"]
    fresh = config.build(tmp_path / "b", config.epochs[1], monkeypatch)
    assert tree_bytes(fresh) == built_once
    touch(first)
    shutil.rmtree(tmp_path / "b")
    config.build(first, config.epochs[1], monkeypatch)
    assert tree_bytes(first) == built_once

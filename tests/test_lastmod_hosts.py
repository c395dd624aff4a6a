"""Honest lastmod across rebuilds (issue 5) on the sample sites, through real MkDocs and Pelican.

The scenarios both hosts share are one table in ``test_host_scenarios.py``; this module keeps
what only a sample shows (MkDocs i18n fallbacks, Material's blog, Pelican's listings and
titles shown in them, the manifest's record of where each date came from). Each host's driver
(``hosts.py``) builds a copy of its sample site several times in a row, one step per build,
with the manifest in its default place (``.sitemap-cache`` beside ``mkdocs.yml``, or beside
Pelican's content folder). Every build gets its own ``SOURCE_DATE_EPOCH``, so a build time
that leaks into the sitemap shows up as a difference. The sitemap files, the log and the
``changes_file`` report of every build are kept in a snapshot, because the next build
rewrites the output folder. The CLI-level checks of the same feature are in
``test_history.py``.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hosts import SAMPLE, Edit, MkDocs, Pelican, run_step, touch
from lxml import etree

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.integration

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def manifest_file(project: Path) -> Path:
    """The site's manifest in the project's cache folder (one site: one manifest)."""
    (found,) = (project / ".sitemap-cache").glob("lastmod-manifest-*.sqlite")
    return found

NOTE = "no lastmod manifest from an earlier build in"
NOTE_WHY = "(first build, or the cache was deleted)"
# One SOURCE_DATE_EPOCH per build, a day apart, all later than every date in the samples
# (2025-06-15T15:06:40Z onwards), as a real build's time would be.
T1, T2, T3, T4, T5, T6 = (1_750_000_000 + day * 86_400 for day in range(6))
ABSENT = "(not listed)"


def w3c(epoch: int) -> str:
    """A SOURCE_DATE_EPOCH as the sitemap writes it."""
    return datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


BUILD_TIMES = {w3c(t) for t in (T1, T2, T3, T4, T5, T6)}


@dataclass
class Snapshot:
    """What one host run left behind: exit code, log, sitemap files and changes report."""

    returncode: int
    log: str
    folder: Path
    """A copy of the sitemap files (the next build rewrites the output folder)."""
    changes: dict[str, object]

    def lastmods(self) -> dict[str, str | None]:
        root = etree.parse(str(self.folder / "sitemap.xml")).getroot()
        return {
            url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
            for url in root.iterfind("s:url", NS)
        }


def moved(before: Snapshot, after: Snapshot) -> dict[str, tuple[str | None, str | None]]:
    """URL -> (lastmod before, lastmod after), for the URLs whose lastmod differs."""
    old, new = before.lastmods(), after.lastmods()
    return {
        url: (old.get(url, ABSENT), new.get(url, ABSENT))
        for url in sorted(old.keys() | new.keys())
        if old.get(url, ABSENT) != new.get(url, ABSENT)
    }


def build(driver: MkDocs | Pelican, epoch: int, folder: Path) -> Snapshot:
    """One build by the host's driver, its sitemap files kept in ``folder``."""
    run = run_step(driver, Edit(), epoch)
    folder.mkdir(parents=True)
    for name, data in run.files.items():
        (folder / name).write_bytes(data)
    return Snapshot(run.returncode, run.log, folder, run.changes)


def manifest_sources(project: Path) -> dict[str, str]:
    """URL -> where the manifest says its lastmod came from ('' when it has none).

    The one read of the manifest's SQL left in the tests: ``history`` has no public way to
    say where a date came from yet; use it here when it has one.
    """
    uri = f"{manifest_file(project).as_uri()}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        return dict(db.execute("SELECT url, source FROM files WHERE url <> ''"))


# -- MkDocs ------------------------------------------------------------------------------------

MK_BASE = "https://example.org/project/"
MK_ABOUT = f"{MK_BASE}about/"
MK_FAQ = f"{MK_BASE}guide/faq/"
MK_HOST_DATES = {f"{MK_BASE}guide/advanced/tuning/": "2023-12-24", f"{MK_BASE}news/": "2024-05-06"}
MK_FRENCH = {f"{MK_BASE}fr/", f"{MK_BASE}fr/guide/", f"{MK_BASE}fr/r%C3%A9f%C3%A9rence/caf%C3%A9/"}


@dataclass
class MkDocsRuns:
    project: Path
    first: Snapshot
    again: Snapshot
    edited: Snapshot
    new_page: Snapshot
    no_cache: Snapshot
    sources_before_cache_loss: dict[str, str]


@pytest.fixture(scope="module")
def mkdocs_runs(tmp_path_factory: pytest.TempPathFactory) -> MkDocsRuns:
    """The MkDocs sample built five times: first, unchanged, one page edited, one page added
    to the nav, and after the cache folder was deleted."""
    base = tmp_path_factory.mktemp("lastmod-mkdocs")
    driver = MkDocs(base / "project", SAMPLE["mkdocs"])  # cache_dir at its default
    project = driver.project
    config = project / "mkdocs.yml"
    first = build(driver, T1, base / "1-first")
    touch(project)
    again = build(driver, T2, base / "2-again")
    about = project / "docs" / "about.md"
    about.write_text(about.read_text("utf-8") + "\nA new paragraph, added later.\n", "utf-8")
    edited = build(driver, T3, base / "3-edited")
    text = config.read_text("utf-8")
    install = "      - Installation: guide/install.md\n"
    assert install in text
    config.write_text(text.replace(install, install + "      - FAQ: guide/faq.md\n"), "utf-8")
    (project / "docs" / "guide" / "faq.md").write_text("# FAQ\n\nAsked often.\n", "utf-8")
    new_page = build(driver, T4, base / "4-new-page")
    sources = manifest_sources(project)
    shutil.rmtree(project / ".sitemap-cache")
    no_cache = build(driver, T5, base / "5-no-cache")
    return MkDocsRuns(project, first, again, edited, new_page, no_cache, sources)


MKDOCS_STEPS = ["first", "again", "edited", "new_page", "no_cache"]


def test_mkdocs_first_build_dates_come_from_the_host_only(mkdocs_runs: MkDocsRuns) -> None:
    """Without a manifest only front-matter dates are given; no page gets the build time."""
    lastmods = mkdocs_runs.first.lastmods()
    assert {url: value for url, value in lastmods.items() if value} == MK_HOST_DATES
    assert mkdocs_runs.first.changes["baseline"] is False


def test_mkdocs_edited_page_alone_takes_the_build_time(mkdocs_runs: MkDocsRuns) -> None:
    """Changing the text of a page without a front-matter date moves only its lastmod."""
    assert moved(mkdocs_runs.again, mkdocs_runs.edited) == {MK_ABOUT: (None, w3c(T3))}
    assert mkdocs_runs.edited.changes == {
        "baseline": True, "added": [], "changed": [MK_ABOUT], "removed": []}


def test_mkdocs_page_added_to_nav_moves_no_other_page(mkdocs_runs: MkDocsRuns) -> None:
    """A new nav entry rewrites every page's navigation, yet only the new page is new."""
    assert moved(mkdocs_runs.edited, mkdocs_runs.new_page) == {MK_FAQ: (ABSENT, w3c(T4))}
    # Every other fingerprint is unchanged, in both languages.
    assert mkdocs_runs.new_page.changes == {
        "baseline": True, "added": [MK_FAQ], "changed": [], "removed": []}
    # The edited page keeps the date the manifest gave it one build earlier.
    assert mkdocs_runs.new_page.lastmods()[MK_ABOUT] == w3c(T3)


def test_mkdocs_new_page_french_fallback_is_left_out(mkdocs_runs: MkDocsRuns) -> None:
    """The new English page's French fallback copy is built but neither listed nor dated."""
    assert (mkdocs_runs.project / "site" / "fr" / "guide" / "faq" / "index.html").is_file()
    lastmods = mkdocs_runs.new_page.lastmods()
    assert f"{MK_BASE}fr/guide/faq/" not in lastmods
    assert {url for url in lastmods if url.startswith(f"{MK_BASE}fr/")} == MK_FRENCH
    assert all(lastmods[url] is None for url in MK_FRENCH)
    assert "i18n fallback copy of an untranslated page (11)" in mkdocs_runs.new_page.log


def test_mkdocs_manifest_records_where_each_date_came_from(mkdocs_runs: MkDocsRuns) -> None:
    """``sitemap.lastmod`` is the page's own word, ``date`` the host's; the two manifest dates
    say why they were given."""
    sources = mkdocs_runs.sources_before_cache_loss
    assert {url: s for url, s in sources.items() if s} == {
        f"{MK_BASE}guide/advanced/tuning/": "explicit",
        f"{MK_BASE}news/": "host",
        MK_ABOUT: "manifest: changed",
        MK_FAQ: "manifest: new page",
    }
    assert len(sources) == 14


def test_mkdocs_deleted_cache_falls_back_and_says_why(mkdocs_runs: MkDocsRuns) -> None:
    """Without the cache the build still passes, manifest dates are dropped, an INFO note says
    why, and a new manifest is started in the default place."""
    run = mkdocs_runs.no_cache
    assert moved(mkdocs_runs.new_page, run) == {
        MK_ABOUT: (w3c(T3), None), MK_FAQ: (w3c(T4), None)}
    notes = [line for line in run.log.splitlines() if NOTE in line]
    cache = mkdocs_runs.project / ".sitemap-cache"
    assert len(notes) == 1
    assert notes[0].startswith(f"INFO    -  sitemap_plugins: {NOTE} {cache} {NOTE_WHY}")
    assert run.changes["baseline"] is False
    assert manifest_file(mkdocs_runs.project).is_file()
    assert not list((mkdocs_runs.project / "site").rglob("*.sqlite"))
    # The very first build said the same.
    assert sum(NOTE in line for line in mkdocs_runs.first.log.splitlines()) == 1


def test_mkdocs_no_build_time_without_a_change(mkdocs_runs: MkDocsRuns) -> None:
    """The only build times in any sitemap are the edited page's and the new page's."""
    seen = {
        (url, value)
        for step in MKDOCS_STEPS
        for url, value in getattr(mkdocs_runs, step).lastmods().items()
        if value in BUILD_TIMES
    }
    assert seen == {(MK_ABOUT, w3c(T3)), (MK_FAQ, w3c(T4))}


THEME_BASE = "https://example.org/"


def _theme_project(folder: Path, theme: str) -> Path:
    """A small MkDocs project in one of the themes; Material's with a blog (its index keeps
    the index page's own text in a ``<header>`` inside ``<main>``, each post's byline too)."""
    project = folder / theme
    (project / "docs" / "blog" / "posts").mkdir(parents=True)
    blog = theme == "material"
    (project / "mkdocs.yml").write_text(
        f"site_name: Themes\nsite_url: {THEME_BASE}\ntheme:\n  name: {theme}\n"
        "nav:\n  - Home: index.md\n  - Guide: guide.md\n"
        + ("  - Blog:\n    - blog/index.md\n" if blog else "")
        + "plugins:\n" + ("  - blog\n" if blog else "")
        + "  - sitemap:\n      changes_file: changes.json\n", "utf-8")
    docs = project / "docs"
    (docs / "index.md").write_text("# Home\n\nWelcome.\n", "utf-8")
    (docs / "guide.md").write_text("# Guide\n\nHow to.\n", "utf-8")
    if blog:
        (docs / "blog" / "index.md").write_text("# Blog\n\nOur news.\n", "utf-8")
        (docs / "blog" / "posts" / "first.md").write_text(
            "---\ndate: 2024-01-02\nslug: first\n---\n\n# First post\n\nHello.\n", "utf-8")
    return project


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs", "material"])
def test_mkdocs_themes_nav_moves_no_other_page_and_a_title_moves_its_page(
    tmp_path: Path, theme: str
) -> None:
    """In MkDocs' own themes and Material, a page added to the nav changes no other page's
    fingerprint, an edited title moves only its page (and the blog listing that shows it),
    and the text of Material's blog index, kept in a <header> in <main>, is content."""
    pytest.importorskip("material")
    driver = MkDocs(tmp_path / "project", _theme_project(tmp_path / "source", theme))
    project = driver.project
    docs = project / "docs"
    run = functools.partial(build, driver)
    first = run(T1, tmp_path / "1")
    config = project / "mkdocs.yml"
    config.write_text(config.read_text("utf-8").replace(
        "  - Guide: guide.md\n", "  - Guide: guide.md\n  - FAQ: faq.md\n"), "utf-8")
    (docs / "faq.md").write_text("# FAQ\n\nAsked often.\n", "utf-8")
    nav = run(T2, tmp_path / "2")
    (docs / "guide.md").write_text("# Guide, renamed\n\nHow to.\n", "utf-8")
    title = run(T3, tmp_path / "3")
    for step in (first, nav, title):
        assert step.returncode == 0, step.log
    assert nav.changes == {
        "baseline": True, "added": [f"{THEME_BASE}faq/"], "changed": [], "removed": []}
    assert title.changes["changed"] == [f"{THEME_BASE}guide/"]
    if theme != "material":
        return
    post = docs / "blog" / "posts" / "first.md"
    post.write_text(post.read_text("utf-8").replace("First post", "First post, renamed"),
                    "utf-8")
    post_title = run(T4, tmp_path / "4")
    blog_index = docs / "blog" / "index.md"
    blog_index.write_text("# Blog\n\nOur news, weekly.\n", "utf-8")
    blog_text = run(T5, tmp_path / "5")
    assert post_title.changes["changed"] == [
        f"{THEME_BASE}blog/", f"{THEME_BASE}blog/2024/01/02/first/",
        f"{THEME_BASE}blog/archive/2024/"]
    assert blog_text.changes["changed"] == [f"{THEME_BASE}blog/"]


# -- Pelican -----------------------------------------------------------------------------------

PE_BASE = "https://blog.example.org/"
PE_CONTACT = f"{PE_BASE}pages/contact.html"
PE_DATELESS = {PE_BASE, PE_CONTACT, f"{PE_BASE}tag/python.html"}
NEWEST = "2024-11-20T06:05:00+01:00"  # the newest article on the blog (not in the sitemap)
GALETTE_DATE = "2025-01-05T10:00:00+01:00"
GALETTE = f"{PE_BASE}galette-des-rois.html"
# Listing pages and the newest article each lists, on the sample as it is.
PE_LISTINGS = {
    "blog/": NEWEST,
    "blog/page/4/": "2024-11-03T09:00:00+01:00",
    "archives.html": NEWEST,
    "tags.html": NEWEST,
    "category/code.html": "2024-11-03T09:00:00+01:00",
    "category/food-drink.html": "2024-08-10T16:20:00+02:00",
    "tag/baking.html": "2024-08-10T16:20:00+02:00",
    "tag/python/page/2/": "2024-06-01T18:30:00+02:00",
    "tag/trains.html": NEWEST,
}
# After galette-des-rois.html (Food & Drink, tag baking, dated GALETTE_DATE) is added.
PE_LISTINGS_WITH_GALETTE = {
    "blog/": GALETTE_DATE,
    "archives.html": GALETTE_DATE,
    "tags.html": GALETTE_DATE,
    "categories.html": GALETTE_DATE,
    "category/food-drink.html": GALETTE_DATE,
    "tag/baking.html": GALETTE_DATE,
    "author/bruno-lefevre.html": GALETTE_DATE,
    "category/code.html": "2024-11-03T09:00:00+01:00",
    "tag/trains.html": NEWEST,
}


@dataclass
class PelicanRuns:
    site: Path
    first: Snapshot
    again: Snapshot
    edited: Snapshot
    new_article: Snapshot
    no_cache: Snapshot
    retitled: Snapshot
    sources_before_cache_loss: dict[str, str]


@pytest.fixture(scope="module")
def pelican_runs(tmp_path_factory: pytest.TempPathFactory) -> PelicanRuns:
    """The Pelican sample built six times into a cleaned output folder: first, unchanged,
    two texts edited, one article added, after the cache folder was deleted, and with one
    article's title edited."""
    base = tmp_path_factory.mktemp("lastmod-pelican")
    driver = Pelican(base / "site", SAMPLE["pelican"])
    site = driver.project
    first = build(driver, T1, base / "1-first")
    touch(site)
    again = build(driver, T2, base / "2-again")
    contact = site / "content" / "pages" / "contact.md"
    contact.write_text(contact.read_text("utf-8") + "\nOr call us.\n", "utf-8")
    # An article with a Date whose text (and so its summary on every listing) changes.
    hello = site / "content" / "code" / "hello-pelican.md"
    hello.write_text(hello.read_text("utf-8") + "\nOne more sentence.\n", "utf-8")
    edited = build(driver, T3, base / "3-edited")
    (site / "content" / "food" / "galette.md").write_text(
        "Title: Galette des rois\nLang: en\nDate: 2025-01-05 10:00\nCategory: Food & Drink\n"
        "Tags: baking\nAuthor: Bruno Lefèvre\n\nFrangipane.\n", encoding="utf-8")
    new_article = build(driver, T4, base / "4-new-article")
    sources = manifest_sources(site)
    shutil.rmtree(site / ".sitemap-cache")
    no_cache = build(driver, T5, base / "5-no-cache")
    creme = site / "content" / "food" / "cafe-creme.md"
    text = creme.read_text("utf-8")
    assert "Title: The perfect café crème\n" in text
    creme.write_text(text.replace("café crème\n", "café crème, revisited\n", 1), "utf-8")
    retitled = build(driver, T6, base / "6-retitled")
    return PelicanRuns(site, first, again, edited, new_article, no_cache, retitled, sources)


PELICAN_STEPS = ["first", "again", "edited", "new_article", "no_cache", "retitled"]


def test_pelican_first_build_leaves_dateless_pages_undated(pelican_runs: PelicanRuns) -> None:
    """Without a manifest, the pages with no Date have no lastmod; all others have Pelican's."""
    lastmods = pelican_runs.first.lastmods()
    assert {url for url, value in lastmods.items() if value is None} == PE_DATELESS


def test_pelican_edited_pages_take_the_build_that_saw_them_change(
    pelican_runs: PelicanRuns,
) -> None:
    """Editing a page without Date and an article with a Modified: date: the page takes the
    build's time; the article keeps its Modified: date, the author's own word (issue 16: the
    latest known change). A listing's content is its items (URL, title, date, summary): the
    tag page that shows the article in full does not move for an edit past its summary."""
    assert moved(pelican_runs.again, pelican_runs.edited) == {
        PE_CONTACT: (None, w3c(T3)),
    }
    assert pelican_runs.edited.changes == {
        "baseline": True, "added": [], "removed": [],
        "changed": [f"{PE_BASE}hello-pelican.html", PE_CONTACT],
    }


def test_pelican_listing_dates_are_their_newest_article_s_or_a_later_change(
    pelican_runs: PelicanRuns,
) -> None:
    """A listing page's lastmod is its newest article's date, or the build that saw the
    listing change when that is later (a new article reshuffled it)."""
    for step in ("first", "again", "edited", "no_cache"):
        lastmods = getattr(pelican_runs, step).lastmods()
        expected = PE_LISTINGS if step != "no_cache" else PE_LISTINGS_WITH_GALETTE
        assert {path: lastmods[PE_BASE + path] for path in expected} == expected, step
    run = pelican_runs.new_article
    lastmods = run.lastmods()
    changed = set(run.changes["changed"])  # type: ignore[arg-type]
    for path, newest in PE_LISTINGS_WITH_GALETTE.items():
        expected = w3c(T4) if PE_BASE + path in changed else newest
        assert lastmods[PE_BASE + path] == expected, path
    assert f"{PE_BASE}blog/" in changed


def test_pelican_new_article_keeps_its_own_date(pelican_runs: PelicanRuns) -> None:
    """A new article and the listing pages it adds take Pelican's dates; the listings it
    reshuffled take the build that saw them change."""
    run = pelican_runs.new_article
    lastmods = run.lastmods()
    assert lastmods[GALETTE] == GALETTE_DATE
    added = [f"{PE_BASE}author/bruno-lefevre/page/3/", f"{PE_BASE}blog/page/5/",
             f"{PE_BASE}category/food-drink/page/2/", GALETTE]
    assert run.changes["added"] == added
    shifted = moved(pelican_runs.edited, run)
    changed = set(run.changes["changed"])  # type: ignore[arg-type]
    for url, (_, after) in shifted.items():
        if url in added:
            assert after not in {None, ABSENT, *BUILD_TIMES}, url
        elif url in {f"{PE_BASE}authors.html", f"{PE_BASE}categories.html"}:
            # Its items (authors, categories) did not change: it takes its newest article's
            # date, as on a first build.
            assert url not in changed
            assert after == GALETTE_DATE
        else:
            assert url in changed, url
            assert after == w3c(T4), url
    # The manifest's date from one build earlier, and the other dateless pages, stay.
    assert {url: lastmods[url] for url in PE_DATELESS} == {
        PE_BASE: None, f"{PE_BASE}tag/python.html": None, PE_CONTACT: w3c(T3)}


def test_pelican_manifest_records_where_each_date_came_from(pelican_runs: PelicanRuns) -> None:
    """Dateless pages are left to the manifest; Modified: dates are the author's word; Date:
    and listing dates are Pelican's, unless the manifest saw a later change."""
    sources = pelican_runs.sources_before_cache_loss
    assert {url: sources[url] for url in PE_DATELESS} == {
        PE_BASE: "", f"{PE_BASE}tag/python.html": "", PE_CONTACT: "manifest: changed"}
    assert sources[f"{PE_BASE}hello-pelican.html"] == "explicit"
    assert sources[GALETTE] == "host"
    assert set(sources.values()) == {"", "host", "explicit", "manifest: changed"}


def test_pelican_deleted_cache_falls_back_and_says_why(pelican_runs: PelicanRuns) -> None:
    """Without the cache the build works, the manifest's dates are dropped (Pelican's own
    come back), and a note says why."""
    run = pelican_runs.no_cache
    shifted = moved(pelican_runs.new_article, run)
    assert shifted[PE_CONTACT] == (w3c(T3), None)
    assert all(before in BUILD_TIMES and after not in BUILD_TIMES
               for before, after in shifted.values())
    cache = pelican_runs.site / ".sitemap-cache"
    notes = [line for line in run.log.splitlines() if NOTE in line]
    assert len(notes) == 1
    assert "INFO" in notes[0]
    assert f"Sitemap: {NOTE} {cache} {NOTE_WHY}" in notes[0]
    assert run.changes["baseline"] is False
    assert manifest_file(pelican_runs.site).is_file()
    assert sum(NOTE in line for line in pelican_runs.first.log.splitlines()) == 1


def test_pelican_no_build_time_without_a_change(pelican_runs: PelicanRuns) -> None:
    """A build time appears only on a page that build saw change (and stays until the page
    changes again or the cache is lost)."""
    times = dict(zip(PELICAN_STEPS, (T1, T2, T3, T4, T5, T6), strict=True))
    saw_change = {
        (url, w3c(times[step]))
        for step in PELICAN_STEPS
        for url in getattr(pelican_runs, step).changes.get("changed", [])
    }
    for step in PELICAN_STEPS:
        for url, value in getattr(pelican_runs, step).lastmods().items():
            if value in BUILD_TIMES:
                assert (url, value) in saw_change, (step, url, value)


def test_pelican_title_edit_moves_the_article_and_its_listings(
    pelican_runs: PelicanRuns,
) -> None:
    """Editing only an article's title (in notmyidea's ``<article><header><h1>``) moves that
    article and every listing that shows the title, and no other page."""
    run = pelican_runs.retitled
    creme = f"{PE_BASE}caf%C3%A9-cr%C3%A8me.html"
    # The article, and each listing whose page holds the title: notmyidea's index puts it
    # in each listed article's <header>, the archives in a plain list.
    listings = [f"{PE_BASE}{path}" for path in (
        "archives.html", "author/bruno-lefevre/page/2/", "blog/page/3/",
        "category/food-drink/page/2/", "tag/coffee.html", "tag/paris/page/2/")]
    assert run.changes == {
        "baseline": True, "added": [], "removed": [], "changed": sorted([creme, *listings])}
    assert moved(pelican_runs.no_cache, run) == {
        url: (pelican_runs.no_cache.lastmods()[url], w3c(T6)) for url in [creme, *listings]}


# -- Both samples --------------------------------------------------------------------------------

# Each step of each sample and how many URLs its sitemap lists.
SAMPLE_URLS = {
    ("mkdocs", "first"): 13, ("mkdocs", "again"): 13, ("mkdocs", "edited"): 13,
    ("mkdocs", "new_page"): 14, ("mkdocs", "no_cache"): 14,
    ("pelican", "first"): 42, ("pelican", "again"): 42, ("pelican", "edited"): 42,
    ("pelican", "new_article"): 46, ("pelican", "no_cache"): 46, ("pelican", "retitled"): 46,
}


@pytest.mark.parametrize(("host", "step"), SAMPLE_URLS, ids=[f"{h}-{s}" for h, s in SAMPLE_URLS])
def test_every_build_passes_and_its_sitemap_is_valid(
    host: str, step: str, request: pytest.FixtureRequest,
    sitemap_urls: Callable[..., list[str]],
) -> None:
    """Every build passes ``--strict`` (MkDocs) or ``--fatal warnings`` (Pelican) and writes a
    schema-valid sitemap (xml, gz, txt) listing the URLs it should."""
    run: Snapshot = getattr(request.getfixturevalue(f"{host}_runs"), step)
    assert run.returncode == 0, run.log
    assert len(sitemap_urls(run.folder)) == SAMPLE_URLS[host, step]


@pytest.mark.parametrize("host", ["mkdocs", "pelican"])
def test_unchanged_rebuild_sees_no_change(host: str, request: pytest.FixtureRequest) -> None:
    """A rebuild with new mtimes and a new SOURCE_DATE_EPOCH had a manifest to compare with
    and saw nothing change (its bytes: ``test_byte_identity.py``)."""
    again: Snapshot = request.getfixturevalue(f"{host}_runs").again
    assert again.changes == {"baseline": True, "added": [], "changed": [], "removed": []}
    assert NOTE not in again.log

"""Honest lastmod across rebuilds (the manifest), through the command line."""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
from pathlib import Path

import pytest
from conftest import HOLD_DATABASE, hold, release
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.cli import main
from sitemap_plugins.disk import history
from sitemap_plugins.disk.history import manifest_path
from sitemap_plugins.vocab.errors import BusyError
from tests.cache_damage import (
    drop_rows,
    edit_records,
    listed,
    renumber_row,
    set_field,
    set_meta,
    write_first_format,
)

BASE = "https://example.org/"
T1, T2, T3 = 1_700_000_000, 1_700_086_400, 1_700_172_800  # three builds, a day apart
W3C = {T1: "2023-11-14T22:13:20Z", T2: "2023-11-15T22:13:20Z", T3: "2023-11-16T22:13:20Z"}


def _page(title: str, body: str, nav: list[str], stamp: str) -> str:
    links = "".join(f'<li><a href="/{n}/">{n}</a></li>' for n in nav)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<title>{title}</title><link rel="stylesheet" href="/assets/main.{stamp}.css">'
        f'<script src="/assets/app.{stamp}.js"></script></head><body>'
        f'<header>Site <span>built {stamp}</span></header>'
        f'<main><nav class="md-nav"><ul>{links}</ul><nav class="toc"><a href="#a">a</a></nav></nav>'
        f'<article><h1>{title}</h1><p>{body}</p><img src="/img/{title}.png"></article></main>'
        f"<footer>Built at {stamp}</footer></body></html>")


def write_site(site: Path, pages: dict[str, str], stamp: str) -> None:
    """(Re)write every page, as a static build does: new bytes around the same content."""
    nav = sorted(pages)
    for name, body in pages.items():
        target = site / name / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_page(name, body, nav, stamp), "utf-8")
    for old in site.iterdir():
        if old.is_dir() and old.name not in pages:
            for f in old.iterdir():
                f.unlink()
            old.rmdir()


def build(site: Path, when: int, monkeypatch: pytest.MonkeyPatch, *extra: str) -> dict[str, str]:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(when))
    assert main(["build", str(site), "--base-url", BASE, *extra]) == 0
    return lastmods(site)


def lastmods(site: Path) -> dict[str, str]:
    """URL -> lastmod text ('' when none), parsed from sitemap.xml."""
    import xml.etree.ElementTree as ET  # noqa: PLC0415

    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    root = ET.parse(site / "sitemap.xml").getroot()
    return {u.findtext("s:loc", namespaces=ns): u.findtext("s:lastmod", "", ns)
            for u in root.findall("s:url", ns)}


PAGES = {"alpha": "First page.", "beta": "Second page.", "gamma": "Third page."}


@pytest.fixture(params=["in-one-pass", "point-queries"])
def site(tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small site; its earlier manifest read in one pass, or one point query a page.

    With no window every page is looked up as pages far ahead (after removed pages, or
    another worker's share) are.
    """
    if request.param == "point-queries":
        monkeypatch.setattr("sitemap_plugins.disk.history.READ_AHEAD", 0)
    folder = tmp_path / "site"
    folder.mkdir()
    write_site(folder, PAGES, "aaa111")
    return folder


def test_rebuild_without_change_is_byte_identical(site: Path, monkeypatch, sitemap_urls) -> None:
    """Every file rewritten with new stamps and mtimes: the sitemap files do not change."""
    first = build(site, T1, monkeypatch)
    assert set(first.values()) == {""}  # first build: no evidence, no date
    files = {n: (site / n).read_bytes() for n in ("sitemap.xml", "sitemap.xml.gz", "sitemap.txt")}
    write_site(site, PAGES, "bbb222")
    os.utime(site / "alpha" / "index.html", (T3, T3))
    assert build(site, T2, monkeypatch) == first
    assert {n: (site / n).read_bytes() for n in files} == files
    assert len(sitemap_urls(site)) == 3


def test_changed_text_moves_only_that_page(site: Path, monkeypatch) -> None:
    """Only the page whose text changed gets the build's time; the others keep theirs."""
    build(site, T1, monkeypatch)
    write_site(site, {**PAGES, "beta": "Second page, rewritten."}, "bbb222")
    second = build(site, T2, monkeypatch)
    assert second == {f"{BASE}alpha/": "", f"{BASE}beta/": W3C[T2], f"{BASE}gamma/": ""}
    write_site(site, {**PAGES, "beta": "Second page, rewritten.", "gamma": "New gamma."}, "ccc")
    third = build(site, T3, monkeypatch)
    assert third == {f"{BASE}alpha/": "", f"{BASE}beta/": W3C[T2], f"{BASE}gamma/": W3C[T3]}


def test_new_page_in_nav_moves_nothing_else(site: Path, monkeypatch, tmp_path: Path) -> None:
    """Adding a page changes every page's navigation; only the new page is new."""
    build(site, T1, monkeypatch)
    changes = tmp_path / "changes.json"
    write_site(site, {**PAGES, "delta": "Fourth page."}, "bbb222")
    second = build(site, T2, monkeypatch, "--changes-file", str(changes))
    assert second == {f"{BASE}alpha/": "", f"{BASE}beta/": "", f"{BASE}delta/": W3C[T2],
                      f"{BASE}gamma/": ""}
    assert json.loads(changes.read_text()) == {
        "baseline": True, "added": [f"{BASE}delta/"], "changed": [], "removed": []}
    write_site(site, {"alpha": "First page.", "delta": "Fourth page, edited."}, "ccc")
    build(site, T3, monkeypatch, "--changes-file", str(changes))
    assert json.loads(changes.read_text()) == {
        "baseline": True, "added": [], "changed": [f"{BASE}delta/"],
        "removed": [f"{BASE}beta/", f"{BASE}gamma/"]}


def test_deleted_cache_falls_back_and_says_why(site: Path, monkeypatch, capsys) -> None:
    """Without the cache the build works, dates fall back, and a note says why."""
    build(site, T1, monkeypatch)
    write_site(site, {**PAGES, "beta": "Changed."}, "bbb")
    assert build(site, T2, monkeypatch)[f"{BASE}beta/"] == W3C[T2]
    cache = site.parent / ".sitemap-cache"
    for f in cache.iterdir():
        f.unlink()
    capsys.readouterr()
    assert set(build(site, T3, monkeypatch).values()) == {""}
    err = capsys.readouterr().err
    assert "note: no lastmod manifest from an earlier build in" in err
    assert "(first build, or the cache was deleted)" in err


@pytest.mark.parametrize(
    ("damage", "note"),
    [
        (lambda p: p.write_bytes(b"not a database at all" * 100), "cannot be read"),
        (lambda p: set_meta(p, "version", "0"), "has format '0', not '2'"),
        (lambda p: set_meta(p, "base_url", "https://other.example/"), "belongs to 'https://other.example/'"),
    ],
    ids=["corrupt", "old-version", "other-site"],
)
def test_bad_manifest_is_reported_and_replaced(site: Path, monkeypatch, capsys, damage, note) -> None:
    """A corrupt, old or foreign manifest is reported, ignored and replaced; no crash."""
    build(site, T1, monkeypatch)
    manifest = manifest_path(site.parent / ".sitemap-cache", site, BASE)
    damage(manifest)
    capsys.readouterr()
    write_site(site, {**PAGES, "beta": "Changed."}, "bbb")
    assert set(build(site, T2, monkeypatch).values()) == {""}
    assert note in capsys.readouterr().err
    write_site(site, {**PAGES, "beta": "Changed again."}, "ccc")
    assert build(site, T3, monkeypatch)[f"{BASE}beta/"] == W3C[T3]


def test_cache_is_never_published(site: Path, monkeypatch, capsys) -> None:
    """The manifest lives outside the site; a cache_dir inside it is refused clearly."""
    build(site, T1, monkeypatch)
    assert not [p for p in site.rglob("*") if "manifest" in p.name or p.suffix == ".sqlite"]
    assert main(["-q", "build", str(site), "--base-url", BASE, "--cache-dir",
                 str(site / "cache")]) == 2
    assert "is inside the published site" in capsys.readouterr().err
    assert not (site / "cache").exists()


def test_page_dates_win_over_the_manifest(tmp_path: Path, monkeypatch) -> None:
    """A page's own date meta is about the page, so it wins over the build's time."""
    site = tmp_path / "s"
    site.mkdir()
    dated = '<head><meta property="article:modified_time" content="2020-02-02"></head><main>{}</main>'
    (site / "a.html").write_text(dated.format("one"))
    build(site, T1, monkeypatch)
    (site / "a.html").write_text(dated.format("two"))
    assert build(site, T2, monkeypatch) == {f"{BASE}a.html": "2020-02-02"}


def test_upgrade_moves_no_date(site: Path, monkeypatch, tmp_path: Path) -> None:
    """A manifest of the old reader: its dates are kept, the new fingerprints adopted."""
    old = site.parent / ".sitemap-cache" / "lastmod-manifest.sqlite"
    write_first_format(old, BASE, [
        (f"{BASE}alpha/", "old-fingerprint-a", "2021-01-01T00:00:00Z", "manifest: changed"),
        (f"{BASE}beta/", "old-fingerprint-b", "2022-02-02T00:00:00Z", "manifest: new page"),
    ])
    changes = tmp_path / "changes.json"
    assert build(site, T2, monkeypatch, "--changes-file", str(changes)) == {
        f"{BASE}alpha/": "2021-01-01T00:00:00Z", f"{BASE}beta/": "2022-02-02T00:00:00Z",
        f"{BASE}gamma/": W3C[T2]}
    assert json.loads(changes.read_text()) == {
        "baseline": True, "added": [f"{BASE}gamma/"], "changed": [], "removed": []}
    # From now on the new fingerprints are the baseline: a real change moves the date.
    write_site(site, {**PAGES, "alpha": "First page, edited."}, "bbb")
    assert build(site, T3, monkeypatch)[f"{BASE}alpha/"] == W3C[T3]


def _blog(site: Path, posts: dict[str, tuple[str, str]], nav: list[str], stamp: str) -> None:
    """A blog as Pelican's notmyidea writes it: the banner (with the menu) in the body, each
    article's title in its own <header>, and an index listing every article."""
    banner = ('<header id="banner"><h1><a href="/">Blog</a></h1><nav><ul>'
              + "".join(f'<li><a href="/{n}/">{n}</a></li>' for n in nav) + "</ul></nav></header>")

    def page(body: str) -> str:
        return (f'<!doctype html><html><head><title>Blog</title><link rel="stylesheet" '
                f'href="/theme.{stamp}.css"></head><body>{banner}<section id="content">'
                f'{body}</section><footer>Built {stamp}</footer></body></html>')

    def header(slug: str, tag: str) -> str:
        return (f'<header><{tag} class="entry-title"><a href="/{slug}/" rel="bookmark">'
                f"{posts[slug][0]}</a></{tag}></header>")

    for slug, (_, text) in posts.items():
        (site / slug).mkdir(parents=True, exist_ok=True)
        (site / slug / "index.html").write_text(page(
            f"<article>{header(slug, 'h1')}<div class='entry-content'><p>{text}</p></div>"
            "</article>"), "utf-8")
    (site / "index.html").write_text(page('<ol id="posts-list">' + "".join(
        f"<li><article>{header(slug, 'h2')}<p>Summary.</p></article></li>" for slug in posts)
        + "</ol>"), "utf-8")


def test_upgrading_to_article_headers_moves_no_date_then_a_title_edit_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fingerprint that counts an article's own header: the first build with it adopts
    its fingerprints (no date moves), and from then on a title edit moves that article and
    the index that lists it, and nothing else."""
    from sitemap_plugins.page import content  # noqa: PLC0415

    site = tmp_path / "blog"
    changes = tmp_path / "changes.json"
    t4, t5 = T3 + 86_400, T3 + 2 * 86_400
    posts = {"first": ("First post", "One."), "second": ("Second post", "Two.")}
    with monkeypatch.context() as old:  # the reader before: every <header> left out
        old.setattr(content, "_DROPPED_IN_CONTENT_SELECTOR", content._DROPPED_SELECTOR,
                    raising=False)
        old.setattr("sitemap_plugins.disk.history.FINGERPRINT_VERSION", "3")
        old.setattr("sitemap_plugins.disk.history.READER_VERSION", "4")
        _blog(site, posts, ["about"], "aaa")
        build(site, T1, monkeypatch)
        posts["second"] = ("Second post", "Two, rewritten.")
        _blog(site, posts, ["about"], "bbb")
        before = build(site, T2, monkeypatch)
    assert before == {BASE: "", f"{BASE}first/": "", f"{BASE}second/": W3C[T2]}
    path = manifest_path(site.parent / ".sitemap-cache", site, BASE)

    def fingerprints() -> dict[str, object]:
        return listed(path, "fingerprint")

    old_fingerprints = fingerprints()
    _blog(site, posts, ["about", "contact"], "ccc")  # and a page more in the menu
    assert build(site, T3, monkeypatch, "--changes-file", str(changes)) == before
    assert json.loads(changes.read_text()) == {
        "baseline": True, "added": [], "changed": [], "removed": []}
    # Every fingerprint was replaced (the headers count now), and no date moved.
    assert all(fingerprints()[url] != old for url, old in old_fingerprints.items())
    posts["first"] = ("First post, renamed", "One.")
    _blog(site, posts, ["about", "contact", "archives"], "ddd")
    assert build(site, t4, monkeypatch, "--changes-file", str(changes)) == {
        BASE: "2023-11-17T22:13:20Z", f"{BASE}first/": "2023-11-17T22:13:20Z",
        f"{BASE}second/": W3C[T2]}
    assert json.loads(changes.read_text())["changed"] == [BASE, f"{BASE}first/"]
    _blog(site, posts, ["about"], "eee")  # the menu alone moves nothing
    assert build(site, t5, monkeypatch, "--changes-file", str(changes))[BASE] == (
        "2023-11-17T22:13:20Z")
    assert json.loads(changes.read_text())["changed"] == []


def test_a_huge_rowid_costs_no_memory(site: Path, monkeypatch) -> None:
    """Rows are read as they come: a rowid near 2**62 asks for nothing in proportion."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    _generate(site)
    expected = (site / "sitemap.xml").read_bytes()
    renumber_row(manifest_path(site.parent / ".sitemap-cache", site, BASE), None,
                 4_000_000_000_000_000_000)
    assert _generate(site) == 3
    assert (site / "sitemap.xml").read_bytes() == expected


def _generate(site: Path) -> int:
    config = SitemapConfig.from_mapping({"base_url": BASE})
    return generate(site, config).cached


def test_same_bytes_come_from_the_record_cache(site: Path, monkeypatch) -> None:
    """A rebuild that rewrote pages with the same bytes takes their records from the cache."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    assert _generate(site) == 0
    first = (site / "sitemap.xml").read_bytes()
    write_site(site, PAGES, "aaa111")  # the same bytes, written again
    assert _generate(site) == 3
    write_site(site, {**PAGES, "beta": "Changed."}, "aaa111")
    assert _generate(site) == 2
    assert (site / "sitemap.xml").read_bytes() != first


def test_a_page_dated_after_the_build_keeps_its_cached_record(site: Path, monkeypatch) -> None:
    """A page may state a date later than the build's (``SOURCE_DATE_EPOCH`` pinned to the
    last commit): its row is sound, so its record comes from the cache, not a new parse.
    When the page stops stating that date, the future date is not carried over."""
    later = "2025-01-01T00:00:00Z"  # after the build (T1), before the clock: not refused
    alpha = site / "alpha" / "index.html"
    dated = alpha.read_text().replace(
        "<title>", f'<meta property="article:modified_time" content="{later}"><title>')
    alpha.write_text(dated)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    assert _generate(site) == 0
    assert lastmods(site)[f"{BASE}alpha/"] == later
    alpha.write_text(dated)  # the same bytes again, as a host writes them
    assert _generate(site) == 3
    write_site(site, PAGES, "aaa111")  # the date is gone, the content the same
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T2))
    _generate(site)
    assert lastmods(site)[f"{BASE}alpha/"] == W3C[T2]


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: set_field(path, None, "record", "not json"),
        lambda path: set_field(path, None, "record", '["x"]'),
        lambda path: set_field(path, None, "record", None),
        lambda path: set_field(path, None, "record", b"\x00\xff"),
        lambda path: set_field(path, None, "digest", "text"),
        drop_rows,
    ],
    ids=["not-json", "short", "null", "blob", "digest-text", "no-table"],
)
def test_a_damaged_record_cache_means_reading_again(site: Path, monkeypatch, damage) -> None:
    """Nothing read from the cache reaches the output unchecked: damaged rows are re-read."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    _generate(site)
    expected = (site / "sitemap.xml").read_bytes()
    path = manifest_path(site.parent / ".sitemap-cache", site, BASE)
    damage(path)
    assert _generate(site) == 0
    assert (site / "sitemap.xml").read_bytes() == expected


def test_forged_record_cannot_publish_a_foreign_url(site: Path, monkeypatch) -> None:
    """A cached record holds facts, not output: a forged canonical is still judged."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    _generate(site)
    path = manifest_path(site.parent / ".sitemap-cache", site, BASE)

    def forged(record: object) -> object:
        assert isinstance(record, list)
        record[2] = "https://evil.example/"
        return record

    edit_records(path, forged)
    result = generate(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert (result.listed, dict(result.excluded)) == (0, {"canonical off the site": 3})
    assert not (site / "sitemap.xml").exists()


# --- sibling sites share the default cache folder -------------------------------------------

T4 = T3 + 86_400


def test_sibling_sites_keep_their_own_history(tmp_path: Path, monkeypatch) -> None:
    """dist/docs and dist/blog share dist/.sitemap-cache: building the blog in between
    moves no date of the docs (before, each build wiped the other's manifest)."""
    docs, blog = tmp_path / "dist" / "docs", tmp_path / "dist" / "blog"
    write_site(docs, PAGES, "a")
    write_site(blog, {"post": "A post."}, "a")
    build(docs, T1, monkeypatch)
    write_site(docs, {**PAGES, "alpha": "First page, edited."}, "b")
    first = build(docs, T2, monkeypatch)
    assert first[f"{BASE}alpha/"] == W3C[T2]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T3))
    assert main(["build", str(blog), "--base-url", "https://blog.example.org/"]) == 0
    write_site(docs, {**PAGES, "alpha": "First page, edited."}, "c")  # same content
    assert build(docs, T4, monkeypatch) == first
    assert sorted(p.name for p in (tmp_path / "dist" / ".sitemap-cache").glob("*.sqlite")) == [
        manifest_path(tmp_path / "dist" / ".sitemap-cache", blog,
                      "https://blog.example.org/").name,
        manifest_path(tmp_path / "dist" / ".sitemap-cache", docs, BASE).name]


def test_the_former_shared_manifest_is_still_used(site: Path, monkeypatch) -> None:
    """Upgrade: the cache folder's single manifest of an earlier version is read (no date
    moves), then replaced by the site's own; a sibling's is left alone."""
    cache = site.parent / ".sitemap-cache"
    build(site, T1, monkeypatch)
    write_site(site, {**PAGES, "beta": "Changed."}, "b")
    dated = build(site, T2, monkeypatch)
    assert dated[f"{BASE}beta/"] == W3C[T2]
    own = manifest_path(cache, site, BASE)
    os.replace(own, cache / "lastmod-manifest.sqlite")  # as the earlier version named it
    write_site(site, {**PAGES, "beta": "Changed."}, "c")
    assert build(site, T3, monkeypatch) == dated
    assert own.is_file()
    assert not (cache / "lastmod-manifest.sqlite").exists()
    # A former manifest of another site (another base URL) is not this site's: left.
    os.replace(own, cache / "lastmod-manifest.sqlite")
    set_meta(cache / "lastmod-manifest.sqlite", "base_url", "https://blog.example.org/")
    build(site, T4, monkeypatch)
    assert (cache / "lastmod-manifest.sqlite").is_file()


_FOLDER_NAMES = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/\\\0"),
    min_size=1, max_size=20).filter(lambda n: n not in (".", "..") and n.strip() == n)


@settings(max_examples=300, deadline=None)
@given(names=st.lists(_FOLDER_NAMES, min_size=2, max_size=6, unique=True))
def test_sibling_folders_never_share_a_manifest(names: list[str]) -> None:
    """Any set of distinct folder names in one parent: distinct manifest files, plain file
    names, inside the cache folder, whatever the characters (and distinct ignoring case)."""
    cache = Path("/cache")
    paths = [manifest_path(cache, Path("/dist") / name, BASE) for name in names]
    assert all(p.parent == cache and "/" not in p.name for p in paths)
    folded = {p.name.casefold() for p in paths}
    assert len(folded) == len(names)


# --- a manifest held by another program ------------------------------------------------------

def test_a_held_manifest_stops_the_build_and_keeps_the_dates(
    site: Path, monkeypatch, capsys,
) -> None:
    """Another program in a write on the manifest: the build waits, then fails in one line;
    the manifest and the sitemap are byte for byte as they were (before, the history was
    thrown away and a new manifest written over it), and the next build keeps the dates."""
    build(site, T1, monkeypatch)
    write_site(site, {**PAGES, "beta": "Changed."}, "b")
    dated = build(site, T2, monkeypatch)
    path = manifest_path(site.parent / ".sitemap-cache", site, BASE)
    kept, sitemap = path.read_bytes(), (site / "sitemap.xml").read_bytes()
    monkeypatch.setattr("sitemap_plugins.disk.history.BUSY_SECONDS", 0.5)
    holder = hold(path, 60, HOLD_DATABASE)
    try:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T3))
        capsys.readouterr()
        assert main(["build", str(site), "--base-url", BASE]) == 1
        err = capsys.readouterr().err
        assert err.splitlines() == [
            (f"error: {path}: is held by another program (waited 0 s); nothing was written and "
            "the dates it keeps are untouched: close what holds it (an SQLite browser, a "
            "backup in progress) and build again")]
    finally:
        release(holder, kill=True)
    assert path.read_bytes() == kept
    assert (site / "sitemap.xml").read_bytes() == sitemap
    assert build(site, T3, monkeypatch) == dated


def test_a_briefly_held_manifest_is_waited_for(site: Path, monkeypatch) -> None:
    """Held for a second: the build waits and goes on with the history."""
    build(site, T1, monkeypatch)
    write_site(site, {**PAGES, "beta": "Changed."}, "b")
    dated = build(site, T2, monkeypatch)
    holder = hold(manifest_path(site.parent / ".sitemap-cache", site, BASE), 1.0, HOLD_DATABASE)
    try:
        assert build(site, T3, monkeypatch) == dated
    finally:
        release(holder)


def test_held_during_the_build(site: Path, monkeypatch) -> None:
    """Held after the build opened it, while pages are read: the same one line, no new
    manifest; the error crosses process boundaries whole (workers send it back)."""
    build(site, T1, monkeypatch)
    path = manifest_path(site.parent / ".sitemap-cache", site, BASE)
    kept = path.read_bytes()

    def locked(*_args: object) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(history.RowsInOrder, "get", locked)
    monkeypatch.setattr(history.History, "_by_url", lambda *_: locked())
    with pytest.raises(BusyError) as caught:
        generate(site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert caught.value.path == str(path)
    assert path.read_bytes() == kept
    again = pickle.loads(pickle.dumps(caught.value))  # our own object
    assert (type(again), str(again)) == (BusyError, str(caught.value))


T4 = 1_700_259_200


@pytest.mark.parametrize("leave_out", ["include", "noindex"])
def test_a_build_that_leaves_pages_out_keeps_their_history(
        site: Path, monkeypatch, tmp_path: Path, leave_out: str) -> None:
    """A trial build with ``--include`` of one page, or a page noindex for one deploy, erases
    no history: the next full build gives the others the dates they had, and its changes
    file counts none of them as added or changed (a page's row outlives a build that does
    not list it, as long as its file is in the site)."""
    changes = tmp_path / "changes.json"
    build(site, T1, monkeypatch)
    write_site(site, {**PAGES, "delta": "Fourth page."}, "bbb")
    full = build(site, T2, monkeypatch)
    assert full[f"{BASE}delta/"] == W3C[T2]
    if leave_out == "include":
        trial = build(site, T3, monkeypatch, "--include", "/alpha/")
    else:
        page = site / "delta" / "index.html"
        page.write_text(page.read_text("utf-8").replace(
            "<title>", '<meta name="robots" content="noindex"><title>'), "utf-8")
        trial = build(site, T3, monkeypatch)
    assert f"{BASE}delta/" not in trial
    write_site(site, {**PAGES, "delta": "Fourth page."}, "ccc")
    assert build(site, T4, monkeypatch, "--changes-file", str(changes)) == full
    assert json.loads(changes.read_text()) == {
        "baseline": True, "added": [], "changed": [],
        "removed": []}

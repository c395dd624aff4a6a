"""The cache (#17): nothing read from it reaches the output unchecked.

Whoever can write the cache folder could otherwise publish anything. A site is built once
(the manifest fills), then the manifest is tampered with through ``tests/cache_damage.py`` in
generated ways (any field of any row set to any SQLite value, a page's record with one field
replaced by any JSON value, rows deleted, forged, moved to huge rowids, the meta table
changed), and the site is built again. The output must equal a build without any cache
(byte for byte, ``.gz`` and text included) and the run must end without a traceback: a
damaged row only means the page is read again.

Pages carry their own dates here, so a cache-less build and a build with history agree. The
dates the manifest itself hands out are checked by ``test_tampered_dates_stay_honest``.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import sqlite3
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.disk.history import manifest_path
from sitemap_plugins.vocab.dates import parse_w3c, sort_key
from tests import cache_damage
from tests.cache_damage import FIELDS, META_KEYS

if TYPE_CHECKING:
    from collections.abc import Callable

BASE = "https://example.org/"
T1, T2 = 1_700_000_000, 1_700_086_400
NOW2 = "2023-11-15T22:13:20Z"

PAGES = {
    "index.html": (
        '<html lang="en"><head><title>Home</title>'
        '<meta property="article:modified_time" content="2023-01-02T03:04:05Z">'
        '<link rel="alternate" hreflang="en" href="https://example.org/">'
        '<link rel="alternate" hreflang="fr" href="https://example.org/fr/">'
        '</head><body><main><h1>Home</h1><img src="/img/a.png">'
        '<video src="/v.mp4" poster="/v.jpg" title="A film"></video></main></body></html>'),
    "fr/index.html": (
        '<html lang="fr"><head><title>Accueil</title>'
        '<meta property="article:modified_time" content="2023-02-02T03:04:05Z">'
        '<link rel="alternate" hreflang="en" href="https://example.org/">'
        '<link rel="alternate" hreflang="fr" href="https://example.org/fr/">'
        "</head><body><main><h1>Accueil</h1></main></body></html>"),
    "guide/index.html": (
        '<html><head><title>Guide</title><meta name="description" content="How &amp; why">'
        '<meta property="article:modified_time" content="2023-03-02T03:04:05+02:00">'
        '<link rel="canonical" href="https://example.org/guide/"></head>'
        '<body><article><h1>Guide</h1><img src="diagram.svg"></article></body></html>'),
    "hidden.html": (
        '<html><head><meta name="robots" content="noindex">'
        '<meta property="article:modified_time" content="2023-04-02T03:04:05Z"></head></html>'),
    "moved.html": (
        '<html><head><meta http-equiv="refresh" content="0; url=/guide/">'
        '<meta property="article:modified_time" content="2023-05-02T03:04:05Z"></head></html>'),
    "elsewhere.html": (
        '<html><head><link rel="canonical" href="https://example.org/guide/">'
        '<meta property="article:modified_time" content="2023-06-02T03:04:05Z"></head></html>'),
    "a&b.html": (
        '<html><head><title>A &amp; B</title>'
        '<meta property="article:modified_time" content="2023-07-02T03:04:05Z"></head>'
        "<body><main><p>x</p></main></body></html>"),
}


def make_site(folder: Path) -> Path:
    for name, text in PAGES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, "utf-8")
    return folder


def _config(cache: Path) -> SitemapConfig:
    return SitemapConfig.from_mapping({"base_url": BASE, "cache_dir": str(cache)})


def output(site: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(site.iterdir())
            if p.is_file() and p.name.startswith("sitemap")}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, bytes]]:
    """A site built once (its manifest filled), and the cache-less build's output at T2."""
    root = tmp_path_factory.mktemp("tamper")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", str(T1))
        site = make_site(root / "site")
        generate(site, _config(root / "cache"))
        patch.setenv("SOURCE_DATE_EPOCH", str(T2))
        fresh = make_site(root / "fresh" / "site")
        generate(fresh, _config(root / "fresh" / "cache"))
        # With history and nothing tampered, the output is the same: the test can fail.
        again = root / "again"
        shutil.copytree(root / "site", again / "site")
        shutil.copytree(root / "cache", again / "cache")
        generate(again / "site", _config(again / "cache"))
        assert output(again / "site") == output(fresh)
    return site, root / "cache", output(fresh)


_SQL_VALUES = st.one_of(
    st.none(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False),
    st.binary(max_size=40), st.text(max_size=40).filter(lambda t: "\x00" not in t),
    st.sampled_from(["", "9999-12-31T23:59:59Z", "2100-01-01", "0001-01-01",
                     "2023-11-14T22:13:20+23:59", "https://evil.example/", "manifest: changed",
                     "page", "explicit", BASE + "evil", "<url>", "]]>"]),
)
_JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.text(max_size=30),
    st.sampled_from(["\\ud800", "\x01", "\x0b", "\ufffe", "https://evil.example/",
                     "javascript:alert(1)", "x" * 5000, "</loc><loc>https://evil.example/",
                     "noindex", "2023-13-45T99:99:99Z", "-0001-01-01"]),
)
_JSON = st.recursive(_JSON_LEAVES, lambda inner: st.lists(inner, max_size=4), max_leaves=8)


# The record's fields (record_codec.encode_record): what each holds.
_OPTIONAL_TEXT = {2, 4, 6, 7, 8, 9, 10, 11, 12, 13}
_TEXT_LISTS = {3, 14, 15}
_PAIR_LISTS = {5: 2, 17: 2, 16: 5}
# Text no build writes into a record: XML cannot hold it.
_BAD_TEXT = st.sampled_from(["\x01", "a\x0bb", "\ud800", "x\udfffy", "\ufffe", "\x1f",
                             "\x00"])


def _invalid_field(index: int) -> st.SearchStrategy[object]:
    """Values no reader writes into field ``index``: wrong types, or text XML cannot hold."""
    wrong_type = st.one_of(st.integers(), st.floats(allow_nan=False), st.booleans(),
                           st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
    if index == 0:
        return st.one_of(wrong_type, st.none(), st.just(""), _BAD_TEXT,
                         st.just("has a space"), st.just("x" * 300), st.lists(st.text()))
    if index == 1:
        return st.one_of(st.integers(), st.none(), st.text(max_size=5), st.lists(st.booleans()))
    if index in _OPTIONAL_TEXT:
        return st.one_of(wrong_type, _BAD_TEXT, st.lists(st.text(max_size=5), max_size=2))
    if index in _TEXT_LISTS:
        return st.one_of(wrong_type, st.none(), st.text(max_size=5),
                         st.lists(_BAD_TEXT, min_size=1, max_size=2),
                         st.lists(st.one_of(st.integers(), st.none()), min_size=1, max_size=2))
    width = _PAIR_LISTS[index]
    return st.one_of(
        wrong_type, st.none(), st.text(max_size=5), st.lists(st.text(max_size=3), min_size=1),
        st.lists(st.lists(st.text(max_size=3), min_size=width + 1, max_size=width + 1),
                 min_size=1, max_size=2),
        st.lists(st.lists(_BAD_TEXT, min_size=width, max_size=width), min_size=1, max_size=2))


def _replace_field(index: int, value: object, record: object) -> object:
    if not isinstance(record, list) or not record:
        return None
    record[index % len(record)] = value
    return record


@st.composite
def tamperings(draw: st.DrawFn) -> list[Callable[[Path], None]]:
    """A few damages to the manifest (each one a call of ``tests/cache_damage.py``)."""
    steps: list[Callable[[Path], None]] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["field", "record", "rowid", "delete", "forge", "meta",
                                     "record-text"]))
        row = draw(st.integers(1, 10))
        if kind == "field":
            steps.append(partial(cache_damage.set_field, row=row,
                                 field=draw(st.sampled_from(FIELDS)), value=draw(_SQL_VALUES)))
        elif kind == "record":
            index = draw(st.integers(0, 17))
            steps.append(partial(cache_damage.edit_records, row=row, edit=partial(
                _replace_field, index, draw(_invalid_field(index)))))
        elif kind == "record-text":
            text = draw(st.one_of(st.text(max_size=60).filter(lambda t: "\x00" not in t),
                                  _JSON.map(json.dumps)))
            steps.append(partial(cache_damage.set_field, row=row, field="record", value=text))
        elif kind == "rowid":
            steps.append(partial(cache_damage.renumber_row, row=row, number=draw(
                st.sampled_from([2**62, 2**63 - 1, -(2**63), 0, 10**12]))))
        elif kind == "delete":
            steps.append(partial(cache_damage.delete_row, row=row))
        elif kind == "forge":
            steps.append(partial(
                cache_damage.forge_row, row=row,
                key=draw(st.sampled_from([b"evil.html", b"index.html", b"../x.html",
                                          "index.html", None])),
                url=draw(st.sampled_from([BASE + "evil.html", "https://evil.example/", BASE]))))
        else:
            steps.append(partial(cache_damage.set_meta, key=draw(st.sampled_from(META_KEYS)),
                                 value=draw(_SQL_VALUES)))
    return steps


def _apply(path: Path, steps: list[Callable[[Path], None]]) -> None:
    for step in steps:
        # A row number or file key taken: that damage cannot be done.
        with contextlib.suppress(sqlite3.IntegrityError):
            step(path)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=tamperings())
def test_a_tampered_cache_changes_nothing_published(
    built: tuple[Path, Path, dict[str, bytes]], tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch, steps: list[Callable[[Path], None]],
) -> None:
    """Whatever was done to the manifest: the same files as a build without a cache."""
    site, cache, expected = built
    work = tmp_path_factory.mktemp("run")
    shutil.copytree(site, work / "site")
    shutil.copytree(cache, work / "cache")
    path = manifest_path(work / "cache", work / "site", BASE)
    assert path.name == manifest_path(cache, site, BASE).name
    _apply(path, steps)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T2))
    generate(work / "site", _config(work / "cache"))
    assert output(work / "site") == expected


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(row=st.integers(1, len(PAGES)), index=st.integers(0, 17), data=st.data())
def test_a_damaged_record_is_read_again(
    built: tuple[Path, Path, dict[str, bytes]], tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch, row: int, index: int, data: st.DataObject,
) -> None:
    """One field of one page's record set to what no reader writes (a wrong type, text XML
    cannot hold): the page is read again, and the output is the cache-less build's."""
    site, cache, expected = built
    work = tmp_path_factory.mktemp("record")
    shutil.copytree(site, work / "site")
    shutil.copytree(cache, work / "cache")
    value = data.draw(_invalid_field(index))
    cache_damage.edit_records(manifest_path(work / "cache", work / "site", BASE),
                              partial(_replace_field, index, value), row)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T2))
    result = generate(work / "site", _config(work / "cache"))
    assert output(work / "site") == expected
    assert result.cached == len(PAGES) - 1


# --- dates and URLs the manifest hands out ---------------------------------------------------

UNDATED = {"index.html": "<html><head><title>Home</title></head><body>one</body></html>",
           "a.html": "<html><head><title>A</title></head><body>two</body></html>",
           "b.html": "<html><head><title>B</title></head><body>three</body></html>"}
T3 = T2 + 86_400
_DATES = st.one_of(
    st.sampled_from(["2100-01-01", "9999-12-31T23:59:59Z", "2023-11-16T22:13:21Z",
                     "2023-11-14T22:13:20+23:59", "2023-02-30", "yesterday", "", " ",
                     "2023-11-14T22:13:20Z" * 20, "2020-01-01T00:00:00+14:00"]),
    st.datetimes().map(lambda d: d.isoformat()), st.text(max_size=30),
    st.integers(-(2**63), 2**63 - 1), st.binary(max_size=8), st.none())


@pytest.fixture(scope="module")
def undated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A site of pages without dates of their own, built at T1 and T2 (a.html changed)."""
    root = tmp_path_factory.mktemp("undated")
    site = root / "site"
    site.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        for when, pages in ((T1, UNDATED), (T2, {**UNDATED, "a.html": "<html>changed</html>"})):
            for name, text in pages.items():
                (site / name).write_text(text)
            patch.setenv("SOURCE_DATE_EPOCH", str(when))
            generate(site, _config(root / "cache"))
    return site, root / "cache"


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(row=st.integers(1, 3), field=st.sampled_from(["lastmod", "changed", "source",
                                                      "fingerprint"]), value=_DATES)
def test_tampered_dates_stay_honest(
    undated: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch, row: int, field: str, value: object,
) -> None:
    """Whatever a row's dates say: every <lastmod> written is a valid W3C date no later than
    the build (a date from the future, an impossible one or garbage dates the page as new)."""
    site, cache = undated
    work = tmp_path_factory.mktemp("dates")
    shutil.copytree(site, work / "site")
    shutil.copytree(cache, work / "cache")
    cache_damage.set_field(manifest_path(work / "cache", work / "site", BASE), row, field, value)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T3))
    generate(work / "site", _config(work / "cache"))
    text = (work / "site" / "sitemap.xml").read_text()
    for lastmod in re.findall(r"<lastmod>([^<]*)</lastmod>", text):
        parsed = parse_w3c(lastmod)
        assert parsed is not None, lastmod
        assert sort_key(parsed).timestamp() <= T3, lastmod


def test_forged_urls_never_reach_the_changes(tmp_path: Path, monkeypatch) -> None:
    """URLs of the old manifest become "removed" in the changes file and the IndexNow list:
    only URLs under the base URL, as a build writes them, are taken."""
    site = make_site(tmp_path / "site")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    generate(site, _config(tmp_path / "cache"))
    forged = ["https://evil.example/x", f"{BASE}ok\x01", f"{BASE}a b", f"{BASE}{'x' * 9000}",
              "javascript:alert(1)"]
    path = manifest_path(tmp_path / "cache", site, BASE)
    for number, url in enumerate([*forged, f"{BASE}gone.html"]):
        cache_damage.add_row(path, f"forged{number}".encode(), url)
    cache_damage.add_row(path, b"\x00", 7)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T2))
    config = SitemapConfig.from_mapping({"base_url": BASE, "cache_dir": str(tmp_path / "cache"),
                                         "changes_file": str(tmp_path / "changes.json")})
    generate(site, config)
    changes = json.loads((tmp_path / "changes.json").read_text())
    assert changes["removed"] == [f"{BASE}gone.html"]
    pending = (tmp_path / "cache" / "indexnow-pending.json").read_text()
    assert "evil" not in pending
    assert f"{BASE}gone.html" in pending

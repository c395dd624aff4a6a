"""Facts kept from the last build: the same sitemap as parsing every page again, only faster."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import BASE, make_traps

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins import manifest as manifest_module
from sitemap_plugins.generate import Result
from sitemap_plugins.head import PageMeta
from sitemap_plugins.manifest import MANIFEST_NAME, KeptPages
from sitemap_plugins.page_facts import PageFacts, decode_facts, encode_facts, read_facts

OUTPUTS = ("sitemap.xml", "sitemap.xml.gz", "sitemap.txt")
HTML = (".html", ".htm", ".xhtml")


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


def _config(tmp_path: Path, **options: object) -> SitemapConfig:
    return SitemapConfig.from_mapping(
        {"base_url": BASE, "cache_dir": str(tmp_path / "cache"), **options})


def _manifest(tmp_path: Path) -> Path:
    return tmp_path / "cache" / MANIFEST_NAME


def _html_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*")
                  if p.is_file() and not p.is_symlink() and p.name.lower().endswith(HTML))


def _outputs(site: Path, result: Result) -> tuple[dict[str, bytes], list[object]]:
    return {name: (site / name).read_bytes() for name in OUTPUTS}, result.diagnostics


def _rows(manifest: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(manifest) as connection:
        return connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()


def _two_builds(
    tmp_path: Path, *, reuse: bool, monkeypatch: pytest.MonkeyPatch, **options: object
) -> tuple[Path, Result, tuple[dict[str, bytes], list[object]]]:
    """A first build, then a rebuild of the same pages; the rebuild's result and files."""
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path, **options)
    generate(site, config)
    with monkeypatch.context() as patch:
        if not reuse:
            patch.setattr(KeptPages, "get", lambda _self, _rel: None)
            patch.setattr(KeptPages, "matched_rows", lambda _self, *_rows: iter(()))
        result = generate(site, config)
    return site, result, _outputs(site, result)


@pytest.mark.parametrize("workers", [1, 2])
def test_rebuild_with_kept_facts_equals_parsing_every_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sitemap_urls, workers: int
) -> None:
    """Every page is reused on a rebuild of the same bytes, and nothing written differs.

    With two workers the pool does the lookups (each worker its own connection).
    """
    # The package exports the function ``generate``, which hides the module of that name.
    monkeypatch.setattr(sys.modules["sitemap_plugins.generate"], "PARALLEL_THRESHOLD", 5)
    site, parsed, plain = _two_builds(tmp_path / "parsed", reuse=False,
                                      monkeypatch=monkeypatch, workers=workers)
    assert parsed.kept == 0
    plain_manifest = {table: _rows(_manifest(tmp_path / "parsed"), table)
                      for table in ("pages", "files")}
    site, kept, reused = _two_builds(tmp_path / "kept", reuse=True,
                                     monkeypatch=monkeypatch, workers=workers)
    assert reused == plain
    assert {table: _rows(_manifest(tmp_path / "kept"), table)
            for table in ("pages", "files")} == plain_manifest
    # Every HTML page that got as far as being read (not the 404s or the robots-blocked one).
    facts_rows = plain_manifest["files"]
    assert kept.kept == len(facts_rows) > 30
    assert len(facts_rows) <= len(_html_pages(site))
    assert sitemap_urls(site)


def test_a_changed_page_is_parsed_again(tmp_path: Path, sitemap_urls) -> None:
    """Only the page whose bytes changed is read afresh, and its change shows."""
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path)
    first = generate(site, config)
    assert first.kept == 0
    assert f"{BASE}guide/" in sitemap_urls(site)
    page = site / "guide" / "index.html"
    page.write_bytes(page.read_bytes().replace(
        b"<head>", b'<head><meta name="robots" content="noindex">', 1))
    second = generate(site, config)
    assert f"{BASE}guide/" not in sitemap_urls(site)
    assert second.kept == len(_rows(_manifest(tmp_path), "files")) - 1
    assert second.excluded["noindex"] == first.excluded["noindex"] + 1


@pytest.mark.parametrize("damage", [
    "UPDATE files SET facts = 'not json'",
    "UPDATE files SET facts = '[1, 2, 3]'",
    "UPDATE files SET facts = '[\"x\",null,[1],null,[],null,null,null,null,[]]'",
    "UPDATE files SET facts = '[\"x\",null,[],null,[\"en\"],null,null,null,null,[]]'",
    "UPDATE files SET facts = 7",
    "UPDATE files SET digest = 'text, not bytes'",
    "UPDATE meta SET value = 'another parser' WHERE key = 'parser'",
    "DROP TABLE files",
    "DELETE FROM meta WHERE key = 'parser'",
], ids=["not-json", "short", "robots-not-text", "pair-not-pair", "number", "digest-text",
        "other-parser", "no-table", "no-parser-key"])
def test_damaged_or_foreign_facts_are_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """Facts the manifest cannot vouch for cost a parse, never a wrong sitemap."""
    _, _, plain = _two_builds(tmp_path / "plain", reuse=False, monkeypatch=monkeypatch)
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path)
    generate(site, config)
    with sqlite3.connect(_manifest(tmp_path)) as connection:
        # Without kept results (see test_kept_results.py), so that the facts are needed.
        connection.execute("UPDATE files SET reason = NULL, xml = NULL")
        connection.execute(damage)
    result = generate(site, config)
    assert result.kept == 0
    assert _outputs(site, result) == plain
    # The lastmods the manifest holds still count (a manifest without facts is not "bad").
    assert not {d.code for d in result.diagnostics} & {"bad-manifest", "old-manifest"}
    assert result.changes is not None
    assert result.changes.baseline
    assert result.changes.changed_count == 0


def test_parser_key_follows_the_parsing_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edited parser gets another key, so its facts from before are not reused."""
    from sitemap_plugins import page_facts  # noqa: PLC0415

    before = page_facts.parser_key()
    folder = tmp_path / "package"
    folder.mkdir()
    for name in page_facts.PARSER_MODULES:
        shutil.copy(Path(page_facts.__file__).parent / name, folder / name)
    monkeypatch.setattr(page_facts, "__file__", str(folder / "page_facts.py"))
    page_facts.parser_key.cache_clear()
    try:
        assert page_facts.parser_key() == before
        with (folder / "fingerprint.py").open("a") as handle:
            handle.write("\n# an edit\n")
        page_facts.parser_key.cache_clear()
        assert page_facts.parser_key() != before
    finally:
        page_facts.parser_key.cache_clear()


_TEXT = st.text(max_size=12) | st.sampled_from(["\udc80", "a\ud800b", "é", "&amp;", "\n"])
_OPTIONAL = st.none() | _TEXT
_PAIRS = st.lists(st.tuples(_TEXT, _TEXT), max_size=3)


@settings(max_examples=300, deadline=None)
@given(canonical=_OPTIONAL, robots=st.sets(_TEXT, max_size=3), refresh=_OPTIONAL,
       alternates=_PAIRS, lang=_OPTIONAL, base=_OPTIONAL, modified=_OPTIONAL,
       published=_OPTIONAL, problems=_PAIRS, fingerprint=_TEXT)
def test_encoded_facts_decode_to_the_same_facts(
    canonical: str | None, robots: set[str], refresh: str | None,
    alternates: list[tuple[str, str]], lang: str | None, base: str | None,
    modified: str | None, published: str | None, problems: list[tuple[str, str]],
    fingerprint: str,
) -> None:
    """Every field survives the manifest, lone surrogates (undecodable bytes) included."""
    meta = PageMeta(canonical, robots, refresh, alternates, lang, base, modified, published,
                    problems)
    encoded = encode_facts(meta, fingerprint)
    assert encoded.isascii()  # an SQLite TEXT column takes it whatever the page held
    decoded = decode_facts(b"d", encoded)
    assert decoded == PageFacts(b"d", meta, fingerprint)
    assert decoded is not None
    assert decoded.encoded == encoded


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=11), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(value=_JSON)
def test_decoding_junk_gives_none_not_an_error(value: object) -> None:
    """Whatever a damaged row holds, decoding answers None or well-typed facts."""
    decoded = decode_facts(b"d", json.dumps(value))
    if decoded is not None:
        assert isinstance(decoded.fingerprint, str)
        assert all(isinstance(word, str) for word in decoded.meta.robots)
        assert all(len(pair) == 2 for pair in decoded.meta.alternates + decoded.meta.problems)


def test_read_facts_takes_the_candidate_of_the_same_bytes(tmp_path: Path) -> None:
    """Of a read-ahead fact and a kept one, the one whose digest matches the file wins."""
    page = tmp_path / "page.html"
    page.write_bytes(b"<html><head><title>t</title></head><body>now</body></html>")
    fresh = read_facts(str(page), fingerprint=True)
    stale = PageFacts(b"0" * 32, PageMeta(robots={"noindex"}), "old")
    same = PageFacts(fresh.digest, PageMeta(canonical="kept"), "kept")
    assert read_facts(str(page), fingerprint=True, known=(stale, same)) is same
    assert read_facts(str(page), fingerprint=True, known=(stale,)) == fresh
    assert fresh.encoded
    assert decode_facts(fresh.digest, fresh.encoded) == fresh


def _kept_file(path: Path, names: list[str]) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute(
            "CREATE TABLE files (path BLOB PRIMARY KEY, digest BLOB, facts TEXT, signature TEXT,"
            " hints TEXT, reason TEXT, url TEXT, fingerprint TEXT, lastmod TEXT, source TEXT,"
            " xml TEXT)")
        connection.executemany("INSERT INTO files VALUES (?, ?, ?, '', '', ?, NULL, NULL,"
                               " NULL, NULL, NULL)", [
            (name.encode("utf-8", "surrogatepass"), name.encode("utf-8", "surrogatepass"),
             encode_facts(PageMeta(), name), ascii(name)) for name in names])


_NAMES = st.lists(st.text(min_size=1, max_size=4) | st.sampled_from(["\udc80x", "a b&"]),
                  unique=True, max_size=40)


@settings(max_examples=200, deadline=None)
@given(kept=_NAMES, asked=st.data())
def test_kept_lookups_in_any_order_find_exactly_what_was_kept(
    tmp_path_factory: pytest.TempPathFactory, kept: list[str], asked: st.DataObject
) -> None:
    """Asked in scan order, out of order, with new and removed pages: always the kept row.

    The window is made tiny so the index fallback and the restarted pass are exercised.
    """
    path = tmp_path_factory.mktemp("kept") / "m.sqlite"
    _kept_file(path, kept)
    in_order = [name for name in kept if asked.draw(st.booleans())]
    new = asked.draw(st.lists(st.text(min_size=1, max_size=4), max_size=10))
    questions = in_order + new
    if asked.draw(st.booleans()):
        questions = asked.draw(st.permutations(questions))
    window = asked.draw(st.sampled_from([1, 2, 3, 4_096]))
    fetch = asked.draw(st.sampled_from([1, 2, 256]))
    lookup = KeptPages(path, results=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_module, "_WINDOW", window)
        patch.setattr(manifest_module, "_FETCH", fetch)
        for name in questions:
            page = lookup.get(name)
            if name in kept:
                assert page is not None
                facts = page.facts()
                assert facts is not None
                assert facts.fingerprint == name
                assert facts.digest == name.encode("utf-8", "surrogatepass")
                assert page.result == ascii(name)
            else:
                assert page is None
    lookup.close()


def test_a_manifest_that_fails_mid_read_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A manifest that breaks while it is read: a note, and the dates of a first build."""
    site = make_traps(tmp_path / "site")
    config = _config(tmp_path)
    first = generate(site, config)
    first_files = _outputs(site, first)[0]
    generate(site, config)

    def broken(_self: object, _key: object) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    def broken_rows(_self: object, *_rows: object) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(manifest_module.RowsInOrder, "get", broken)
    monkeypatch.setattr(manifest_module.KeptPages, "matched_rows", broken_rows)
    result = generate(site, config)
    assert "bad-manifest" in {d.code for d in result.diagnostics}
    assert result.kept == 0
    assert result.changes is not None
    assert not result.changes.baseline
    assert _outputs(site, result)[0] == first_files

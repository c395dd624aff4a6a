"""User data (#17): a build removes or writes over only the files it wrote itself.

* Files named like ours that a build did not write (an archived ``sitemap-2019.xml``, a
  ``sitemap-1.txt``) are never removed, whatever the options (property-based).
* A file standing where a build must write: another generator's sitemap of this site (known
  by what it is: a sitemaps.org urlset or index, or a text sitemap, of URLs under the base
  URL) is replaced with a warning naming the generator when it can tell; anything else stops
  the build with one line and is left byte for byte, unless ``replace_files``.
* Files of ours that an option change made obsolete (``sitemap_name``, ``text``, the base
  URL's path) are removed; a file the user wrote over since is not.
* A run killed between the record and the commit leaves files the next run still removes.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.cli import main
from sitemap_plugins.disk import owned
from sitemap_plugins.disk.history import record_path
from sitemap_plugins.disk.owned import foreign_sitemap, identify
from sitemap_plugins.entry.render import OWN
from sitemap_plugins.vocab.errors import ConfigError, SitemapError
from sitemap_plugins.vocab.options import own_file_pattern
from tests.foreign_sitemaps import FOREIGN, GENERATORS

BASE = "https://example.org/"
HUGO = (b'<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n'
        b'  xmlns:xhtml="http://www.w3.org/1999/xhtml">\n  <url>\n'
        b"    <loc>https://example.org/</loc>\n  </url>\n</urlset>\n")
HUGO_INDEX = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
              b"  <sitemap>\n    <loc>https://example.org/en/sitemap.xml</loc>\n"
              b"  </sitemap>\n</sitemapindex>\n")
PELICAN = (b'<?xml version="1.0" encoding="utf-8"?>\n'
           b'<urlset xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
           b'xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 '
           b'http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd"\n'
           b'xmlns:xhtml="http://www.w3.org/1999/xhtml"\n'
           b'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n\n<url>\n'
           b"<loc>https://example.org/</loc>\n</url>\n</urlset>")
HAND_WRITTEN = (b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset '
                b'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
                b"<url><loc>https://example.org/only-this/</loc></url>\n</urlset>\n")
OTHER_SITE = HAND_WRITTEN.replace(b"https://example.org/", b"https://example.com/")


def make_site(folder: Path, pages: int = 3) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text("<html><head><title>Home</title></head></html>")
    for i in range(1, pages):
        (folder / f"p{i}.html").write_text(f"<html><head><title>{i}</title></head></html>")
    return folder


def build(site: Path, **options: object) -> object:
    values: dict[str, object] = {"base_url": BASE, "cache_dir": str(site.parent / "cache")}
    values.update(options)
    return generate(site, SitemapConfig.from_mapping(values))


def cli(site: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["build", str(site), "--base-url", BASE,
                 "--cache-dir", str(site.parent / "cache"), *args])
    return code, capsys.readouterr().err


# --- files named like ours that no build wrote --------------------------------------------

_USER_NAMES = st.one_of(
    st.integers(1, 3000).map(lambda n: f"sitemap-{n}.xml"),
    st.integers(1, 3000).map(lambda n: f"sitemap-{n}.txt"),
    st.integers(1, 3000).map(lambda n: f"sitemap-{n}.xml.gz"),
    st.sampled_from(["sitemap-txt-index.xml", "sitemap-txt-index.xml.gz", "sitemap.txt.gz",
                     "old-sitemap.xml", "old.xml", "old-1.txt"]),
)
_USER_BYTES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from([HAND_WRITTEN, HUGO, PELICAN, b"https://example.org/archived/\n"]),
)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.dictionaries(_USER_NAMES, _USER_BYTES, min_size=1, max_size=6),
       options=st.fixed_dictionaries({
           "text": st.booleans(), "gzip": st.booleans(), "fingerprint": st.booleans(),
           "max_urls": st.sampled_from([3, 50_000]),
           "sitemap_name": st.sampled_from(["sitemap", "old"])}),
       pages=st.integers(1, 9))
def test_files_we_did_not_write_are_never_removed(
    tmp_path_factory: pytest.TempPathFactory, files: dict[str, bytes],
    options: dict[str, object], pages: int,
) -> None:
    """A user's files named like sitemap parts survive two builds (first and re-build),
    whatever the options, unless a build has to write that very name: then it stops, and
    the file is still there."""
    site = make_site(tmp_path_factory.mktemp("user") / "site", pages)
    for name, data in files.items():
        (site / name).write_bytes(data)
    generators = {name: identify(site / name)
                  or ("another" if foreign_sitemap(site / name, BASE) else None)
                  for name in files}
    ours = own_file_pattern(str(options["sitemap_name"]))
    for _ in range(2):
        try:
            build(site, **options)
        except SitemapError as err:
            message = str(err)
        else:
            message = ""
        assert message in ("", message.split(": ")[0] + ": is already in the site and was "
                           "not written by sitemap-plugins (nor is it a sitemap from Hugo, "
                           "MkDocs or pelican-sitemap): remove it, choose another "
                           "sitemap_name, or set replace_files to true to replace it")
        for name, data in files.items():
            now = (site / name).read_bytes() if (site / name).exists() else None
            if now != data:  # only another generator's sitemap where ours must go
                assert generators[name] not in (None, OWN), name
                assert ours.match(name), name
                assert name.endswith(".txt") or identify(site / name) == OWN, name


def test_first_build_keeps_archives(tmp_path: Path) -> None:
    """The issue's examples: sitemap-2019.xml and sitemap-1.txt stay after a first build and
    a rebuild that shrinks the site."""
    site = make_site(tmp_path / "site", 4)
    (site / "sitemap-2019.xml").write_bytes(HAND_WRITTEN)
    (site / "sitemap-1.txt").write_bytes(b"https://example.org/archived/\n")
    build(site)
    (site / "p3.html").unlink()
    build(site)
    assert (site / "sitemap-2019.xml").read_bytes() == HAND_WRITTEN
    assert (site / "sitemap-1.txt").read_bytes() == b"https://example.org/archived/\n"


# --- files standing where a build writes ---------------------------------------------------

_BOMB = (b'<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa">'
         + b"".join(b'<!ENTITY %c "%s">' % (98 + i, b"&%c;" % (97 + i) * 10) for i in range(9))
         + b']>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>'
         b"https://example.org/&j;</loc></url></urlset>\n")
_HUGE = HAND_WRITTEN.replace(b"</urlset>", b" " * 52_428_800 + b"</urlset>")


@pytest.mark.parametrize(("name", "data"), [
    ("sitemap.xml", OTHER_SITE), ("sitemap.txt", b"https://example.com/mine/\n"),
    ("sitemap.xml", b"not a sitemap at all"), ("sitemap.xml.gz", gzip.compress(OTHER_SITE)),
    ("sitemap.xml", b"<?xml version='1.0'?><html/>"),
    ("sitemap.xml", OTHER_SITE.replace(b"</urlset>", b"<url><loc>https://example.org/</loc>"
                                                     b"</url></urlset>")),
    ("sitemap.xml", b"<!DOCTYPE html><html><head><title>Site map</title></head></html>"),
    ("sitemap.xml", HAND_WRITTEN[:-12]), ("sitemap.xml", _BOMB),
    ("sitemap.xml.gz", gzip.compress(_HUGE, 1)), ("sitemap.xml", _HUGE),
    ("sitemap.txt", b"https://example.org/a/\n\nhttps://example.org/b/\n"), ("sitemap.txt", b""),
    ("sitemap.xml", b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>'),
], ids=["other-site-xml", "other-site-txt", "not-a-sitemap", "other-site-gz", "other-xml",
        "one-url-of-another-site", "html", "truncated", "xml-bomb", "gzip-bomb", "too-large",
        "txt-with-a-blank-line", "empty-txt", "empty-urlset"])
def test_a_foreign_file_stops_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes,
) -> None:
    """One line naming the file, exit 1, no traceback, and nothing written or changed."""
    site = make_site(tmp_path / "site")
    (site / name).write_bytes(data)
    before = sorted(os.listdir(site))
    code, err = cli(site, capsys)
    assert code == 1
    assert err.strip().splitlines() == [
        (f"error: {site / name}: is already in the site and was not written by sitemap-plugins "
        "(nor is it a sitemap from Hugo, MkDocs or pelican-sitemap): remove it, choose "
        "another sitemap_name, or set replace_files to true to replace it")]
    assert (site / name).read_bytes() == data
    assert sorted(os.listdir(site)) == before


def test_replace_files_replaces_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With --replace-files the hand-written file is replaced, and a note says so."""
    site = make_site(tmp_path / "site")
    (site / "sitemap.xml").write_bytes(HAND_WRITTEN)
    code, _ = cli(site, capsys, "--replace-files", "--verbose")
    assert code == 0
    assert identify(site / "sitemap.xml") == OWN


@pytest.mark.parametrize(("data", "who"), [
    (HUGO, "Hugo"), (HUGO_INDEX, "Hugo"), (PELICAN, "pelican-sitemap"),
    (gzip.compress(HUGO), "Hugo"), (HAND_WRITTEN, "another tool"),
    (gzip.compress(HAND_WRITTEN), "another tool"),
], ids=["hugo", "hugo-index", "pelican-sitemap", "hugo-gz", "same-site", "same-site-gz"])
def test_another_generators_sitemap_is_replaced_with_a_warning(
    tmp_path: Path, data: bytes, who: str,
) -> None:
    """Hugo's and pelican-sitemap's sitemaps are recognised by their bytes and replaced; any
    other sitemap of the site's own URLs by what it is."""
    site = make_site(tmp_path / "site")
    name = "sitemap.xml.gz" if data.startswith(b"\x1f\x8b") else "sitemap.xml"
    (site / name).write_bytes(data)
    result = build(site)
    assert identify(site / name) == OWN
    warnings = [(d.path, d.message) for d in result.warnings]  # type: ignore[attr-defined]
    assert (name, (f"was a sitemap written by {who}; replaced by this build's (turn that "
            "generator's sitemap off so that one tool owns the file)")) in warnings




@pytest.mark.parametrize(("folder", "name", "who"), GENERATORS, ids=lambda value: value if "/" not in value and " " not in value else "")
def test_another_tools_sitemap_is_replaced_by_what_it_is(
    tmp_path: Path, folder: str, name: str, who: str,
) -> None:
    """Real generators' sitemaps (tests/data/foreign_sitemaps: jekyll-sitemap, Eleventy's base
    blog, Zensical, Docusaurus, @astrojs/sitemap under sitemap_name sitemap-index, a Pelican
    DIRECT_TEMPLATES recipe) are replaced with a warning naming the generator the home page
    names; their .gz copy and a text sitemap of their URLs too. Other files stay as they are."""
    site = tmp_path / "site"
    shutil.copytree(FOREIGN / folder, site)
    (site / f"{name}.gz").write_bytes(gzip.compress((site / name).read_bytes()))
    text = name.replace(".xml", ".txt")
    (site / text).write_bytes(b"https://example.org/\r\nhttps://example.org/about/")
    kept = {p.name: p.read_bytes() for p in site.iterdir() if p.name not in (
        name, f"{name}.gz", text)}
    result = build(site, sitemap_name=name.removesuffix(".xml"))
    warnings = sorted((d.path, d.message) for d in result.warnings  # type: ignore[attr-defined]
                      if d.code == "replaced-sitemap")
    message = (f"was a sitemap written by {who}; replaced by this build's (turn that "
               "generator's sitemap off so that one tool owns the file)")
    assert warnings == [(n, message) for n in sorted([name, f"{name}.gz", text])]
    assert identify(site / name) == OWN
    assert (site / text).read_bytes() == b"https://example.org/\n"
    assert {n: (site / n).read_bytes() for n in kept} == kept


@pytest.mark.parametrize(("name", "data", "foreign"), [
    ("sitemap.xml", (b"<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'><url><loc>"
                     b"https://example.org/docs/../blog/</loc></url></urlset>"), False),
    ("sitemap.txt", b"https://example.org/docs/%2e%2e/blog/\n", False),
    ("sitemap.xml", (b"<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'><url><loc>"
                     b"https://EXAMPLE.org/docs/a/</loc></url></urlset>"), True),
], ids=["dot-dot-xml", "escaped-dot-dot-txt", "upper-case-host"])
def test_a_url_climbing_out_of_the_base_path_is_another_sites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes, foreign: bool,
) -> None:
    """Under a base URL with a path, a URL whose text starts with it but climbs out (the blog
    beside the docs) is not this site's: the file stays; a host in capitals is this site's."""
    site = make_site(tmp_path / "site")
    (site / name).write_bytes(data)
    code = main(["build", str(site), "--base-url", "https://example.org/docs/",
                 "--cache-dir", str(tmp_path / "cache")])
    capsys.readouterr()
    assert (code, (site / name).read_bytes() == data) == ((0, False) if foreign else (1, True))


@pytest.mark.parametrize(("name", "options"), [
    ("sitemap-2.xml", {"max_urls": 2}),
    ("sitemap-news.xml", {"news": {"name": "Daily", "language": "en"}}),
], ids=["numbered-part", "news"])
def test_another_tools_part_or_news_sitemap_is_replaced(
    tmp_path: Path, name: str, options: dict[str, object],
) -> None:
    """A numbered part and the news sitemap are known by what they are too."""
    site = make_site(tmp_path / "site")
    (site / name).write_bytes(HAND_WRITTEN.replace(b"<urlset ", b'<urlset xmlns:news='
                                                   b'"http://www.google.com/schemas/sitemap-news/0.9" '))
    result = build(site, **options)
    assert [d.path for d in result.warnings  # type: ignore[attr-defined]
            if d.code == "replaced-sitemap"] == [name]
    assert (site / name).read_bytes() != HAND_WRITTEN


def test_mkdocs_builtin_sitemap_is_replaced(tmp_path: Path) -> None:
    """A real MkDocs build without the plugin leaves sitemap.xml and .gz from its template;
    the command line recognises both and replaces them, warning twice."""
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "index.md").write_text("# Home\n")
    (project / "mkdocs.yml").write_text("site_name: T\nsite_url: https://example.org/\n")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=project, check=True)
    site = project / "site"
    assert identify(site / "sitemap.xml") == "MkDocs' built-in template"
    assert identify(site / "sitemap.xml.gz") == "MkDocs' built-in template"
    result = build(site)
    replaced = sorted(d.path for d in result.warnings  # type: ignore[attr-defined]
                      if d.code == "replaced-sitemap")
    assert replaced == ["sitemap.xml", "sitemap.xml.gz"]


@pytest.mark.parametrize(("name", "options"), [
    ("sitemap-news.xml", {"news": {"name": "Daily", "language": "en"}}),
    ("robots-sitemap.txt", {"robots_txt": "fragment"}),
], ids=["news", "fragment"])
def test_the_other_files_are_guarded_too(tmp_path: Path, name: str, options: dict) -> None:
    """The news sitemap and the fragment: a user's file there stops the build before any
    page is read; ours (the same bytes a build writes) is rewritten."""
    site = make_site(tmp_path / "site")
    (site / name).write_bytes(b"mine\n")
    with pytest.raises(SitemapError, match="was not written by sitemap-plugins"):
        build(site, **options)
    assert (site / name).read_bytes() == b"mine\n"
    assert not (site / "sitemap.xml").exists()
    (site / name).unlink()
    build(site, **options)
    build(site, **options)
    assert (site / name).is_file()


# --- our own files made obsolete ------------------------------------------------------------

def test_option_changes_remove_our_obsolete_files(tmp_path: Path) -> None:
    """A new sitemap_name, text off, a base URL without a path: the files the earlier builds
    wrote under the old options go; a file the user wrote over since stays."""
    site = make_site(tmp_path / "site", 7)
    build(site, max_urls=3)
    assert (site / "sitemap-3.xml").is_file()
    (site / "sitemap-2.txt").write_bytes(b"https://example.org/mine/\n")  # the user's now
    build(site, sitemap_name="map")
    names = sorted(os.listdir(site))
    assert [n for n in names if n.startswith("sitemap")] == ["sitemap-2.txt"]
    assert {"map.xml", "map.xml.gz", "map.txt"} <= set(names)
    build(site, sitemap_name="map", text=False)
    assert not (site / "map.txt").exists()
    build(site, sitemap_name="map", base_url=BASE + "docs/")
    assert (site / "robots-sitemap.txt").is_file()
    result = build(site, sitemap_name="map")
    assert not (site / "robots-sitemap.txt").exists()
    assert "robots-sitemap.txt" in result.removed  # type: ignore[attr-defined]


def test_text_off_leaves_a_users_sitemap_txt(tmp_path: Path) -> None:
    """text: false on a site whose sitemap.txt the tool never wrote: it stays."""
    site = make_site(tmp_path / "site")
    (site / "sitemap.txt").write_bytes(b"https://example.org/mine/\n")
    build(site, text=False)
    build(site, text=False)
    assert (site / "sitemap.txt").read_bytes() == b"https://example.org/mine/\n"


def test_without_a_record_our_parts_are_known_by_their_bytes(tmp_path: Path) -> None:
    """fingerprint off (no record): parts that our own index named, in our own format, are
    removed when the set shrinks; a text part no index of ours names stays."""
    site = make_site(tmp_path / "site", 7)
    build(site, max_urls=3, fingerprint=False)
    assert (site / "sitemap-3.xml").is_file()
    (site / "sitemap-7.txt").write_bytes(b"https://example.org/mine/\n")
    build(site, max_urls=50_000, fingerprint=False)
    names = sorted(n for n in os.listdir(site) if n.startswith("sitemap"))
    assert names == ["sitemap-7.txt", "sitemap.txt", "sitemap.xml", "sitemap.xml.gz"]
    assert (site / "sitemap-7.txt").read_bytes() == b"https://example.org/mine/\n"


@pytest.mark.parametrize("fingerprint", [True, False])
def test_another_base_url_rewrites_our_files(tmp_path: Path, fingerprint: bool) -> None:
    """A build under another base URL writes over the files of the one before (with or
    without a record), and removes its parts."""
    site = make_site(tmp_path / "site", 7)
    build(site, max_urls=3, fingerprint=fingerprint)
    build(site, base_url="https://other.example.org/", fingerprint=fingerprint)
    assert sorted(n for n in os.listdir(site) if n.startswith("sitemap")) == [
        "sitemap.txt", "sitemap.xml", "sitemap.xml.gz"]
    assert (site / "sitemap.txt").read_text().startswith("https://other.example.org/")


def test_upgrade_from_a_version_without_records(tmp_path: Path) -> None:
    """Files an earlier version wrote (same bytes, no record): rewritten without a word and,
    when stale, removed."""
    site = make_site(tmp_path / "site", 7)
    build(site, max_urls=3)
    for record in (tmp_path / "cache").glob("written-*.json"):
        record.unlink()
    result = build(site)
    assert not result.warnings  # type: ignore[attr-defined]
    assert not [n for n in os.listdir(site) if n.startswith("sitemap-") and "xml" in n]


def test_crash_between_record_and_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         ) -> None:
    """A run that dies after committing some parts (before the index) leaves parts the next
    run knows as its own from the record written before the commit, and removes."""
    site = make_site(tmp_path / "site", 7)
    build(site)
    real_commit = owned.commit
    calls = {"n": 0}

    def dying_commit(temp: Path, target: Path) -> None:
        calls["n"] += 1
        if calls["n"] > 4:  # a few parts in place, then the end
            raise KeyboardInterrupt
        real_commit(temp, target)

    monkeypatch.setattr(owned, "commit", dying_commit)
    with pytest.raises(KeyboardInterrupt):
        build(site, max_urls=3, gzip=False)
    monkeypatch.setattr(owned, "commit", real_commit)
    assert any(n.startswith("sitemap-") for n in os.listdir(site))
    build(site)
    assert sorted(n for n in os.listdir(site) if n.startswith("sitemap")) == [
        "sitemap.txt", "sitemap.xml", "sitemap.xml.gz"]


@pytest.mark.parametrize("record", [
    b"{", b"[]", json.dumps({"schema": "sitemap-plugins/written/1", "files": {
        "../outside.xml": ["0" * 64]}}).encode(),
    json.dumps({"schema": "sitemap-plugins/written/1", "files": {
        "sitemap-9.xml": ["not a digest"]}}).encode(),
], ids=["truncated", "not-a-record", "path-out", "bad-digest"])
def test_a_damaged_record_removes_nothing(tmp_path: Path, record: bytes) -> None:
    """A damaged record counts as none: a note, and no file is removed on its word."""
    site = make_site(tmp_path / "site", 7)
    build(site, max_urls=3)
    (tmp_path / "outside.xml").write_bytes(b"keep")
    record_path(tmp_path / "cache", site).write_bytes(record)
    (site / "sitemap-9.txt").write_bytes(b"https://example.org/mine/\n")
    result = build(site)
    assert "bad-written-record" in {d.code for d in result.diagnostics}  # type: ignore[attr-defined]
    assert (tmp_path / "outside.xml").read_bytes() == b"keep"
    assert (site / "sitemap-9.txt").read_bytes() == b"https://example.org/mine/\n"


# --- names that collide ---------------------------------------------------------------------

_NAMES = st.one_of(
    st.sampled_from(["robots", "Robots", "ROBOTS", "robots-sitemap", "Robots-Sitemap",
                     "sitemap", "map", "sitemap-news", "x", "sitemap-txt-index"]),
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,12}", fullmatch=True),
)
_KEYS = st.one_of(
    st.sampled_from(["sitemap", "Sitemap", "SITEMAP-2", "robots-sitemap", "ROBOTS",
                     "sitemap-news", "map-txt-index", "Map-1", "abcdefgh"]),
    st.from_regex(r"[A-Za-z0-9-]{8,20}", fullmatch=True),
)


def _files_of(config: SitemapConfig) -> list[str]:
    name = config.sitemap_name
    files = [f"{name}.xml", f"{name}.xml.gz", f"{name}.txt", f"{name}-1.xml", f"{name}-2.txt",
             f"{name}-txt-index.xml", f"{name}-news.xml", "robots.txt", "robots-sitemap.txt"]
    if config.indexnow_key:
        files.append(f"{config.indexnow_key}.txt")
    if config.html_sitemap:
        files.append(config.html_sitemap)
    return files


@settings(max_examples=400, deadline=None)
@given(name=_NAMES, key=st.none() | _KEYS,
       html=st.none() | st.sampled_from(["sitemap/", "sitemap.html", "robots.html", "map.htm"]))
def test_sitemap_name_never_collides(name: str, key: str | None, html: str | None) -> None:
    """Whatever sitemap_name, IndexNow key and HTML site map path: either the options are
    refused, or no two files the build writes share a name, even where case is ignored
    (macOS, Windows), and only robots.txt's Sitemap: line is written into robots.txt."""
    try:
        config = SitemapConfig.from_mapping({"base_url": BASE, "sitemap_name": name,
                                             "indexnow_key": key, "html_sitemap": html})
    except ConfigError:
        return
    ours = own_file_pattern(config.sitemap_name)
    files = _files_of(config)
    folded = [f.casefold() for f in files]
    # name-1.xml and name-2.txt are the family's; only the family's own members may repeat.
    assert len(set(folded)) == len(folded), files
    assert not ours.match("robots.txt")
    if key is not None:
        assert not re.compile(ours.pattern, re.IGNORECASE).match(f"{key}.txt"), key


# --- the same outcome on the three front-ends -------------------------------------------------

USER_TEXT = b"https://example.com/my-list-of-another-site/\n"


def _host_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH", "")) if p)
    env["NO_MKDOCS_2_WARNING"] = env["DISABLE_MKDOCS_2_WARNING"] = "1"
    env["GIT_CEILING_DIRECTORIES"] = "/"
    env["COLUMNS"] = "1000"  # Pelican wraps its log at the terminal width
    return env


def _mkdocs(project: Path, *, replace: bool) -> tuple[int, str, Path]:
    (project / "docs").mkdir(parents=True, exist_ok=True)
    (project / "docs" / "index.md").write_text("# Home\n")
    (project / "docs" / "sitemap.txt").write_bytes(USER_TEXT)  # copied by MkDocs as it is
    (project / "mkdocs.yml").write_text(
        "site_name: T\nsite_url: https://example.org/\nplugins:\n  - sitemap:\n"
        f"      replace_files: {'true' if replace else 'false'}\n")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build"], cwd=project,
                          env=_host_env(), capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr, project / "site"


def _pelican(project: Path, *, replace: bool) -> tuple[int, str, Path]:
    (project / "content").mkdir(parents=True, exist_ok=True)
    (project / "content" / "a.md").write_text("Title: A\nDate: 2024-01-02\n\nText.\n")
    (project / "content" / "sitemap.txt").write_bytes(USER_TEXT)  # a static file
    (project / "pelicanconf.py").write_text(
        'SITENAME = "T"\nSITEURL = "https://example.org"\nTIMEZONE = "UTC"\n'
        'PLUGINS = ["sitemap_plugins.pelican"]\nSTATIC_PATHS = ["sitemap.txt"]\n'
        f'SITEMAP_PLUGINS = {{"replace_files": {replace}}}\n')
    done = subprocess.run(
        [sys.executable, "-m", "pelican", "content", "-s", "pelicanconf.py", "-o", "out"],
        cwd=project, env=_host_env(), capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr, project / "out"


def _cli(project: Path, *, replace: bool) -> tuple[int, str, Path]:
    site = make_site(project / "site")
    (site / "sitemap.txt").write_bytes(USER_TEXT)
    done = subprocess.run(
        [sys.executable, "-m", "sitemap_plugins", "build", str(site), "--base-url", BASE,
         *(["--replace-files"] if replace else [])],
        env=_host_env(), capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr, site


@pytest.mark.integration
@pytest.mark.parametrize("front_end", [_cli, _mkdocs, _pelican], ids=["cli", "mkdocs", "pelican"])
@pytest.mark.parametrize("replace", [False, True], ids=["kept", "replace_files"])
def test_replace_files_on_every_front_end(tmp_path: Path, front_end, replace: bool) -> None:  # type: ignore[no-untyped-def]
    """A user's sitemap.txt in the built site (copied from the sources by the host): the
    build fails naming it and leaves it, or with replace_files replaces it: the same on the
    command line, in MkDocs and in Pelican."""
    code, log, site = front_end(tmp_path / "project", replace=replace)
    assert "Traceback" not in log
    if replace:
        assert code == 0, log
        assert (site / "sitemap.txt").read_bytes() != USER_TEXT
        assert (site / "sitemap.xml").is_file()
    else:
        assert code != 0, log
        assert (site / "sitemap.txt").read_bytes() == USER_TEXT
        assert ("sitemap.txt: is already in the site and was not written by sitemap-plugins"
                in log), log
        assert not (site / "sitemap.xml").exists()

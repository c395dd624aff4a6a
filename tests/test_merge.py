"""``sitemap-plugins merge``: one sitemap index over builds made separately below one root."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import hold, release, validate_sitemap_file
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sitemap_plugins.cli import main
from sitemap_plugins.entry.robots_txt import render_fragment
from sitemap_plugins.vocab.urls import encode_path

BASE = "https://example.org/"
SECTIONS = ("alpha", "beta", "gamma")


def page(title: str, modified: str | None = None) -> str:
    meta = f'<meta property="article:modified_time" content="{modified}">' if modified else ""
    return f"<!doctype html><html><head><title>{title}</title>{meta}</head><body>{title}</body></html>"


def write_pages(folder: Path, pages: dict[str, str]) -> None:
    for rel, html in pages.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, "utf-8")


def build_args(site: Path, base: str, cache: Path, *extra: str) -> list[str]:
    return ["-q", "build", str(site), "--base-url", base, "--cache-dir", str(cache), *extra]


def build(site: Path, base: str, cache: Path, *extra: str) -> None:
    assert main(build_args(site, base, cache, *extra)) == 0


def run(args: list[str], capsys) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    try:
        code = main(args)
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file below ``folder``: bytes and modification time in nanoseconds."""
    found: dict[str, tuple[bytes, int]] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            found[path.relative_to(folder).as_posix()] = (path.read_bytes(),
                                                          path.stat().st_mtime_ns)
    return found


@pytest.fixture
def sections(tmp_path: Path) -> Path:
    """Three sections built by three separate processes at once, then the root's own pages."""
    root = tmp_path / "public"
    for number, name in enumerate(SECTIONS):
        write_pages(root / name, {
            "index.html": page(f"{name} home", f"2024-0{number + 1}-10T08:00:00+00:00"),
            "guide/index.html": page(f"{name} guide", f"2024-0{number + 1}-20T08:00:00+00:00"),
            "a&b.html": page(f"{name} escaped"),
        })
    jobs = [subprocess.Popen(
        [sys.executable, "-m", "sitemap_plugins",
         *build_args(root / name, f"{BASE}{name}/", tmp_path / f"cache-{name}")])
        for name in SECTIONS]
    assert [job.wait(timeout=120) for job in jobs] == [0, 0, 0]
    write_pages(root, {"index.html": page("home", "2023-12-01"), "about/index.html": page("about")})
    (root / "robots.txt").write_bytes(
        b"User-agent: *\r\nDisallow: /private/\r\n\r\nSitemap: https://example.org/beta/sitemap.xml"
        b"\r\n# keep me\r\n")
    build(root, BASE, tmp_path / "cache-root", *[f"--exclude={name}/**" for name in SECTIONS])
    return root


def test_three_parallel_sections_and_the_root(sections: Path, xsd, capsys) -> None:
    """The index names the root's own urlset (moved to a part name) and each section's sitemap."""
    code, out, err = run(["merge", str(sections), "--base-url", BASE], capsys)
    assert code == 0, err
    kind, locs = validate_sitemap_file(sections / "sitemap.xml", xsd)
    assert kind == "sitemapindex"
    assert locs == [f"{BASE}sitemap-root.xml"] + [f"{BASE}{n}/sitemap.xml" for n in SECTIONS]
    assert validate_sitemap_file(sections / "sitemap-root.xml", xsd) == (
        "urlset", [BASE, f"{BASE}about/"])
    for name in SECTIONS:
        kind, urls = validate_sitemap_file(sections / name / "sitemap.xml", xsd)
        assert kind == "urlset"
        assert len(urls) == 3
        assert all(url.startswith(f"{BASE}{name}/") for url in urls)
    assert out.startswith("Merged 4 builds ((root), alpha/, beta/, gamma/): 4 sitemaps, 11 URLs")


def test_index_lastmod_is_the_newest_inside_each_child(sections: Path, capsys) -> None:
    """Each <sitemap> carries the newest lastmod of the URLs in that file, as written there."""
    assert run(["merge", str(sections), "--base-url", BASE], capsys)[0] == 0
    index = (sections / "sitemap.xml").read_text("utf-8")
    assert "<lastmod>2024-01-20T08:00:00Z</lastmod>" in index
    assert "<lastmod>2024-03-20T08:00:00Z</lastmod>" in index
    assert "<lastmod>2023-12-01</lastmod>" in index


def test_robots_txt_names_the_index_not_the_children(sections: Path, capsys) -> None:
    """robots.txt: the children's lines go, the index line is added, every other byte stays."""
    assert run(["merge", str(sections), "--base-url", BASE], capsys)[0] == 0
    assert (sections / "robots.txt").read_bytes() == (
        b"User-agent: *\r\nDisallow: /private/\r\n\r\n# keep me\r\n"
        b"\r\nSitemap: https://example.org/sitemap.xml\r\n")


def test_second_merge_writes_nothing(sections: Path, capsys) -> None:
    """A second merge with nothing changed leaves every byte and every time stamp as it was."""
    assert run(["merge", str(sections), "--base-url", BASE], capsys)[0] == 0
    before = snapshot(sections)
    code, out, _ = run(["merge", str(sections), "--base-url", BASE], capsys)
    assert code == 0
    assert snapshot(sections) == before
    assert "Wrote: nothing" in out


def test_rebuilt_root_is_merged_again(sections: Path, tmp_path: Path, xsd, capsys) -> None:
    """After the root is built again (its urlset back at sitemap.xml), a merge moves it again."""
    assert run(["merge", str(sections), "--base-url", BASE], capsys)[0] == 0
    first = validate_sitemap_file(sections / "sitemap.xml", xsd)
    write_pages(sections, {"new/index.html": page("new")})
    build(sections, BASE, tmp_path / "cache-root", *[f"--exclude={n}/**" for n in SECTIONS])
    assert validate_sitemap_file(sections / "sitemap.xml", xsd)[0] == "urlset"
    assert run(["merge", str(sections), "--base-url", BASE], capsys)[0] == 0
    assert validate_sitemap_file(sections / "sitemap.xml", xsd) == first
    assert f"{BASE}new/".encode() in (sections / "sitemap-root.xml").read_bytes()


def test_url_in_two_builds_is_an_error_naming_both(sections: Path, tmp_path: Path,
                                                   capsys) -> None:
    """The root build listing a section's page: exit 1, both files named, nothing written."""
    build(sections, BASE, tmp_path / "cache-root",
          *[f"--exclude={n}/**" for n in SECTIONS if n != "beta"])
    before = snapshot(sections)
    code, _, err = run(["merge", str(sections), "--base-url", BASE], capsys)
    assert code == 1
    assert (f"error: {BASE}beta/guide/ is listed by two builds: sitemap.xml (the root) and "
            "beta/sitemap.xml (beta/)") in err
    assert "Traceback" not in err
    assert snapshot(sections) == before


def test_build_made_for_another_folder_is_an_error(tmp_path: Path, capsys) -> None:
    """A section built for another URL than its folder's: one line naming the right base URL."""
    root = tmp_path / "public"
    write_pages(root / "docs", {"index.html": page("docs")})
    build(root / "docs", f"{BASE}manual/", tmp_path / "cache")
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 1
    assert err.splitlines()[0] == (
        f"error: docs/: built for {BASE}manual/, but below {BASE} this folder is served at "
        f"{BASE}docs/; build it again with base_url {BASE}docs/")
    assert not (root / "sitemap.xml").exists()


def test_url_outside_its_folder_is_an_error(tmp_path: Path, capsys) -> None:
    """A child sitemap listing a URL outside its folder: exit 1, the count and the first URL."""
    root = tmp_path / "public"
    write_pages(root / "docs", {"index.html": page("docs")})
    build(root / "docs", f"{BASE}docs/", tmp_path / "cache")
    sitemap = root / "docs" / "sitemap.xml"
    sitemap.write_text(sitemap.read_text("utf-8").replace(
        "</urlset>", f"  <url>\n    <loc>{BASE}elsewhere/</loc>\n  </url>\n</urlset>"), "utf-8")
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 1
    assert (f"error: docs/sitemap.xml: 1 URL outside {BASE}docs/, the folder this sitemap covers "
            f"(first: {BASE}elsewhere/)") in err


def test_foreign_sitemaps_are_left_out_with_a_note(tmp_path: Path, capsys) -> None:
    """A folder whose sitemap another tool wrote is reported and left out; the rest is merged."""
    root = tmp_path / "public"
    write_pages(root / "docs", {"index.html": page("docs")})
    build(root / "docs", f"{BASE}docs/", tmp_path / "cache")
    write_pages(root / "old", {"index.html": page("old"), "sitemap.xml": (
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
        'schemas/sitemap/0.9">\n    <url>\n         <loc>https://example.org/latest/</loc>\n'
        '    </url>\n</urlset>')})
    code, out, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 0
    assert "warning: 'old/': has a sitemap that sitemap-plugins did not write" in err
    assert f"{BASE}docs/sitemap.xml" in (root / "sitemap.xml").read_text("utf-8")
    assert "old/" not in (root / "sitemap.xml").read_text("utf-8")
    assert "Merged 1 build (docs/)" in out


def test_many_children_split_into_several_root_indexes(tmp_path: Path, xsd, capsys) -> None:
    """Past max_urls entries: several root indexes (none nested), all named in robots.txt."""
    root = tmp_path / "public"
    names = [f"s{number}" for number in range(5)]
    for name in names:
        write_pages(root / name, {"index.html": page(name)})
        build(root / name, f"{BASE}{name}/", tmp_path / f"cache-{name}")
    (root / "robots.txt").write_bytes(b"User-agent: *\nDisallow:\n")
    code, _, err = run(["merge", str(root), "--base-url", BASE, "--max-urls", "2"], capsys)
    assert code == 0, err
    indexes = ["sitemap.xml", "sitemap-index-2.xml", "sitemap-index-3.xml"]
    named: list[str] = []
    for name in indexes:
        kind, locs = validate_sitemap_file(root / name, xsd)
        assert kind == "sitemapindex"
        assert len(locs) <= 2
        named.extend(locs)
    assert named == [f"{BASE}{n}/sitemap.xml" for n in names]
    assert (root / "robots.txt").read_bytes() == b"User-agent: *\nDisallow:\n\n" + b"".join(
        f"Sitemap: {BASE}{n}\n".encode() for n in indexes)
    # Fewer children per index later: the extra indexes and their lines go.
    code, out, _ = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 0
    assert not (root / "sitemap-index-2.xml").exists()
    assert not (root / "sitemap-index-3.xml.gz").exists()
    assert "Removed stale: sitemap-index-2.xml" in out
    assert (root / "robots.txt").read_bytes() == (
        b"User-agent: *\nDisallow:\n\nSitemap: https://example.org/sitemap.xml\n")


def test_split_child_parts_are_named_directly(tmp_path: Path, xsd, capsys) -> None:
    """A child whose own sitemap is an index: the root index names its parts (no nesting)."""
    root = tmp_path / "public"
    write_pages(root / "big", {f"p{n}.html": page(f"p{n}") for n in range(7)})
    build(root / "big", f"{BASE}big/", tmp_path / "cache", "--max-urls", "3")
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 0, err
    _kind, locs = validate_sitemap_file(root / "sitemap.xml", xsd)
    assert locs == [f"{BASE}big/sitemap-{n}.xml" for n in (1, 2, 3)]
    for loc in locs:
        assert validate_sitemap_file(root / "big" / loc.rsplit("/", 1)[1], xsd)[0] == "urlset"
    code, out, _ = run(["check", str(root), "--base-url", BASE], capsys)
    assert (code, out) == (0, "Checked 7 URLs: no problems\n")


def test_root_below_the_host_root_writes_a_fragment(tmp_path: Path, capsys) -> None:
    """A root with a path (GitHub project pages): the index lines go into robots-sitemap.txt."""
    root = tmp_path / "public"
    base = "https://example.org/project/"
    write_pages(root / "v1", {"index.html": page("v1")})
    build(root / "v1", f"{base}v1/", tmp_path / "cache")
    assert run(["merge", str(root), "--base-url", base], capsys)[0] == 0
    assert (root / "robots-sitemap.txt").read_text("ascii") == (
        "# Add this line to the robots.txt at https://example.org/robots.txt:\n"
        "# crawlers read robots.txt only at the root of a host.\n"
        f"Sitemap: {base}sitemap.xml\n")


# -- mike --------------------------------------------------------------------------------------


@pytest.fixture
def mike_root(tmp_path: Path) -> Path:
    """A gh-pages tree as mike leaves it: versions.json, two versions, a latest symlink."""
    root = tmp_path / "gh-pages"
    for version in ("1.0", "2.0"):
        write_pages(root / version, {"index.html": page(version),
                                     "guide/index.html": page(f"{version} guide")})
        build(root / version, f"{BASE}{version}/", tmp_path / f"cache-{version}")
    (root / "latest").symlink_to("2.0")
    (root / "versions.json").write_text(json.dumps([
        {"version": "2.0", "title": "2.0", "aliases": ["latest"]},
        {"version": "1.0", "title": "1.0", "aliases": []}]), "utf-8")
    return root


def test_mike_offers_only_latest_by_default(mike_root: Path, capsys) -> None:
    """versions.json: only the version the latest alias points to; the others keep theirs."""
    old = (mike_root / "1.0" / "sitemap.xml").read_bytes()
    code, out, _ = run(["merge", str(mike_root), "--base-url", BASE], capsys)
    assert code == 0
    index = (mike_root / "sitemap.xml").read_text("utf-8")
    assert f"<loc>{BASE}2.0/sitemap.xml</loc>" in index
    assert "/1.0/" not in index
    assert "latest" not in index
    assert (mike_root / "1.0" / "sitemap.xml").read_bytes() == old
    assert "Not offered to crawlers (other versions, own sitemaps kept): 1.0" in out


@pytest.mark.parametrize(("versions", "offered"), [
    (["*"], ["1.0", "2.0"]), (["1.0"], ["1.0"]), (["1.*", "latest"], ["1.0", "2.0"]),
], ids=["all", "one-by-name", "glob-and-alias"])
def test_mike_versions_option(mike_root: Path, capsys, versions: list[str],
                              offered: list[str]) -> None:
    """--versions takes names, aliases and globs; the index follows it."""
    args = [arg for version in versions for arg in ("--versions", version)]
    assert run(["merge", str(mike_root), "--base-url", BASE, *args], capsys)[0] == 0
    index = (mike_root / "sitemap.xml").read_text("utf-8")
    assert [v for v in ("1.0", "2.0") if f"{BASE}{v}/sitemap.xml" in index] == offered


@pytest.mark.parametrize(("args", "versions", "line"), [
    (["--versions", "3.0"], None,
     ("error: --versions: Expected versions or aliases of versions.json (2.0 (latest), 1.0) but "
     "received: '3.0'")),
    ([], [{"version": "2.0", "title": "2.0", "aliases": ["stable"]}],
     ("error: --versions: No version in versions.json has the alias 'latest'; name the versions "
     "to offer to crawlers with --versions (known: 2.0 (stable))")),
    ([], {"version": "2.0"},
     ("error: versions.json: is not mike's list of versions (expected a list of objects with "
     "'version' and 'aliases')")),
    (["--versions", "a/b"], None,
     ("error: --versions: Item 0: expected a version, an alias or a glob such as '2.*' but "
     "received: 'a/b' (str)")),
], ids=["unknown-version", "no-latest", "bad-versions-json", "bad-value"])
def test_mike_bad_input(mike_root: Path, capsys, args: list[str], versions: object,
                        line: str) -> None:
    """Bad versions or versions.json: one line, exit 2 (usage) or 1 (input), nothing written."""
    if versions is not None:
        (mike_root / "versions.json").write_text(json.dumps(versions), "utf-8")
    code, _, err = run(["merge", str(mike_root), "--base-url", BASE, *args], capsys)
    assert err.splitlines()[0] == line
    assert code == (1 if "versions.json:" in line.split("--versions", maxsplit=1)[0] else 2)
    assert "Traceback" not in err
    assert not (mike_root / "sitemap.xml").exists()


def test_missing_root_is_one_line(tmp_path: Path, capsys) -> None:
    """A ROOT that does not exist: exit 1 and one line."""
    code, _, err = run(["merge", str(tmp_path / "nope"), "--base-url", BASE], capsys)
    assert code == 1
    assert err == f"error: {tmp_path / 'nope'}: is not a folder (build the sites first?)\n"


def test_merge_reads_only_sitemap_files(sections: Path) -> None:
    """A merge opens the builds' sitemaps, fragments and robots.txt: never a page."""
    script = (
        "import sys\n"
        "opened = []\n"
        "sys.addaudithook(lambda e, a: opened.append(str(a[0])) if e == 'open' and "
        f"str(a[0]).startswith({str(sections)!r}) else None)\n"
        "from sitemap_plugins.cli import main\n"
        f"code = main(['-q', 'merge', {str(sections)!r}, '--base-url', {BASE!r}])\n"
        "print('\\n'.join(sorted(set(opened))))\n"
        "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, env={**os.environ})
    assert done.returncode == 0, done.stderr
    paths = [Path(p) for p in done.stdout.split()]
    # No folder is opened; each section is locked while it is read, by its lock file in the
    # cache folder beside it (never in the section).
    assert not {p for p in paths if p.is_dir()}
    locks = {p for p in paths if p.suffix == ".lock"}
    assert {p.parent for p in locks} == {sections / ".sitemap-cache"}
    assert len(locks) == len(SECTIONS)
    opened = {p.name for p in paths if not p.is_dir() and p not in locks}
    assert opened, "the audit hook saw nothing"
    assert not {name for name in opened if name.endswith(".html")}
    assert opened <= {"sitemap.xml", "robots-sitemap.txt", "robots.txt", "versions.json",
                      "sitemap-root.xml", "sitemap-root.xml.gz", "sitemap.xml.gz"} | {
        name for name in opened if name.startswith(".sitemap-plugins-tmp-")}


def test_check_validates_the_tree_through_the_root_index(sections: Path, capsys) -> None:
    """``check ROOT`` follows the root index into every build's sitemap: all URLs, no problem."""
    assert run(["merge", str(sections), "--base-url", BASE], capsys)[0] == 0
    code, out, _ = run(["check", str(sections), "--base-url", BASE], capsys)
    assert (code, out) == (0, "Checked 11 URLs: no problems\n")


def test_check_finds_a_child_url_outside_its_folder(sections: Path, capsys) -> None:
    """A child sitemap changed after the merge to list another folder's page: check says so."""
    assert run(["merge", str(sections), "--base-url", BASE], capsys)[0] == 0
    child = sections / "alpha" / "sitemap.xml"
    child.write_bytes(child.read_bytes().replace(b"/alpha/guide/", b"/beta/guide/"))
    (sections / "alpha" / "sitemap.xml.gz").unlink()
    code, _, out = run(["check", str(sections), "--base-url", BASE], capsys)  # stderr
    assert code == 1
    assert (f"alpha/sitemap.xml: <url> #3 ({BASE}beta/guide/): URL '{BASE}beta/guide/' is not "
            f"under '{BASE}alpha/', the folder of this sitemap") in out
    assert (f"beta/sitemap.xml: <url> #3 ({BASE}beta/guide/): duplicate URL, also in "
            "alpha/sitemap.xml") in out


# -- any tree -----------------------------------------------------------------------------------

_URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
           'schemas/sitemap/0.9">\n{}</urlset>\n')
_INDEX = ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/'
          'schemas/sitemap/0.9">\n{}</sitemapindex>\n')


def _sitemap_text(kind: str, folder: str) -> bytes:
    own = f"{BASE}{folder}/" if folder else BASE
    text = {
        "in-scope": _URLSET.format(f"<url><loc>{own}a/</loc><lastmod>2024-01-02</lastmod></url>"),
        "out-of-scope": _URLSET.format(f"<url><loc>{BASE}elsewhere/</loc></url>"),
        "empty-urlset": _URLSET.format(""),
        "index-of-parts": _INDEX.format(f"<sitemap><loc>{own}sitemap-1.xml</loc></sitemap>"),
        "index-elsewhere": _INDEX.format("<sitemap><loc>https://other.example/x.xml</loc>"
                                         "</sitemap>"),
        "not-xml": "<urlset",
        "other-root": "<?xml version='1.0'?><rss/>",
        "bad-date": _URLSET.format(f"<url><loc>{own}b/</loc><lastmod>yesterday</lastmod></url>"),
    }[kind]
    return text.encode()


_KINDS = st.sampled_from(["in-scope", "out-of-scope", "empty-urlset", "index-of-parts",
                          "index-elsewhere", "not-xml", "other-root", "bad-date", "none"])
_FRAGMENTS = st.sampled_from(["ours", "other-url", "foreign", "none"])
_TREES = st.lists(st.tuples(st.sampled_from(["a", "b", "a/c", "v1", "latest", ".hidden", "x y"]),
                            _KINDS, _FRAGMENTS), max_size=5)


@settings(max_examples=int(os.environ.get("MERGE_EXAMPLES", "40")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(tree=_TREES, root_kind=_KINDS,
       versions=st.sampled_from([None, "valid", "garbage", "not-a-list"]),
       robots=st.sampled_from([None, b"User-agent: *\r\nDisallow:", b"\xef\xbb\xbfSitemap: x\n"]))
def test_any_tree(xsd, tree, root_kind, versions, robots) -> None:
    """Any tree of builds, foreign files and bad sitemaps: exit 0, 1 or 2 and never a traceback;
    on success the index validates, names existing files, and a second merge writes nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        for folder, kind, fragment in tree:
            path = root / folder
            path.mkdir(parents=True, exist_ok=True)
            if kind != "none":
                (path / "sitemap.xml").write_bytes(_sitemap_text(kind, folder))
                (path / "sitemap-1.xml").write_bytes(_sitemap_text("in-scope", folder))
            if fragment != "none":
                url = (f"{BASE}{encode_path(folder)}/sitemap.xml" if fragment == "ours"
                       else f"{BASE}other/sitemap.xml")
                (path / "robots-sitemap.txt").write_bytes(
                    render_fragment(url, BASE) if fragment != "foreign" else b"Sitemap: x\n")
        if root_kind != "none":
            (root / "sitemap.xml").write_bytes(_sitemap_text(root_kind, ""))
            (root / "sitemap-1.xml").write_bytes(_sitemap_text("in-scope", ""))
        if versions is not None:
            (root / "versions.json").write_text({
                "valid": '[{"version": "v1", "title": "v1", "aliases": ["latest"]}]',
                "garbage": "{", "not-a-list": '{"version": "v1"}'}[versions])
        if robots is not None:
            (root / "robots.txt").write_bytes(robots)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["merge", str(root), "--base-url", BASE])
        assert code in (0, 1, 2)
        assert "Traceback" not in err.getvalue()
        if code != 0:
            assert err.getvalue().startswith("error: "), err.getvalue()
            return
        kind, locs = validate_sitemap_file(root / "sitemap.xml", xsd)
        assert kind == "sitemapindex"
        for loc in locs:
            assert (root / loc[len(BASE):]).is_file(), loc
        if robots is not None:  # names no build: only appended to
            assert (root / "robots.txt").read_bytes().startswith(robots)
        event("merged")
        before = snapshot(root)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main(["merge", str(root), "--base-url", BASE]) == 0
        assert snapshot(root) == before


def test_mike_alias_copies_are_not_read(mike_root: Path, capsys) -> None:
    """alias_type copy: latest/ holds 2.0's files (its sitemap lists 2.0/ URLs); it is skipped."""
    (mike_root / "latest").unlink()
    subprocess.run(["cp", "-r", str(mike_root / "2.0"), str(mike_root / "latest")], check=True)
    code, _, err = run(["merge", str(mike_root), "--base-url", BASE, "--versions", "*"], capsys)
    assert code == 0, err
    index = (mike_root / "sitemap.xml").read_text("utf-8")
    assert "latest" not in index
    assert index.count("<sitemap>") == 2


def test_mike_offered_version_without_our_sitemap(mike_root: Path, capsys) -> None:
    """The version to offer was built without the plugin: exit 1, and what to do."""
    (mike_root / "2.0" / "robots-sitemap.txt").unlink()
    code, _, err = run(["merge", str(mike_root), "--base-url", BASE], capsys)
    assert code == 1
    assert ("error: 2.0/: version 2.0 is to be offered, but no sitemap written by "
            "sitemap-plugins is there (no robots-sitemap.txt naming one); build it with the "
            "plugin, or choose other --versions") in err


def test_split_root_pages_are_named_directly(tmp_path: Path, xsd, capsys) -> None:
    """The root's own sitemap split into parts: the root index names the parts, merge after
    merge (the index replaced the root build's index, and is read as the root's next time)."""
    root = tmp_path / "public"
    write_pages(root, {f"p{n}.html": page(f"p{n}") for n in range(5)})
    write_pages(root / "docs", {"index.html": page("docs")})
    build(root / "docs", f"{BASE}docs/", tmp_path / "cache-docs")
    build(root, BASE, tmp_path / "cache-root", "--max-urls", "3", "--exclude", "docs/**")
    assert run(["merge", str(root), "--base-url", BASE], capsys)[0] == 0
    expected = ("sitemapindex", [f"{BASE}sitemap-1.xml", f"{BASE}sitemap-2.xml",
                                 f"{BASE}docs/sitemap.xml"])
    assert validate_sitemap_file(root / "sitemap.xml", xsd) == expected
    before = snapshot(root)
    assert run(["merge", str(root), "--base-url", BASE], capsys)[0] == 0
    assert snapshot(root) == before
    code, out, _ = run(["check", str(root), "--base-url", BASE], capsys)
    assert (code, out) == (0, "Checked 6 URLs: no problems\n")


def test_foreign_root_index_is_not_replaced(tmp_path: Path, capsys) -> None:
    """A hand-made index at the root naming other files: exit 1, and the file is kept."""
    root = tmp_path / "public"
    write_pages(root / "docs", {"index.html": page("docs")})
    build(root / "docs", f"{BASE}docs/", tmp_path / "cache-docs")
    own = (f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org'
           f'/schemas/sitemap/0.9"><sitemap><loc>{BASE}posts.xml</loc></sitemap></sitemapindex>')
    (root / "sitemap.xml").write_text(own, "utf-8")
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 1
    assert err.splitlines()[0] == (
        f"error: sitemap.xml: names {BASE}posts.xml, which is not a file that sitemap-plugins "
        "writes; the root index replaces this file, so move it away first")
    assert (root / "sitemap.xml").read_text("utf-8") == own


def test_root_listing_many_build_pages_stays_bounded(sections: Path, tmp_path: Path, capsys,
                                                     monkeypatch) -> None:
    """Past MAX_CLAIMED root URLs inside builds' folders: one problem, memory stays bounded."""

    monkeypatch.setattr("sitemap_plugins.products.merge.builds.MAX_CLAIMED", 2)
    build(sections, BASE, tmp_path / "cache-root")  # no folder excluded: lists every section
    code, _, err = run(["merge", str(sections), "--base-url", BASE], capsys)
    assert code == 1
    assert ("error: sitemap.xml (the root): lists more than 2 URLs in the folders of other "
            "builds; build the root's own pages with those folders excluded") in err



@pytest.mark.skipif(sys.platform == "win32", reason="the folder lock is POSIX flock")
@pytest.mark.parametrize("held", ["", "beta"], ids=["root-being-built", "section-being-built"])
def test_a_merge_waits_for_a_build_in_progress(sections: Path, capsys, monkeypatch,
                                               held: str) -> None:
    """A build of the root or of a section holds its folder: the merge waits for it, then
    fails in one line and writes nothing (it would have read one build's index with another's
    parts, or removed the root build's temporary files). Once the build is done it runs."""

    monkeypatch.setattr("sitemap_plugins.disk.locks.WAIT_SECONDS", 0.5)
    before = snapshot(sections)
    holder = hold(sections / held, 30)
    try:
        code, _, err = run(["merge", str(sections), "--base-url", BASE], capsys)
        assert code != 0
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1, err
        assert "still running after" in lines[0]
        assert "Traceback" not in err
        assert snapshot(sections) == before
    finally:
        release(holder, kill=True)
    code, _, err = run(["merge", str(sections), "--base-url", BASE], capsys)
    assert code == 0, err

"""``merge`` and ``check`` under hostile input: nested versions.json, dot segments."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sitemap_plugins.cli import main
from sitemap_plugins.vocab.urls import is_under, without_dot_segments

BASE = "https://example.org/"


def page(title: str) -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{title}</body></html>"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def build(site: Path, base: str, cache: Path) -> None:
    assert main(["-q", "build", str(site), "--base-url", base, "--cache-dir", str(cache)]) == 0


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Two builds below one root: blog/ and docs/, each with its own sitemap."""
    root = tmp_path / "public"
    for name in ("blog", "docs"):
        (root / name).mkdir(parents=True)
        (root / name / "index.html").write_text(page(name), "utf-8")
        (root / name / "page.html").write_text(page(f"{name} page"), "utf-8")
        build(root / name, f"{BASE}{name}/", tmp_path / f"cache-{name}")
    return root


# --- versions.json nested deep ---------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 50_000 + "1" + "}" * 50_000,
    "[" * 100_000,
], ids=["arrays", "objects", "unclosed"])
def test_a_deeply_nested_versions_json_is_one_line(tmp_path: Path, text: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """versions.json nested far beyond the recursion limit: one line, exit 1, nothing written."""
    root = tmp_path / "gh-pages"
    (root / "1.0").mkdir(parents=True)
    (root / "1.0" / "index.html").write_text(page("1.0"), "utf-8")
    build(root / "1.0", f"{BASE}1.0/", tmp_path / "cache")
    (root / "versions.json").write_text(text, "utf-8")
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 1
    assert err.splitlines()[0] == ("error: versions.json: is not mike's list of versions "
                                   "(expected a list of objects with 'version' and 'aliases')")
    assert "Traceback" not in err
    assert not (root / "sitemap.xml").exists()


# --- dot segments ----------------------------------------------------------------------------


@pytest.mark.parametrize(("url", "normal"), [
    (f"{BASE}blog/../docs/", f"{BASE}docs/"),
    (f"{BASE}blog/%2e%2e/admin/", f"{BASE}admin/"),
    (f"{BASE}blog/%2E%2e/admin/", f"{BASE}admin/"),
    (f"{BASE}blog/.%2E/admin/", f"{BASE}admin/"),
    (f"{BASE}blog/./x/../../docs", f"{BASE}docs"),
    (f"{BASE}blog/..", f"{BASE}"),
    (f"{BASE}blog/%2e/", f"{BASE}blog/"),
    (f"{BASE}../../etc/", f"{BASE}etc/"),
    (f"{BASE}blog/..x/", f"{BASE}blog/..x/"),
    (f"{BASE}blog/.well-known/", f"{BASE}blog/.well-known/"),
    (f"{BASE}blog/?next=/../admin", f"{BASE}blog/?next=/../admin"),
    (f"{BASE}blog/%2e%2e%2fadmin/", f"{BASE}blog/%2e%2e%2fadmin/"),
], ids=["dots", "escaped", "mixed-case", "half-escaped", "nested", "trailing", "single",
        "above-root", "dots-in-name", "dotfile", "query-kept", "escaped-slash-is-a-name"])
def test_dot_segments_are_removed_before_a_scope_is_compared(url: str, normal: str) -> None:
    """RFC 3986 remove_dot_segments, '%2e' read as '.'; the query and names are left alone.

    The scope test goes further (:func:`test_every_spelling_of_a_url_has_one_scope_form`):
    an escaped slash climbs out there, as nginx serves it.
    """
    assert without_dot_segments(url) == normal
    inside = normal.startswith(f"{BASE}blog/") and "%2f" not in url.lower()
    assert is_under(url, f"{BASE}blog/") == inside


@pytest.mark.parametrize(("url", "normal"), [
    (f"{BASE}blog/..;/docs/", f"{BASE}docs/"),
    (f"{BASE}blog/.%2e;jsessionid=1/docs/", f"{BASE}docs/"),
    (f"{BASE}blog/..\\docs/", f"{BASE}docs/"),
    (f"{BASE}blog/%2e%2e\\admin/", f"{BASE}admin/"),
    (f"{BASE}blog\\..\\docs/", f"{BASE}docs/"),
    (f"{BASE}blog//../../docs/", f"{BASE}docs/"),
    (f"{BASE}blog//../docs/", f"{BASE}docs/"),
    (f"{BASE}//docs//page.html", f"{BASE}docs/page.html"),
    (f"{BASE}%64ocs/page.html", f"{BASE}docs/page.html"),
    ("https://EXAMPLE.ORG/blog/x", f"{BASE}blog/x"),
    ("https://example.org:443/blog/x", f"{BASE}blog/x"),
    ("HTTPS://Example.Org:443/%62log/caf%c3%a9", f"{BASE}blog/caf%C3%A9"),
    (f"{BASE}blog/a;x/", f"{BASE}blog/a;x/"),
    (f"{BASE}blog/..%2Fdocs", f"{BASE}docs"),
    (f"{BASE}blog/%2e%2e%2fadmin/", f"{BASE}admin/"),
    (f"{BASE}blog/..%5Cdocs/", f"{BASE}docs/"),
    (f"{BASE}blog/a%2Fb", f"{BASE}blog/a/b"),
    (f"{BASE}blog/x?a=/../..#..", f"{BASE}blog/x?a=/../..#.."),
], ids=["params", "escaped-params", "backslash", "escaped-backslash", "all-backslashes",
        "double-slash", "double-slash-climbs", "slash-runs", "escaped-letter", "upper-host",
        "default-port", "all-at-once", "params-in-name", "escaped-slash", "all-escaped-slash",
        "escaped-backslash-escaped", "escaped-slash-in-a-name", "query-and-fragment-kept"])
def test_every_spelling_of_a_url_has_one_scope_form(url: str, normal: str) -> None:
    """'..;x', '\\', '%2F' and '%5C' as servers read them (nginx decodes an escaped slash
    before it resolves '..'), case, default port and escapes of letters as RFC 3986 section
    6.2.2 does: a URL that climbs out in any spelling is outside."""
    from sitemap_plugins.vocab.urls import scope_form  # noqa: PLC0415

    assert scope_form(url) == normal
    assert is_under(url, f"{BASE}blog/") == normal.startswith(f"{BASE}blog/")


@pytest.mark.parametrize("listed", [
    "blog/../docs/page.html", "blog/%2e%2e/docs/page.html", "blog/%2E%2E/admin/",
    "blog/./sub/../../docs/", "blog/..;/docs/page.html", "blog/..\\docs/page.html",
    "blog/%2e%2e;x=1\\admin/", "blog//../docs/page.html", "blog/..%2Fdocs/page.html",
    "blog/%2e%2e%5cadmin/",
], ids=["dots", "escaped", "escaped-upper", "nested", "params", "backslash",
        "params-and-backslash", "double-slash", "escaped-slash", "escaped-backslash"])
def test_merge_refuses_a_child_url_that_climbs_out_of_its_folder(
        tree: Path, capsys: pytest.CaptureFixture[str], listed: str) -> None:
    """blog/sitemap.xml listing a URL that resolves outside blog/: exit 1, nothing written."""
    sitemap = tree / "blog" / "sitemap.xml"
    sitemap.write_text(sitemap.read_text("utf-8").replace(
        "</urlset>", f"  <url>\n    <loc>{BASE}{listed}</loc>\n  </url>\n</urlset>"), "utf-8")
    code, _, err = run(["merge", str(tree), "--base-url", BASE], capsys)
    assert code == 1
    assert (f"error: blog/sitemap.xml: 1 URL outside {BASE}blog/, the folder this sitemap "
            f"covers (first: {BASE}{listed})") in err
    assert not (tree / "sitemap.xml").exists()


@pytest.mark.parametrize("spelling", [
    f"{BASE}x/%2e%2e/docs/page.html", f"{BASE}%64ocs/page.html", f"{BASE}docs/pag%65.html",
    "https://EXAMPLE.ORG/docs/page.html", "https://example.org:443/docs/page.html",
    f"{BASE}x/..;/docs/page.html", f"{BASE}/docs//page.html", f"{BASE}docs/page.html?",
], ids=["dot-segments", "escaped-folder", "escaped-name", "upper-host", "default-port",
        "params", "slash-runs", "empty-query"])
def test_merge_sees_a_page_listed_twice_through_dot_segments(
        tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    """The root's pages naming docs/page.html in another spelling of its URL (dot segments,
    escaped letters, case, default port): listed by two builds."""
    (tree / "index.html").write_text(page("root"), "utf-8")
    assert main(["-q", "build", str(tree), "--base-url", BASE, "--cache-dir",
                 str(tmp_path / "cache-root"), "--exclude", "blog/**", "--exclude",
                 "docs/**"]) == 0
    # A root build that lists a docs page through dot segments (hand-edited or another tool).
    sitemap = tree / "sitemap.xml"
    text = sitemap.read_text("utf-8")
    extra = f"  <url>\n    <loc>{spelling}</loc>\n  </url>\n</urlset>"
    sitemap.write_text(text.replace("</urlset>", extra), "utf-8")
    code, _, err = run(["merge", str(tree), "--base-url", BASE], capsys)
    assert code == 1
    assert "is listed by two builds" in err
    assert "docs/sitemap.xml (docs/)" in err


@pytest.mark.parametrize("climb", ["%2e%2e/", "..;/", ".%2E;x/", "..%2F"],
                         ids=["escaped", "params", "escaped-params", "escaped-slash"])
def test_check_refuses_a_child_url_that_climbs_out_of_its_folder(
        tree: Path, capsys: pytest.CaptureFixture[str], climb: str) -> None:
    """After a merge, blog/sitemap.xml gains .../blog/%2e%2e/docs/page.html: check says so."""
    assert run(["merge", str(tree), "--base-url", BASE], capsys)[0] == 0
    sitemap = tree / "blog" / "sitemap.xml"
    bad = f"{BASE}blog/{climb}docs/page.html"
    sitemap.write_text(sitemap.read_text("utf-8").replace(
        "</urlset>", f"  <url>\n    <loc>{bad}</loc>\n  </url>\n</urlset>"), "utf-8")
    (tree / "blog" / "sitemap.xml.gz").unlink(missing_ok=True)
    code, _, err = run(["check", str(tree), "--base-url", BASE], capsys)
    assert code == 1
    assert f"URL '{bad}' is not under '{BASE}blog/', the folder of this sitemap" in err


def test_versions_json_still_read_when_flat(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The depth guard leaves mike's ordinary list alone."""
    root = tmp_path / "gh-pages"
    (root / "1.0").mkdir(parents=True)
    (root / "1.0" / "index.html").write_text(page("1.0"), "utf-8")
    build(root / "1.0", f"{BASE}1.0/", tmp_path / "cache")
    (root / "versions.json").write_text(json.dumps(
        [{"version": "1.0", "title": "1.0", "aliases": ["latest"]}]), "utf-8")
    assert run(["merge", str(root), "--base-url", BASE], capsys)[0] == 0
    assert f"{BASE}1.0/sitemap.xml" in (root / "sitemap.xml").read_text("utf-8")


USER_URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n'
               '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
               f"<url><loc>{BASE}user-page.html</loc></url></urlset>\n")
USER_INDEX = ('<?xml version="1.0" encoding="UTF-8"?>\n'
              '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
              f"<sitemap><loc>{BASE}shop/sitemap.xml</loc></sitemap></sitemapindex>\n")


@pytest.mark.parametrize("name", ["sitemap-index-2.xml", "sitemap-index-7.xml.gz",
                                  "sitemap-root.xml", "sitemap-root.xml.gz"])
def test_a_users_file_named_like_ours_is_never_removed_or_replaced(
        tree: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    """A file of the user's that merely shares our names is kept byte for byte, whether the
    merge would remove it as stale or write over it; a file the merge must write stops it."""
    import gzip  # noqa: PLC0415

    data = USER_URLSET.encode()
    (tree / name).write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    before = (tree / name).read_bytes()
    code, _, err = run(["merge", str(tree), "--base-url", BASE], capsys)
    assert (tree / name).read_bytes() == before
    assert code == 0 or (code != 0 and name in err and "Nothing was written" in err)


def test_a_users_root_index_is_never_replaced_without_a_word(
        tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hand-written root sitemap.xml index (naming the shop's sitemap) stops the merge with
    one line naming it; the file and the sitemaps it announces are kept."""
    (tree / "sitemap.xml").write_text(USER_INDEX, "utf-8")
    code, _, err = run(["merge", str(tree), "--base-url", BASE], capsys)
    assert code != 0
    assert "sitemap.xml: is already at the root and was not written by sitemap-plugins" in err
    assert (tree / "sitemap.xml").read_text("utf-8") == USER_INDEX
    assert "Traceback" not in err


def test_a_second_merge_replaces_and_removes_only_its_own_files(
        tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The merge's own index is its to replace: merging twice works, and its stale files go."""
    assert run(["merge", str(tree), "--base-url", BASE], capsys)[0] == 0
    (tree / "sitemap-index-9.xml").write_bytes((tree / "sitemap.xml").read_bytes())  # ours
    assert run(["merge", str(tree), "--base-url", BASE], capsys)[0] == 0
    assert not (tree / "sitemap-index-9.xml").exists()


# --- something else than a file where the merge writes one ----------------------------------


def _make_special(path: Path, kind: str, outside: Path) -> None:
    if kind == "folder":
        path.mkdir()
        (path / "mine.txt").write_text("the user's", "utf-8")
    elif kind == "link":
        path.symlink_to(outside)
    elif kind == "dangling-link":
        path.symlink_to(outside.parent / "gone.xml")
    else:
        os.mkfifo(path)


@pytest.mark.parametrize("kind", ["folder", "link", "dangling-link", "pipe"])
@pytest.mark.parametrize("name", ["sitemap.xml.gz", "sitemap-root.xml", "sitemap-root.xml.gz"])
def test_something_not_a_file_where_the_merge_writes_stops_it_before_any_write(
        tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str,
        name: str) -> None:
    """A folder, link or pipe of the user's at a name the merge writes: one line naming it,
    exit 1, nothing written at all (it wrote sitemap.xml, then stopped at the .gz)."""
    (tree / "index.html").write_text(page("root"), "utf-8")
    assert main(["-q", "build", str(tree), "--base-url", BASE, "--cache-dir",
                 str(tmp_path / "cache-root"), "--exclude", "blog/**", "--exclude",
                 "docs/**"]) == 0
    (tree / name).unlink(missing_ok=True)
    outside = tmp_path / "outside.xml"
    outside.write_text("the user's own file", "utf-8")
    _make_special(tree / name, kind, outside)
    before = {p.name: p.read_bytes() for p in tree.iterdir() if p.is_file()
              and not p.is_symlink() and p.suffix in (".xml", ".gz")}
    code, _, err = run(["merge", str(tree), "--base-url", BASE], capsys)
    assert code == 1
    assert f"error: {name}: is a" in err
    assert "where the merge writes a file; it was left as it is" in err
    assert "Traceback" not in err
    after = {p.name: p.read_bytes() for p in tree.iterdir() if p.is_file()
             and not p.is_symlink() and p.suffix in (".xml", ".gz")}
    assert after == before
    assert outside.read_text("utf-8") == "the user's own file"
    assert os.path.lexists(tree / name)


@pytest.mark.parametrize("spelling", ["https://example.org:443/blog/", "https://EXAMPLE.ORG/blog/",
                                      f"{BASE}%62log/", f"{BASE}blog/x/../"],
                         ids=["default-port", "upper-host", "escaped-letter", "dot-segments"])
def test_a_part_named_in_another_spelling_is_never_read_from_a_sliced_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    """A build's index naming its part in another spelling of the URL: refused in one line
    (the part's file name is cut from the URL as written, so only the base's own spelling is
    read as a file name)."""
    root = tmp_path / "public"
    (root / "blog").mkdir(parents=True)
    for name in ("index", "a", "b"):
        (root / "blog" / f"{name}.html").write_text(page(name), "utf-8")
    assert main(["-q", "build", str(root / "blog"), "--base-url", f"{BASE}blog/",
                 "--cache-dir", str(tmp_path / "cache"), "--max-urls", "2"]) == 0
    index = root / "blog" / "sitemap.xml"
    text = index.read_text("utf-8")
    assert f"{BASE}blog/sitemap-1.xml" in text
    index.write_text(text.replace(f"{BASE}blog/sitemap-1.xml", f"{spelling}sitemap-1.xml"),
                     "utf-8")
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 1
    assert f"names {spelling}sitemap-1.xml, which is not a file in blog folder" in err
    assert not (root / "sitemap.xml").exists()


# --- the builds' cache inside the published root ---------------------------------------------


def test_a_cache_inside_the_published_root_is_warned_about(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Builds below the root made with the default cache_dir keep their manifest in
    root/.sitemap-cache/, which the root publishes: the merge says so (it went online
    without a word); lock files alone are not worth a word."""
    root = tmp_path / "public"
    for name in ("blog", "docs"):
        (root / name).mkdir(parents=True)
        (root / name / "index.html").write_text(page(name), "utf-8")
    assert main(["-q", "build", str(root / "blog"), "--base-url", f"{BASE}blog/",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 0
    assert "cache" not in err  # the blog build kept its cache outside: only its lock is there
    assert main(["-q", "build", str(root / "docs"), "--base-url", f"{BASE}docs/"]) == 0
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 0
    assert ("warning: '.sitemap-cache/': holds the cache of builds below the root "
            "(lastmod-manifest-docs-") in err
    assert "and the root is published: give those builds a cache_dir outside it" in err


@pytest.mark.parametrize("data", ["my own notes\n", "Sitemap: https://example.org/shop.xml\n"],
                         ids=["notes", "hand-made-fragment"])
def test_a_users_fragment_file_at_a_root_below_the_host_root_is_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], data: str) -> None:
    """Root below the host root: the merge writes robots-sitemap.txt there; a user's own file
    of that name stops it in one line, kept byte for byte (it was replaced without a word)."""
    root = tmp_path / "public"
    (root / "blog").mkdir(parents=True)
    (root / "blog" / "index.html").write_text(page("blog"), "utf-8")
    build(root / "blog", f"{BASE}site/blog/", tmp_path / "cache")
    (root / "robots-sitemap.txt").write_text(data, "utf-8")
    code, _, err = run(["merge", str(root), "--base-url", f"{BASE}site/"], capsys)
    assert code == 1
    assert ("error: robots-sitemap.txt: is already at the root and was not written by "
            "sitemap-plugins; the merge would replace it") in err
    assert (root / "robots-sitemap.txt").read_text("utf-8") == data
    assert not (root / "sitemap.xml").exists()


def test_the_merges_own_fragment_is_rewritten(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fragment a merge wrote is its own: merging again, for another index, replaces it."""
    root = tmp_path / "public"
    (root / "blog").mkdir(parents=True)
    (root / "blog" / "index.html").write_text(page("blog"), "utf-8")
    build(root / "blog", f"{BASE}site/blog/", tmp_path / "cache")
    assert run(["merge", str(root), "--base-url", f"{BASE}site/"], capsys)[0] == 0
    assert run(["merge", str(root), "--base-url", f"{BASE}site/", "--sitemap-name", "map"],
               capsys)[0] == 0
    assert f"Sitemap: {BASE}site/map.xml" in (root / "robots-sitemap.txt").read_text("utf-8")


# --- a robots.txt in UTF-16 ------------------------------------------------------------------


def test_a_utf16_robots_txt_loses_the_builds_lines_as_utf8_does(
        tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The builds' own Sitemap: lines leave a UTF-16 robots.txt as they leave a UTF-8 one
    (they stayed), the index's line is added, and the file stays UTF-16."""
    text = f"User-agent: *\nDisallow:\nSitemap: {BASE}blog/sitemap.xml\n"
    (tree / "robots.txt").write_bytes(("\ufeff" + text).encode("utf-16-le"))
    assert run(["merge", str(tree), "--base-url", BASE], capsys)[0] == 0
    data = (tree / "robots.txt").read_bytes()
    assert data.startswith(b"\xff\xfe")
    written = data.decode("utf-16")
    assert f"{BASE}blog/sitemap.xml" not in written
    assert f"Sitemap: {BASE}sitemap.xml" in written


@pytest.mark.parametrize("data", [b"\xff\xfeU\x00s\x00e", b"\xfe\xff\x00U\x00"],
                         ids=["odd-length-le", "odd-length-be"])
def test_a_robots_txt_that_only_looks_utf16_is_left_with_one_warning(
        tree: Path, capsys: pytest.CaptureFixture[str], data: bytes) -> None:
    """A UTF-16 byte-order mark on bytes that are not UTF-16: the merge is done, robots.txt
    left byte for byte, one warning (it was a UnicodeDecodeError traceback)."""
    (tree / "robots.txt").write_bytes(data)
    code, _, err = run(["merge", str(tree), "--base-url", BASE], capsys)
    assert code == 0
    assert "Traceback" not in err
    assert ("warning: 'robots.txt': starts with a UTF-16 byte-order mark but is not UTF-16; "
            "left as it is") in err
    assert (tree / "robots.txt").read_bytes() == data
    assert (tree / "sitemap.xml").exists()


@pytest.mark.parametrize("kind", ["folder", "pipe", "link-to-pipe", "dangling-link"])
def test_a_versions_json_that_is_no_file_stops_the_merge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    """versions.json as a folder, a pipe or a broken link was read as 'no versions.json', so
    every version was offered without a word: one line, exit 1, nothing written."""
    root = tmp_path / "gh-pages"
    for version in ("1.0", "2.0"):
        (root / version).mkdir(parents=True)
        (root / version / "index.html").write_text(page(version), "utf-8")
        build(root / version, f"{BASE}{version}/", tmp_path / f"cache-{version}")
    target = root / "versions.json"
    if kind == "folder":
        target.mkdir()
    elif kind == "pipe":
        os.mkfifo(target)
    elif kind == "link-to-pipe":
        os.mkfifo(tmp_path / "pipe")
        target.symlink_to(tmp_path / "pipe")
    else:
        target.symlink_to(tmp_path / "gone.json")
    code, _, err = run(["merge", str(root), "--base-url", BASE], capsys)
    assert code == 1
    assert err.startswith("error: versions.json: is a ")
    assert "not mike's list of versions" in err
    assert not (root / "sitemap.xml").exists()

"""The cache folder under hostile conditions: a shared folder, a clock set back."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_plugins.cli import main

BASE = "https://example.org/"


def page(text: str) -> str:
    return f"<!doctype html><html><head><title>{text}</title></head><body>{text}</body></html>"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "project" / "public"
    folder.mkdir(parents=True)
    for name in ("index", "a", "b"):
        (folder / f"{name}.html").write_text(page(name), "utf-8")
    return folder


def build(site: Path, *extra: str, base: str = BASE) -> int:
    return main(["-q", "build", str(site), "--base-url", base, *extra])


def lastmods(site: Path, name: str = "sitemap") -> dict[str, str]:
    text = (site / f"{name}.xml").read_text("utf-8")
    return dict(re.findall(r"<loc>([^<]*)</loc>\s*<lastmod>([^<]*)</lastmod>", text))


# --- .gitignore ------------------------------------------------------------------------------


@pytest.mark.parametrize("given", [".", "..", "existing"], ids=["project-root", "above",
                                                                  "existing-folder"])
def test_no_gitignore_in_a_folder_the_tool_did_not_create(
        site: Path, monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    """--cache-dir naming a folder that was there before: no '*' .gitignore written into it."""
    project = site.parent
    monkeypatch.chdir(project)
    folder = {"existing": project / "cache"}.get(given, project / given)
    folder.mkdir(exist_ok=True)
    (project / "notes.txt").write_text("mine", "utf-8")
    assert build(site, "--cache-dir", str(folder) if given == "existing" else given) == 0
    assert not (folder / ".gitignore").exists()
    assert list(folder.glob("lastmod-manifest-*.sqlite"))  # the cache itself was written


def test_a_cache_folder_the_tool_creates_is_ignored_in_git(site: Path) -> None:
    """A cache folder made by the build gets its own '*' .gitignore (it holds only ours)."""
    cache = site.parent / "build-cache" / "sitemaps"
    assert build(site, "--cache-dir", str(cache)) == 0
    assert (cache / ".gitignore").read_text("utf-8").splitlines()[-1] == "*"
    assert not (site.parent / "build-cache" / ".gitignore").exists()


def test_a_users_gitignore_is_left_alone(site: Path) -> None:
    """A .gitignore already in the cache folder is never replaced."""
    cache = site.parent / ".sitemap-cache"
    cache.mkdir()
    (cache / ".gitignore").write_text("# mine\n", "utf-8")
    assert build(site) == 0
    assert (cache / ".gitignore").read_text("utf-8") == "# mine\n"


# --- the clock goes back ---------------------------------------------------------------------


@pytest.mark.parametrize(("first", "then"), [
    ("1893456000", "1577836800"),  # 2030-01-01, then 2020-01-01
    ("1577836800", "1577836799"),  # one second back
], ids=["years", "one-second"])
def test_a_clock_set_back_never_moves_a_date_back(
        site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        first: str, then: str) -> None:
    """A build dated before the cache's last build: changed pages keep no earlier date; a warning."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", first)
    assert build(site) == 0
    (site / "a.html").write_text(page("a, edited"), "utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(first) + 10))
    assert build(site) == 0
    before = lastmods(site)
    capsys.readouterr()
    (site / "a.html").write_text(page("a, edited again"), "utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", then)
    assert build(site) == 0
    after = lastmods(site)
    err = capsys.readouterr().err
    assert f"{BASE}a.html" in before
    for url, date in before.items():
        assert after[url] >= date, url  # W3C UTC texts compare in time order
    assert err.count("\n") == 1
    assert err.startswith("warning: ")
    assert "looks wrong" in err
    # The clock back to normal: no warning, dates go on from there.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(first) + 100))
    assert build(site) == 0
    assert "looks wrong" not in capsys.readouterr().err


# --- a renamed sitemap in robots.txt ---------------------------------------------------------


def sitemap_lines(site: Path) -> list[str]:
    return [line for line in (site / "robots.txt").read_text("utf-8").splitlines()
            if line.startswith("Sitemap:")]


@pytest.mark.parametrize("mode", ["merge", "create"])
def test_a_renamed_sitemap_is_no_longer_announced(site: Path, mode: str) -> None:
    """sitemap_name changed: the old files go, and so do robots.txt lines naming them only."""
    (site / "robots.txt").write_text(
        "User-agent: *\nDisallow: /private/\n\n"
        "Sitemap: https://example.org/sitemap.txt\n"  # the user's own line for our file
        "Sitemap: https://example.org/products.xml\n", "utf-8")  # served by something else
    assert build(site, "--robots-txt", mode) == 0
    assert f"Sitemap: {BASE}sitemap.xml" in sitemap_lines(site)
    assert build(site, "--robots-txt", mode, "--sitemap-name", "pages") == 0
    assert not (site / "sitemap.xml").exists()
    assert sitemap_lines(site) == [f"Sitemap: {BASE}products.xml", f"Sitemap: {BASE}pages.xml"]
    text = (site / "robots.txt").read_text("utf-8")
    assert text.startswith("User-agent: *\nDisallow: /private/\n")
    # And back again: pages.xml goes, sitemap.xml is named once.
    assert build(site, "--robots-txt", mode) == 0
    assert sitemap_lines(site) == [f"Sitemap: {BASE}products.xml", f"Sitemap: {BASE}sitemap.xml"]


def test_a_line_for_a_file_still_there_is_kept(site: Path) -> None:
    """A robots.txt line naming a same-named file the tool never wrote stays, file and line."""
    (site / "old.xml").write_text("<urlset/>", "utf-8")
    (site / "robots.txt").write_text(f"Sitemap: {BASE}old.xml\n", "utf-8")
    assert build(site, "--sitemap-name", "old2") == 0
    assert build(site, "--sitemap-name", "pages") == 0
    assert (site / "old.xml").exists()
    assert sitemap_lines(site) == [f"Sitemap: {BASE}old.xml", f"Sitemap: {BASE}pages.xml"]


# --- sites sharing a cache folder ------------------------------------------------------------


T1, T2 = 1_700_000_000, 1_700_086_400
W3C_T2 = "2023-11-15T22:13:20Z"


def two_publics(tmp_path: Path) -> tuple[Path, Path]:
    """Two different projects, each with a built site in a folder named ``public``."""
    sites = []
    for project in ("one", "two"):
        folder = tmp_path / project / "public"
        folder.mkdir(parents=True)
        for name in ("index", "a"):
            (folder / f"{name}.html").write_text(page(f"{project} {name}"), "utf-8")
        sites.append(folder)
    return sites[0], sites[1]


@pytest.mark.parametrize("same_url", [False, True], ids=["other-url", "same-url"])
def test_two_sites_named_alike_keep_their_own_history(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        same_url: bool) -> None:
    """Two ``public`` folders sharing one cache folder: neither wipes the other's dates."""
    one, two = two_publics(tmp_path)
    cache = str(tmp_path / "shared-cache")
    other = BASE if same_url else "https://other.example.org/"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    assert build(one, "--cache-dir", cache) == 0
    assert build(two, "--cache-dir", cache, base=other) == 0
    (one / "a.html").write_text(page("one a, edited"), "utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T2))
    capsys.readouterr()
    assert main(["build", str(one), "--base-url", BASE, "--cache-dir", cache, "-v"]) == 0
    err = capsys.readouterr().err
    assert "starting a new one" not in err
    assert "no lastmod manifest" not in err
    # Compared with its own last build: only a.html changed, dated by this build.
    assert lastmods(one) == {f"{BASE}a.html": W3C_T2}


def test_a_build_keeps_a_namesakes_temporary_files(tmp_path: Path) -> None:
    """A build never removes the temporary files of another site's build in the same cache."""
    from sitemap_plugins.vocab.options import TEMP_PREFIX  # noqa: PLC0415

    one, two = two_publics(tmp_path)
    cache = tmp_path / "shared-cache"
    other = "https://other.example.org/"
    assert build(two, "--cache-dir", str(cache), base=other) == 0
    [manifest] = cache.glob("lastmod-manifest-*.sqlite")  # the other site's
    in_progress = cache / f"{TEMP_PREFIX}0123456789ab-{manifest.name}"
    in_progress.write_bytes(b"being written by the other build")
    assert build(one, "--cache-dir", str(cache)) == 0
    assert in_progress.read_bytes() == b"being written by the other build"


def test_a_non_ascii_folder_keeps_its_history_under_any_locale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built under a UTF-8 locale, then under the C locale: the same history is found."""
    site = tmp_path / "café-été"
    site.mkdir()
    for name in ("index", "a"):
        (site / f"{name}.html").write_text(page(name), "utf-8")
    root = Path(__file__).resolve().parents[1]

    def run(when: int, **env: str) -> None:
        command = [sys.executable, "-m", "sitemap_plugins", "-q", "build",
                   os.fsencode(str(site)).decode("utf-8"), "--base-url", BASE]
        environment = {**os.environ, "SOURCE_DATE_EPOCH": str(when), **env}
        done = subprocess.run(command, cwd=root, env=environment, capture_output=True,
                              check=False)
        assert done.returncode == 0, done.stderr

    run(T1, PYTHONUTF8="1")
    (site / "a.html").write_text(page("a, edited"), "utf-8")
    run(T2, LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0")
    assert lastmods(site) == {f"{BASE}a.html": W3C_T2}


def test_an_upgrade_reads_the_cache_kept_under_the_former_key(
        site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """History and written-files record kept by the folder's name only: read on, then moved."""
    from sitemap_plugins.disk.cache_keys import former_site_key  # noqa: PLC0415

    cache = site.parent / ".sitemap-cache"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    assert build(site) == 0
    former = former_site_key(site)
    [manifest] = cache.glob("lastmod-manifest-*.sqlite")
    [record] = cache.glob("written-*.json")
    manifest.rename(cache / f"lastmod-manifest-{former}.sqlite")
    record.rename(cache / f"written-{former}.json")
    (site / "a.html").write_text(page("a, edited"), "utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T2))
    assert build(site, "--sitemap-name", "pages") == 0
    assert lastmods(site, "pages") == {f"{BASE}a.html": W3C_T2}
    # The record said sitemap.xml was ours: renamed away, it is removed, not left behind.
    assert not (site / "sitemap.xml").exists()
    assert manifest.exists()
    assert not (cache / f"lastmod-manifest-{former}.sqlite").exists()


# --- a cache folder that is no folder --------------------------------------------------------


def _not_a_folder(place: Path, kind: str) -> str:
    """Make ``place`` a file, a link in a loop or a link to nothing; what the message says."""
    if kind == "file":
        place.write_text("the user's notes", "utf-8")
        return "it is a file, not a folder"
    if kind == "loop":
        place.symlink_to(place.with_name("other"))
        place.with_name("other").symlink_to(place)
    else:
        place.symlink_to(place.with_name("gone"))
    return "it is a link to nothing (or a loop of links), not a folder"


@pytest.mark.parametrize("kind", ["file", "loop", "dangling"])
def test_a_cache_dir_that_is_no_folder_is_said_so(
        site: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    """--cache-dir naming a file or a broken link: one line saying so (it said 'File
    exists', as if something were fine), exit 1, the file kept."""
    cache = site.parent / "cache"
    said = _not_a_folder(cache, kind)
    capsys.readouterr()
    assert build(site, "--cache-dir", str(cache)) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert said in err
    assert "File exists" not in err
    if kind == "file":
        assert cache.read_text("utf-8") == "the user's notes"


@pytest.mark.parametrize("kind", ["missing", "file", "loop", "dangling"])
def test_submit_with_no_cache_folder_is_an_error_not_nothing_to_submit(
        site: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    """submit given a cache folder that is not there (a typo, a CI job that did not restore
    it) said 'Nothing to submit' with exit 0, while the URLs waited in the right one."""
    key = "0123abcd0123abcd"
    assert build(site, "--indexnow-key", key) == 0
    (site / "a.html").write_text(page("a, edited"), "utf-8")
    assert build(site, "--indexnow-key", key) == 0
    cache = site.parent / "typo"
    if kind != "missing":
        _not_a_folder(cache, kind)
    capsys.readouterr()
    code = main(["submit", str(site), "--base-url", BASE, "--key", key, "--cache-dir",
                 str(cache), "--endpoint", "http://127.0.0.1:9/", "--dry-run"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "Nothing to submit" not in out + err
    assert err.count("\n") == 1
    assert "so it holds no list of changed URLs: give --cache-dir the cache folder" in err


@pytest.mark.parametrize("option", ["cache_dir", "html_sitemap_template", "html_sitemap"])
def test_a_nul_byte_in_a_path_option_is_a_config_error(tmp_path: Path, option: str) -> None:
    """A NUL byte (possible in mkdocs.yml or pelicanconf.py, never on a command line) in a
    path option: ConfigError naming the option, not a ValueError traceback from os."""
    from sitemap_plugins.products.build.pipeline import generate  # noqa: PLC0415
    from sitemap_plugins.vocab.errors import ConfigError  # noqa: PLC0415
    from sitemap_plugins.vocab.options import SitemapConfig  # noqa: PLC0415

    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text(page("home"), "utf-8")
    value = "map\0.html"
    with pytest.raises(ConfigError) as caught:
        generate(str(folder), SitemapConfig.from_mapping(
            {"base_url": BASE, "cache_dir": str(tmp_path / "cache"), option: value}))
    assert caught.value.option == option
    assert "but received: 'map\\x00.html' (str)" in str(caught.value)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_renamed_sitemap_leaves_a_utf16_robots_txt_too(site: Path, codec: str) -> None:
    """In a UTF-16 robots.txt, our old line goes as it does in UTF-8, the file stays UTF-16
    (its lines were read as bytes: none matched, and the old line named a removed file)."""
    text = f"User-agent: *\nDisallow: /private/\n\nSitemap: {BASE}products.xml\n"
    (site / "robots.txt").write_bytes(("\ufeff" + text).encode(codec))
    assert build(site) == 0
    assert build(site, "--sitemap-name", "pages") == 0
    written = (site / "robots.txt").read_bytes().decode("utf-16")
    assert f"Sitemap: {BASE}sitemap.xml" not in written
    assert f"Sitemap: {BASE}pages.xml" in written
    assert written.startswith("User-agent: *\nDisallow: /private/\n")


# --- changes_file: never a file of the site --------------------------------------------------


@pytest.mark.parametrize("inside", ["index.html", "sitemap.xml", "changes.json", "sub/c.json"],
                         ids=["a-page", "our-sitemap", "a-new-file", "below"])
def test_a_changes_file_inside_the_site_is_refused_before_any_write(
        site: Path, capsys: pytest.CaptureFixture[str], inside: str) -> None:
    """--changes-file site/index.html wrote the JSON report over the home page (and over the
    sitemap.xml just written): refused like a cache_dir inside the site, exit 2, nothing
    written."""
    assert build(site) == 0
    (site / "a.html").write_text(page("a, edited"), "utf-8")
    before = {p.name: p.read_bytes() for p in site.iterdir() if p.is_file()}
    capsys.readouterr()
    assert build(site, "--changes-file", str(site / inside)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"error: --changes-file: '{site / inside}' is inside the published "
                          "site")
    assert {p.name: p.read_bytes() for p in site.iterdir() if p.is_file()} == before


@pytest.mark.parametrize(("changes", "cache"), [
    ("cache/changes.json", "cache"), (".sitemap-cache/changes.json", None),
    ("out.json", "out.json/cache"), ("cache", "cache")],
    ids=["in-the-cache", "in-the-default-cache", "holds-the-cache", "is-the-cache"])
def test_a_changes_file_overlapping_the_cache_is_refused_before_any_write(
        site: Path, capsys: pytest.CaptureFixture[str], changes: str, cache: str | None) -> None:
    """The changes file may not lie in the cache folder (where the manifest is kept) nor hold
    it: exit 2 with one line, before anything is written."""
    root = site.parent
    flags = ["--cache-dir", str(root / cache)] if cache is not None else []
    assert build(site, "--changes-file", str(root / changes), *flags) == 2
    err = capsys.readouterr().err
    cache_folder = root / (cache or ".sitemap-cache")
    assert err == (f"error: --changes-file: '{root / changes}' and the cache folder "
                   f"'{cache_folder}' overlap (one holds the other); choose a path outside the "
                   "cache folder\n")
    assert not (site / "sitemap.xml").exists()
    assert not cache_folder.exists()


@pytest.mark.parametrize("kind", ["folder", "link", "no-folder-above"])
def test_a_changes_file_that_is_no_file_is_refused_at_once(
        site: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    """A folder or a link at the changes_file path, or no folder above it: a usage error
    before the build (it failed after the sitemap was written, 'Is a directory; the previous
    file was kept')."""
    target = site.parent / "changes.json"
    if kind == "folder":
        target.mkdir()
    elif kind == "link":
        target.symlink_to(site.parent / "elsewhere.json")
    else:
        target = site.parent / "reports" / "changes.json"
    capsys.readouterr()
    assert build(site, "--changes-file", str(target)) == (1 if kind == "link" else 2)
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    if kind == "link":  # as every file the build writes: left as it is
        assert err.startswith(f"error: {target}: is a symbolic link, not a regular file")
    else:
        assert f"error: --changes-file: '{target}' is " in err
    assert not (site / "sitemap.xml").exists()


# --- something else where the manifest goes --------------------------------------------------


@pytest.mark.parametrize(("kind", "code", "said"), [
    ("folder", 1, "is a folder where the lastmod manifest goes; remove it"),
    ("pipe", 0, "is a named pipe, not a file; starting a new one"),
    ("dangling-link", 0, "is a symbolic link, not a file; starting a new one"),
], ids=["folder", "pipe", "dangling-link"])
def test_something_else_where_the_manifest_goes_is_said_so(
        site: Path, capsys: pytest.CaptureFixture[str], kind: str, code: int,
        said: str) -> None:
    """A folder, a pipe or a broken link in the manifest's place: said as it is (it was 'no
    manifest: first build, or the cache was deleted'); a folder, which no new manifest can
    replace, stops the build before any write (it failed after the sitemap was written)."""
    cache = site.parent / "cache"
    assert build(site, "--cache-dir", str(cache)) == 0
    (manifest,) = cache.glob("lastmod-manifest-*.sqlite")
    manifest.unlink()
    if kind == "folder":
        manifest.mkdir()
    elif kind == "pipe":
        os.mkfifo(manifest)
    else:
        manifest.symlink_to(site.parent / "gone.sqlite")
    for name in ("sitemap.xml", "sitemap.xml.gz", "sitemap.txt"):
        (site / name).unlink()
    capsys.readouterr()
    assert main(["build", str(site), "--base-url", BASE, "--cache-dir", str(cache)]) == code
    err = capsys.readouterr().err
    assert f"{manifest}" in err
    assert said in err
    assert "first build, or the cache was deleted" not in err
    assert (site / "sitemap.xml").exists() == (code == 0)

"""The Sphinx extension, run through the real ``sphinx-build`` on the sample site.

Each test copies ``sample_sites/sphinx`` into ``tmp_path`` (so the cache folder beside
``conf.py`` is its own) and builds it with ``python -m sphinx``; ``conf.py`` is extended
in the copy where a test needs other settings.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree

from sitemap_plugins.cli import main

sphinx = pytest.importorskip("sphinx")

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_sites" / "sphinx"
EXPECTED = SAMPLE / "expected"
BASE = "https://docs.example.org/sample/"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML_LINK = "{http://www.w3.org/1999/xhtml}link"
SITEMAP_FILES = ["sitemap.xml", "sitemap.xml.gz", "sitemap.txt"]
EPOCH = 1750118400  # 2025-06-17T00:00:00Z, the builds' "now"

# Every page a search engine should see (README.md): not hidden.html (robots noindex),
# private.html (:sitemap: false), search.html (noindex, as Sphinx's basic theme marks it) nor
# the verification file html_extra_path copies.
PAGES = ["index", "api", "genindex", "guide", "orphan", "py-modindex", "_modules/index",
         "_modules/tinypkg/greet", "sub/index", "sub/page", "site-map/index"]
HTML_URLS = sorted(BASE + page + ".html" for page in PAGES)
DIRHTML_URLS = sorted(
    BASE + ("" if page == "index" else page.removesuffix("/index") + "/") for page in PAGES)


@dataclass
class Build:
    """One ``sphinx-build`` run: its output folder, exit code and log."""

    out: Path
    returncode: int
    log: str


def sample(tmp_path: Path, conf_extra: str = "") -> Path:
    """A copy of the sample site, with lines added to its conf.py; returns the source folder."""
    site = tmp_path / "sample"
    shutil.copytree(SAMPLE, site, ignore=shutil.ignore_patterns("expected", "out", ".sitemap-cache",
                                                                "__pycache__"))
    if conf_extra:
        with (site / "source" / "conf.py").open("a", encoding="utf-8") as conf:
            conf.write("\n" + conf_extra + "\n")
    return site / "source"


def sphinx_build(source: Path, out: Path, *args: str, builder: str = "html",
                 env: dict[str, str] | None = None, epoch: int = EPOCH) -> Build:
    """Run the real ``sphinx-build`` (warnings are errors unless a test says otherwise)."""
    environ = {key: value for key, value in os.environ.items()
               if not key.startswith("READTHEDOCS")}
    environ.update({"SOURCE_DATE_EPOCH": str(epoch), "COLUMNS": "1000", "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)})
    environ.update(env or {})
    command = [sys.executable, "-m", "sphinx", "--no-color", "-b", builder, *args, str(source),
               str(out)]
    proc = subprocess.run(command, env=environ, capture_output=True, text=True, timeout=300,
                          check=False)
    return Build(out, proc.returncode, proc.stdout + proc.stderr)


def built(build: Build) -> Build:
    assert build.returncode == 0, build.log
    return build


def entries(out: Path, name: str = "sitemap.xml") -> dict[str, dict[str, object]]:
    """The sitemap as ``loc -> {lastmod, changefreq, priority, alternates}``."""
    root = etree.parse(str(out / name)).getroot()
    return {
        url.findtext(f"{SM}loc"): {
            "lastmod": url.findtext(f"{SM}lastmod"),
            "changefreq": url.findtext(f"{SM}changefreq"),
            "priority": url.findtext(f"{SM}priority"),
            "alternates": {link.get("hreflang"): link.get("href")
                           for link in url.iter(XHTML_LINK)},
        }
        for url in root.iter(f"{SM}url")
    }


def git(folder: Path, *args: str, when: str | None = None) -> None:
    """Run git in ``folder``; ``when`` dates the commit (author and committer)."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    if when is not None:
        env.update(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                    "-c", "commit.gpgsign=false", *args], cwd=folder, env=env, check=True,
                   capture_output=True)


@pytest.fixture(scope="module")
def html_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The sample built once with ``-b html -W``."""
    tmp = tmp_path_factory.mktemp("html")
    return built(sphinx_build(sample(tmp), tmp / "out", "-W"))


def test_html_lists_the_pages(html_build: Build) -> None:
    """The html builder's sitemap lists each page at its .html URL, and no noindex page."""
    assert sorted(entries(html_build.out)) == HTML_URLS
    assert f"Sitemap: {len(PAGES)} URLs listed" in html_build.log


def test_page_metadata(html_build: Build) -> None:
    """``:date:``, ``:sitemap_changefreq:`` and ``:sitemap_priority:`` reach the sitemap."""
    found = entries(html_build.out)
    assert found[BASE + "guide.html"]["lastmod"] == "2024-03-01"
    assert found[BASE + "sub/page.html"]["changefreq"] == "monthly"
    assert found[BASE + "sub/page.html"]["priority"] == "0.6"


def test_html_site_map_is_themed(html_build: Build) -> None:
    """The HTML site map is a page of the theme, listing the toctree's pages."""
    page = (html_build.out / "site-map" / "index.html").read_text("utf-8")
    assert 'class="sphinxsidebar"' in page  # alabaster's sidebar: rendered in the theme
    assert '<a href="../sub/page.html">A topic</a>' in page
    assert "hidden.html" not in page.split('class="sphinxsidebar"')[0]


@pytest.mark.golden
def test_matches_goldens(html_build: Build, golden) -> None:
    """sitemap.xml, sitemap.txt and the robots.txt fragment match the reviewed goldens."""
    golden(html_build.out, EXPECTED, ["sitemap.xml", "sitemap.txt", "robots-sitemap.txt"])


def test_check_passes_on_the_output(html_build: Build) -> None:
    """``sitemap-plugins check`` finds nothing wrong with what the extension wrote."""
    proc = subprocess.run([sys.executable, "-m", "sitemap_plugins", "check", str(html_build.out),
                           "--base-url", BASE], capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("theme", ["alabaster", "furo", "sphinx_rtd_theme"])
def test_dirhtml_lists_directory_urls(tmp_path: Path, theme: str) -> None:
    """The dirhtml builder's pages are listed at their directory URLs, in each theme; the
    search page says noindex once, as Sphinx's basic theme has it, also where the theme left
    it out (rtd), and is left out for that, as any noindex page."""
    pytest.importorskip(theme)
    build = built(sphinx_build(sample(tmp_path), tmp_path / "out", "-W", builder="dirhtml",
                               env={"SAMPLE_THEME": theme}))
    assert sorted(entries(build.out)) == DIRHTML_URLS
    search = etree.HTML((build.out / "search" / "index.html").read_bytes())
    assert search.xpath("//meta[@name='robots']/@content") == ["noindex"]
    site_map = (build.out / "site-map" / "index.html").read_text("utf-8")
    assert '<a href="../sub/page/">A topic</a>' in site_map


def test_parallel_build_gives_the_same_bytes(tmp_path: Path) -> None:
    """``-j auto`` (parallel reading and writing) writes the bytes ``-j 1`` writes."""
    serial = built(sphinx_build(sample(tmp_path / "a"), tmp_path / "a" / "out", "-j", "1"))
    parallel = built(sphinx_build(sample(tmp_path / "b"), tmp_path / "b" / "out", "-j", "auto"))
    for name in SITEMAP_FILES:
        assert (serial.out / name).read_bytes() == (parallel.out / name).read_bytes(), name


@pytest.mark.parametrize("builder", ["latex", "epub", "singlehtml", "text", "linkcheck"])
def test_other_builders_are_left_alone(tmp_path: Path, builder: str) -> None:
    """Other builders get no sitemap, no cache folder and no word from the extension."""
    source = sample(tmp_path)
    build = built(sphinx_build(source, tmp_path / "out", builder=builder))
    assert not list(build.out.rglob("sitemap*")), build.log
    assert not (source / ".sitemap-cache").exists()
    assert "sitemap" not in build.log.lower().replace("sitemap_plugins.sphinx", "")


def test_no_base_url_warns_in_html_only(tmp_path: Path) -> None:
    """Without html_baseurl an HTML build warns (typed, so it can be silenced); latex says nothing."""
    source = sample(tmp_path, "html_baseurl = ''")
    html = sphinx_build(source, tmp_path / "html")
    assert html.returncode == 0
    assert "WARNING: No sitemap written: html_baseurl is not set in conf.py" in html.log
    if sphinx.version_info >= (8, 0):  # the type is shown since Sphinx 8.0
        assert "[sitemap.configuration]" in html.log
    assert not (tmp_path / "html" / "sitemap.xml").exists()
    latex = built(sphinx_build(source, tmp_path / "latex", builder="latex"))
    assert "html_baseurl" not in latex.log


@pytest.mark.parametrize(("conf", "message"), [
    ("sitemap_plugins = {'gzip': 'yes'}",
     "sitemap_plugins['gzip']: Expected a boolean but received: 'yes' (str)"),
    ("sitemap_plugins = {'gzipp': False}",
     "sitemap_plugins['gzipp']: Unrecognised option. Did you mean 'gzip'?"),
    ("sitemap_plugins = {'base_url': 'https://x.example/'}",
     "sitemap_plugins['base_url']: Not an option here: the base URL is html_baseurl."),
    ("html_baseurl = 'docs.example.org'", "html_baseurl: "),
    ("sitemap_url_scheme = '{link}?v={version}'",
     "sitemap_url_scheme: Expected a scheme of {lang}, {version} and text, ending in {link}"),
    ("sitemap_filename = 'my map.xml'",
     ("sitemap_filename: Expected a plain file name without extension such as 'sitemap' but "
      "received: 'my map' (str)")),
    ("sitemap_plugins = []",
     "sitemap_plugins: Expected a dict of sitemap options but received: [] (list)"),
], ids=["bad-value", "unknown-key", "base-url", "bad-base-url", "bad-scheme", "bad-filename",
        "not-a-dict"])
def test_bad_option_fails_the_build_in_one_line(tmp_path: Path, conf: str, message: str) -> None:
    """A bad option is one ``ERROR:`` line in the core's words naming the setting, as Sphinx's
    linkcheck reports a broken link: no crash report (traceback), no sitemap, exit status 1,
    even where ``suppress_warnings`` names the extension's warnings."""
    conf += "\nsuppress_warnings = ['sitemap']"
    build = sphinx_build(sample(tmp_path, conf), tmp_path / "out")
    assert build.returncode == 1, build.log
    assert f"ERROR: {message}" in build.log, build.log
    assert "Traceback" not in build.log
    assert not list((tmp_path / "out").glob("sitemap*"))


SCHEME_WORDS = ("sitemap_url_scheme: Expected a scheme of {lang}, {version} and text, ending in "
                "{link}, such as '{lang}{version}{link}', but received: ")
LOCALE_WORDS = "sitemap_locales: Expected a list of locales such as ['en', 'pt_BR'], or [None], "
BAD_SETTINGS = {  # setting = value: the ERROR line's start
    "sitemap_url_scheme = '{lang.x}{version[0]}{link}'": SCHEME_WORDS,
    "sitemap_url_scheme = '{version[0]}{link}'": SCHEME_WORDS,
    "sitemap_url_scheme = '{lang!r}{link}'": SCHEME_WORDS,
    "sitemap_url_scheme = '{link}{link}'": SCHEME_WORDS,
    "sitemap_url_scheme = '{lang:>5}{link}'": SCHEME_WORDS,
    "sitemap_url_scheme = ['{link}']": SCHEME_WORDS + "['{link}'] (list)",
    "sitemap_excludes = 'orphan.html'":
        "sitemap_excludes: Expected a list of glob patterns but received: 'orphan.html' (str)",
    "sitemap_excludes = [1, 2]":
        "sitemap_excludes: Item 0: expected a glob pattern but received: 1 (int)",
    "sitemap_excludes = {'a': 1}":
        "sitemap_excludes: Expected a list of glob patterns but received: {'a': 1} (dict)",
    "sitemap_locales = 'en'": LOCALE_WORDS + "but received: 'en' (str)",
    "sitemap_locales = [1]": LOCALE_WORDS + "but received: [1] (list)",
    "sitemap_locales = {'en': 'x'}": LOCALE_WORDS,
    "sitemap_filename = 5":
        "sitemap_filename: Expected a file name such as 'sitemap.xml' but received: 5 (int)",
    "sitemap_show_lastmod = 'yes'":
        "sitemap_show_lastmod: Expected a boolean but received: 'yes' (str)",
    "sitemap_indent = '2'":
        "sitemap_indent: Expected an integer of 0 or more but received: '2' (str)",
    "sitemap_indent = -1": "sitemap_indent: Expected an integer of 0 or more",
    "site_url = 5": "site_url: Expected a URL string but received: 5 (int)",
    "sitemap_plugins = {'exclude': 'x/*'}":
        "sitemap_plugins['exclude']: Expected a list of glob patterns but received: 'x/*' (str)",
    "sitemap_plugins = {'changefreq': 5}": "sitemap_plugins['changefreq']: ",
    "sitemap_plugins = {'html_sitemap_template': 5}": "sitemap_plugins['html_sitemap_template']: ",
    "sitemap_plugins = {'cache_dir': ['x']}": "sitemap_plugins['cache_dir']: ",
    "sitemap_plugins = {'news': 'x'}": "sitemap_plugins['news']: ",
    "sitemap_plugins = {'max_urls': 'many'}": "sitemap_plugins['max_urls']: ",
    "sitemap_plugins = {1: True}": "sitemap_plugins['1']: Unrecognised option.",
}


@pytest.mark.parametrize(("conf", "message"), BAD_SETTINGS.items(), ids=list(BAD_SETTINGS))
def test_every_bad_setting_is_one_error_line(tmp_path: Path, conf: str, message: str) -> None:
    """Any ill-typed value of any of the extension's settings is one ``ERROR:`` line naming
    it, in the core's words where the core has the option: no crash report (an attribute or
    index in the URL scheme, a string for a list, ints for strings crashed)."""
    build = sphinx_build(sample(tmp_path, conf), tmp_path / "out")
    assert build.returncode == 1, build.log
    assert f"ERROR: {message}" in build.log, build.log
    assert "Traceback" not in build.log
    assert "crash" not in build.log.lower()
    assert not list((tmp_path / "out").glob("sitemap*"))


def test_bad_option_has_the_command_lines_words(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The same bad value gets the same words from the extension and from the command line."""
    build = sphinx_build(sample(tmp_path, "sitemap_plugins['max_urls'] = 0"), tmp_path / "out")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<title>x</title>", "utf-8")
    assert main(["build", str(site), "--base-url", BASE, "--max-urls", "0"]) == 2
    words = capsys.readouterr().err.split("--max-urls: ")[1].strip()
    assert f"ERROR: sitemap_plugins['max_urls']: {words}" in build.log, build.log


def test_file_in_the_way_is_one_error_line(tmp_path: Path) -> None:
    """A sitemap.xml of the user's own (copied by html_extra_path) is kept, and said so in one
    ``ERROR:`` line; the build exits 1 and keeps its environment (no crash report)."""
    source = sample(tmp_path)
    mine = b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>'
    (source / "extra" / "sitemap.xml").write_bytes(mine)
    build = sphinx_build(source, tmp_path / "out")
    assert build.returncode == 1, build.log
    assert "ERROR: " in build.log
    assert "sitemap.xml: is already in the site and was not written by sitemap-plugins" in build.log
    assert "Traceback" not in build.log
    assert (build.out / "sitemap.xml").read_bytes() == mine
    again = sphinx_build(source, tmp_path / "out")  # no full rebuild forced
    assert "0 added, 0 changed, 0 removed" in again.log, again.log


def test_sphinx_sitemap_alongside_is_refused(tmp_path: Path) -> None:
    """Loading sphinx_sitemap too stops the build, saying which one to remove."""
    pytest.importorskip("sphinx_sitemap")
    build = sphinx_build(sample(tmp_path, "extensions.append('sphinx_sitemap')"), tmp_path / "o")
    assert build.returncode != 0
    assert "remove 'sphinx_sitemap' from extensions in conf.py" in build.log, build.log
    assert "Traceback" not in build.log


def test_switching_from_sphinx_sitemap_replaces_its_file(tmp_path: Path) -> None:
    """A sitemap.xml left by sphinx-sitemap is replaced with a note, even under ``-W``."""
    pytest.importorskip("sphinx_sitemap")
    source = sample(tmp_path)
    conf = (source / "conf.py").read_text("utf-8")
    (source / "conf.py").write_text(conf.replace('"sitemap_plugins.sphinx"', '"sphinx_sitemap"')
                                    .replace("sitemap_plugins = {", "_unused = {"), "utf-8")
    built(sphinx_build(source, tmp_path / "out"))
    assert (tmp_path / "out" / "sitemap.xml").read_bytes().startswith(b"<?xml version='1.0'")
    (source / "conf.py").write_text(conf, "utf-8")
    build = built(sphinx_build(source, tmp_path / "out", "-W"))
    assert "was a sitemap written by sphinx-sitemap; replaced" in build.log, build.log
    assert sorted(entries(build.out)) == HTML_URLS


def test_sphinx_sitemap_settings_are_honoured(tmp_path: Path) -> None:
    """sitemap_url_scheme, _locales, _filename and _excludes act as in sphinx-sitemap, with
    notes; the core's options work beside them (an IndexNow key file for ``submit``)."""
    source = sample(tmp_path, """
sitemap_url_scheme = '{lang}{version}{link}'
sitemap_locales = ['en', 'pt_BR']
sitemap_filename = 'docs-sitemap.xml'
sitemap_excludes = ['orphan.html', '_modules/*']
sitemap_show_lastmod = True
sitemap_plugins["indexnow_key"] = "sphinx-key-1234"
""")
    build = built(sphinx_build(source, tmp_path / "out", "-W"))
    assert not (build.out / "sitemap.xml").exists()
    assert (build.out / "sphinx-key-1234.txt").read_text("utf-8").strip() == "sphinx-key-1234"
    found = entries(build.out, "docs-sitemap.xml")
    kept = [p for p in PAGES if p != "orphan" and not p.startswith("_modules/")]
    assert sorted(found) == sorted(f"{BASE}en/1.0/{page}.html" for page in kept)
    assert found[f"{BASE}en/1.0/guide.html"]["alternates"] == {
        "en": f"{BASE}en/1.0/guide.html", "pt-BR": f"{BASE}pt_BR/1.0/guide.html"}
    for setting in ("sitemap_filename", "sitemap_excludes", "sitemap_show_lastmod"):
        assert f"Sitemap: {setting}" in build.log, setting


def test_default_scheme_follows_canonical_links(tmp_path: Path) -> None:
    """With no sitemap_url_scheme, pages are listed where Sphinx's canonical links say, with a note."""
    build = built(sphinx_build(sample(tmp_path), tmp_path / "out"))
    assert sorted(entries(build.out)) == HTML_URLS
    assert "sphinx-sitemap put 'en/1.0/' between them" in build.log


@pytest.mark.parametrize(("baseurl", "prefix"), [
    (BASE, "es/stable/"),
    ("https://docs.example.org/sample/es/stable/", ""),
], ids=["root", "canonical-url"])
def test_read_the_docs_fills_the_scheme(tmp_path: Path, baseurl: str, prefix: str) -> None:
    """On Read the Docs its language and version fill the scheme, never twice."""
    build = built(sphinx_build(sample(tmp_path, f"html_baseurl = {baseurl!r}"), tmp_path / "out",
                               env={"READTHEDOCS": "True", "READTHEDOCS_LANGUAGE": "es",
                                    "READTHEDOCS_VERSION": "stable"}))
    found = sorted(entries(build.out))
    assert f"{baseurl}{prefix}guide.html" in found
    assert len(found) == len(PAGES)


def test_locales_under_the_canonical_url_of_read_the_docs(tmp_path: Path) -> None:
    """``sitemap_locales`` with Read the Docs' canonical URL as html_baseurl (which holds
    ``/en/latest/`` already): each language's alternate is under the domain, never doubled and
    never dropped."""
    rtd = "https://sample.readthedocs.io/"
    build = built(sphinx_build(
        sample(tmp_path, f"html_baseurl = '{rtd}en/latest/'\nsitemap_locales = ['en', 'fr']"),
        tmp_path / "out", "-W", env={"READTHEDOCS": "True", "READTHEDOCS_LANGUAGE": "en",
                                     "READTHEDOCS_VERSION": "latest"}))
    assert entries(build.out)[f"{rtd}en/latest/guide.html"]["alternates"] == {
        "en": f"{rtd}en/latest/guide.html", "fr": f"{rtd}fr/latest/guide.html"}


def test_locales_without_a_scheme_say_why_there_are_no_alternates(tmp_path: Path) -> None:
    """``sitemap_locales`` where no URL scheme is used (pages at html_baseurl + page): no
    alternates, and a note says why (they were dropped without a word)."""
    build = built(sphinx_build(sample(tmp_path, "sitemap_locales = ['en', 'fr']"),
                               tmp_path / "out", "-W"))
    assert not any(entry["alternates"] for entry in entries(build.out).values())
    assert "sitemap_locales: no alternates written, sitemap_url_scheme is not set" in build.log


def test_incremental_build_keeps_pages_and_dates(tmp_path: Path) -> None:
    """A rebuild lists the pages Sphinx did not rewrite, with their git dates; autodoc's and
    viewcode's pages take their module's date."""
    source = sample(tmp_path)
    site = source.parent
    git(site, "init", "-q")
    git(site, "add", "-A")
    git(site, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    out = tmp_path / "out"
    # Each build right after its commit, as in CI: a change the manifest first sees later
    # than its commit is dated by that build (the rule of every host).
    first = entries(built(sphinx_build(source, out, epoch=1709251200)).out)  # 2024-03-01
    assert first[BASE + "index.html"]["lastmod"] == "2024-01-02T03:04:05Z"
    # viewcode's page of a module: its module's git date (it had none).
    assert first[BASE + "_modules/tinypkg/greet.html"]["lastmod"] == "2024-01-02T03:04:05Z"
    with (site / "tinypkg" / "greet.py").open("a", encoding="utf-8") as module:
        module.write("\n\ndef wave() -> str:\n    \"\"\"Wave.\"\"\"\n    return 'o/'\n")
    with (source / "orphan.rst").open("a", encoding="utf-8") as page:
        page.write("\nA new paragraph.\n")
    git(site, "commit", "-qam", "two", when="2024-06-07T08:09:10+00:00")
    second = built(sphinx_build(source, out, epoch=1717747750))  # 2024-06-07T08:09:10Z
    assert "writing output... [" in second.log
    assert "sub/page" not in second.log.split("writing output...")[1].split("\n")[0]
    again = entries(out)
    assert sorted(again) == HTML_URLS
    assert again[BASE + "orphan.html"]["lastmod"] == "2024-06-07T08:09:10Z"
    assert again[BASE + "api.html"]["lastmod"] == "2024-06-07T08:09:10Z"  # autodoc's module
    assert again[BASE + "_modules/tinypkg/greet.html"]["lastmod"] == "2024-06-07T08:09:10Z"
    # The home page's toctree lists the API's functions: it changed with the module.
    assert again[BASE + "index.html"]["lastmod"] == "2024-06-07T08:09:10Z"
    for page in ("sub/index", "sub/page"):  # not rewritten by Sphinx, still listed and dated
        assert again[f"{BASE}{page}.html"]["lastmod"] == "2024-01-02T03:04:05Z", page
    assert again[BASE + "guide.html"]["lastmod"] == "2024-03-01"  # its :date: is later


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_deleted_page_is_dropped(tmp_path: Path, builder: str) -> None:
    """A page whose document was deleted is left out, though Sphinx leaves its file in the
    output folder: after an incremental build, after ``-E``, and in later builds; the pages
    Sphinx did not rewrite keep their dates."""
    source = sample(tmp_path)
    out = tmp_path / "out"
    first = entries(built(sphinx_build(source, out, builder=builder, epoch=1709251200)).out)
    (source / "sub" / "page.rst").unlink()
    index = source / "sub" / "index.rst"
    index.write_text(index.read_text("utf-8").replace("   page\n", ""), "utf-8")
    gone = BASE + ("sub/page.html" if builder == "html" else "sub/page/")
    for args, epoch in (((), 1717747750), ((), 1720000000), (("-E",), 1730000000)):
        build = built(sphinx_build(source, out, *args, builder=builder, epoch=epoch))
        assert (out / "sub" / ("page.html" if builder == "html" else "page/index.html")).exists()
        assert "not written by this build (1)" in build.log, build.log  # the core's words
        found = entries(out)
        assert sorted(found) == sorted(set(first) - {gone})
        kept = BASE + ("guide.html" if builder == "html" else "guide/")
        assert found[kept] == first[kept]


def test_pages_other_extensions_copy_are_listed(tmp_path: Path) -> None:
    """Pages an extension copies into the output as the build ends are listed, though every
    copy helper gives them their source's (old) file time: they were taken for an earlier
    build's left-overs. A deleted document's page is still left out (the test above)."""
    source = sample(tmp_path, """
import shutil
from sphinx.util.fileutil import copy_asset_file

def _copy_reports(app, exception):
    shutil.copy2(os.path.join(app.srcdir, "reports", "a.html"), app.outdir / "a.html")
    (app.outdir / "reports").mkdir(exist_ok=True)
    copy_asset_file(os.path.join(app.srcdir, "reports", "b.html"), app.outdir / "reports")

def setup(app):
    app.connect("build-finished", _copy_reports)
exclude_patterns.append("reports")
""")
    (source / "reports").mkdir()
    for name in ("a", "b"):
        page = source / "reports" / f"{name}.html"
        page.write_text(f"<!DOCTYPE html><html><head><title>Report {name}</title></head>"
                        f"<body><h1>Report {name}</h1><p>Figures.</p></body></html>", "utf-8")
        os.utime(page, (1600000000, 1600000000))
    # Again: copy_asset_file then leaves the identical page as it is, and it is still listed.
    for args in ((), (), ("-E",)):
        build = built(sphinx_build(source, tmp_path / "out", *args))
        assert {BASE + "a.html", BASE + "reports/b.html"} <= entries(build.out).keys(), build.log


def test_broken_symlinks_are_passed_over(tmp_path: Path) -> None:
    """Dangling symlinks and a symlink loop ending in .html in the output folder are passed
    over with one warning each, in the command line's words; the sitemap is written (the
    build crashed on them)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "dangling.html").symlink_to(out / "gone.html")
    (out / "away.html").symlink_to(tmp_path / "nowhere.html")
    (out / "loop.html").symlink_to(out / "loop.html")
    build = sphinx_build(sample(tmp_path), out)
    assert "Traceback" not in build.log, build.log
    assert sorted(entries(out)) == HTML_URLS
    warned = [line for line in build.log.splitlines() if line.startswith("WARNING: Sitemap: ")]
    assert len(warned) == 3, build.log
    for name, words in (("dangling", "is a symlink to nothing"),
                        ("away", "is a symlink that leaves the site folder"),
                        ("loop", "Too many levels of symbolic links")):
        assert any(f"'{name}.html': {words}" in line for line in warned), build.log


def test_sitemap_filename_in_a_folder_is_written_at_the_root(tmp_path: Path) -> None:
    """sphinx-sitemap's ``sitemap_filename`` in a folder, or ending in ``.gz``, gives the
    sitemap at the root (a sitemap lists only URLs below its folder), with a note."""
    for filename, name in (("maps/docs.xml", "docs"), ("docs-en.xml.gz", "docs-en")):
        out = tmp_path / f"{name}-out"
        build = built(sphinx_build(sample(tmp_path / name, f"sitemap_filename = {filename!r}"),
                                   out, "-W"))
        assert sorted(entries(out, f"{name}.xml")) == HTML_URLS
        assert f"written as {name}.xml at the root of the site" in build.log
        assert not (out / "maps").exists()


# A theme's next and previous links inside its main region (as pydata-sphinx-theme has them
# in its <main>): chrome a page read whole could not tell from content.
PAGER = """{% extends "!page.html" %}
{% block body %}{{ super() }}<p class="pager">{% if prev %}<a href="{{ prev.link|e }}">\
{{ prev.title }}</a>{% endif %} {% if next %}<a href="{{ next.link|e }}">{{ next.title }}</a>\
{% endif %}</p>{% endblock %}
"""


def test_new_page_moves_no_other_pages_date(tmp_path: Path) -> None:
    """A page added to the toctree changes other pages' chrome (sidebar navigation, next and
    previous links), not their content: only the page whose toctree changed gets a new date."""
    source = sample(tmp_path, "templates_path = ['_templates']")
    (source / "_templates").mkdir()
    (source / "_templates" / "page.html").write_text(PAGER, encoding="utf-8")
    out = tmp_path / "out"  # no git: the dates are those the fingerprints give
    first = entries(built(sphinx_build(source, out, epoch=1709251200)).out)  # 2024-03-01
    (source / "news.rst").write_text("News\n====\n\nWhat is new.\n", encoding="utf-8")
    index = (source / "index.rst").read_text("utf-8")
    (source / "index.rst").write_text(index.replace("   guide\n", "   guide\n   news\n"),
                                      encoding="utf-8")
    # Built afresh (-E: as CI builds, with the sitemap's cache kept): every page rewritten.
    built(sphinx_build(source, out, "-E", epoch=1717747750))  # 2024-06-07T08:09:10Z
    assert 'class="pager"><a href="guide.html">' in (out / "news.html").read_text("utf-8")
    again = entries(out)
    assert again[BASE + "news.html"]["lastmod"] == "2024-06-07T08:09:10Z"
    assert again[BASE + "index.html"]["lastmod"] == "2024-06-07T08:09:10Z"
    assert {url: again[url]["lastmod"] for url in first if url != BASE + "index.html"} == {
        url: entry["lastmod"] for url, entry in first.items() if url != BASE + "index.html"}
    # An incremental build rewrites one page; those it did not rewrite keep their dates.
    with (source / "orphan.rst").open("a", encoding="utf-8") as page:
        page.write("\nA new paragraph.\n")
    third = built(sphinx_build(source, out, epoch=1720000000))  # 2024-07-03T09:46:40Z
    assert "guide" not in third.log.split("writing output...")[1].split("\n")[0]
    assert entries(out) == {**again, BASE + "orphan.html": {
        **again[BASE + "orphan.html"], "lastmod": "2024-07-03T09:46:40Z"}}


def test_bad_page_metadata_names_the_page(tmp_path: Path) -> None:
    """A bad ``:sitemap_priority:`` stops the build naming the page; free-text ``:date:`` is
    passed by."""
    source = sample(tmp_path)
    page = source / "sub" / "page.rst"
    page.write_text(page.read_text("utf-8").replace("0.6", "high"), "utf-8")
    guide = source / "guide.rst"
    guide.write_text(guide.read_text("utf-8").replace("2024-03-01", "March 2024"), "utf-8")
    build = sphinx_build(source, tmp_path / "out")
    assert build.returncode == 1
    assert ("ERROR: Page 'sub/page' sitemap value 'priority': Expected a number from 0.0 to 1.0 "
            "but received: 'high' (str)") in build.log, build.log
    assert "Traceback" not in build.log
    page.write_text(page.read_text("utf-8").replace("high", "0.6"), "utf-8")
    found = entries(built(sphinx_build(source, tmp_path / "out")).out)
    assert found[BASE + "guide.html"]["lastmod"] is None


def test_link_suffix_gives_the_linked_urls(tmp_path: Path) -> None:
    """With ``html_link_suffix = ""`` pages are listed at the URLs Sphinx links them by."""
    build = built(sphinx_build(sample(tmp_path, "html_link_suffix = ''"), tmp_path / "out"))
    found = entries(build.out)
    assert BASE + "guide" in found
    assert BASE + "sub/page" in found
    assert BASE + "guide.html" not in found


@pytest.mark.parametrize("suffix", [".xhtml", ".shtml", ".php"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_file_suffix_gives_the_pages_files(tmp_path: Path, suffix: str, jobs: str) -> None:
    """With ``html_file_suffix`` ``.xhtml``, ``.shtml`` or ``.php`` the pages are listed at
    their own URLs (none were), read as .html pages (the noindex ones left out: a .shtml page
    was listed unread, its noindex published), and sitemap_excludes match that link."""
    build = built(sphinx_build(sample(tmp_path, f"html_file_suffix = {suffix!r}\n"
                                      f"sitemap_excludes = ['orphan{suffix}']"),
                               tmp_path / "out", "-j", jobs))
    assert sorted(entries(build.out)) == sorted(
        BASE + page + (".html" if page == "site-map/index" else suffix)
        for page in PAGES if page != "orphan")
    assert "noindex (2)" in build.log, build.log


RTD = "https://sample.readthedocs.io/"


@pytest.fixture
def rtd_root(tmp_path: Path) -> Path:
    """A Read the Docs tree: ``en/latest/``, ``en/stable/``, ``en/1.0/`` and ``fr/latest/``,
    each built by sphinx-build as Read the Docs runs it (its canonical URL as html_baseurl)."""
    root = tmp_path / "rtd"
    source = sample(tmp_path, "html_baseurl = os.environ['READTHEDOCS_CANONICAL_URL']")
    for folder in ("en/latest", "en/stable", "en/1.0", "fr/latest"):
        lang, version = folder.split("/")
        env = {"READTHEDOCS": "True", "READTHEDOCS_LANGUAGE": lang,
               "READTHEDOCS_VERSION": version, "READTHEDOCS_CANONICAL_URL": f"{RTD}{folder}/"}
        built(sphinx_build(source, root / folder, "-W", "-D", f"language={lang}", env=env))
    return root


def _offered(root: Path) -> list[str]:
    index = etree.parse(str(root / "sitemap.xml")).getroot()
    return [loc.text.removeprefix(RTD) for loc in index.iter(f"{SM}loc")]


def test_merge_offers_latest_of_each_language_on_read_the_docs(
        rtd_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``merge`` over Read the Docs' ``<language>/<version>/`` builds offers ``latest`` of
    each language, as it offers mike's latest; the other versions keep their own sitemaps;
    ``check`` passes on the tree; ``--versions`` chooses others, in every language."""
    stable = (rtd_root / "en" / "stable" / "sitemap.xml").read_bytes()
    merge = ["merge", str(rtd_root), "--base-url", RTD, "--robots-txt", "create"]
    assert main(merge) == 0
    out = capsys.readouterr().out
    assert _offered(rtd_root) == ["en/latest/sitemap.xml", "fr/latest/sitemap.xml"]
    assert "Not offered to crawlers (other versions, own sitemaps kept): en/1.0, en/stable" in out
    assert (rtd_root / "en" / "stable" / "sitemap.xml").read_bytes() == stable
    assert (rtd_root / "robots.txt").read_text().splitlines()[-1] == f"Sitemap: {RTD}sitemap.xml"
    assert main(["check", str(rtd_root), "--base-url", RTD]) == 0
    assert f"Checked {2 * len(PAGES)} URLs: no problems" in capsys.readouterr().out
    assert main([*merge, "--versions", "stable", "--versions", "1.*"]) == 0
    assert _offered(rtd_root) == ["en/1.0/sitemap.xml", "en/stable/sitemap.xml"]
    assert main(["check", str(rtd_root), "--base-url", RTD]) == 0
    capsys.readouterr()
    assert main([*merge, "--versions", "2.0"]) == 2
    assert ("--versions: Expected versions of the <language>/<version>/ folders (1.0, latest, "
            "stable) but received: '2.0'") in capsys.readouterr().err
    shutil.rmtree(rtd_root / "en" / "latest")  # one build not so laid out: no versions
    shutil.copytree(rtd_root / "en" / "stable", rtd_root / "blog")
    assert main(["-q", "build", str(rtd_root / "blog"), "--base-url", RTD + "blog/",
                 "--html-sitemap", "site-map/", "--cache-dir", str(rtd_root.parent / "c")]) == 0
    assert main([*merge, "--versions", "stable"]) == 2
    assert "Read the Docs' <language>/<version>/ builds" in capsys.readouterr().err


# What Chromium made of the site map in the theme: the list's box and the main content's, each
# link's box and whether a click at its centre lands on it, each item's depth and left edge, and
# the page's width against the window's. Boxes are in page coordinates.
_PROBE = """<pre id="probe" hidden></pre><script>
addEventListener("load", () => {
  const page = e => { const r = e.getBoundingClientRect();
    return {left: r.left + scrollX, right: r.right + scrollX, top: r.top + scrollY,
            bottom: r.bottom + scrollY, width: r.width, height: r.height}; };
  const map = document.querySelector(".sitemap-plugins-html-sitemap");
  const links = [...map.querySelectorAll("a")].map(a => {
    a.scrollIntoView({block: "center"});
    const r = a.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {href: a.href, box: page(a), clickable: !!hit && (hit === a || a.contains(hit))};
  });
  scrollTo(0, 0);
  const items = [...map.querySelectorAll("li")].map(li => {
    let depth = 0;
    for (let up = li.parentElement; up !== map; up = up.parentElement) depth += up.tagName === "UL";
    return {depth, left: page(li).left};
  });
  document.getElementById("probe").textContent = JSON.stringify({
    map: page(map), main: page(document.querySelector("[role=main]")), links, items,
    pageWidth: document.documentElement.scrollWidth, windowWidth: innerWidth});
});
</script>"""


@pytest.mark.parametrize("theme", ["alabaster", "furo", "sphinx_rtd_theme"])
@pytest.mark.parametrize("width", [1200, 400], ids=["desktop", "phone"])
def test_site_map_in_chromium(tmp_path: Path, theme: str, width: int) -> None:
    """In each theme, on a desktop and a phone, Chromium shows the HTML site map inside the
    theme's main content, each level indented under the last; every page of the sitemap is a
    link a click at its centre reaches, that opens a page; nothing is wider than the window."""
    pytest.importorskip(theme)
    from tests.test_html_map import SCREENSHOTS, run_chromium, serve  # noqa: PLC0415

    build = built(sphinx_build(sample(tmp_path), tmp_path / "out", "-W",
                               env={"SAMPLE_THEME": theme}))
    page = build.out / "site-map" / "index.html"
    page.write_text(page.read_text("utf-8").replace("</body>", _PROBE + "</body>"), "utf-8")
    for root in serve(build.out):
        url = root + "site-map/index.html"
        dom = run_chromium("--virtual-time-budget=5000", f"--window-size={width},900",
                           "--dump-dom", url).stdout
        found = json.loads(etree.HTML(dom).xpath("string(//pre[@id='probe'])"))
        for link in found["links"]:
            with urllib.request.urlopen(link["href"], timeout=10) as response:
                assert response.status == 200, link
        SCREENSHOTS.mkdir(exist_ok=True)
        shot = SCREENSHOTS / f"sphinx-{theme}-{width}.png"
        run_chromium(f"--screenshot={shot}", f"--window-size={width},900", url)
    assert sorted(link["href"].replace(root, BASE) for link in found["links"]) == sorted(
        set(HTML_URLS) - {BASE + "site-map/index.html"})
    box, main = found["map"], found["main"]
    assert min(box["width"], box["height"]) > 0, box
    assert main["left"] <= box["left"], found  # inside the theme's main content
    assert main["top"] <= box["top"], found
    assert box["right"] <= main["right"] + 1, found
    assert box["bottom"] <= main["bottom"] + 1, found
    for link in found["links"]:
        assert min(link["box"]["width"], link["box"]["height"]) > 0, link
        assert link["clickable"], link
        assert link["box"]["right"] <= found["windowWidth"], link
    assert found["pageWidth"] <= found["windowWidth"], found
    lefts: dict[int, float] = {}
    for item in found["items"]:
        lefts[item["depth"]] = min(lefts.get(item["depth"], item["left"]), item["left"])
    assert sorted(lefts) == [1, 2, 3]
    assert lefts[1] < lefts[2] < lefts[3], lefts  # nested lists keep their indentation


def test_base_url_set_by_an_extension_at_builder_inited_is_followed(tmp_path: Path) -> None:
    """A ``conf.py`` ``setup()`` (or another extension) that sets ``html_baseurl`` when the
    builder starts runs after this extension connected: its value is the one listed under."""
    source = sample(tmp_path, (
        "def setup(app):\n"
        "    def late(app):\n"
        "        app.config.html_baseurl = 'https://late.example.org/'\n"
        "    app.connect('builder-inited', late)\n"))
    build = built(sphinx_build(source, tmp_path / "out"))
    assert sorted(entries(build.out)) == sorted(
        url.replace(BASE, "https://late.example.org/") for url in HTML_URLS)

"""The Pelican adapter, run through the real ``pelican`` command on the sample site.

Each scenario builds ``sample_sites/pelican/source`` (copied to a temporary folder) with
``python -m pelican``; module-scoped fixtures share the builds between tests. The settings
checks and the receivers are also tested in-process, where they are cheap.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import weakref
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote

import pytest
from lxml import etree

pytest.importorskip("pelican")

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_sites" / "pelican"
EXPECTED = SAMPLE / "expected"
BASE = "https://blog.example.org/"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML_LINK = "{http://www.w3.org/1999/xhtml}link"
OUTPUTS = ["sitemap.xml", "sitemap.txt", "robots.txt"]
SITEMAP_FILES = ["sitemap.xml", "sitemap.xml.gz", "sitemap.txt", "robots.txt"]

# Every page of the sample site a search engine should see, by hand (README: 46 HTML files
# minus the draft, the hidden page, "Private: True" and "Sitemap: false").
CONTENT = [
    "",
    "a-weekend-in-lyon.html",
    "caf%C3%A9-cr%C3%A8me.html",
    "caf%C3%A9-cr%C3%A8me-fr.html",
    "croissant-recipe.html",
    "hello-pelican.html",
    "hello-pelican-fr.html",
    "r&d-notes.html",
    "sitemaps-explained.html",
    "pages/about.html",
    "pages/about-fr.html",
    "pages/contact.html",
    "tag/python.html",  # the page that overrides the generated tag page
]
LISTINGS = [
    "archives.html",
    "authors.html",
    "categories.html",
    "tags.html",
    "blog/",
    "blog/page/2/",
    "blog/page/3/",
    "blog/page/4/",
    "author/alice-martin.html",
    "author/alice-martin/page/2/",
    "author/bruno-lefevre.html",
    "author/bruno-lefevre/page/2/",
    "category/code.html",
    "category/code/page/2/",
    "category/food-drink.html",
    "category/travel.html",
    "category/travel/page/2/",
    "tag/baking.html",
    "tag/coffee.html",
    "tag/paris.html",
    "tag/paris/page/2/",
    "tag/patisserie.html",
    "tag/pelican.html",
    "tag/python/page/2/",
    "tag/research.html",
    "tag/seo.html",
    "tag/sitemaps.html",
    "tag/trains.html",
    "tag/trains/page/2/",
]
EXPECTED_URLS = {BASE + path for path in CONTENT + LISTINGS}
DATELESS = ["", "pages/contact.html", "tag/python.html"]
NEWEST = "2024-11-20T06:05:00+01:00"  # private-travel-notes: on the blog, not in the sitemap


# --- Running Pelican ------------------------------------------------------------------------


@dataclass
class Build:
    """One ``pelican`` run: its output folder, exit code and console log."""

    out: Path
    returncode: int
    log: str

    def messages(self, level: str) -> list[str]:
        """The log messages of one level (Pelican's console handler, one per line)."""
        pattern = re.compile(rf"\b{level}\s+(.*?\S)\s+[\w.]+\.py:\d+\s*$")
        return [m.group(1) for line in self.log.splitlines() if (m := pattern.search(line))]

    def ours(self, level: str) -> list[str]:
        return [m for m in self.messages(level) if m.startswith("Sitemap: ")]


def copy_site(folder: Path) -> Path:
    """A fresh copy of the sample site's sources."""
    shutil.copytree(
        SAMPLE / "source",
        folder,
        ignore=shutil.ignore_patterns("output", "__pycache__", ".sitemap-cache", "cache"),
    )
    return folder


def pelican(
    site: Path, out: Path, *settings: str, fatal: bool = True, verbose: bool = False,
    debug: bool = False, epoch: int | None = None,
) -> Build:
    """Run the real ``pelican`` command on ``site`` with ``-e`` overrides."""
    command = [sys.executable, "-m", "pelican", "content", "-s", "pelicanconf.py", "-o", str(out)]
    if fatal:
        command += ["--fatal", "warnings"]
    if verbose:
        command.append("--verbose")
    if debug:
        command.append("--debug")
    if settings:
        command += ["-e", *settings]
    env = {
        **os.environ,
        "COLUMNS": "1000",
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
        ),
    }
    env.pop("SOURCE_DATE_EPOCH", None)
    if epoch is not None:  # the build's "now"
        env["SOURCE_DATE_EPOCH"] = str(epoch)
    proc = subprocess.run(
        command, cwd=site, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    return Build(out, proc.returncode, proc.stdout + proc.stderr)


def built(build: Build) -> Build:
    assert build.returncode == 0, build.log
    return build


def entries(site: Path) -> dict[str, dict[str, object]]:
    """Our sitemap.xml as ``loc -> {lastmod, changefreq, priority, alternates}``."""
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    result: dict[str, dict[str, object]] = {}
    for url in root.iter(f"{SM}url"):
        result[url.findtext(f"{SM}loc")] = {
            "lastmod": url.findtext(f"{SM}lastmod"),
            "changefreq": url.findtext(f"{SM}changefreq"),
            "priority": url.findtext(f"{SM}priority"),
            "alternates": {link.get("hreflang"): link.get("href") for link in url.iter(XHTML_LINK)},
        }
    return result


def sitemap_bytes(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in SITEMAP_FILES}


# --- Shared builds --------------------------------------------------------------------------


@dataclass
class MainBuilds:
    first: Build
    second: Build
    first_files: dict[str, bytes]


@pytest.fixture(scope="module")
def main_builds(tmp_path_factory: pytest.TempPathFactory) -> MainBuilds:
    """The sample site built twice into one folder that holds stale pages from before."""
    folder = tmp_path_factory.mktemp("main")
    site = copy_site(folder / "site")
    out = folder / "out"
    (out / "tag").mkdir(parents=True)
    stale = "<!DOCTYPE html><html lang='en'><head><title>Old</title></head></html>"
    (out / "stale-post.html").write_text(stale, encoding="utf-8")
    (out / "tag" / "retired.html").write_text(stale, encoding="utf-8")
    first = built(pelican(site, out, verbose=True))
    first_files = sitemap_bytes(out)
    second = built(pelican(site, out, verbose=True))
    return MainBuilds(first, second, first_files)


@pytest.fixture(scope="module")
def main_build(main_builds: MainBuilds) -> Build:
    return main_builds.second


@pytest.fixture(scope="module")
def baseline_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The same site with pelican-sitemap 1.2.x instead of this plugin."""
    pytest.importorskip("pelican.plugins.sitemap")
    folder = tmp_path_factory.mktemp("baseline")
    site = copy_site(folder / "site")
    return built(
        pelican(
            site,
            folder / "out",
            'PLUGINS=["pelican.plugins.sitemap"]',
            'SITEMAP={"format": "xml"}',
            fatal=False,
        )
    )


# --- The main build -------------------------------------------------------------------------


def test_lists_exactly_the_expected_urls(main_build: Build, sitemap_urls) -> None:
    """Every page a reader can reach is listed once; opt-outs, drafts and hidden pages are not."""
    urls = sitemap_urls(main_build.out)
    assert len(urls) == len(set(urls))
    assert set(urls) == EXPECTED_URLS


def test_build_passes_fatal_warnings_and_reports(main_build: Build) -> None:
    """The sample site builds under ``--fatal warnings``; the summary names each left-out kind."""
    assert main_build.messages("WARNING") == []
    assert main_build.ours("INFO")[-1] == (
        f"Sitemap: 42 URLs listed in {BASE}sitemap.xml; 7 pages left out: draft (1), "
        "hidden (1), not written by this build (2), Private: True metadata (1), Sitemap: "
        "false metadata (1), static HTML (static_html is off) (1); 3 images, 2 videos; "
        "wrote sitemap.xml, sitemap.xml.gz, sitemap.txt, robots.txt"
    )


def test_summary_line_shows_at_pelican_s_default_level(tmp_path: Path) -> None:
    """Without ``--verbose`` Pelican logs no info: the one summary line is printed as
    Pelican's own "Done:" line is, once."""
    site = copy_site(tmp_path / "source")
    log = built(pelican(site, tmp_path / "out")).log
    lines = [line for line in log.splitlines() if "URLs listed in" in line]
    assert len(lines) == 1
    assert lines[0].startswith(f"Sitemap: 42 URLs listed in {BASE}sitemap.xml; ")


def test_stale_files_in_output_are_not_listed(main_build: Build) -> None:
    """Pages left in OUTPUT_PATH by earlier builds (not written by this one) are not listed."""
    assert (main_build.out / "stale-post.html").exists()
    text = (main_build.out / "sitemap.txt").read_text("utf-8")
    assert "stale-post" not in text
    assert "retired" not in text


def test_two_builds_are_byte_identical(main_builds: MainBuilds) -> None:
    """Building twice gives the same sitemap, .gz and robots.txt bytes."""
    assert sitemap_bytes(main_builds.second.out) == main_builds.first_files


_CACHED = re.compile(r"Sitemap: (\d+) page records came from the\s+cache")


def test_rebuild_takes_records_from_the_cache(tmp_path: Path, main_build: Build) -> None:
    """Pelican rewrites every page; a rebuild parses none whose bytes are the same."""
    site = copy_site(tmp_path / "k")
    first = built(pelican(site, tmp_path / "k-out", debug=True))
    first_files = sitemap_bytes(first.out)
    second = built(pelican(site, tmp_path / "k-out", debug=True))
    assert sitemap_bytes(second.out) == first_files
    assert [int(n) for n in _CACHED.findall(first.log)] == [0]
    cached = [int(n) for n in _CACHED.findall(second.log)]
    assert len(cached) == 1
    assert cached[0] >= len(entries(main_build.out)) - 1  # static slides.html


@pytest.mark.golden
def test_matches_goldens(main_build: Build, golden) -> None:
    """sitemap.xml, sitemap.txt and the merged robots.txt match the reviewed goldens."""
    golden(main_build.out, EXPECTED, OUTPUTS)


def test_robots_txt_gets_the_sitemap_line(main_build: Build) -> None:
    """The static robots.txt keeps its rules and gains one absolute Sitemap: line."""
    robots = (main_build.out / "robots.txt").read_text("utf-8")
    assert robots.count("Sitemap:") == 1
    assert f"Sitemap: {BASE}sitemap.xml" in robots
    assert "Disallow: /drafts/" in robots


def test_content_lastmod_is_modified_else_date(main_build: Build) -> None:
    """Articles and pages carry ``Modified:``, else ``Date:``, in TIMEZONE's offset."""
    found = entries(main_build.out)
    assert found[BASE + "hello-pelican.html"]["lastmod"] == "2024-06-01T18:30:00+02:00"
    assert found[BASE + "sitemaps-explained.html"]["lastmod"] == "2024-11-03T09:00:00+01:00"
    assert found[BASE + "a-weekend-in-lyon.html"]["lastmod"] == "2024-09-07T11:00:00+02:00"
    assert found[BASE + "caf%C3%A9-cr%C3%A8me.html"]["lastmod"] == "2024-05-01T00:00:00+02:00"
    assert found[BASE + "pages/about.html"]["lastmod"] == "2024-09-01T12:00:00+02:00"
    for path in DATELESS:
        assert found[BASE + path]["lastmod"] is None, path


@pytest.mark.parametrize(
    ("path", "lastmod"),
    [
        ("blog/", NEWEST),
        ("blog/page/4/", "2024-11-03T09:00:00+01:00"),
        ("archives.html", NEWEST),
        ("tags.html", NEWEST),
        ("category/code.html", "2024-11-03T09:00:00+01:00"),
        ("category/food-drink.html", "2024-08-10T16:20:00+02:00"),
        ("author/bruno-lefevre/page/2/", "2024-05-01T00:00:00+02:00"),
        ("tag/python/page/2/", "2024-06-01T18:30:00+02:00"),
        ("tag/trains.html", NEWEST),
    ],
    ids=lambda value: value.strip("/") or "root",
)
def test_listing_lastmod_is_newest_listed_article(
    main_build: Build, path: str, lastmod: str
) -> None:
    """A listing page (and each pagination page) takes its newest listed article's date."""
    assert entries(main_build.out)[BASE + path]["lastmod"] == lastmod


def test_no_lastmod_is_the_build_time(main_build: Build) -> None:
    """Every listing page has a lastmod and none is later than the newest content (2024)."""
    found = entries(main_build.out)
    for path in LISTINGS:
        value = found[BASE + path]["lastmod"]
        assert isinstance(value, str), path
        assert value.startswith("2024-"), (path, value)


def test_metadata_priority_and_changefreq(main_build: Build) -> None:
    """pelican-sitemap's ``Priority:``/``ChangeFreq:`` metadata still work; nothing else
    gets them by default."""
    found = entries(main_build.out)
    assert found[BASE + "sitemaps-explained.html"]["priority"] == "0.8"
    assert found[BASE + "sitemaps-explained.html"]["changefreq"] == "yearly"
    others = [e for loc, e in found.items() if not loc.endswith("sitemaps-explained.html")]
    assert {(e["priority"], e["changefreq"]) for e in others} == {(None, None)}


@pytest.mark.parametrize(
    ("path", "group"),
    [
        ("hello-pelican.html", ("hello-pelican.html", "hello-pelican-fr.html")),
        ("hello-pelican-fr.html", ("hello-pelican.html", "hello-pelican-fr.html")),
        (
            "caf%C3%A9-cr%C3%A8me-fr.html",
            ("caf%C3%A9-cr%C3%A8me.html", "caf%C3%A9-cr%C3%A8me-fr.html"),
        ),
        ("pages/about.html", ("pages/about.html", "pages/about-fr.html")),
    ],
    ids=["article", "translation", "non-ascii", "page"],
)
def test_translations_have_hreflang_and_x_default(
    main_build: Build, path: str, group: tuple[str, str]
) -> None:
    """Each translated page lists itself, its translation and x-default (the DEFAULT_LANG one)."""
    english, french = (BASE + p for p in group)
    assert entries(main_build.out)[BASE + path]["alternates"] == {
        "en": english,
        "fr": french,
        "x-default": english,
    }


def test_alternates_point_at_listed_pages(main_build: Build) -> None:
    """Every alternate is itself listed, and only translated pages have alternates."""
    found = entries(main_build.out)
    with_alternates = {loc for loc, e in found.items() if e["alternates"]}
    assert len(with_alternates) == 6
    for loc in with_alternates:
        alternates = found[loc]["alternates"]
        assert isinstance(alternates, dict)
        assert loc in alternates.values()
        assert set(alternates.values()) <= set(found)


# --- Other settings -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def variant_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The simple theme, RELATIVE_URLS and a SITEURL with a path."""
    folder = tmp_path_factory.mktemp("variant")
    site = copy_site(folder / "site")
    return built(
        pelican(
            site,
            folder / "out",
            'THEME="simple"',
            "RELATIVE_URLS=true",
            'SITEURL="https://example.org/blog"',
            verbose=True,
        )
    )


def test_simple_theme_relative_urls_and_path(
    main_build: Build, variant_build: Build, sitemap_urls
) -> None:
    """Theme, RELATIVE_URLS and a SITEURL path change only the base of each URL, and the
    media of pages whose content the theme shows otherwise (the simple theme's listings show
    summaries, not the newest article whole): an article's own media stay the same."""
    moved = "https://example.org/blog/"
    expected = (main_build.out / "sitemap.xml").read_text("utf-8").replace(BASE, moved)
    actual = (variant_build.out / "sitemap.xml").read_text("utf-8")
    media = re.compile(r"\n    <(image:image|video:video)>.*?</\1>", re.DOTALL)
    assert media.sub("", actual) == media.sub("", expected)
    article = re.compile(r"<loc>[^<]*a-weekend-in-lyon\.html</loc>.*?</url>", re.DOTALL)
    own_media = [article.search(text).group() for text in (actual, expected)]  # type: ignore[union-attr]
    assert own_media[0] == own_media[1]
    assert own_media[0].count("<image:image>") == 2
    assert own_media[0].count("<video:video>") == 2
    assert set(sitemap_urls(variant_build.out)) == {
        url.replace(BASE, moved) for url in EXPECTED_URLS
    }
    # robots.txt below the host root is not the host's: a fragment is written instead.
    assert "Sitemap:" not in (variant_build.out / "robots.txt").read_text("utf-8")
    fragment = (variant_build.out / "robots-sitemap.txt").read_text("utf-8")
    assert f"Sitemap: {moved}sitemap.xml" in fragment


@pytest.fixture(scope="module")
def clean_urls_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """Extensionless URLs: ``ARTICLE_URL = "{slug}"``; the files are still ``{slug}.html``."""
    folder = tmp_path_factory.mktemp("clean-urls")
    site = copy_site(folder / "site")
    return built(
        pelican(
            site,
            folder / "out",
            'ARTICLE_URL="{slug}"',
            'ARTICLE_LANG_URL="{slug}-{lang}"',
            'PAGE_URL="pages/{slug}"',
            'PAGE_LANG_URL="pages/{slug}-{lang}"',
        )
    )


def test_content_is_listed_at_the_url_pelican_links_to(
    clean_urls_build: Build, sitemap_urls
) -> None:
    """A server rewrite adds ``.html``: the sitemap lists ``slug``, as the site links to it.

    The home page (URL "") and the page whose own URL is its file (``tag/python.html``) keep
    their URLs; listings follow their own settings, unchanged here. Alternates name the
    same URLs, so every one of them is listed.
    """
    clean = {path for path in CONTENT if path.endswith(".html") and path != "tag/python.html"}
    expected = {BASE + (path.removesuffix(".html") if path in clean else path)
                for path in CONTENT + LISTINGS}
    assert set(sitemap_urls(clean_urls_build.out)) == expected
    found = entries(clean_urls_build.out)
    translated = {loc for loc, e in found.items() if e["alternates"]}
    assert BASE + "hello-pelican-fr" in translated
    for loc in translated:
        alternates = found[loc]["alternates"]
        assert isinstance(alternates, dict)
        assert set(alternates.values()) <= set(found)


@pytest.fixture(scope="module")
def static_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """``static_html``, a PDF extension and ``lastmod_file_time`` (source file times)."""
    folder = tmp_path_factory.mktemp("static")
    site = copy_site(folder / "site")
    for name in ("downloads/slides.html", "downloads/cheatsheet.pdf", "pages/contact.md"):
        os.utime(site / "content" / name, (1_700_000_000, 1_700_000_000))
    return built(
        pelican(
            site,
            folder / "out",
            'SITEMAP_PLUGINS={"static_html": true, '
            '"extensions": [".html", ".pdf"], "lastmod_file_time": true}',
        )
    )


def test_static_html_and_source_file_times(static_build: Build, sitemap_urls) -> None:
    """Static HTML and PDFs are listed on request; file times are the sources', not output's."""
    extra = {BASE + "downloads/slides.html", BASE + "downloads/cheatsheet.pdf"}
    assert set(sitemap_urls(static_build.out)) == EXPECTED_URLS | extra
    found = entries(static_build.out)
    for url in (*extra, BASE + "pages/contact.html"):
        assert found[url]["lastmod"] == "2023-11-14T22:13:20Z", url
    assert found[BASE + "blog/"]["lastmod"] == NEWEST
    assert found[BASE + "hello-pelican.html"]["lastmod"] == "2024-06-01T18:30:00+02:00"
    assert found[BASE]["lastmod"] != "2023-11-14T22:13:20Z"  # home.md keeps its own time


@pytest.fixture(scope="module")
def i18n_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The i18n_subsites plugin with a French sub-site at /fr/."""
    pytest.importorskip("pelican.plugins.i18n_subsites")
    folder = tmp_path_factory.mktemp("i18n")
    site = copy_site(folder / "site")
    return built(
        pelican(
            site,
            folder / "out",
            'PLUGINS=["sitemap_plugins.pelican", "pelican.plugins.i18n_subsites"]',
            'I18N_SUBSITES={"fr": {}}',
            verbose=True,
        )
    )


FRENCH = [
    "fr/archives.html",
    "fr/authors.html",
    "fr/caf%C3%A9-cr%C3%A8me.html",
    "fr/categories.html",
    "fr/hello-pelican.html",
    "fr/tags.html",
    "fr/author/alice-martin.html",
    "fr/author/bruno-lefevre.html",
    "fr/blog/",
    "fr/category/code.html",
    "fr/category/food-drink.html",
    "fr/pages/about.html",
    "fr/tag/coffee.html",
    "fr/tag/paris.html",
    "fr/tag/pelican.html",
]


def test_i18n_subsite_with_a_relative_siteurl_is_listed(
    tmp_path: Path, i18n_build: Build, sitemap_urls
) -> None:
    """A sub-site whose SITEURL is relative ("/fr", seen on a real bilingual blog: 43 % of its
    pages vanished without a word) is read against the main SITEURL: the same sitemap."""
    site = copy_site(tmp_path / "site")
    relative = built(pelican(
        site, tmp_path / "out",
        'PLUGINS=["sitemap_plugins.pelican", "pelican.plugins.i18n_subsites"]',
        'I18N_SUBSITES={"fr": {"SITEURL": "/fr"}}'))
    assert set(sitemap_urls(relative.out)) == set(sitemap_urls(i18n_build.out))
    assert relative.messages("WARNING") == []


def test_i18n_subsite_that_cannot_be_placed_is_warned_about(tmp_path: Path) -> None:
    """Pages left out for a reason not in the pages themselves get a warning with the count."""
    site = copy_site(tmp_path / "site")
    done = pelican(
        site, tmp_path / "out",
        'PLUGINS=["sitemap_plugins.pelican", "pelican.plugins.i18n_subsites"]',
        'I18N_SUBSITES={"fr": {"SITEURL": "https://fr.example.net"}}', fatal=False)
    warnings = [m for m in done.messages("WARNING") if "i18n sub-sites are not listed" in m]
    assert len(warnings) == 1
    assert warnings[0].startswith("Sitemap: ")
    assert "pages of i18n sub-sites are not listed" in warnings[0]


def test_i18n_subsites_share_one_sitemap(i18n_build: Build, sitemap_urls) -> None:
    """Sub-site pages are listed with their /fr/ prefix in the one sitemap at the root."""
    moved = {
        BASE + p
        for p in ("hello-pelican-fr.html", "caf%C3%A9-cr%C3%A8me-fr.html", "pages/about-fr.html")
    }
    urls = sitemap_urls(i18n_build.out)
    assert len(urls) == len(set(urls))
    assert set(urls) == (EXPECTED_URLS - moved) | {BASE + p for p in FRENCH}
    assert not (i18n_build.out / "fr" / "sitemap.xml").exists()
    assert i18n_build.messages("WARNING") == []


def test_i18n_subsites_alternates(i18n_build: Build) -> None:
    """Translations point across sites, with clean absolute URLs and x-default."""
    found = entries(i18n_build.out)
    group = {
        "en": BASE + "hello-pelican.html",
        "fr": BASE + "fr/hello-pelican.html",
        "x-default": BASE + "hello-pelican.html",
    }
    assert found[BASE + "hello-pelican.html"]["alternates"] == group
    assert found[BASE + "fr/hello-pelican.html"]["alternates"] == group
    assert found[BASE + "fr/pages/about.html"]["alternates"] == {
        "en": BASE + "pages/about.html",
        "fr": BASE + "fr/pages/about.html",
        "x-default": BASE + "pages/about.html",
    }


@pytest.mark.golden
def test_i18n_subsites_golden(i18n_build: Build, golden) -> None:
    """The i18n_subsites sitemap matches its reviewed golden."""
    golden(i18n_build.out, EXPECTED / "i18n_subsites", ["sitemap.xml", "sitemap.txt"])


def test_development_build_is_a_note_and_passes_fatal_warnings(tmp_path: Path) -> None:
    """pelican-quickstart's pelicanconf.py (SITEURL = "", RELATIVE_URLS = True) is for
    previewing: one info line, no sitemap, and ``--fatal warnings`` passes."""
    site = copy_site(tmp_path / "site")
    # As pelican-quickstart writes it: no feeds while developing.
    no_feeds = [f"{name}=null" for name in ("FEED_ALL_ATOM", "CATEGORY_FEED_ATOM",
                                            "TRANSLATION_FEED_ATOM", "AUTHOR_FEED_ATOM",
                                            "AUTHOR_FEED_RSS")]
    build = built(pelican(site, tmp_path / "out", 'SITEURL=""', "RELATIVE_URLS=true",
                          *no_feeds, verbose=True))
    assert build.ours("WARNING") == []
    assert [m for m in build.ours("INFO") if "development build" in m] == [
        ("Sitemap: not written for this development build (no SITEURL, RELATIVE_URLS on): a "
         "sitemap lists absolute URLs; the build with your publish settings (SITEURL set, "
         "usually publishconf.py) writes it.")]
    assert not (tmp_path / "out" / "sitemap.xml").exists()


@pytest.mark.parametrize("i18n", [False, True], ids=["plain", "i18n_subsites"])
def test_empty_siteurl_warns_once_and_writes_nothing(tmp_path: Path, i18n: bool) -> None:
    """A publish build (RELATIVE_URLS off) with SITEURL = "": one clear warning, no sitemap."""
    if i18n:
        pytest.importorskip("pelican.plugins.i18n_subsites")
    site = copy_site(tmp_path / "site")
    extra = (
        [
            'PLUGINS=["sitemap_plugins.pelican", "pelican.plugins.i18n_subsites"]',
            'I18N_SUBSITES={"fr": {}}',
        ]
        if i18n
        else []
    )
    build = built(pelican(site, tmp_path / "out", 'SITEURL=""', *extra, fatal=False))
    assert build.ours("WARNING") == [
        (
            "Sitemap: SITEURL '' is not an absolute URL, so no sitemap was written: a sitemap "
            "lists absolute URLs. Set SITEURL to the public URL of the site (usually in "
            "publishconf.py)."
        )
    ]
    assert not (tmp_path / "out" / "sitemap.xml").exists()
    assert "Sitemap:" not in (tmp_path / "out" / "robots.txt").read_text("utf-8")


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            'SITEMAP_PLUGINS={"gzip": "yes"}',
            "SITEMAP_PLUGINS['gzip']: Expected a boolean but received: 'yes' (str)",
        ),
        (
            'SITEMAP_PLUGINS={"sitemap_nmae": "map"}',
            "SITEMAP_PLUGINS['sitemap_nmae']: Unrecognised option. Did you mean 'sitemap_name'?",
        ),
        (
            'SITEMAP={"format": "html"}',
            "SITEMAP['format']: Expected 'xml' or 'txt' but received: 'html' (str)",
        ),
        (
            'SITEMAP_PLUGINS={"sitemap_name": "robots"}',
            ("SITEMAP_PLUGINS['sitemap_name']: Expected a name whose files are not robots.txt "
             "or robots-sitemap.txt but received: 'robots' (str)"),
        ),
        (
            'SITEMAP_PLUGINS={"indexnow_key": "short"}',
            ("SITEMAP_PLUGINS['indexnow_key']: Expected a key of 8 to 128 characters of a-z, "
             "A-Z, 0-9 and '-' but received: 'short' (str)"),
        ),
    ],
    ids=["type", "typo", "legacy", "robots-name", "indexnow-key"],
)
def test_bad_settings_stop_the_build(tmp_path: Path, setting: str, message: str) -> None:
    """A bad setting stops Pelican with one message naming the setting, and no traceback
    (Pelican 4.12 prints one for any exception that reaches it)."""
    site = copy_site(tmp_path / "site")
    build = pelican(site, tmp_path / "out", setting)
    assert build.returncode == 1
    assert build.messages("CRITICAL") == [f"SettingsError: {message}"]
    assert "Traceback" not in build.log
    assert not (tmp_path / "out" / "sitemap.xml").exists()


# The same bad value, written as each host writes a page's own values: (MkDocs front matter,
# Pelican metadata, the message both give).
_BAD_PAGE_VALUES = [
    ("sitemap:\n  priority: high\n", "Priority: high",
     ("Page 'bad.md' sitemap value 'priority': Expected a number from 0.0 to 1.0 but received: "
      "'high' (str)")),
    ("sitemap:\n  changefreq: sometimes\n", "ChangeFreq: sometimes",
     ("Page 'bad.md' sitemap value 'changefreq': Expected one of: 'always', 'hourly', 'daily', "
      "'weekly', 'monthly', 'yearly', 'never' but received: 'sometimes' (str)")),
    ("sitemap:\n  lastmod: soon\n", "Lastmod: soon",
     ("Page 'bad.md' sitemap value 'lastmod': Expected a date such as 2024-05-06 or "
      "2024-05-06T10:00:00+02:00 but received: 'soon' (str)")),
    ("sitemap: maybe\n", "Sitemap: maybe",
     "Page 'bad.md' sitemap value 'sitemap': Expected true or false but received: 'maybe' (str)"),
]


@pytest.mark.parametrize(("front", "metadata", "message"), _BAD_PAGE_VALUES,
                         ids=["priority", "changefreq", "lastmod", "sitemap"])
def test_a_bad_page_value_stops_mkdocs_and_pelican_alike(
    tmp_path: Path, front: str, metadata: str, message: str,
) -> None:
    """A bad page value stops both hosts with the same message naming the page. Before,
    Pelican logged a warning, dropped the value and went on."""
    from tests.test_adapter_mkdocs import make_site, run_host  # noqa: PLC0415

    project = make_site(tmp_path / "mk", "site_name: S\nsite_url: https://docs.example.org/\n"
                        "plugins:\n  - sitemap\n",
                        {"index.md": "# Home\n", "bad.md": f"---\n{front}---\n# Bad\n"})
    mkdocs = run_host(project)
    assert mkdocs.returncode == 1
    assert f"ERROR   -  {message}\n" in mkdocs.log
    site = copy_site(tmp_path / "site")
    (site / "content" / "bad.md").write_text(
        f"Title: Bad\nDate: 2024-05-06 10:00\nCategory: Code\n{metadata}\n\nBad.\n", "utf-8")
    build = pelican(site, tmp_path / "out", fatal=False)  # a warning alone would not stop it
    assert build.returncode == 1
    assert build.messages("CRITICAL") == [message]
    assert "Traceback" not in build.log
    assert not (tmp_path / "out" / "sitemap.xml").exists()


def test_announce_feeds_and_key_file(tmp_path: Path, sitemap_urls) -> None:
    """announce_feeds: the home page's Atom feed joins the sitemap in robots.txt, whose own
    bytes are kept; indexnow_key: the key file is at the root, and not in the sitemap."""
    site = copy_site(tmp_path / "site")
    out = tmp_path / "out"
    key = "pelican-key-0042"
    build = built(pelican(
        site, out, f'SITEMAP_PLUGINS={{"announce_feeds": true, "indexnow_key": "{key}"}}',
        'FEED_ALL_ATOM="feeds/all.atom.xml"'))
    assert build.ours("WARNING") == []
    assert (out / "feeds" / "all.atom.xml").is_file()
    original = (SAMPLE / "source" / "content" / "extra" / "robots.txt").read_bytes()
    robots = (out / "robots.txt").read_bytes()
    assert robots.startswith(original)
    assert robots[len(original):].lstrip(b"\n").decode("ascii").splitlines() == [
        f"Sitemap: {BASE}sitemap.xml", f"Sitemap: {BASE}feeds/all.atom.xml"]
    assert (out / f"{key}.txt").read_text("ascii") == key
    assert BASE + f"{key}.txt" not in sitemap_urls(out)


def test_both_plugins_enabled_warns(tmp_path: Path, sitemap_urls) -> None:
    """With pelican-sitemap enabled as well, one warning says to remove it."""
    pytest.importorskip("pelican.plugins.sitemap")
    site = copy_site(tmp_path / "site")
    build = built(
        pelican(
            site,
            tmp_path / "out",
            'PLUGINS=["pelican.plugins.sitemap", "sitemap_plugins.pelican"]',
            fatal=False,
        )
    )
    assert build.ours("WARNING") == [
        (
            "Sitemap: pelican-sitemap (pelican.plugins.sitemap) is enabled too: both plugins "
            "write sitemap.xml and the last to run wins. Remove it from PLUGINS: "
            "sitemap_plugins.pelican replaces it and reads its SITEMAP setting."
        ),
        # The file it wrote is recognised by its bytes, and replaced with a warning.
        (
            "Sitemap: 'sitemap.xml': was a sitemap written by pelican-sitemap; replaced by "
            "this build's (turn that generator's sitemap off so that one tool owns the file)"
        ),
    ]
    assert set(sitemap_urls(tmp_path / "out")) == EXPECTED_URLS  # ours ran last


@pytest.fixture(scope="module")
def legacy_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """pelican-sitemap's SITEMAP dict, left in place when switching plugins."""
    folder = tmp_path_factory.mktemp("legacy")
    site = copy_site(folder / "site")
    return built(
        pelican(
            site,
            folder / "out",
            'SITEMAP={"format": "txt", '
            '"priorities": {"articles": 0.7, "indexes": 0.3}, '
            '"changefreqs": {"pages": "yearly"}, '
            '"exclude": ["^tag/", "^/author/"]}',
            fatal=False,
            verbose=True,
        )
    )


def test_legacy_sitemap_setting_is_translated(legacy_build: Build, sitemap_urls) -> None:
    """``format``, ``priorities``, ``changefreqs`` and ``exclude`` keep their meaning."""
    urls = set(sitemap_urls(legacy_build.out))
    tags = {url for url in EXPECTED_URLS if url.startswith(BASE + "tag/")}
    assert urls == EXPECTED_URLS - tags
    found = entries(legacy_build.out)
    assert found[BASE + "hello-pelican.html"]["priority"] == "0.7"
    assert found[BASE + "sitemaps-explained.html"]["priority"] == "0.8"  # metadata wins
    assert found[BASE + "blog/page/2/"]["priority"] == "0.3"
    assert found[BASE + "pages/contact.html"]["priority"] is None
    assert found[BASE + "pages/contact.html"]["changefreq"] == "yearly"
    assert found[BASE + "hello-pelican.html"]["changefreq"] is None
    assert (legacy_build.out / "sitemap.txt").exists()


def test_legacy_sitemap_translation_is_logged(legacy_build: Build) -> None:
    """The log says what was translated (info) and flags a pattern that can never match."""
    pattern = re.compile(r"Sitemap: translated pelican-sitemap's (SITEMAP\['\w+'\])")
    infos = [m for m in legacy_build.ours("INFO") if pattern.match(m)]
    assert [pattern.match(m).group(1) for m in infos] == [  # type: ignore[union-attr]
        "SITEMAP['format']",
        "SITEMAP['priorities']",
        "SITEMAP['changefreqs']",
        "SITEMAP['exclude']",
    ]
    assert "both formats are written anyway" in infos[0]
    assert legacy_build.ours("WARNING") == [
        (
            "Sitemap: SITEMAP['exclude'] pattern '^/author/' never matches: URLs are matched "
            "without a leading slash (write '^author/')"
        )
    ]


# --- Against pelican-sitemap ----------------------------------------------------------------

_THEIR_URL = re.compile(
    r"<url>\s*<loc>(?P<loc>.*?)</loc>\s*<lastmod>(?P<lastmod>.*?)</lastmod>.*?"
    r"(?P<links>(?:<xhtml:link[^>]*>\s*)*)</url>",
    re.DOTALL,
)
_THEIR_LINK = re.compile(r'<xhtml:link rel="alternate" hreflang="([^"]+)" ref="([^"]+)"/>')


def _differences(theirs_xml: str, ours: dict[str, dict[str, object]]) -> dict[str, set[str]]:
    """URL (relative, decoded) -> what pelican-sitemap does differently from us there."""
    theirs: dict[str, list[re.Match[str]]] = {}
    for match in _THEIR_URL.finditer(theirs_xml):
        theirs.setdefault(unquote(match["loc"])[len(BASE) :], []).append(match)
    mine = {unquote(loc)[len(BASE) :]: entry for loc, entry in ours.items()}
    found: dict[str, set[str]] = {}
    for key in sorted(set(theirs) | set(mine)):
        codes: set[str] = set()
        if key not in mine:
            codes.add("listed by them only")
        if key not in theirs:
            codes.add("listed by us only")
        for match in theirs.get(key, []):
            if len(theirs[key]) > 1:
                codes.add("listed twice by them")
            raw = match["loc"]
            if "&" in raw and "&amp;" not in raw:
                codes.add("unescaped & (not well-formed XML)")
            if not raw.isascii():
                codes.add("raw non-ASCII URL")
            if key in mine and match["lastmod"] != mine[key]["lastmod"]:
                assert match["lastmod"].endswith("-00:00"), (key, match["lastmod"])
                codes.add("build time as lastmod")
            if match["links"]:
                links = dict(_THEIR_LINK.findall(match["links"]))
                assert links, match["links"]  # every one of their links uses ref=
                codes.add("ref= instead of href=, no self or x-default")
        if codes:
            found[key] = codes
    return found


def test_differences_from_pelican_sitemap(baseline_build: Build, main_build: Build) -> None:
    """URL by URL, where pelican-sitemap 1.2 goes wrong on this site and this plugin does not.

    Not asserted: pelican-sitemap also writes priority 0.5 and monthly/daily everywhere,
    values search engines ignore; this plugin writes them only when asked.
    """
    theirs = (baseline_build.out / "sitemap.xml").read_text("utf-8")
    with pytest.raises(etree.XMLSyntaxError):
        etree.fromstring(theirs.encode())
    expected: dict[str, set[str]] = {path: {"build time as lastmod"} for path in LISTINGS}
    expected.update(
        {
            "": {"build time as lastmod"},  # no date: they print the build time, we print none
            "pages/contact.html": {"build time as lastmod"},
            "tag/python.html": {"listed twice by them", "build time as lastmod"},
            "night-train-to-vienna.html": {"listed by them only"},  # Sitemap: false ignored
            "r&d-notes.html": {"unescaped & (not well-formed XML)"},
            "hello-pelican.html": {"ref= instead of href=, no self or x-default"},
            "hello-pelican-fr.html": {"ref= instead of href=, no self or x-default"},
            "pages/about.html": {"ref= instead of href=, no self or x-default"},
            "pages/about-fr.html": {"ref= instead of href=, no self or x-default"},
            "café-crème.html": {"raw non-ASCII URL", "ref= instead of href=, no self or x-default"},
            "café-crème-fr.html": {
                "raw non-ASCII URL",
                "ref= instead of href=, no self or x-default",
            },
        }
    )
    assert _differences(theirs, entries(main_build.out)) == expected
    # Their lastmods for listing pages are one naive build time, not a content date.
    stamps = {m["lastmod"] for m in _THEIR_URL.finditer(theirs) if m["lastmod"].endswith("-00:00")}
    assert len(stamps) == 1
    assert stamps.pop() > "2025"


# --- In-process: settings checks and registration -------------------------------------------

SETTINGS = {"SITEURL": "https://blog.example.org", "DEFAULT_LANG": "en", "TIMEZONE": "Europe/Paris"}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"SITEMAP_PLUGINS": ["gzip"]},
            "SITEMAP_PLUGINS: Expected a dict of sitemap options but received: ['gzip'] (list)",
        ),
        (
            {"SITEMAP_PLUGINS": {"base_url": "https://x.org/"}},
            (
                "SITEMAP_PLUGINS['base_url']: Not a setting here: the base URL is SITEURL. Set SITEURL "
                "instead."
            ),
        ),
        (
            {"SITEMAP_PLUGINS": {"static_htm": True}},
            "SITEMAP_PLUGINS['static_htm']: Unrecognised option. Did you mean 'static_html'?",
        ),
        (
            {"SITEMAP_PLUGINS": {"static_html": "yes"}},
            "SITEMAP_PLUGINS['static_html']: Expected a boolean but received: 'yes' (str)",
        ),
        (
            {"SITEMAP_PLUGINS": {"priority": {"blog/**": 2}}},
            (
                "SITEMAP_PLUGINS['priority']: Key 'blog/**': expected a number from 0.0 to 1.0 but "
                "received: 2 (int)"
            ),
        ),
        (
            {"SITEURL": "ftp://example.org"},
            (
                "SITEURL: Expected an absolute http(s) URL such as 'https://example.org/' but received: "
                "'ftp://example.org'"
            ),
        ),
        (
            {"SITEMAP": "xml"},
            "SITEMAP: Expected a dict (pelican-sitemap's setting) but received: 'xml' (str)",
        ),
        (
            {"SITEMAP": {"formats": "xml"}},
            "SITEMAP['formats']: Unrecognised pelican-sitemap key. Did you mean 'format'?",
        ),
        (
            {"SITEMAP": {"priorities": {"article": 0.5}}},
            (
                "SITEMAP['priorities']['article']: Unrecognised kind of page; expected 'articles', "
                "'pages' or 'indexes'. Did you mean 'articles'?"
            ),
        ),
        (
            {"SITEMAP": {"priorities": {"pages": "high"}}},
            (
                "SITEMAP['priorities']['pages']: Expected a number from 0.0 to 1.0 but received: "
                "'high' (str)"
            ),
        ),
        (
            {"SITEMAP": {"changefreqs": {"pages": "sometimes"}}},
            (
                "SITEMAP['changefreqs']['pages']: Expected one of: 'always', 'hourly', 'daily', "
                "'weekly', 'monthly', 'yearly', 'never' but received: 'sometimes' (str)"
            ),
        ),
        (
            {"SITEMAP": {"exclude": "^tag/"}},
            "SITEMAP['exclude']: Expected a list of regular expressions but received: '^tag/' (str)",
        ),
        (
            {"SITEMAP": {"exclude": ["("]}},
            (
                "SITEMAP['exclude'][0]: Expected a regular expression but received: '(' (missing ), "
                "unterminated subpattern at position 0)"
            ),
        ),
    ],
    ids=[
        "not-dict",
        "base-url",
        "typo",
        "static-type",
        "rule",
        "siteurl",
        "legacy-not-dict",
        "legacy-key",
        "legacy-kind",
        "legacy-priority",
        "legacy-changefreq",
        "legacy-str",
        "legacy-regex",
    ],
)
def test_read_plan_messages(tmp_path: Path, settings: dict[str, object], message: str) -> None:
    """Each bad setting gives one exact message that names it."""
    from sitemap_plugins.pelican import SettingsError, read_plan  # noqa: PLC0415

    with pytest.raises(SettingsError) as caught:
        read_plan({**SETTINGS, "PATH": str(tmp_path / "content"), **settings})
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("siteurl", "usable"),
    [
        ("", False),
        ("/blog", False),
        ("//blog.example.org", False),
        ("https://blog.example.org", True),
        ("http://localhost:8000/site", True),
    ],
    ids=["empty", "root-relative", "scheme-relative", "absolute", "path"],
)
def test_read_plan_siteurl(tmp_path: Path, siteurl: str, usable: bool) -> None:
    """An empty or relative SITEURL is no error (dev builds) but leaves no base URL."""
    from sitemap_plugins.pelican import read_plan  # noqa: PLC0415

    plan = read_plan({**SETTINGS, "SITEURL": siteurl, "PATH": str(tmp_path / "content")})
    assert (plan.base is not None) is usable
    assert plan.config.cache_dir == str(tmp_path.resolve() / ".sitemap-cache")


def test_rerun_of_one_instance_starts_afresh(tmp_path: Path, sitemap_urls) -> None:
    """A second ``run()`` of the same instance (autoreload) forgets the first run. A new page
    keeps Pelican's date; a listing whose content changed takes the build that saw it, when
    that is later than the newest article it lists (issue 16: the latest known change)."""
    from pelican import Pelican  # noqa: PLC0415
    from pelican.settings import read_settings  # noqa: PLC0415

    site = copy_site(tmp_path / "site")
    out = tmp_path / "out"
    settings = read_settings(str(site / "pelicanconf.py"), override={"OUTPUT_PATH": str(out)})
    instance = Pelican(settings)
    # The first build a week before the second: a build dated before the last one is taken
    # for a clock set back, and keeps the last one's time (the history never goes back).
    os.environ["SOURCE_DATE_EPOCH"] = "1749513600"  # 2025-06-10T00:00:00Z
    try:
        instance.run()
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]
    assert set(sitemap_urls(out)) == EXPECTED_URLS
    (site / "content" / "travel" / "weekend-in-lyon.md").unlink()
    (site / "content" / "food" / "galette.md").write_text(
        "Title: Galette des rois\nLang: en\nDate: 2024-12-24 10:00\nCategory: Food & Drink\n"
        "Tags: baking\nAuthor: Bruno Lefèvre\n\nFrangipane.\n",
        encoding="utf-8",
    )
    os.environ["SOURCE_DATE_EPOCH"] = "1750118400"  # 2025-06-17T00:00:00Z
    try:
        instance.run()
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]
    # The deleted post and the second pages of its three listings are not written by this
    # build; their files stay on disk (DELETE_OUTPUT_DIRECTORY is False) but are not listed.
    gone = [
        "a-weekend-in-lyon.html",
        "category/travel/page/2/",
        "tag/paris/page/2/",
        "tag/trains/page/2/",
    ]
    new = ["galette-des-rois.html", "category/food-drink/page/2/"]
    assert (out / "tag" / "paris" / "page" / "2" / "index.html").exists()
    assert set(sitemap_urls(out)) == (EXPECTED_URLS - {BASE + p for p in gone}) | {
        BASE + p for p in new
    }
    found = entries(out)
    assert found[BASE + "galette-des-rois.html"]["lastmod"] == "2024-12-24T10:00:00+01:00"
    for path in ("blog/", "tag/baking.html", "category/food-drink.html"):  # now list it
        assert found[BASE + path]["lastmod"] == "2025-06-17T00:00:00Z", path
    assert [loc for loc, e in found.items()
            if (e["lastmod"] or "") > "2025" and e["lastmod"] != "2025-06-17T00:00:00Z"] == []


def test_register_is_idempotent() -> None:
    """Registering twice (i18n sub-sites, tests) connects each receiver once."""
    from pelican.plugins import signals  # noqa: PLC0415

    from sitemap_plugins import pelican as adapter  # noqa: PLC0415

    adapter.register()
    adapter.register()
    pairs = [
        (signals.initialized, adapter.on_initialized),
        (signals.get_generators, adapter.on_get_generators),
        (signals.content_written, adapter.on_content_written),
        (signals.static_generator_finalized, adapter.on_static_finalized),
        (signals.finalized, adapter.on_finalized),
    ]
    for signal, receiver in pairs:
        connected = [
            ref
            for ref in signal.receivers.values()
            if (ref() if isinstance(ref, weakref.ref) else ref) is receiver
        ]
        assert len(connected) == 1, signal.name


def test_news_sitemap_lists_the_articles_of_the_last_two_days(tmp_path: Path, xsd) -> None:
    """With news on, built on 2024-01-16 at noon: the two articles of the 15th and 16th,
    newest first, with Pelican's article dates; older articles and pages are not news. The
    file is named in robots.txt, validates against the news XSD, and check accepts it."""
    site = copy_site(tmp_path / "site")
    news = 'SITEMAP_PLUGINS={"news": {"name": "Example Blog", "language": "en"}}'
    noon = int(datetime(2024, 1, 16, 12, 0, tzinfo=timezone.utc).timestamp())
    build = built(pelican(site, tmp_path / "out", news, epoch=noon, verbose=True))
    path = tmp_path / "out" / "sitemap-news.xml"
    document = etree.parse(str(path))
    assert xsd["urlset"].validate(document), xsd["urlset"].error_log
    news_ns = "{http://www.google.com/schemas/sitemap-news/0.9}"
    found = [(url.findtext(f"{SM}loc"), url.findtext(f"{news_ns}news/{news_ns}publication_date"),
              url.findtext(f"{news_ns}news/{news_ns}title"),
              url.findtext(f"{news_ns}news/{news_ns}publication/{news_ns}name"),
              url.findtext(f"{news_ns}news/{news_ns}publication/{news_ns}language"))
             for url in document.getroot()]
    assert found == [  # each in its own language (the page's <html lang>)
        (f"{BASE}hello-pelican-fr.html", "2024-01-16T09:00:00+01:00", "Bonjour, Pelican",
         "Example Blog", "fr"),
        (f"{BASE}hello-pelican.html", "2024-01-15T10:00:00+01:00", "Hello, Pelican",
         "Example Blog", "en"),
    ]
    robots = (tmp_path / "out" / "robots.txt").read_text("utf-8")
    assert f"Sitemap: {BASE}sitemap-news.xml" in robots
    assert "2 news articles" in build.log
    assert "sitemap-news" not in (tmp_path / "out" / "sitemap.txt").read_text("utf-8")
    checked = subprocess.run([sys.executable, "-m", "sitemap_plugins", "check",
                              str(tmp_path / "out"), "--base-url", BASE], capture_output=True,
                             text=True, cwd=ROOT, check=False)
    assert checked.returncode == 0, checked.stdout
    # A year later nothing is recent: the file is rewritten empty, so old articles drop out.
    built(pelican(site, tmp_path / "out", news, epoch=noon + 366 * 86400))
    assert "<url>" not in path.read_text("utf-8")


def test_a_page_without_a_date_is_dated_by_its_sources_last_commit(tmp_path: Path) -> None:
    """``git_dates``: a page with no Date: or Modified: gets its source's last commit date;
    an article keeps its Date: even when git says its file came later (a blog moved into
    git in one commit); ``git_dates: False`` leaves the page undated."""
    from tests.test_adapter_mkdocs import git  # noqa: PLC0415

    site = copy_site(tmp_path / "source")
    git(site, "init", "-q", "-b", "main")
    git(site, "add", "-A")
    git(site, "commit", "-q", "-m", "the blog moves into git", when="2025-03-04T05:06:07+00:00")
    contact = site / "content" / "pages" / "contact.md"
    contact.write_text(contact.read_text("utf-8") + "\nOr call.\n", "utf-8")
    git(site, "commit", "-q", "-am", "contact edited", when="2025-05-06T07:08:09+00:00")
    found = entries(built(pelican(site, tmp_path / "out")).out)
    assert found[BASE + "pages/contact.html"]["lastmod"] == "2025-05-06T07:08:09Z"
    assert found[BASE + "hello-pelican.html"]["lastmod"] == "2024-06-01T18:30:00+02:00"
    settings = json.dumps({"git_dates": False, "cache_dir": str(tmp_path / "no-history")})
    off = entries(built(pelican(site, tmp_path / "off", f"SITEMAP_PLUGINS={settings}")).out)
    assert off[BASE + "pages/contact.html"]["lastmod"] is None


def test_file_times_are_never_the_author_s_date(tmp_path: Path) -> None:
    """Under ``DEFAULT_DATE = 'fs'`` Pelican fills missing dates with the sources' file
    times: a dated article keeps its Date:, an undated page gets no lastmod, and touching
    every source moves no lastmod on a build without a cache."""
    site = copy_site(tmp_path / "source")
    settings = ('DEFAULT_DATE="fs"',
                f"SITEMAP_PLUGINS={json.dumps({'fingerprint': False})}")
    first = entries(built(pelican(site, tmp_path / "1", *settings)).out)
    # Three days back: a file time in the future would be no date at all (check refuses one).
    later = datetime.now(tz=timezone.utc).timestamp() - 86_400 * 3
    for source in (site / "content").rglob("*"):
        if source.is_file():
            os.utime(source, (later, later))
    again = entries(built(pelican(site, tmp_path / "2", *settings)).out)
    assert {loc: e["lastmod"] for loc, e in again.items()} == {
        loc: e["lastmod"] for loc, e in first.items()}
    assert first[BASE + "hello-pelican.html"]["lastmod"] == "2024-06-01T18:30:00+02:00"
    assert first[BASE + "pages/contact.html"]["lastmod"] is None
    this_year = str(datetime.now(tz=timezone.utc).year)
    assert not [loc for loc, e in first.items() if str(e["lastmod"]).startswith(this_year)]
    # Under lastmod_file_time the file time is used, in UTC, never in the site's offset.
    timed = json.dumps({"fingerprint": False, "lastmod_file_time": True})
    stamped = entries(built(pelican(site, tmp_path / "3", 'DEFAULT_DATE="fs"',
                                    f"SITEMAP_PLUGINS={timed}")).out)
    expected = datetime.fromtimestamp(int(later), tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert stamped[BASE + "pages/contact.html"]["lastmod"] == expected
    assert stamped[BASE + "hello-pelican.html"]["lastmod"] == "2024-06-01T18:30:00+02:00"


NEST_BASE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ SITENAME }}</title></head>
<body>
<div class="header-container"><div class="header-nav">
<a href="{{ SITEURL }}/">Home</a>
{% for p in pages %}<a href="{{ SITEURL }}/{{ p.url }}">{{ p.title }}</a>{% endfor %}
</div><img class="mr20" src="{{ SITEURL }}/theme/logo.png" alt="logo"></div>
<div class="container content">{% block content %}{% endblock %}</div>
<div class="footer gradient-2">Powered by Pelican</div>
</body></html>
"""
NEST_LIST = """{% extends "base.html" %}{% block content %}<dl>
{% for a in (articles_page.object_list if articles_page else articles) %}
<dt>{{ a.locale_date }}</dt><dd><a href="{{ SITEURL }}/{{ a.url }}">{{ a.title }}</a></dd>
{% endfor %}</dl>{% endblock %}
"""
NEST_TEMPLATES = {
    "base.html": NEST_BASE,
    "article.html": '{% extends "base.html" %}{% block content %}<h1>{{ article.title }}</h1>'
                    "{{ article.content }}{% endblock %}",
    "page.html": '{% extends "base.html" %}{% block content %}<h1>{{ page.title }}</h1>'
                 "{{ page.content }}{% endblock %}",
    **dict.fromkeys(("index.html", "tag.html", "category.html", "author.html",
                     "archives.html", "period_archives.html"), NEST_LIST),
    **dict.fromkeys(("tags.html", "categories.html", "authors.html"),
                    '{% extends "base.html" %}{% block content %}{% endblock %}'),
}


def test_a_menu_link_on_every_page_of_a_theme_without_landmarks_moves_no_lastmod(
    tmp_path: Path,
) -> None:
    """A theme shaped like molivier/nest (no main, article, nav, header or footer: the menu
    sits in plain divs of the body): turning on ``html_sitemap``, which adds one menu link to
    every page, changes no page's content, so no lastmod moves."""
    site = copy_site(tmp_path / "source")
    for name, text in NEST_TEMPLATES.items():
        (site / "nest" / "templates").mkdir(parents=True, exist_ok=True)
        (site / "nest" / "templates" / name).write_text(text, "utf-8")
    changes = tmp_path / "changes.json"
    options = {"cache_dir": str(tmp_path / "cache"), "changes_file": str(changes)}
    theme = 'THEME="nest"'
    before = entries(built(pelican(site, tmp_path / "out", theme,
                                   f"SITEMAP_PLUGINS={json.dumps(options)}", epoch=1_750_000_000)).out)
    with_map = {**options, "html_sitemap": "sitemap/index.html"}
    out = built(pelican(site, tmp_path / "out", theme,
                        f"SITEMAP_PLUGINS={json.dumps(with_map)}", epoch=1_760_000_000)).out
    assert 'href="https://blog.example.org/sitemap/"' in (out / "pages" / "contact.html").read_text(
        "utf-8")
    after = entries(out)
    assert {loc: e["lastmod"] for loc, e in after.items() if loc in before} == {
        loc: e["lastmod"] for loc, e in before.items()}
    assert json.loads(changes.read_text("utf-8"))["changed"] == []


def test_i18n_untranslated_copies_are_left_out_and_an_unknown_code_is_named(
    tmp_path: Path, sitemap_urls
) -> None:
    """With ``I18N_UNTRANSLATED_ARTICLES/PAGES = "keep"`` a sub-site holds copies of the pages
    it has no translation of (``cz/sitemaps-explained-en.html``): they are left out as
    mkdocs-static-i18n's fallback copies are, and ``cz`` (Czech is ``cs``) gets one warning
    naming the setting it came from."""
    pytest.importorskip("pelican.plugins.i18n_subsites")
    site = copy_site(tmp_path / "site")
    done = pelican(
        site, tmp_path / "out",
        'PLUGINS=["sitemap_plugins.pelican", "pelican.plugins.i18n_subsites"]',
        'I18N_SUBSITES={"cz": {}, "fr": {}}', 'I18N_UNTRANSLATED_ARTICLES="keep"',
        'I18N_UNTRANSLATED_PAGES="keep"', fatal=False, verbose=True)
    assert done.returncode == 0, done.log
    copies = sorted(p.relative_to(done.out).as_posix()
                    for p in (done.out / "cz").rglob("*-en.html"))
    assert "cz/sitemaps-explained-en.html" in copies
    urls = set(sitemap_urls(done.out))
    assert not {BASE + rel for rel in copies} & urls
    assert BASE + "sitemaps-explained.html" in urls
    assert done.ours("WARNING") == [(
        "Sitemap: I18N_SUBSITES key 'cz' is not an ISO 639-1 language code: search engines "
        "ignore hreflang links in it")]
    assert "i18n fallback copy of an untranslated page" in done.log

"""The MkDocs plugin, driven through real ``mkdocs build`` (and ``properdocs build``) runs.

Every scenario builds once into ``tmp_path`` and is shared through module-scoped fixtures.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from lxml import etree

pytest.importorskip("mkdocs")

from sitemap_plugins.mkdocs import _PluginConfig
from sitemap_plugins.vocab.options import BUILD_OPTIONS

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_sites" / "mkdocs"
BASE = "https://example.org/project/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
CAFE = "r%C3%A9f%C3%A9rence/caf%C3%A9/"
# The sample site's sitemap, by hand: 10 English pages, 3 real French translations.
SAMPLE_URLS = {
    BASE,
    f"{BASE}about/",
    f"{BASE}guide/",
    f"{BASE}guide/install/",
    f"{BASE}guide/advanced/",
    f"{BASE}guide/advanced/tuning/",
    f"{BASE}news/",
    f"{BASE}media/",
    f"{BASE}q%26a/",
    f"{BASE}{CAFE}",
    f"{BASE}fr/",
    f"{BASE}fr/guide/",
    f"{BASE}fr/{CAFE}",
}
OUTPUT_FILES = ["sitemap.xml", "sitemap.xml.gz", "sitemap.txt", "robots-sitemap.txt"]
GOLDEN_FILES = ["sitemap.xml", "sitemap.txt", "robots-sitemap.txt"]
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
}


@dataclass
class Build:
    """One finished host run: its project folder, output folder, exit code and log."""

    project: Path
    site: Path
    returncode: int
    log: str

    @property
    def warnings(self) -> list[str]:
        return [line for line in self.log.splitlines() if line.startswith("WARNING")]

    def lastmods(self) -> dict[str, str | None]:
        root = etree.parse(str(self.site / "sitemap.xml")).getroot()
        return {
            url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
            for url in root.iterfind("s:url", NS)
        }

    def url_element(self, loc: str) -> etree._Element:
        root = etree.parse(str(self.site / "sitemap.xml")).getroot()
        for url in root.iterfind("s:url", NS):
            if url.findtext("s:loc", namespaces=NS) == loc:
                return url
        pytest.fail(f"{loc} is not in {self.site / 'sitemap.xml'}")


def _env(base_temp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env.update(GIT_ENV)
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["DISABLE_MKDOCS_2_WARNING"] = "true"
    # Never pick up a repository around the temporary folder: git dates only where a test
    # makes its own repository.
    env["GIT_CEILING_DIRECTORIES"] = str(base_temp)
    return env


def run_host(
    project: Path, *args: str, tool: str = "mkdocs", site: str = "site", config: str = "mkdocs.yml"
) -> Build:
    """Run ``python -m <tool> build`` on ``project`` and return what it did."""
    done = subprocess.run(
        [sys.executable, "-m", tool, "build", "-f", config, "-d", site, *args],
        cwd=project, env=_env(project.parent), capture_output=True, text=True, timeout=180,
        check=False,
    )
    return Build(project, project / site, done.returncode, done.stdout + done.stderr)


def copy_sample(target: Path, *, edit: Callable[[str], str] | None = None) -> Path:
    """A copy of the sample project, with ``edit`` applied to its mkdocs.yml."""
    # A local build of the sample leaves site/ and a manifest behind; neither is source.
    shutil.copytree(SAMPLE / "source", target,
                    ignore=shutil.ignore_patterns("site", ".sitemap-cache"))
    if edit is not None:
        config = target / "mkdocs.yml"
        config.write_text(edit(config.read_text("utf-8")), "utf-8")
    return target


def make_site(target: Path, config: str, pages: dict[str, str]) -> Path:
    """A small MkDocs project: ``mkdocs.yml`` text and ``docs/`` files."""
    target.mkdir(parents=True)
    (target / "mkdocs.yml").write_text(config, "utf-8")
    for name, text in pages.items():
        path = target / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return target


def git(repo: Path, *args: str, when: str | None = None) -> None:
    env = {**os.environ, **GIT_ENV}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


# -- shared builds --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The sample site (Material, i18n, redirects), built with --strict."""
    project = copy_sample(tmp_path_factory.mktemp("sample") / "project")
    return run_host(project, "--strict")


@pytest.fixture(scope="module")
def sample_again(sample: Build) -> Build:
    """The same project built a second time, into another folder."""
    return run_host(sample.project, "--strict", site="site-again")


@pytest.fixture(scope="module")
def builtin(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The sample site without our plugin: what MkDocs (and i18n's template) write."""
    project = copy_sample(
        tmp_path_factory.mktemp("builtin") / "project",
        edit=lambda text: text.replace("  - sitemap\n", ""),
    )
    return run_host(project)


@pytest.fixture(scope="module")
def flat(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The sample site with use_directory_urls: false."""
    project = copy_sample(
        tmp_path_factory.mktemp("flat") / "project",
        edit=lambda text: text.replace("use_directory_urls: true", "use_directory_urls: false"),
    )
    return run_host(project, "--strict")


@pytest.fixture(scope="module")
def properdocs(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The sample site built by ``properdocs build``."""
    pytest.importorskip("properdocs")
    project = copy_sample(tmp_path_factory.mktemp("properdocs") / "project")
    return run_host(project, "--strict", tool="properdocs")


def _simple_config(theme: str, *, site_url: str | None = "https://docs.example.org/",
                   plugin: str = "  - sitemap\n") -> str:
    url = f"site_url: {site_url}\n" if site_url else ""
    return f"site_name: Simple\n{url}theme: {theme}\nplugins:\n  - search\n{plugin}"


SIMPLE_PAGES = {
    "index.md": "# Home\n",
    "guide.md": "---\nsitemap:\n  priority: 0.3\n---\n# Guide\n",
    "hidden.md": "---\nsitemap: false\n---\n# Hidden\n",
    "static/report.html": "<!DOCTYPE html><html><head><title>R</title></head><body></body></html>\n",
}


@pytest.fixture(scope="module")
def themes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Build]:
    """A small site built with each of MkDocs' own themes."""
    base = tmp_path_factory.mktemp("themes")
    return {
        theme: run_host(make_site(base / theme, _simple_config(theme), SIMPLE_PAGES), "--strict")
        for theme in ("mkdocs", "readthedocs")
    }


# -- options ------------------------------------------------------------------------------


def test_plugin_options_are_the_option_table():
    """mkdocs.yml knows exactly the table's build options; unset, each takes the core's default."""
    schema = dict(_PluginConfig._schema)
    assert list(schema) == [option.name for option in BUILD_OPTIONS]
    assert {option.default for option in schema.values()} == {None}


# -- the sample site ------------------------------------------------------------------------


def test_sample_builds_strict_without_warnings(sample: Build):
    """The sample site passes ``mkdocs build --strict`` with no warning at all."""
    assert sample.returncode == 0, sample.log
    assert sample.warnings == []


def test_sample_lists_exactly_the_expected_urls(sample: Build, sitemap_urls):
    """Every sitemap file is schema-valid and lists exactly the pages that should be found."""
    urls = sitemap_urls(sample.site)
    assert len(urls) == len(set(urls))
    assert set(urls) == SAMPLE_URLS


@pytest.mark.golden
def test_sample_media_page_lists_content_media_only(sample: Build, sitemap_urls):
    """The media page's images and videos are listed; the header logo is not, and the
    Vimeo embed without a thumbnail is counted in the summary instead."""
    url = sample.url_element("https://example.org/project/media/")
    images = [e.text for e in url.iterfind("{http://www.google.com/schemas/sitemap-image/1.1}"
                                           "image/{http://www.google.com/schemas/sitemap-image/1.1}loc")]
    assert images == ["https://example.org/project/images/diagram.png",
                      "https://example.org/project/images/diagram-wide.png"]
    assert (sample.site / "images" / "logo.png").is_file()  # the theme's logo: in the header
    assert "logo.png" not in (sample.site / "sitemap.xml").read_text("utf-8")
    video = "{http://www.google.com/schemas/sitemap-video/1.1}"
    players = [(v.findtext(f"{video}content_loc"), v.findtext(f"{video}player_loc"))
               for v in url.iterfind(f"{video}video")]
    assert players == [("https://cdn.example.net/videos/tour.mp4", None),
                       (None, "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")]
    assert "2 videos; 1 video left out (no thumbnail: 1)" in sample.log
    sitemap_urls(sample.site)  # every file valid against the XSDs, image and video included


def test_sample_matches_goldens(sample: Build, golden):
    """The sample's sitemap files equal the reviewed goldens byte for byte."""
    golden(sample.site, SAMPLE / "expected", GOLDEN_FILES)


def test_sample_builds_are_byte_identical(sample: Build, sample_again: Build):
    """Two builds of the same project write the same bytes, .gz included."""
    assert sample_again.returncode == 0, sample_again.log
    for name in OUTPUT_FILES:
        assert (sample.site / name).read_bytes() == (sample_again.site / name).read_bytes(), name


_CACHED = re.compile(r"Sitemap: (\d+) page records came from the cache \(same bytes\)")


@pytest.mark.parametrize("workers", ["default", "1"])
def test_rebuild_takes_records_from_the_cache(tmp_path: Path, workers: str):
    """MkDocs rewrites every page; a rebuild parses none whose bytes are the same.

    Their records come from the manifest's cache, and the sitemap bytes stay the same.
    """
    project = copy_sample(
        tmp_path / "kept",
        edit=lambda text: text if workers == "default" else text.replace(
            "\n  - sitemap\n", f"\n  - sitemap:\n      workers: {workers}\n"))
    first = run_host(project, "--strict", "--verbose")
    assert first.returncode == 0, first.log
    first_files = {name: (first.site / name).read_bytes() for name in OUTPUT_FILES}
    second = run_host(project, "--strict", "--verbose")
    assert second.returncode == 0, second.log
    assert {name: (second.site / name).read_bytes() for name in OUTPUT_FILES} == first_files
    assert [int(n) for n in _CACHED.findall(first.log)] == [0]
    cached = [int(n) for n in _CACHED.findall(second.log)]
    assert len(cached) == 1
    assert cached[0] >= len(SAMPLE_URLS)


def test_sample_sitemap_is_written_once_after_every_language(sample: Build):
    """i18n builds French inside the English build; the sitemap is written once, at the end."""
    assert sample.log.count("sitemap_plugins: Sitemap:") == 1
    assert sample.log.rindex("Building 'fr' documentation") < sample.log.index(
        "sitemap_plugins: Sitemap:")
    # The manifest goes beside mkdocs.yml, never into the published site.
    assert (sample.project / ".sitemap-cache").is_dir()
    assert not list(sample.site.rglob("*.sqlite"))


def test_sample_reports_why_pages_were_left_out(sample: Build):
    """The build log counts the pages left out, by reason."""
    assert (
        "Sitemap: 13 URLs listed in https://example.org/project/sitemap.xml; 17 pages left "
        "out: 404 page (1), disallowed by robots.txt (1), front matter sitemap: false (1), "
        "i18n fallback copy of an untranslated page (10), noindex (1), redirect stub (2), "
        "static HTML copied from docs_dir (1); 2 images, 2 videos; 1 video left out "
        "(no thumbnail: 1); wrote sitemap.xml"
    ) in sample.log


def test_sample_translations_list_each_other_and_x_default(sample: Build):
    """A translated page lists itself, its translation and x-default (the English page)."""
    for loc in (f"{BASE}{CAFE}", f"{BASE}fr/{CAFE}"):
        links = {
            link.get("hreflang"): link.get("href")
            for link in sample.url_element(loc).iterfind("x:link", NS)
        }
        assert links == {
            "en": f"{BASE}{CAFE}", "fr": f"{BASE}fr/{CAFE}", "x-default": f"{BASE}{CAFE}",
        }


def test_sample_untranslated_pages_claim_no_translation(sample: Build):
    """An untranslated page is not linked to its fallback copy as if that were French."""
    text = (sample.site / "sitemap.xml").read_text("utf-8")
    assert f'href="{BASE}fr/guide/install/"' not in text
    assert sample.url_element(f"{BASE}guide/install/").find("x:link", NS) is None


def test_sample_robots_txt_is_kept_and_a_fragment_written(sample: Build):
    """The site lives under /project/: its robots.txt is untouched and a fragment is written."""
    source = SAMPLE / "source" / "docs" / "robots.txt"
    assert (sample.site / "robots.txt").read_bytes() == source.read_bytes()
    assert f"Sitemap: {BASE}sitemap.xml" in (sample.site / "robots-sitemap.txt").read_text()


# -- variants -------------------------------------------------------------------------------


def test_flat_urls_variant(flat: Build, sitemap_urls):
    """With use_directory_urls: false every URL names its .html file."""
    assert flat.returncode == 0, flat.log
    assert flat.warnings == []
    expected = {
        f"{BASE}index.html", f"{BASE}about.html", f"{BASE}guide/index.html",
        f"{BASE}guide/install.html", f"{BASE}guide/advanced/index.html",
        f"{BASE}guide/advanced/tuning.html", f"{BASE}news.html", f"{BASE}media.html",
        f"{BASE}q%26a.html",
        f"{BASE}r%C3%A9f%C3%A9rence/caf%C3%A9.html", f"{BASE}fr/index.html",
        f"{BASE}fr/guide/index.html", f"{BASE}fr/r%C3%A9f%C3%A9rence/caf%C3%A9.html",
    }
    assert set(sitemap_urls(flat.site)) == expected
    links = {link.get("hreflang"): link.get("href")
             for link in flat.url_element(f"{BASE}fr/index.html").iterfind("x:link", NS)}
    assert links == {"en": f"{BASE}index.html", "fr": f"{BASE}fr/index.html",
                     "x-default": f"{BASE}index.html"}


def test_properdocs_writes_the_same_files(properdocs: Build, sample: Build):
    """``properdocs build`` runs the plugin the same way and writes the same bytes."""
    assert properdocs.returncode == 0, properdocs.log
    assert properdocs.warnings == []
    for name in OUTPUT_FILES:
        assert (properdocs.site / name).read_bytes() == (sample.site / name).read_bytes(), name


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs"])
def test_mkdocs_own_themes(themes: dict[str, Build], theme: str, sitemap_urls):
    """With MkDocs' own themes, pages are listed and theme pages (search.html) are not."""
    build = themes[theme]
    assert build.returncode == 0, build.log
    assert build.warnings == []
    assert sitemap_urls(build.site) == [
        "https://docs.example.org/", "https://docs.example.org/guide/",
    ]
    assert build.url_element("https://docs.example.org/guide/").findtext(
        "s:priority", namespaces=NS) == "0.3"
    if theme == "readthedocs":
        assert (build.site / "search.html").exists()
        assert "theme page (not documentation) (1)" in build.log


def test_static_html_is_listed_when_opted_in(tmp_path: Path, sitemap_urls):
    """``static_html: true`` lists raw HTML copied from docs_dir."""
    config = _simple_config("mkdocs", plugin="  - sitemap:\n      static_html: true\n")
    build = run_host(make_site(tmp_path / "p", config, SIMPLE_PAGES), "--strict")
    assert build.returncode == 0, build.log
    assert "https://docs.example.org/static/report.html" in sitemap_urls(build.site)


def test_base_url_option_overrides_site_url(tmp_path: Path, sitemap_urls):
    """The plugin's ``base_url`` is used when given, with or without site_url."""
    config = _simple_config(
        "mkdocs", site_url=None, plugin="  - sitemap:\n      base_url: https://other.example/x/\n")
    build = run_host(make_site(tmp_path / "p", config, SIMPLE_PAGES), "--strict")
    assert build.returncode == 0, build.log
    assert sitemap_urls(build.site) == ["https://other.example/x/", "https://other.example/x/guide/"]


def test_dirty_build_still_reads_front_matter(tmp_path: Path, sitemap_urls):
    """``--dirty`` skips unchanged pages, yet ``sitemap: false`` still holds for them."""
    project = make_site(tmp_path / "p", _simple_config("mkdocs"), SIMPLE_PAGES)
    first = run_host(project)
    again = run_host(project, "--dirty")
    assert first.returncode == again.returncode == 0, again.log
    assert sitemap_urls(again.site) == [
        "https://docs.example.org/", "https://docs.example.org/guide/",
    ]


def test_dirty_build_moves_no_date_of_a_page_it_did_not_render(tmp_path: Path) -> None:
    """``--dirty`` renders only the changed pages: the others keep their record (MkDocs'
    content, from the last build), so no date moves and nothing is "changed"."""
    config = _simple_config("mkdocs", plugin="  - sitemap:\n      changes_file: changes.json\n")
    # A page whose title the theme writes outside its content: the built file's region and
    # MkDocs' content (titled) are not the same text.
    project = make_site(tmp_path / "p", config, {
        "index.md": "# Home\n", "plain.md": "---\ntitle: Plain\n---\nNo heading here.\n"})
    first = run_host(project)
    again = run_host(project, "--dirty")
    assert first.returncode == again.returncode == 0, again.log
    assert again.lastmods() == first.lastmods()
    changes = json.loads((project / "changes.json").read_text("utf-8"))
    assert (changes["baseline"], changes["changed"]) == (True, [])


def test_dirty_build_does_not_list_a_deleted_page(tmp_path: Path, sitemap_urls):
    """``mkdocs build --dirty`` leaves a deleted page's old output in site_dir: not listed."""
    project = make_site(tmp_path / "p", _simple_config("mkdocs"),
                        {"index.md": "# Home\n", "gone.md": "# Gone\n", "kept.md": "# Kept\n"})
    first = run_host(project, "--strict")
    assert "https://docs.example.org/gone/" in sitemap_urls(first.site)
    (project / "docs" / "gone.md").unlink()
    again = run_host(project, "--dirty")  # MkDocs itself warns about --dirty
    assert again.returncode == 0, again.log
    assert (again.site / "gone" / "index.html").exists()  # MkDocs left it there
    assert sitemap_urls(again.site) == [
        "https://docs.example.org/", "https://docs.example.org/kept/",
    ]


@pytest.mark.parametrize("instant", [True, False], ids=["instant", "no-instant"])
def test_material_instant_navigation_warns_when_the_sitemap_is_an_index(
    tmp_path: Path, instant: bool
):
    """Material's instant navigation reads sitemap.xml as a urlset; a lowered max_urls makes it
    an index, which is warned about (and only then)."""
    pytest.importorskip("material")
    features = "  features: [navigation.instant]\n" if instant else ""
    config = (f"site_name: S\nsite_url: https://docs.example.org/\ntheme:\n  name: material\n"
              f"{features}plugins:\n  - search\n  - sitemap:\n      max_urls: 2\n")
    build = run_host(make_site(tmp_path / "p", config,
                               {"index.md": "# A\n", "b.md": "# B\n", "c.md": "# C\n"}))
    assert build.returncode == 0, build.log
    assert b"<sitemapindex" in (build.site / "sitemap.xml").read_bytes()
    warned = [w for w in build.warnings if "instant navigation" in w]
    assert len(warned) == (1 if instant else 0)


BLOG_PAGES = {
    "index.md": "# Home\n",
    "blog/index.md": "# Blog\n",
    "blog/posts/first.md": (
        "---\ndate:\n  created: 2024-01-10\n  updated: 2024-02-11\ncategories: [News]\n---\n"
        "# First post\n\nHello.\n"
    ),
    "blog/posts/second.md": "---\ndate: 2024-03-01 09:30:00+02:00\n---\n# Second post\n\nHi.\n",
}


def test_material_blog_dates(tmp_path: Path, sitemap_urls):
    """Material blog posts take lastmod from ``date`` (``updated`` first); views are listed,
    each dated by the newest post it shows."""
    config = ("site_name: Blog\nsite_url: https://blog.example/\ntheme: material\n"
              "plugins:\n  - blog\n  - sitemap\n")
    build = run_host(make_site(tmp_path / "p", config, BLOG_PAGES), "--strict")
    assert build.returncode == 0, build.log
    assert build.warnings == []
    assert sitemap_urls(build.site)
    assert build.lastmods() == {
        "https://blog.example/": None,
        "https://blog.example/blog/2024/01/10/first-post/": "2024-02-11",
        "https://blog.example/blog/2024/03/01/second-post/": "2024-03-01T09:30:00+02:00",
        # A listing is as new as the newest post it shows (as Pelican's listings are).
        "https://blog.example/blog/": "2024-03-01T09:30:00+02:00",
        "https://blog.example/blog/archive/2024/": "2024-03-01T09:30:00+02:00",
        "https://blog.example/blog/category/news/": "2024-02-11",
    }


def test_material_blog_listing_is_as_new_as_its_newest_post(tmp_path: Path):
    """A Material blog index whose index.md was last committed before the newest post is
    dated by that post, not by index.md; each listing page (pagination, archive, category) by
    the newest post it shows (the shape of a real blog: index.md untouched for months). A
    dated post is dated by its date, not by the commit that added it (a blog moved into git
    in one commit); a later commit to it is a change, which its listings show too."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    config = ("site_name: Blog\nsite_url: https://blog.example/\ntheme: material\n"
              "plugins:\n  - blog:\n      pagination_per_page: 1\n  - sitemap\n")
    pages = {
        "index.md": "# Home\n",
        "blog/index.md": "# Blog\n",
        "blog/posts/old.md": "---\ndate: 2023-05-01\ncategories: [News]\n---\n# Old post\n\nA.\n",
    }
    project = make_site(tmp_path / "p", config, pages)
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "blog", when="2024-02-02T12:00:00+00:00")
    (project / "docs" / "blog" / "posts" / "new.md").write_text(
        "---\ndate: 2024-09-20\ncategories: [News]\n---\n# New post\n\nB.\n", "utf-8")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "new post", when="2024-09-23T10:00:00+00:00")
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    old, new = "2023-05-01", "2024-09-20"  # each post's date
    listings = {
        "https://blog.example/blog/": new,
        "https://blog.example/blog/page/2/": old,
        "https://blog.example/blog/archive/2023/": old,
        "https://blog.example/blog/archive/2024/": new,
        "https://blog.example/blog/category/news/": new,
        "https://blog.example/blog/category/news/page/2/": old,
    }
    assert build.lastmods() == {
        "https://blog.example/": "2024-02-02T12:00:00Z",  # undated: the commit that added it
        "https://blog.example/blog/2023/05/01/old-post/": old,
        "https://blog.example/blog/2024/09/20/new-post/": new,
        **listings,
    }
    post = project / "docs" / "blog" / "posts" / "old.md"
    post.write_text(post.read_text("utf-8").replace("A.", "A, edited."), "utf-8")
    git(project, "commit", "-q", "-am", "old post edited", when="2024-10-01T08:00:00+00:00")
    shutil.rmtree(project / ".sitemap-cache")
    again = run_host(project, "--strict")
    edited = "2024-10-01T08:00:00Z"
    assert again.lastmods() == {
        **build.lastmods(),
        "https://blog.example/blog/2023/05/01/old-post/": edited,
        **{url: edited for url, date in listings.items() if date == old},
    }


# -- missing site_url, strict mode, invalid values -----------------------------------------


NO_URL_WARNING = (
    "WARNING -  sitemap_plugins: No sitemap written: 'site_url' is not set in the config file, "
    "and a sitemap must list absolute URLs. Set 'site_url' to the public URL of the site, "
    "e.g. 'site_url: https://example.org/docs/'."
)


@pytest.fixture(scope="module")
def no_url(tmp_path_factory: pytest.TempPathFactory) -> tuple[Build, Build]:
    """A site without site_url, built normally and with --strict."""
    project = make_site(tmp_path_factory.mktemp("no-url") / "p",
                        _simple_config("mkdocs", site_url=None), SIMPLE_PAGES)
    return run_host(project), run_host(project, "--strict", site="site-strict")


def test_missing_site_url_gives_one_warning_and_no_sitemap(no_url: tuple[Build, Build]):
    """Without site_url: exactly one clear warning, and no sitemap file at all."""
    build, _ = no_url
    assert build.returncode == 0, build.log
    assert build.warnings == [NO_URL_WARNING]
    assert (build.site / "index.html").exists()
    assert not [p.name for p in build.site.iterdir() if p.name.startswith("sitemap")]


def test_missing_site_url_fails_strict(no_url: tuple[Build, Build]):
    """``--strict`` fails on the missing site_url, and only on that."""
    _, strict = no_url
    assert strict.returncode == 1
    assert strict.warnings == [NO_URL_WARNING]
    assert "Aborted with 1 warnings in strict mode!" in strict.log


@pytest.mark.parametrize(
    ("plugin", "message"),
    [
        (
            "  - sitemap:\n      robots_txt: sometimes\n",
            ("ERROR   -  Config value 'plugins': Plugin 'sitemap' option 'robots_txt': Expected one "
             "of: 'merge', 'create', 'fragment', 'off' but received: 'sometimes' (str)"),
        ),
        (
            "  - sitemap:\n      prority: {'a/*': 0.5}\n",
            ("ERROR   -  Config value 'plugins': Plugin 'sitemap' option 'prority': Unrecognised "
             "option. Did you mean 'priority'?"),
        ),
        (
            "  - sitemap:\n      priority: {'a/*': 1.5}\n",
            ("ERROR   -  Config value 'plugins': Plugin 'sitemap' option 'priority': Key 'a/*': expected a number from 0.0 "
             "to 1.0 but received: 1.5 (float)"),
        ),
        (
            "  - sitemap:\n      max_urls: 60000\n",
            ("ERROR   -  Config value 'plugins': Plugin 'sitemap' option 'max_urls': Expected a whole number from 1 to "
             "50,000 but received: 60000 (int)"),
        ),
        (
            "  - sitemap:\n      include: ['']\n",
            ("ERROR   -  Config value 'plugins': Plugin 'sitemap' option 'include': Item 0: Expected a non-empty glob "
             "pattern but received: ''"),
        ),
        (
            "  - sitemap:\n      sitemap_name: robots\n",
            ("ERROR   -  Config value 'plugins': Plugin 'sitemap' option 'sitemap_name': Expected a name whose "
             "files are not robots.txt or robots-sitemap.txt but received: 'robots' (str)"),
        ),
        (
            "  - sitemap:\n      indexnow_key: 'has space'\n",
            ("ERROR   -  Config value 'plugins': Plugin 'sitemap' option 'indexnow_key': Expected "
             "a key of 8 to 128 characters of a-z, A-Z, 0-9 and '-' but received: 'has space' "
             "(str)"),
        ),
    ],
    ids=["choice", "unknown", "priority-range", "max-urls", "bad-glob", "robots-name",
         "indexnow-key"],
)
def test_invalid_option_stops_the_build(tmp_path: Path, plugin: str, message: str):
    """A bad option value stops the build with MkDocs' usual message naming the option."""
    build = run_host(make_site(tmp_path / "p", _simple_config("mkdocs", plugin=plugin),
                               {"index.md": "# Home\n"}))
    assert build.returncode == 1
    assert message in build.log
    assert not (build.site / "sitemap.xml").exists()


@pytest.mark.parametrize(
    ("front", "message"),
    [
        ("sitemap:\n  priority: 2\n",
         ("Page 'bad.md' sitemap value 'priority': Expected a number from 0.0 to 1.0 "
          "but received: 2 (int)")),
        ("sitemap:\n  changefreq: sometimes\n",
         ("Page 'bad.md' sitemap value 'changefreq': Expected one of: 'always', 'hourly', "
          "'daily', 'weekly', 'monthly', 'yearly', 'never' but received: 'sometimes' (str)")),
        ("sitemap:\n  lastmod: soon\n",
         ("Page 'bad.md' sitemap value 'lastmod': Expected a date such as 2024-05-06 or "
          "2024-05-06T10:00:00+02:00 but received: 'soon' (str)")),
        ("sitemap:\n  prio: 0.5\n",
         "Page 'bad.md' sitemap value 'prio': Unrecognised key. Did you mean 'priority'?"),
        ("sitemap: maybe\n",
         "Page 'bad.md' sitemap value 'sitemap': Expected true or false but received: 'maybe' (str)"),
    ],
    ids=["priority", "changefreq", "lastmod", "unknown-key", "not-a-mapping"],
)
def test_invalid_front_matter_stops_the_build(tmp_path: Path, front: str, message: str):
    """A bad ``sitemap:`` front-matter value is a build error naming the page."""
    pages = {"index.md": "# Home\n", "bad.md": f"---\n{front}---\n# Bad\n"}
    build = run_host(make_site(tmp_path / "p", _simple_config("mkdocs"), pages))
    assert build.returncode == 1
    assert f"ERROR   -  {message}\n" in build.log
    assert "Aborted with a BuildError!" in build.log


# -- serve --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # local server
            return int(response.status)
    except urllib.error.HTTPError as err:
        return err.code


def _serve(project: Path, port: int, *args: str) -> subprocess.Popen[str]:
    """``mkdocs serve`` on ``project``, once its first page answers (or it has stopped)."""
    # The server builds into a temporary folder of its own: under the test's folder, so that
    # nothing is left in the machine's /tmp whatever becomes of the server.
    env = {**_env(project.parent), "TMPDIR": str(project.parent)}
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}", "--no-livereload",
         *args],
        cwd=project, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if _status(f"http://127.0.0.1:{port}/") == 200:
                break
        except OSError:
            time.sleep(0.1)
    return server


def _stop(server: subprocess.Popen[str]) -> str:
    """Stop a server as Ctrl-C does (it removes its temporary site), and return its log."""
    server.send_signal(signal.SIGINT)
    try:
        output, _ = server.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        output, _ = server.communicate()
    return output


def _fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:  # local server
        return bytes(response.read())


@pytest.mark.parametrize("site_url", [None, "https://docs.example.org/"],
                         ids=["no-site-url", "site-url"])
def test_serve_answers_sitemap_requests_with_the_served_urls(tmp_path: Path, site_url: str | None):
    """``mkdocs serve`` serves a sitemap of the dev server's URLs, logs no 404 and no warning,
    and keeps no cache."""
    project = make_site(tmp_path / "p", _simple_config("mkdocs", site_url=site_url),
                        SIMPLE_PAGES)
    port = _free_port()
    server = _serve(project, port)
    try:
        served = f"http://127.0.0.1:{port}/"
        root = etree.fromstring(_fetch(f"{served}sitemap.xml"))
        locs = {loc.text for loc in root.iterfind("s:url/s:loc", NS)}
        # What Material's instant navigation asks for, and what the theme links to.
        assert _status(f"{served}sitemap.xml.gz") == 200
        text = _fetch(f"{served}sitemap.txt").decode("utf-8").split()
    finally:
        output = _stop(server)
    assert locs == {served, f"{served}guide/"}
    assert set(text) == locs
    assert "code 404" not in output
    assert "WARNING" not in output
    assert not (project / ".sitemap-cache").exists()


def test_serve_clean_keeps_the_sites_history(tmp_path: Path):
    """``mkdocs serve --clean`` (which plugins see as a build) leaves the real build's manifest
    as it was, so the site's dates survive a preview."""
    project = make_site(tmp_path / "p", _simple_config("mkdocs"), SIMPLE_PAGES)
    built = run_host(project, "--strict")
    assert built.returncode == 0, built.log
    manifest = sorted((project / ".sitemap-cache").rglob("*"))
    before = {path: path.read_bytes() for path in manifest if path.is_file()}
    assert before
    port = _free_port()
    server = _serve(project, port, "--clean")
    try:
        served = f"http://127.0.0.1:{port}/"
        root = etree.fromstring(_fetch(f"{served}sitemap.xml"))
        locs = {loc.text for loc in root.iterfind("s:url/s:loc", NS)}
    finally:
        output = _stop(server)
    assert locs == {served, f"{served}guide/"}
    assert "WARNING" not in output
    after = {path: path.read_bytes()
             for path in sorted((project / ".sitemap-cache").rglob("*")) if path.is_file()}
    assert after == before


# -- git dates ----------------------------------------------------------------------------


GIT_PAGES = {
    "index.md": "# Home\n",
    "changed.md": "# Changed\n",
    "dated.md": "---\ndate: 2020-01-01\n---\n# Dated\n",
    "café.md": "# Café\n",
}
FIRST = "2023-01-02T03:04:05+00:00"
SECOND = "2023-03-04T05:06:07+02:00"
SITE = "https://docs.example.org/"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository holding a small site, with two commits at fixed dates."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    project = make_site(tmp_path_factory.mktemp("git") / "repo", _simple_config("mkdocs"),
                        GIT_PAGES)
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "first", when=FIRST)
    (project / "docs" / "changed.md").write_text("# Changed\n\nAgain.\n", "utf-8")
    git(project, "commit", "-q", "-am", "second", when=SECOND)
    (project / "docs" / "new.md").write_text("# New, not committed\n", "utf-8")
    return project


def test_git_dates_give_lastmod(repo: Path):
    """Each page's lastmod is its last commit; a page with a front-matter date that its only
    commit, the one that added it, came after keeps its date (a site moved into git in one
    commit says nothing of when it changed); uncommitted pages get none."""
    build = run_host(repo, "--strict", site="site-git")
    assert build.returncode == 0, build.log
    assert build.lastmods() == {
        SITE: "2023-01-02T03:04:05Z",
        f"{SITE}caf%C3%A9/": "2023-01-02T03:04:05Z",
        f"{SITE}changed/": "2023-03-04T05:06:07+02:00",
        f"{SITE}dated/": "2020-01-01",
        f"{SITE}new/": None,
    }


def test_git_revision_date_plugin_dates_are_used(repo: Path):
    """With mkdocs-git-revision-date-localized on, its date (in its time zone) is the lastmod."""
    pytest.importorskip("mkdocs_git_revision_date_localized_plugin")
    config = repo / "mkdocs-git-plugin.yml"
    config.write_text(_simple_config(
        "mkdocs",
        plugin="  - git-revision-date-localized:\n      timezone: Europe/Paris\n"
               "  - sitemap:\n      cache_dir: .cache-git-plugin\n",
    ), "utf-8")
    build = run_host(repo, config=config.name, site="site-git-plugin")
    assert build.returncode == 0, build.log
    assert (repo / ".cache-git-plugin").is_dir()
    assert build.lastmods() == {
        SITE: "2023-01-02T04:04:05+01:00",
        f"{SITE}caf%C3%A9/": "2023-01-02T04:04:05+01:00",
        f"{SITE}changed/": "2023-03-04T04:06:07+01:00",
        f"{SITE}dated/": "2023-01-02T04:04:05+01:00",
        f"{SITE}new/": None,  # the plugin stamps "now" on it; that is not used
    }


SHALLOW_NOTE = (
    "INFO    -  sitemap_plugins: No git dates used for lastmod: the git clone is shallow, so "
    "the last commit of most pages is missing; dates come from the pages and the lastmod "
    "manifest. For git dates fetch the full history ('fetch-depth: 0' with actions/checkout), "
    "or set 'git_dates: false' to say you want none."
)


def test_shallow_clone_notes_once_and_passes_strict(repo: Path, tmp_path: Path):
    """CI's default checkout is shallow: git dates are off, said once at info level, and
    ``mkdocs build --strict`` passes."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", repo.as_uri(), str(clone))
    strict = run_host(clone, "--strict", site="site-strict")
    assert strict.returncode == 0, strict.log
    assert strict.warnings == []
    assert strict.log.count(SHALLOW_NOTE) == 1
    assert {loc: lastmod for loc, lastmod in strict.lastmods().items() if lastmod} == {
        f"{SITE}dated/": "2020-01-01",
    }


def test_git_dates_false_asks_git_nothing(repo: Path, tmp_path: Path):
    """``git_dates: false``: no git dates and no note, even in a shallow clone."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", repo.as_uri(), str(clone))
    config = clone / "mkdocs.yml"
    config.write_text(config.read_text("utf-8").replace(
        "  - sitemap\n", "  - sitemap:\n      git_dates: false\n"), "utf-8")
    build = run_host(clone, "--strict")
    assert build.returncode == 0, build.log
    assert "git clone is shallow" not in build.log
    assert {loc: lastmod for loc, lastmod in build.lastmods().items() if lastmod} == {
        f"{SITE}dated/": "2020-01-01",
    }


def _commit(repo: Path, message: str, *, author: str, committer: str) -> None:
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": author, "GIT_COMMITTER_DATE": committer}
    subprocess.run(["git", "commit", "-q", "-am", message], cwd=repo, env=env, check=True,
                   capture_output=True)


def test_git_dates_are_when_changes_reached_the_branch(tmp_path: Path):
    """A rebased commit is dated by when it was committed, not written; a change that came
    in through a merge by the merge."""
    project = make_site(tmp_path / "p", _simple_config("mkdocs"),
                        {"index.md": "# Home\n", "rebased.md": "# R\n", "merged.md": "# M\n"})
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "first", when="2023-01-01T00:00:00+00:00")
    (project / "docs" / "rebased.md").write_text("# R\n\nEdited.\n", "utf-8")
    # Written in February, rebased onto main in May: the author date stays in February.
    _commit(project, "rebased", author="2023-02-01T00:00:00+00:00",
            committer="2023-05-01T00:00:00+00:00")
    git(project, "checkout", "-q", "-b", "feature")
    (project / "docs" / "merged.md").write_text("# M\n\nOn a branch.\n", "utf-8")
    _commit(project, "on a branch", author="2023-04-11T00:00:00+00:00",
            committer="2023-04-11T00:00:00+00:00")
    git(project, "checkout", "-q", "main")
    (project / "docs" / "index.md").write_text("# Home\n\nMoved on.\n", "utf-8")
    _commit(project, "main moves on", author="2023-06-01T00:00:00+00:00",
            committer="2023-06-01T00:00:00+00:00")
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": "2023-09-21T00:00:00+00:00",
           "GIT_COMMITTER_DATE": "2023-09-21T00:00:00+00:00"}
    subprocess.run(["git", "merge", "-q", "--no-ff", "-m", "merge", "feature"], cwd=project,
                   env=env, check=True, capture_output=True)
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    assert build.lastmods() == {
        SITE: "2023-06-01T00:00:00Z",
        f"{SITE}rebased/": "2023-05-01T00:00:00Z",
        f"{SITE}merged/": "2023-09-21T00:00:00Z",
    }


def test_indexnow_dry_run_after_one_edit(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The sample project with indexnow_key: built, one page edited, built again; the key file
    is published (not listed) and a dry run would send that one page's URL only."""
    from sitemap_plugins.cli import main  # noqa: PLC0415

    key = "mkdocs-sample-key-1"
    project = copy_sample(tmp_path / "p", edit=lambda text: text.replace(
        "  - sitemap\n", f"  - sitemap:\n      indexnow_key: {key}\n"))
    assert run_host(project).returncode == 0
    page = project / "docs" / "guide" / "index.md"
    page.write_text(page.read_text("utf-8") + "\nOne more paragraph.\n", "utf-8")
    build = run_host(project)
    assert build.returncode == 0, build.log
    assert (build.site / f"{key}.txt").read_text("ascii") == key
    assert f"{BASE}{key}.txt" not in (build.site / "sitemap.txt").read_text("utf-8")
    capsys.readouterr()
    assert main(["submit", str(build.site), "--base-url", BASE, "--key", key, "--dry-run"]) == 0
    assert capsys.readouterr().out == (
        f"Batch 1 of 1: 1 URL (host example.org, keyLocation {BASE}{key}.txt)\n"
        f"  {BASE}guide/\n"
        "Dry run: 1 URL in 1 batch would go to https://api.indexnow.org/indexnow; nothing was "
        "sent or changed\n")


def test_news_sitemap_takes_the_front_matter_date(tmp_path: Path, xsd):
    """news: {...} in mkdocs.yml: a page whose date (Material blog: date.created) lies in the
    two days before the build is a news article; an older one is not."""
    project = make_site(tmp_path / "news", (
        "site_name: Daily\nsite_url: https://example.org/\n"
        "plugins:\n  - sitemap:\n      news: {name: Daily, language: en}\n"), {
        "index.md": "# Home\n",
        "fresh.md": "---\ndate:\n  created: 2024-05-06\n---\n# Fresh & new\n",
        "old.md": "---\ndate: 2024-04-01\n---\n# Old\n",
    })
    env = {**_env(tmp_path), "SOURCE_DATE_EPOCH": "1715040000"}  # 2024-05-07T00:00:00Z
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=project,
                          env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    news = etree.parse(str(project / "site" / "sitemap-news.xml"))
    assert xsd["urlset"].validate(news), xsd["urlset"].error_log
    ns = {"s": NS["s"], "n": "http://www.google.com/schemas/sitemap-news/0.9"}
    assert [(u.findtext("s:loc", namespaces=ns), u.findtext("n:news/n:publication_date",
             namespaces=ns), u.findtext("n:news/n:title", namespaces=ns))
            for u in news.getroot()] == [("https://example.org/fresh/", "2024-05-06",
                                          "Fresh & new")]


OLD_READER_HOOK = '''\
"""The reader before MkDocs handed its content over: every page read whole from disk."""
import sitemap_plugins.disk.history
import sitemap_plugins.mkdocs

sitemap_plugins.mkdocs.head_of = lambda output: None
sitemap_plugins.disk.history.FINGERPRINT_VERSION = "4"
sitemap_plugins.disk.history.READER_VERSION = "6"
'''


def test_taking_content_from_mkdocs_rebaselines_once_and_moves_no_date(tmp_path: Path) -> None:
    """The first build that takes each page's content from MkDocs (not the whole written page)
    adopts the new fingerprints and keeps every recorded date: no lastmod moves, no URL is
    "changed"; an edit after it moves its page alone."""
    project = make_site(tmp_path / "project", (
        "site_name: T\nsite_url: https://example.org/\ntheme: mkdocs\nhooks:\n  - old.py\n"
        "plugins:\n  - sitemap:\n      changes_file: changes.json\n"), {
        "index.md": "# Home\n\nWelcome.\n",
        "guide.md": "# Guide\n\nHow to.\n",
        "faq.md": "# FAQ\n\nWhy.\n",
    })
    (project / "old.py").write_text(OLD_READER_HOOK, "utf-8")

    def build(epoch: int) -> dict[str, str | None]:
        env = {**_env(tmp_path), "SOURCE_DATE_EPOCH": str(epoch)}
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"],
                              cwd=project, env=env, capture_output=True, text=True,
                              timeout=180, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        root = etree.parse(str(project / "site" / "sitemap.xml")).getroot()
        return {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
                for url in root.iterfind("s:url", NS)}

    build(1_700_000_000)
    guide = project / "docs" / "guide.md"
    guide.write_text("# Guide\n\nHow to, better.\n", "utf-8")
    old = build(1_700_100_000)
    assert old["https://example.org/guide/"] == "2023-11-16T02:00:00Z"
    config = project / "mkdocs.yml"
    config.write_text(config.read_text("utf-8").replace("hooks:\n  - old.py\n", ""), "utf-8")
    assert build(1_700_200_000) == old
    changes = json.loads((project / "changes.json").read_text("utf-8"))
    assert (changes["baseline"], changes["changed"]) == (True, [])
    guide.write_text("# Guide\n\nHow to, best.\n", "utf-8")
    assert build(1_700_300_000) == {**old, "https://example.org/guide/": "2023-11-18T09:33:20Z"}


def test_included_files_date_the_page_that_includes_them(tmp_path: Path) -> None:
    """A page that includes files (``pymdownx.snippets`` ``--8<--``, resolved against its
    ``base_path``; mkdocstrings ``:::`` of a module) is dated by the latest commit of its
    own source and of every file it includes, even one outside docs/ (a README)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    pytest.importorskip("mkdocstrings")
    project = make_site(tmp_path / "project", (
        "site_name: T\nsite_url: https://example.org/\ntheme: mkdocs\n"
        "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: [snippets, .]\n"
        "plugins:\n  - mkdocstrings:\n      handlers:\n        python:\n          paths: [src]\n"
        "  - sitemap\n"), {
        "index.md": '# Home\n\n--8<-- "README.md"\n',
        "block.md": "# Block\n\n--8<--\nshared.md:2:3\nhttps://example.org/remote.md\n--8<--\n",
        "api.md": "# API\n\n::: tinypkg.core.greet\n",
        "plain.md": "# Plain\n\nNothing included.\n",
    })
    (project / "README.md").write_text("The project.\n", "utf-8")
    (project / "snippets").mkdir()
    (project / "snippets" / "shared.md").write_text("One.\nTwo.\nThree.\n", "utf-8")
    package = project / "src" / "tinypkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""A package."""\n', "utf-8")
    (package / "core.py").write_text('def greet():\n    """Say hello."""\n', "utf-8")
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "all", when="2021-01-02T03:04:05+00:00")
    (project / "README.md").write_text("The project, now better.\n", "utf-8")
    git(project, "commit", "-q", "-am", "readme", when="2024-05-06T07:08:09+00:00")
    (project / "snippets" / "shared.md").write_text("One.\nTwo!\nThree.\n", "utf-8")
    git(project, "commit", "-q", "-am", "shared", when="2024-06-07T08:09:10+00:00")
    (package / "core.py").write_text('def greet():\n    """Say hello, loudly."""\n', "utf-8")
    git(project, "commit", "-q", "-am", "api", when="2025-07-08T09:10:11+00:00")
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    assert "Say hello, loudly." in (build.site / "api" / "index.html").read_text("utf-8")
    assert build.lastmods() == {
        "https://example.org/": "2024-05-06T07:08:09Z",
        "https://example.org/block/": "2024-06-07T08:09:10Z",
        "https://example.org/api/": "2025-07-08T09:10:11Z",
        "https://example.org/plain/": "2021-01-02T03:04:05Z",
    }


LANGUAGE_HOOK = '''\
"""As FastAPI's docs do: each language's site_url and URL style are set by a hook."""
def on_config(config, **kwargs):
    config.site_url = config.site_url + "es/"
    config.use_directory_urls = False
    return config
'''


def test_hook_changing_site_url_in_on_config_is_followed(tmp_path: Path) -> None:
    """A ``hooks:`` file runs after the listed plugins: the ``site_url`` and
    ``use_directory_urls`` it sets in ``on_config`` are the ones the sitemap lists under."""
    project = make_site(tmp_path / "project", (
        "site_name: T\nsite_url: https://example.org/\ntheme: mkdocs\nhooks:\n  - lang.py\n"
        "plugins:\n  - sitemap\n"), {"index.md": "# Inicio\n", "guia.md": "# Guía\n"})
    (project / "lang.py").write_text(LANGUAGE_HOOK, "utf-8")
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    assert sorted(build.lastmods()) == [
        "https://example.org/es/guia.html", "https://example.org/es/index.html"]


def test_hook_setting_the_missing_site_url_is_followed(tmp_path: Path) -> None:
    """A site_url that only a hook sets is no missing site_url: no warning, a sitemap."""
    project = make_site(tmp_path / "project", (
        "site_name: T\ntheme: mkdocs\nhooks:\n  - url.py\nplugins:\n  - sitemap\n"),
        {"index.md": "# Home\n"})
    (project / "url.py").write_text(
        "def on_config(config, **kwargs):\n    config.site_url = 'https://example.org/x/'\n",
        "utf-8")
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    assert list(build.lastmods()) == ["https://example.org/x/"]


FALLBACK_HOOK = '''\
"""As FastAPI's docs do: pages not translated yet are added from the English docs."""
from pathlib import Path

from mkdocs.structure.files import File

def on_files(files, config, **kwargs):
    english = Path(config.config_file_path).parent / "en"
    for path in sorted(english.rglob("*.md")):
        src_uri = path.relative_to(english).as_posix()
        if files.get_file_from_path(src_uri) is None:
            files.append(File(src_uri, str(english), config.site_dir, config.use_directory_urls))
    return files
'''


def test_page_added_from_outside_docs_dir_is_dated_by_its_own_git_history(tmp_path: Path):
    """A page whose ``File`` a hook takes from outside ``docs_dir`` (another language's docs)
    is dated by the last commit of that file, as a page in ``docs_dir`` is by its own."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    project = repo = make_site(tmp_path / "repo", (
        "site_name: T\nsite_url: https://example.org/es/\ntheme: mkdocs\nhooks:\n  - hook.py\n"
        "plugins:\n  - sitemap\n"), {"index.md": "# Inicio\n"})
    (project / "hook.py").write_text(FALLBACK_HOOK, "utf-8")
    english = repo / "en"
    english.mkdir()
    (english / "index.md").write_text("# Home\n", "utf-8")
    (english / "only-english.md").write_text("# Only English\n", "utf-8")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "all", when="2021-01-02T03:04:05+00:00")
    (english / "only-english.md").write_text("# Only English\n\nBetter.\n", "utf-8")
    git(repo, "commit", "-q", "-am", "en", when="2024-05-06T07:08:09+00:00")
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    assert build.lastmods() == {
        "https://example.org/es/": "2021-01-02T03:04:05Z",
        "https://example.org/es/only-english/": "2024-05-06T07:08:09Z",
    }

"""Shapes of problems seen on real public sites, each reproduced in a temporary project.

A Material blog whose index page only lists posts; a page whose content is made from code; a
click reference made from a package's modules; the command line with a relative cache folder; a
cache folder inside a git work tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from lxml import etree

from sitemap_plugins.cli import main

pytestmark = pytest.mark.integration

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
SITE = "https://blog.example.org/"
# Builds a day apart, after every commit below.
T1, T2, T3 = 1_750_000_000, 1_750_086_400, 1_750_172_800
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
}


def w3c(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def git(repo: Path, *args: str, when: str | None = None) -> None:
    env = {**os.environ, **GIT_ENV}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def mkdocs_build(project: Path, when: int) -> dict[str, str | None]:
    """``mkdocs build --strict`` at build time ``when``; the sitemap's URL -> lastmod."""
    env = {**os.environ, **GIT_ENV, "SOURCE_DATE_EPOCH": str(when),
           "GIT_CEILING_DIRECTORIES": str(project.parent), "NO_MKDOCS_2_WARNING": "1",
           "DISABLE_MKDOCS_2_WARNING": "true"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=project,
                          env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    root = etree.parse(str(project / "site" / "sitemap.xml")).getroot()
    return {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
            for url in root.iterfind("s:url", NS)}


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


@pytest.fixture
def blog(tmp_path: Path) -> Path:
    """A Material blog in git: an index page holding only a title, and one post."""
    pytest.importorskip("material")
    project = tmp_path / "blog"
    write(project / "mkdocs.yml", f"site_name: Blog\nsite_url: {SITE}\ntheme:\n  name: material\n"
                                  "plugins:\n  - search\n  - blog\n  - sitemap\n")
    write(project / "docs" / "index.md", "# Home\n")
    write(project / "docs" / "blog" / "index.md", "# Blog\n")
    write(project / "docs" / "blog" / "posts" / "first.md",
          "---\ndate: 2025-01-10\n---\n\n# First post\n\nHello.\n")
    _first_commit(project)
    return project



def _first_commit(project: Path) -> None:
    """The project as one commit of 2025-01-10: every page's git date before the builds."""
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "start", when="2025-01-10T09:00:00+00:00")

def test_blog_index_moves_when_a_new_post_is_listed(blog: Path) -> None:
    """The blog index's source never changes, but its page lists the new post: its lastmod is
    the build that first saw that, not the date of ``blog/index.md``."""
    first = mkdocs_build(blog, T1)
    assert first[f"{SITE}blog/"] == "2025-01-10"  # the date of the newest post it lists
    write(blog / "docs" / "blog" / "posts" / "second.md",
          "---\ndate: 2025-06-01\n---\n\n# Second post\n\nNews.\n")
    git(blog, "add", ".")
    git(blog, "commit", "-q", "-m", "second post", when="2025-06-01T08:00:00+00:00")
    second = mkdocs_build(blog, T2)
    assert second[f"{SITE}blog/"] == w3c(T2)
    # The post itself: published 2025-06-01, committed later that morning by the commit that
    # added it, which says nothing of a change since: its date.
    assert second[f"{SITE}blog/2025/06/01/second-post/"] == "2025-06-01"
    assert second[f"{SITE}blog/2025/01/10/first-post/"] == first[
        f"{SITE}blog/2025/01/10/first-post/"]
    assert second[SITE] == first[SITE]


HOOK = '''\
from pathlib import Path


def on_page_markdown(markdown, page, config, files):
    """An API page made from code: its text comes from a data file, not its source."""
    if page.file.src_uri == "api.md":
        data = Path(config.config_file_path).parent / "api.txt"
        return markdown + "\\n\\n" + data.read_text("utf-8")
    return markdown
'''


def test_page_made_from_code_moves_when_its_output_changes(tmp_path: Path) -> None:
    """mkdocstrings' shape: a docstring changes, the Markdown stub does not; the page's
    lastmod is the build that saw its content change, later than the stub's commit."""
    project = tmp_path / "api"
    write(project / "mkdocs.yml", f"site_name: API\nsite_url: {SITE}\nhooks:\n  - hook.py\n"
                                  "plugins:\n  - search\n  - sitemap\n")
    write(project / "hook.py", HOOK)
    write(project / "api.txt", "`parse(text)` reads text.\n")
    write(project / "docs" / "index.md", "# Home\n")
    write(project / "docs" / "api.md", "# API\n")
    _first_commit(project)
    first = mkdocs_build(project, T1)
    assert first[f"{SITE}api/"] == "2025-01-10T09:00:00Z"
    write(project / "api.txt", "`parse(text, strict=False)` reads text, leniently.\n")
    git(project, "commit", "-q", "-am", "docstring", when="2025-03-01T09:00:00+00:00")
    second = mkdocs_build(project, T2)
    assert second[f"{SITE}api/"] == w3c(T2)
    assert second[SITE] == "2025-01-10T09:00:00Z"


CLI_GROUP = '''\
import click

from tinycli.cli.build import build


@click.group()
def main():
    """The tool."""


main.add_command(build)
'''


def test_click_reference_moves_with_the_commands_it_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hatch's and MkDocs' own shape: ``::: mkdocs-click`` documents a command group whose
    commands live in the package's modules. The page's Markdown never changes; a command's
    help does, in a module the page does not name: the page is dated by that commit (seen
    with no cache), not by its 2021 stub (hatch's CLI reference said 2021-12-29 while its
    commands changed in 2026)."""
    pytest.importorskip("mkdocs_click")
    project = tmp_path / "tool"
    write(project / "mkdocs.yml", f"site_name: Tool\nsite_url: {SITE}\n"
                                  "markdown_extensions:\n  - mkdocs-click\n"
                                  "plugins:\n  - search\n  - sitemap\n")
    write(project / "docs" / "index.md", "# Home\n")
    write(project / "docs" / "cli.md",
          "# CLI\n\n::: mkdocs-click\n    :module: tinycli.cli\n    :command: main\n")
    write(project / "src" / "tinycli" / "__init__.py", "")
    write(project / "src" / "tinycli" / "cli" / "__init__.py", CLI_GROUP)
    write(project / "src" / "tinycli" / "cli" / "build.py",
          'import click\n\n\n@click.command()\ndef build():\n    """Build it."""\n')
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "start", when="2021-12-29T10:00:00+00:00")
    write(project / "src" / "tinycli" / "cli" / "build.py",
          'import click\n\n\n@click.command()\ndef build():\n    """Build it, fast."""\n')
    git(project, "commit", "-q", "-am", "help", when="2025-05-06T07:08:09+00:00")
    # Installed as hatch's docs environment installs it (editable: its src/ on sys.path).
    monkeypatch.setenv("PYTHONPATH", str(project / "src"))
    dates = mkdocs_build(project, T1)
    assert "Build it, fast." in (project / "site" / "cli" / "index.html").read_text("utf-8")
    assert dates == {SITE: "2021-12-29T10:00:00Z", f"{SITE}cli/": "2025-05-06T07:08:09Z"}


def test_permalinks_and_line_numbers_move_no_page_but_a_heading_edit_moves_its_own(
    tmp_path: Path,
) -> None:
    """Python-Markdown's own documentation: ``toc: {permalink: true}`` made ``"§"`` changed
    every heading's permalink in every page's content and moved 67 of 68 lastmods to the
    build's time; ``codehilite: {linenums: true}`` moved 48 (those with code). The symbol
    and the numbers are the site's settings; a heading's text is the page's."""
    project = tmp_path / "docs-site"
    config = (f"site_name: Docs\nsite_url: {SITE}\ntheme: mkdocs\n"
              "markdown_extensions:\n  - codehilite\n  - fenced_code\n"
              "  - toc:\n      permalink: true\nplugins:\n  - search\n  - sitemap\n")
    write(project / "mkdocs.yml", config)
    write(project / "docs" / "index.md", "# Home\n\n## Part one\n\nText.\n")
    write(project / "docs" / "guide.md",
          "# Guide\n\n## Step\n\nDo it.\n\n```python\nx = 1\ny = 2\n```\n")
    _first_commit(project)
    first = mkdocs_build(project, T1)
    assert first == {SITE: "2025-01-10T09:00:00Z", f"{SITE}guide/": "2025-01-10T09:00:00Z"}
    write(project / "mkdocs.yml", config.replace("permalink: true", 'permalink: "§"').replace(
        "  - codehilite\n", "  - codehilite:\n      linenums: true\n"))
    assert mkdocs_build(project, T2) == first
    guide = (project / "site" / "guide" / "index.html").read_text("utf-8")
    assert 'title="Permanent link">§</a>' in guide  # the symbol did change in the page
    assert 'class="linenos"' in guide  # and the numbers are there
    write(project / "docs" / "guide.md", "# Guide\n\n## First step\n\nDo it.\n\n"
                                         "```python\nx = 1\ny = 2\n```\n")
    assert mkdocs_build(project, T3) == {**first, f"{SITE}guide/": w3c(T3)}


LIGHTBOX_HOOK = '''\
import re


def on_page_content(html, page, config, files):
    """mkdocs-glightbox's shape: each content image wrapped in a link to itself."""
    return re.sub(r'(<img [^>]*src="([^"]+)"[^>]*>)',
                  r'<a class="glightbox" data-type="image" href="\\2">\\1</a>', html)
'''


def test_a_lightbox_turned_on_moves_no_page(tmp_path: Path) -> None:
    """hatch's documentation: taking mkdocs-glightbox out of the plugins moved its five pages
    with images. The lightbox's link leads to the image the page already shows."""
    project = tmp_path / "docs-site"
    config = (f"site_name: Docs\nsite_url: {SITE}\ntheme: mkdocs\n"
              "plugins:\n  - search\n  - sitemap\n")
    write(project / "mkdocs.yml", config)
    write(project / "lightbox.py", LIGHTBOX_HOOK)
    write(project / "docs" / "index.md", "# Home\n\n![Run file](run.png)\n")
    write(project / "docs" / "run.png", "not really a picture")
    _first_commit(project)
    first = mkdocs_build(project, T1)
    write(project / "mkdocs.yml", config + "hooks:\n  - lightbox.py\n")
    assert mkdocs_build(project, T2) == first
    assert 'class="glightbox"' in (project / "site" / "index.html").read_text("utf-8")


def test_an_emoji_cdn_moved_moves_no_page_but_another_emoji_does(tmp_path: Path) -> None:
    """pymdownx draws emoji as images from a CDN whose version its releases move (and
    ``image_path`` sets): every page with an emoji would move on an upgrade. Which emoji a
    page shows is its content."""
    pytest.importorskip("pymdownx")
    project = tmp_path / "docs-site"
    config = (f"site_name: Docs\nsite_url: {SITE}\ntheme: mkdocs\n"
              "markdown_extensions:\n  - pymdownx.emoji:\n"
              "      emoji_generator: !!python/name:pymdownx.emoji.to_png\n"
              "plugins:\n  - search\n  - sitemap\n")
    write(project / "mkdocs.yml", config)
    write(project / "docs" / "index.md", "# Home\n\nShipped :rocket:\n")
    _first_commit(project)
    first = mkdocs_build(project, T1)
    cdn = "https://cdn.example.org/twemoji@99.0.0/assets/72x72/"
    write(project / "mkdocs.yml", config.replace(
        "to_png\n", f"to_png\n      options:\n        image_path: {cdn}\n"))
    assert mkdocs_build(project, T2) == first
    assert cdn in (project / "site" / "index.html").read_text("utf-8")
    write(project / "docs" / "index.md", "# Home\n\nShipped :tada:\n")
    assert mkdocs_build(project, T3) == {SITE: w3c(T3)}


def test_typography_turned_on_moves_no_page_but_an_edit_does(tmp_path: Path) -> None:
    """Elegant's documentation moved 112 of 118 lastmods when ``TYPOGRIFY`` was turned off:
    every quote, dash and last space of every page changed. Python-Markdown's ``smarty`` is
    the same setting in MkDocs."""
    project = tmp_path / "docs-site"
    config = (f"site_name: Docs\nsite_url: {SITE}\ntheme: mkdocs\n"
              "plugins:\n  - search\n  - sitemap\n")
    write(project / "mkdocs.yml", config)
    write(project / "docs" / "index.md",
          "# Home\n\nIt's \"quoted\" -- and --- dashed... and\nwrapped.\n")
    _first_commit(project)
    first = mkdocs_build(project, T1)
    write(project / "mkdocs.yml", config + "markdown_extensions:\n  - smarty\n")
    assert mkdocs_build(project, T2) == first
    assert "&rsquo;" in (project / "site" / "index.html").read_text("utf-8")
    write(project / "docs" / "index.md",
          "# Home\n\nIt's \"quoted\" -- and --- dashed... and wrapped, twice.\n")
    assert mkdocs_build(project, T3) == {SITE: w3c(T3)}


def test_pelican_titles_made_html_read_as_text_in_the_site_map(tmp_path: Path) -> None:
    """Elegant's documentation (``TYPOGRIFY = True``) showed "Latest&nbsp;Release" and
    ``Clean <span class="caps">URL</span>`` as text in the HTML site map: Pelican's title is
    HTML, as its themes print it. ``FORMATTED_FIELDS = ["title"]`` (Markdown in titles, as
    kdeldycke's blog sets it) makes it HTML the same way."""
    pytest.importorskip("pelican")
    from tests.test_adapter_pelican import pelican  # noqa: PLC0415

    site = tmp_path / "source"
    write(site / "pelicanconf.py", (
        'SITENAME = "Docs"\nSITEURL = "https://blog.example.org"\nPATH = "content"\n'
        'TIMEZONE = "UTC"\nFEED_ALL_ATOM = None\nCATEGORY_FEED_ATOM = None\n'
        'AUTHOR_FEED_ATOM = None\nAUTHOR_FEED_RSS = None\nFORMATTED_FIELDS = ["title"]\n'
        'PLUGINS = ["sitemap_plugins.pelican"]\n'
        'SITEMAP_PLUGINS = {"html_sitemap": "site-map.html"}\n'))
    write(site / "content" / "clean.md",
          "Title: Clean *URL* for fish & chips\nDate: 2024-01-02\nCategory: Guides\n\nText.\n")
    write(site / "content" / "about.md", "Title: About *us*\nDate: 2024-01-03\n\nUs.\n")
    out = tmp_path / "out"
    build = pelican(site, out, fatal=False)
    assert build.returncode == 0, build.log
    assert "<em>URL</em>" in (out / "clean-url-for-fish-chips.html").read_text("utf-8")
    shown = (out / "site-map.html").read_text("utf-8")
    assert ">Clean URL for fish &amp; chips</a>" in shown
    assert ">About us</a>" in shown
    assert "&lt;" not in shown
    assert "&amp;amp;" not in shown


# Elegant's shape where it has no landmark (its search page): the menu in plain <div>s, every
# link an absolute URL of the site (Pelican's, with RELATIVE_URLS off), served without .html.
BARE_BASE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ SITENAME }}</title></head>
<body><div class="navbar"><div class="container"><a class="brand" href="{{ SITEURL }}">Docs</a>
<ul class="top-menu">{% for title, link in MENUITEMS %}<li><a href="{{ link }}">{{ title }}</a>
</li>{% endfor %}<li><a href="{{ SITEURL }}/search">Search</a></li>
{% for one in articles %}<li><a href="{{ SITEURL }}/{{ one.url }}">{{ one.title }}</a></li>
{% endfor %}</ul></div></div>
<div class="container">{% block content %}{% endblock %}</div></body></html>
"""
BARE_SEARCH = """{% extends "base.html" %}{% block content %}<div id="results">Type to search.
</div>{% endblock %}"""


def test_pelican_page_read_from_disk_keeps_its_date_when_the_menu_grows(tmp_path: Path) -> None:
    """Elegant's search page (a direct template Pelican renders without content of its own, so
    read whole from disk; no <main>, <article> or <nav>) moved when ``html_sitemap`` added a
    menu link to every page: the host measures the site's chrome for such pages too, from its
    home page's links, which are URLs of the site."""
    pytest.importorskip("pelican")
    from tests.test_adapter_pelican import pelican  # noqa: PLC0415

    theme = tmp_path / "theme" / "templates"
    write(theme / "base.html", BARE_BASE)
    write(theme / "search.html", BARE_SEARCH)
    site = tmp_path / "source"
    settings = (
        'SITENAME = "Docs"\nSITEURL = "https://blog.example.org"\nPATH = "content"\n'
        'TIMEZONE = "UTC"\nFEED_ALL_ATOM = None\nCATEGORY_FEED_ATOM = None\n'
        'AUTHOR_FEED_ATOM = None\nAUTHOR_FEED_RSS = None\nARTICLE_URL = "{slug}"\n'
        'ARTICLE_SAVE_AS = "{slug}.html"\nDIRECT_TEMPLATES = ["index", "search"]\n'
        f'THEME = "{tmp_path / "theme"}"\nPLUGINS = ["sitemap_plugins.pelican"]\n'
        "MENUITEMS = ()\n")
    write(site / "pelicanconf.py", settings)
    write(site / "content" / "one.md", "Title: One\nDate: 2024-01-02\n\nFirst.\n")
    write(site / "content" / "two.md", "Title: Two\nDate: 2024-01-03\n\nSecond.\n")
    out = tmp_path / "out"

    def dates(epoch: int) -> dict[str, str | None]:
        build = pelican(site, out, fatal=False, epoch=epoch)
        assert build.returncode == 0, build.log
        root = etree.parse(str(out / "sitemap.xml")).getroot()
        return {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
                for url in root.iterfind("s:url", NS)}

    first = dates(T1)
    assert "https://blog.example.org/search.html" in first
    write(site / "pelicanconf.py", settings.replace(
        "MENUITEMS = ()", 'MENUITEMS = (("Site map", "https://blog.example.org/map"),)'))
    assert dates(T2) == first
    assert "Site map" in (out / "search.html").read_text("utf-8")


def test_cli_measures_the_chrome_from_a_home_page_that_links_with_full_urls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line on a built Pelican site whose links are absolute URLs of the site
    (``RELATIVE_URLS`` off, the publish default) and lack ``.html`` (a server adds it): a menu
    link added to every page of a theme without landmarks moves no page."""
    site = tmp_path / "site"
    base = "https://blog.example.org/docs/"

    def page(title: str, body: str, extra: str = "") -> str:
        menu = (f'<a href="{base}">Home</a><a href="{base}one">One</a>'
                f'<a href="/docs/two.html">Two</a><a href="https://elsewhere.example/">Out</a>'
                f"{extra}")
        return (f"<!doctype html><html><head><title>{title}</title></head><body>"
                f'<div class="navbar"><div class="menu">{menu}</div></div>'
                f'<div class="container"><h1>{title}</h1><p>{body}</p></div></body></html>')

    def write_pages(extra: str = "") -> None:
        write(site / "index.html", page("Docs", "Welcome.", extra))
        write(site / "one.html", page("One", "First.", extra))
        write(site / "two.html", page("Two", "Second.", extra))

    def lastmods(when: int) -> dict[str, str | None]:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(when))
        assert main(["-q", "build", str(site), "--base-url", base, "--cache-dir",
                     str(tmp_path / "cache"), "--extensionless-urls"]) == 0
        root = etree.parse(str(site / "sitemap.xml")).getroot()
        return {url.findtext("s:loc", namespaces=NS) or "":
                url.findtext("s:lastmod", namespaces=NS) for url in root.iterfind("s:url", NS)}

    write_pages()
    first = lastmods(T1)
    write_pages(f'<a href="{base}site-map">Site map</a>')
    assert lastmods(T2) == first
    write(site / "two.html", page("Two", "Second, longer.", f'<a href="{base}site-map">Site map</a>'))
    assert lastmods(T3) == {**first, f"{base}two": w3c(T3)}


def test_relative_cache_dir_works_on_every_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--cache-dir .sitemap-cache`` (relative to the current folder) on build after build."""
    site = tmp_path / "site"
    write(site / "index.html", "<html><head><title>a</title></head><main>one</main></html>")
    monkeypatch.chdir(tmp_path)
    args = ["build", "site", "--base-url", SITE, "--cache-dir", ".sitemap-cache"]
    for when in (T1, T2):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(when))
        assert main(args) == 0
    write(site / "index.html", "<html><head><title>a</title></head><main>two</main></html>")
    assert main(args) == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    assert "Since the last build: 0 added, 1 changed, 0 removed" in out.out
    assert list((tmp_path / ".sitemap-cache").glob("lastmod-manifest-*.sqlite"))


@pytest.mark.skipif(shutil.which("git") is None, reason="git is needed to ask git")
def test_cache_folder_is_ignored_by_git(tmp_path: Path) -> None:
    """The cache folder never shows as untracked in ``git status``; the site does."""
    git(tmp_path, "init", "-q")
    site = tmp_path / "site"
    write(site / "index.html", "<main>x</main>")
    assert main(["-q", "build", str(site), "--base-url", SITE]) == 0
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=tmp_path, capture_output=True, text=True, check=True,
                            env={**os.environ, **GIT_ENV}).stdout
    assert ".sitemap-cache" not in status
    assert "site/index.html" in status


def test_a_rule_that_sets_nothing_is_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``priority: {articles: 0.8}`` builds with no priority at all: now a warning says so."""
    site = tmp_path / "site"
    write(site / "articles" / "one.html", "<main>1</main>")
    write(site / "blog" / "two.html", "<main>2</main>")
    args = ["build", str(site), "--base-url", SITE, "--priority", "articles=0.8",
            "--priority", "blog/**=0.5", "--changefreq", "news/=daily"]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert ("warning: priority rule 'articles': 0.8 matches no listed page (or an earlier rule "
            "always matches first); globs match file paths such as 'blog/*.html' or URL paths "
            "such as 'blog/**'") in err
    assert "changefreq rule 'news/': 'daily' matches no listed page" in err
    assert "priority rule 'blog/**'" not in err


@pytest.mark.parametrize(
    ("key", "points_to"),
    [("priorities", "SITEMAP = {'priorities'"), ("changefreqs", "SITEMAP = {'changefreqs'"),
     ("format", "sitemap.xml is always written")],
)
def test_pelican_sitemap_keys_point_to_their_real_place(key: str, points_to: str) -> None:
    """pelican-sitemap's key names in SITEMAP_PLUGINS point to where they belong, not to a
    look-alike option that means something else."""
    pytest.importorskip("pelican")
    from sitemap_plugins.pelican import SettingsError, read_plan  # noqa: PLC0415

    with pytest.raises(SettingsError) as caught:
        read_plan({"SITEURL": "https://blog.example.org", "SITEMAP_PLUGINS": {key: {}}})
    assert str(caught.value).startswith(f"SITEMAP_PLUGINS[{key!r}]: Unrecognised option. ")
    assert points_to in str(caught.value)
    assert "Did you mean" not in str(caught.value)

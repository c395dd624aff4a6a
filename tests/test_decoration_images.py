"""Decoration is not content: badges, emoji, avatars and the site's logo are no image entries.

Seen on real sites: fastapi-users' home (its README: CI, codecov, PyPI, pepy and shields.io
badges, 83 contributor avatars) listed 89 images for one page; a Pelican blog on the nest
theme (no landmarks: the region is the whole body) listed its header logo on all 45 pages;
the command line on Elegant's documentation listed the author blurb's avatar on 79 pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from lxml import etree

from sitemap_plugins.page.reader import parse_html
from tests.test_adapter_mkdocs import make_site, run_host
from tests.test_adapter_pelican import pelican

if TYPE_CHECKING:
    from pathlib import Path

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9",
      "i": "http://www.google.com/schemas/sitemap-image/1.1"}
PHOTO = "https://cdn.example.net/photos/harbour.jpg"
PROJECT_LOGO = ("https://raw.githubusercontent.com/fastapi-users/fastapi-users/master/logo.svg"
                "?sanitize=true")  # the README's own picture: content, not the site's logo
# The README of fastapi-users, as MkDocs renders it (the images, in its order).
README_IMAGES = (
    '<p align="center"><img src="https://raw.githubusercontent.com/fastapi-users/'
    'fastapi-users/master/logo.svg?sanitize=true" alt="FastAPI Users"></p>'
    '<p><a href="https://github.com/fastapi-users/fastapi-users/actions"><img alt="build" '
    'src="https://github.com/fastapi-users/fastapi-users/workflows/Build/badge.svg" /></a>'
    '<a href="https://codecov.io/gh/fastapi-users/fastapi-users"><img alt="codecov" '
    'src="https://codecov.io/gh/fastapi-users/fastapi-users/branch/master/graph/badge.svg" />'
    '</a><a href="https://badge.fury.io/py/fastapi-users"><img alt="PyPI version" '
    'src="https://badge.fury.io/py/fastapi-users.svg" /></a>'
    '<a href="https://pepy.tech/project/fastapi-users"><img alt="Downloads" '
    'src="https://pepy.tech/badge/fastapi-users" /></a>'
    '<a href="#contributors-"><img alt="All Contributors" src="https://img.shields.io/badge/'
    'all_contributors-83-orange.svg?style=flat-square" /></a></p>'
    '<table><tr><td align="center"><a href="http://francoisvoron.com"><img '
    'src="https://avatars.githubusercontent.com/u/1144727?v=4?s=100" width="100px;" '
    'alt="François Voron"/><br /><sub><b>François Voron</b></sub></a></td></tr></table>'
    '<p>Read the docs <img class="twemoji" alt="\U0001f4da" src="https://cdn.jsdelivr.net/gh/'
    'jdecked/twemoji@16.0.1/assets/svg/1f4da.svg" title=":books:"> and '
    '<img class="emojione" alt=":rocket:" src="https://cdnjs.cloudflare.com/ajax/libs/emojione/'
    '2.2.7/assets/png/1f680.png"></p>'
    '<p><img alt="Doc status" src="https://readthedocs.org/projects/pluggy/badge/?version='
    'latest"><img src="https://travis-ci.org/pytest-dev/pluggy.svg?branch=master"></p>'
)


def _image_locs(sitemap: Path) -> dict[str, list[str]]:
    tree = etree.parse(str(sitemap))
    return {str(url.findtext("s:loc", namespaces=NS)): [
        str(loc) for loc in url.xpath("i:image/i:loc/text()", namespaces=NS)]
        for url in tree.iterfind("s:url", NS)}


def test_badges_emoji_and_avatars_in_the_content_are_not_content_images() -> None:
    page = (f"<!doctype html><html><body><main>{README_IMAGES}<p><img src='{PHOTO}' "
            "alt='The harbour at dawn'></p></main></body></html>").encode()
    record = parse_html(page)
    assert record.images == (PROJECT_LOGO, PHOTO)


@pytest.mark.parametrize("image", [
    '<img src="/logo.svg" alt="logo">',  # nest: in the header's home link, no landmark
    '<img class="site-logo" src="/img/brand.png" alt="Example">',
    '<img src="/img/brand.png" alt="Example Blog logo">',
])
def test_a_logo_in_a_link_home_is_decoration_where_the_region_is_the_body(image: str) -> None:
    page = (f'<!doctype html><html><body><div class="header"><a href="/">{image}Example</a>'
            f'</div><div class="content"><p>Text.</p><img src="{PHOTO}" alt="logo drawing">'
            "</div></body></html>").encode()
    assert parse_html(page).images == (PHOTO,)  # a content image stays, whatever its alt


@pytest.mark.parametrize(("link", "home"), [
    ("/", ""), ("./", ""), ("../index.html", ""), ("index.html", ""),
    ("https://example.org/blog/", "https://example.org/blog/"),
    ("http://EXAMPLE.org/blog", "https://example.org/blog/"),
    ("https://example.org/blog/index.html#top", "https://example.org/blog/"),
])
def test_only_a_link_to_this_site_s_home_makes_a_logo_the_site_s(link: str, home: str) -> None:
    """Full Stack Python: each page's one illustration is a project's logo linking to that
    project's home (48 pages lost theirs when any host's root counted as home). A logo in a
    link to this site's home (relative, or the base URL) is the site's; one linking to another
    site's root is content."""
    django = ('<a href="https://www.djangoproject.com/"><img src="/img/logos/django.png" '
              'alt="Django logo" class="logo"></a>')
    page = (f'<!doctype html><html><body><div class="header"><a href="{link}"><img '
            f'src="/img/site.png" alt="Full Stack Python logo"></a></div><div class="c">'
            f"<p>Django is a web framework.</p>{django}</div></body></html>").encode()
    assert parse_html(page, home=home).images == ("/img/logos/django.png",)


# Badges on hosts no list names, found by what they are; and a page's controls.
UNLISTED_BADGES = [
    # pydantic's coverage badge: a host whose subdomain says "badge".
    ('<a href="https://github.com/x"><img src="https://coverage-badge.samuelcolvin.workers.dev/'
     'pydantic/pydantic.svg" alt="Coverage"></a>'),
    # shields.io's protocol served elsewhere: its style parameter.
    '<img src="https://badges.example.net/v/x?style=flat-square">',
    '<img src="https://img.example.com/npm/v/x?label=npm&amp;style=for-the-badge">',
    # A status image in a link, labelled as badges are, on a host and path that say nothing.
    ('<a href="https://ci.example.com/x"><img src="https://ci.example.com/x/status.png?b=main" '
     'alt="status"></a>'),
    ('<a href="https://pypi.org/project/x"><img src="https://pkg.example.com/x/version" '
     'alt="PyPI version"></a>'),
    '<a href="https://ci.example.com/x"><img src="https://ci.example.com/x.svg" alt="build"></a>',
    # Sphinx's module index toggler (py-modindex.html).
    '<img src="_static/minus.png" class="toggler" id="toggle-1" style="display: none" alt="-">',
]


@pytest.mark.parametrize("badge", UNLISTED_BADGES)
def test_a_badge_on_an_unlisted_host_or_a_toggler_is_decoration(badge: str) -> None:
    """Badges are found by what they are (a badge word in the subdomain, shields' style
    parameter, a badge's label on an SVG or drawn image in a link), not only by host."""
    page = (f"<!doctype html><html><body><main><p>{badge}</p>"
            f"<img src='{PHOTO}' alt='The harbour'></main></body></html>").encode()
    assert parse_html(page).images == (PHOTO,)


@pytest.mark.parametrize("image", [
    '<a href="/ci/"><img src="/img/build.jpg" alt="Build"></a>',  # a photo: a jpg
    '<img src="/diagrams/build.svg" alt="build">',  # a drawing outside any link
    ('<a href="/docs/"><img src="/img/docs.svg" alt="Docs overview: the three parts of the '
     'documentation and how they link"></a>'),  # a sentence, not a badge's label
    '<img src="/img/style.png?style=watercolour">',
])
def test_an_image_badge_words_do_not_make_a_badge(image: str) -> None:
    """A content image that shares a word with badges stays."""
    page = f"<!doctype html><html><body><main><p>{image}</p></main></body></html>".encode()
    assert len(parse_html(page).images) == 1


@pytest.mark.parametrize("avatar", [
    # Elegant (Pelican): the author blurb under each article, inside its <article>.
    '<img src=/images/avatars/talha131.png alt="Talha Mansoor Avatar" title="Talha Mansoor">',
    '<img src="/theme/me.png" alt="Talha Mansoor Avatar">',  # named so by its alt alone
    # pelican-bootstrap3's AVATAR setting: an image path of the author's choosing.
    '<img class="img-responsive img-rounded" src="/images/aws-avatar.png" alt="Igor">',
    # Docusaurus' blog byline.
    '<img class="avatar__photo" src="/img/authors/ana.jpg" alt="Ana">',
])
def test_an_author_avatar_inside_the_article_is_decoration(avatar: str) -> None:
    """The command line on a built Elegant site listed the author's avatar as an image of
    79 of 118 pages: the blurb sits in the article, and its picture is on the site's own
    host. An image named an avatar (by class, alt or path) is decoration wherever it sits."""
    page = ('<!doctype html><html><body><div id="content"><article><header><h1>Author blurbs'
            f'</h1></header><div class="article-content"><p>Text.</p><img src="{PHOTO}" '
            'alt="The harbour"><div class="author-blurb"><a href="https://example.org/">'
            f'{avatar}<span class="author-name">Talha Mansoor</span></a> writes.</div></div>'
            "</article></div></body></html>").encode()
    assert parse_html(page).images == (PHOTO,)


# Badges as READMEs and docs write them beyond the plain form: another host of a badge
# service, the host spelt with user information, a port or a final dot, a badge folder or
# file name of another service (Colab, Binder, SonarCloud, Azure Pipelines, Travis's new host).
HIDDEN_BADGES = [
    "https://user@img.shields.io/pypi/v/x", "https://img.shields.io./pypi/v/x",
    "https://img.shields.io:443/pypi/v/x", "https://IMG.Shields.IO/pypi/v/x",
    "//img.shields.io/pypi/v/x", "https://raster.shields.io/pypi/v/x.png",
    "https://flat.badgen.net/npm/v/x?icon=npm", "https://app.travis-ci.com/x/y.svg?branch=main",
    "https://sonarcloud.io/api/project_badges/measure?project=x&metric=coverage",
    "https://dev.azure.com/org/proj/_apis/build/status/x?branchName=main",
    "https://mybinder.org/badge_logo.svg",
    "https://colab.research.google.com/assets/colab-badge.svg",
]


@pytest.mark.parametrize("badge", HIDDEN_BADGES)
def test_a_badge_however_its_url_is_spelt_is_decoration(badge: str) -> None:
    """A badge by host or name, whatever the URL's spelling, in an ``<img>`` or as the
    source of a ``<picture>`` (READMEs give one badge for dark mode, one for light)."""
    page = (f"<!doctype html><html><body><main><p><img src='{badge}' alt='build'></p>"
            f"<picture><source media='(prefers-color-scheme: dark)' srcset='{badge}'>"
            f"<img src='{badge}' alt='build'></picture>"
            f"<img src='{PHOTO}' alt='The harbour'></main></body></html>").encode()
    assert parse_html(page).images == (PHOTO,)


def test_a_pictures_sources_are_judged_with_its_image() -> None:
    """A ``<picture>``'s dark-mode logo in a link home, or its emoji in another format, is
    decoration as its ``<img>`` is; a photo's wider source and a badge-shaped photo stay."""
    page = (b"<!doctype html><html><body><main>"
            b"<a href='/'><picture><source srcset='/logo-dark.svg'><img src='/logo.svg' "
            b"alt='logo'></picture></a>"
            b"<picture><source srcset='/e/1f4da.webp'><img class='twemoji' src='/e/1f4da.png' "
            b"alt=':books:'></picture>"
            b"<picture><source srcset='/harbour-wide.jpg 2x'><img src='/harbour.jpg' "
            b"alt='The harbour'></picture>"
            b"<img src='/img/merit-badges/first-aid.jpg' alt='A merit badge'>"
            b"</main></body></html>")
    assert parse_html(page).images == (
        "/harbour.jpg", "/img/merit-badges/first-aid.jpg", "/harbour-wide.jpg")


def test_a_lazy_loaded_image_is_the_one_its_loader_shows() -> None:
    """A lazy loader's placeholder (the same ``src`` on every page) is no content image: the
    image in ``data-src`` or ``data-srcset`` is, and is judged as decoration like any other
    (a lazy badge or logo stays out)."""
    page = (b"<!doctype html><html><body><main>"
            b"<img class='lazyload' src='/img/placeholder.gif' data-src='/photos/a.jpg'>"
            b"<img src='data:image/gif;base64,R0l' data-srcset='/photos/b.jpg 1x, /photos/b2.jpg 2x'>"
            b"<picture><source data-srcset='/photos/c.webp'><img src='/img/placeholder.gif' "
            b"data-src='/photos/c.jpg'></picture>"
            b"<img src='/img/placeholder.gif' data-src='https://img.shields.io/pypi/v/x'>"
            b"<a href='/'><img src='/img/placeholder.gif' data-src='/logo.svg' alt='logo'></a>"
            b"<img src='/photos/d.jpg' data-src='data:image/gif;base64,R0l'>"
            b"</main></body></html>")
    assert parse_html(page).images == (
        "/photos/a.jpg", "/photos/b2.jpg", "/photos/c.jpg", "/photos/d.jpg", "/photos/c.webp")


@pytest.mark.integration
def test_mkdocs_material_home_lists_its_content_images_only(tmp_path: Path) -> None:
    """A README-included home with badges, avatars and twemoji (pymdownx's <img> emoji)."""
    project = make_site(tmp_path / "project", (
        "site_name: T\nsite_url: https://example.org/\ntheme:\n  name: material\n"
        "markdown_extensions:\n  - attr_list\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "      emoji_generator: !!python/name:pymdownx.emoji.to_png\n"
        "plugins:\n  - sitemap\n"),
        {"index.md": f"# Home\n\n{README_IMAGES}\n\nShips :rocket: fast.\n\n"
                     f"![The harbour]({PHOTO})\n",
         "guide.md": "# Guide\n\n:books: Read on.\n"})
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    assert "twemoji" in (build.site / "guide" / "index.html").read_text("utf-8")
    images = _image_locs(build.site / "sitemap.xml")
    assert images["https://example.org/"] == [PROJECT_LOGO, PHOTO]
    assert images["https://example.org/guide/"] == []


NEST_LIKE_BASE = """<!DOCTYPE html>
<html lang="{{ DEFAULT_LANG }}"><head><meta charset="utf-8"><title>{{ SITENAME }}</title></head>
<body>
<div class="header-container gradient"><div class="container"><div class="header-logo">
<a class="pull-left" href="{{ SITEURL }}/"><img class="mr20" src="{{ SITEURL }}/logo.svg"
 alt="logo">{{ SITENAME }}</a></div></div></div>
<div class="container content">{% block content %}{% endblock %}</div>
<div class="footer gradient-2"><div class="container">&copy; {{ AUTHOR }}</div></div>
</body></html>
"""


@pytest.mark.integration
def test_pelican_theme_without_landmarks_lists_no_logo(tmp_path: Path) -> None:
    """A theme shaped like nest (molivier/nest): no main, article, nav or header; the logo
    is an <img alt="logo"> in a link to the site's root on every page."""
    site = tmp_path / "source"
    (site / "content").mkdir(parents=True)
    theme = tmp_path / "theme" / "templates"
    theme.mkdir(parents=True)
    (theme / "base.html").write_text(NEST_LIKE_BASE, "utf-8")
    (site / "pelicanconf.py").write_text(
        'SITENAME = "Nest-like"\nSITEURL = "https://example.org"\nPATH = "content"\n'
        'TIMEZONE = "UTC"\nDEFAULT_LANG = "en"\nFEED_ALL_ATOM = None\n'
        'CATEGORY_FEED_ATOM = None\nAUTHOR_FEED_ATOM = None\nAUTHOR_FEED_RSS = None\n'
        f'THEME = "{tmp_path / "theme"}"\nPLUGINS = ["sitemap_plugins.pelican"]\n', "utf-8")
    (site / "content" / "harbour.md").write_text(
        f"Title: Harbour\nDate: 2024-01-02\n\nAt dawn.\n\n![The harbour]({PHOTO})\n", "utf-8")
    (site / "content" / "notes.md").write_text(
        "Title: Notes\nDate: 2024-01-03\n\nNo picture here.\n", "utf-8")
    out = tmp_path / "out"
    build = pelican(site, out, fatal=False)
    assert build.returncode == 0, build.log
    assert 'alt="logo"' in (out / "notes.html").read_text("utf-8")
    images = _image_locs(out / "sitemap.xml")
    assert images["https://example.org/harbour.html"] == [PHOTO]
    assert images["https://example.org/notes.html"] == []
    assert not [url for url, locs in images.items() if any("logo" in loc for loc in locs)]

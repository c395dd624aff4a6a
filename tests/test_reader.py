"""The page reader: literal HTML snippets in, one page record out."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest
from cost import assert_linear, parser_input
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_plugins.disk.site import read_bytes
from sitemap_plugins.page.codec import decode_record, encode_record
from sitemap_plugins.page.content import Video
from sitemap_plugins.page.reader import (
    MAX_HEAD_BYTES,
    MAX_PARSED_BYTES,
    HostPage,
    PageRecord,
    decode_html,
    parse_html,
    read_parts,
    read_record,
)

if TYPE_CHECKING:
    from pathlib import Path


def parse(html: str) -> PageRecord:
    return parse_html(html.encode("utf-8"))


@pytest.mark.parametrize(
    ("html", "canonical"),
    [
        ('<head><link rel="canonical" href="https://e.org/a/"></head>', "https://e.org/a/"),
        ("<head><link href=https://e.org/a/ rel=canonical></head>", "https://e.org/a/"),
        ('<HEAD><LINK REL="Canonical" HREF="../b/"></HEAD>', "../b/"),
        ('<head><link rel="alternate canonical" href="x"/></head>', "x"),
        ('<head><!-- <link rel="canonical" href="nope"> --></head>', None),
        ('<head><script>var s = \'<link rel="canonical" href="nope">\';</script></head>', None),
        ('<head><link rel="canonical" href="/a?x=1&amp;y=2"></head>', "/a?x=1&y=2"),
        ('<head></head><body><link rel="canonical" href="late"></body>', None),
        ('<head><link rel="canonical" href=""></head>', None),
        ('<head><link rel="canonical" href=" \t/a b/\n"></head>', "/a b/"),
    ],
    ids=["plain", "minified", "upper", "multi-rel", "comment", "script", "entity", "body",
         "empty", "ascii-space"],
)
def test_canonical(html: str, canonical: str | None) -> None:
    """Only a real canonical link in the head counts."""
    assert parse(html).canonical == canonical


def test_conflicting_canonicals_reported() -> None:
    """Two different canonicals: the first is used and the conflict reported."""
    record = parse("<head><link rel=canonical href=a><link rel=canonical href=b></head>")
    assert record.canonical == "a"
    assert [code for code, _ in record.problems] == ["conflicting-canonicals"]


@pytest.mark.parametrize(
    ("html", "tokens"),
    [
        ('<meta name="robots" content="noindex, follow">', {"noindex", "follow"}),
        ('<meta name="GoogleBot" content="NONE">', {"none"}),
        ('<meta name="bingbot" content="noindex">', set()),
        ('<meta content="noindex,nofollow" name=robots>', {"noindex", "nofollow"}),
    ],
    ids=["robots", "googlebot-upper", "other-bot", "reversed"],
)
def test_robots(html: str, tokens: set[str]) -> None:
    """robots and googlebot meta tags are read; other bots' are not."""
    assert parse(f"<head>{html}</head>").robots == tokens


@pytest.mark.parametrize(
    ("content", "url"),
    [
        ("0; url=../guide/", "../guide/"),
        ("0;URL='https://e.org/x'", "https://e.org/x"),
        ("5", None),
        ("0; url=", None),
    ],
    ids=["plain", "quoted-upper", "reload-only", "empty-url"],
)
def test_refresh(content: str, url: str | None) -> None:
    """A meta refresh with a target is a redirect; a bare reload is not."""
    html = f'<head><meta http-equiv="refresh" content="{content}"></head>'
    assert parse(html).refresh_url == url


# Material's and Zensical's redirect.html: the refresh inside a <noscript>, a script besides.
MATERIAL_REDIRECT = ('<!doctype html><html><head><meta charset="utf-8"><title>Redirecting'
                     '</title><noscript><meta http-equiv="refresh" content="0; url=../new/">'
                     '</noscript><script>location.replace(new URL("../new/", location))</script>'
                     '</head></html>')
# sphinx-reredirects' default template.
RE_REDIRECT = ('<html><head><noscript><meta http-equiv="refresh" content="0; url=new.html" />'
               '</noscript><script>var target = "new.html";window.location.replace(target);'
               '</script></head></html>')


@pytest.mark.parametrize(("html", "url"), [(MATERIAL_REDIRECT, "../new/"),
                                           (RE_REDIRECT, "new.html")],
                         ids=["material", "sphinx-reredirects"])
def test_a_refresh_in_a_noscript_of_the_head_is_a_redirect(html: str, url: str) -> None:
    """Read from disk and from a host's parts alike, so every front-end leaves it out."""
    assert parse(html).refresh_url == url
    head = html.partition("</head>")[0]
    assert read_parts(HostPage(head, "")).refresh_url == url


# pydata-sphinx-theme 0.24's _static/webpack-macros.html (abridged): a Jinja macro file whose
# comments name <body>; numpydoc's docs listed it under the command line.
WEBPACK_MACROS_024 = """<!--
  AUTO-GENERATED from webpack.config.js, do **NOT** edit by hand.
  These are re-used in layout.html
-->

{% macro head_pre_assets() %}
  <!-- Loaded before other Sphinx assets -->
  <link href="{{ pathto('_static/styles/theme.css', 1) }}?digest=75c7c72ae941e8b558d8" rel="stylesheet" />
{% endmacro %}

{% macro body_post() %}
  <!-- Scripts loaded after <body> so the DOM is not blocked -->
  <script defer src="{{ pathto('_static/scripts/bootstrap.js', 1) }}"></script>
{% endmacro %}
"""


@pytest.mark.parametrize("text", [
    WEBPACK_MACROS_024,
    "{# the <html> of layout.html #}\n{% block body %}<p>{{ body }}</p>{% endblock %}\n",
], ids=["html-comment", "jinja-comment"])
def test_a_template_that_names_a_page_element_in_a_comment_is_still_a_template(
        text: str) -> None:
    """Only elements in the markup make a page; a comment's words about them do not."""
    assert parse(text).template
    assert not parse("<!-- {% not a template %} --><html><body><p>{{ x }}</p></body></html>"
                     ).template
@pytest.mark.parametrize("body", [
    '<noscript><meta http-equiv="refresh" content="0;url=/new/"></noscript><p>Redirecting</p>',
    "<META HTTP-EQUIV='Refresh' CONTENT=\"0; URL = '/new/'\"><p>Moved</p>",
], ids=["noscript-in-body", "bare-in-body"])
def test_a_refresh_in_the_body_is_a_redirect(body: str) -> None:
    """Browsers follow a meta refresh in the body: a JavaScript redirect's fallback stands
    there; a reload without a target and an escaped one in a code block are no redirect."""
    head = '<html><head><title>Moved</title><script>location.href="/new/"</script></head>'
    assert parse(f"{head}<body>{body}</body></html>").refresh_url == "/new/"
    shown = ('<body><meta http-equiv="refresh" content="30"><pre><code>&lt;meta '
             'http-equiv="refresh" content="0; url=/x/"&gt;</code></pre></body>')
    assert parse(head + shown).refresh_url is None


def test_head_facts_in_order() -> None:
    """hreflang links, html lang, base href, dates, title, description and feeds."""
    record = parse(
        '<html lang="fr"><head><title> Le  titre &amp; co </title><base href="/root/">'
        '<link rel="alternate" hreflang="en" href="../en/">'
        '<link rel="alternate" type="application/atom+xml" href="feed.xml">'
        '<link rel="alternate" hreflang="x-default" href="/">'
        '<meta property="article:published_time" content="2023-01-02">'
        '<meta property="article:modified_time" content="2024-03-05T10:20:30+01:00">'
        '<meta name="description" content="About it.">'
        '<meta property="og:title" content="OG">'
        "</head><body><main><h1>Main <em>heading</em></h1></main></body></html>")
    assert record.lang == "fr"
    assert record.base_href == "/root/"
    assert record.alternates == (("en", "../en/"), ("x-default", "/"))
    assert record.modified == "2024-03-05T10:20:30+01:00"
    assert record.published == "2023-01-02"
    assert record.title == "Le titre & co"
    assert record.heading == "Main heading"
    assert record.description == "About it."
    assert record.og_title == "OG"
    assert record.feeds == ("feed.xml",)


@pytest.mark.parametrize(
    ("raw", "text", "problem"),
    [
        (b"caf\xc3\xa9", "café", None),
        (b'<meta charset="iso-8859-1">caf\xe9', '<meta charset="iso-8859-1">café', None),
        (b"caf\xe9", "café", "not-utf8"),
        (b"\xef\xbb\xbfcaf\xc3\xa9", "café", None),
        (b"caf\xc3", "caf", None),
        ('<meta charset="shift_jis">日本'.encode("shift_jis"), '<meta charset="shift_jis">日本', None),
        (b'<meta charset="utf-7">+AGEA-', '<meta charset="utf-7">+AGEA-', None),
    ],
    ids=["utf8", "declared-latin1", "undeclared-latin1", "bom", "cut-multibyte", "shift-jis",
         "utf-7-refused"],
)
def test_decode_html(raw: bytes, text: str, problem: str | None) -> None:
    """Declared charsets are honoured; undeclared non-UTF-8 bytes are guessed and reported."""
    decoded, found = decode_html(raw, truncated=raw.endswith(b"\xc3"))
    assert decoded == text
    assert (found[0] if found else None) == problem


def test_not_utf8_page_keeps_its_facts() -> None:
    """A Windows-1252 page without a charset is still read (and the guess reported)."""
    record = parse_html(b"<head><title>caf\xe9</title><link rel=canonical href=/x/></head>")
    assert (record.title, record.canonical) == ("café", "/x/")
    assert [code for code, _ in record.problems] == ["not-utf8"]


@pytest.mark.parametrize("charset", ["iso-2022-jp", "shift_jis", "windows-1252"])
def test_seven_bit_pages_read_in_their_declared_charset(charset: str) -> None:
    """A page of ASCII bytes reads the same in any charset, but ISO-2022's escapes switch."""
    title = "日本語の題" if charset != "windows-1252" else "plain title"
    raw = (f'<head><meta charset="{charset}"><title>{title}</title></head>'
           f"<main><h1>{title}</h1></main>").encode(charset)
    record = parse_html(raw)
    assert (record.title, record.heading) == (title, title)
    assert raw.isascii() == (charset != "shift_jis")


def test_binary_file_is_reported() -> None:
    """A binary file named .html is reported, not parsed."""
    record = parse_html(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert record.unreadable
    assert [code for code, _ in record.problems] == ["binary"]


# --- the fingerprint ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("<main><p>a</p></main><nav>one</nav>", "<main><p>a</p></main><nav>two</nav>"),
        ("<main><p>a</p><nav>one</nav></main>", "<main><p>a</p><nav>two</nav></main>"),
        ("<main>\n  <p>\n    a b\n  </p>\n  <p>c</p>\n</main>", "<main><p>a b</p><p>c</p></main>"),
        ("<body><article>A</article><aside>x</aside></body>",
         "<body><article>A</article><aside>y</aside></body>"),
        ("<main>x<script>1</script></main>", "<main>x<script>2</script></main>"),
        ("<main>x<!-- one --></main>", "<main>x<!-- two --></main>"),
        ('<main><link href="s.1.css"><img src="a.4f.js"></main>',
         '<main><link href="s.2.css"><img src="a.5e.js"></main>'),
        ("<header>h1</header><div role=main>same</div>", "<header>h2</header><div role=main>same</div>"),
        ("<head><title>One</title></head><main>x</main>", "<head><title>Two</title></head><main>x</main>"),
    ],
    ids=["nav-outside", "nav-inside", "white-space", "aside", "script", "comment", "assets",
         "role-main", "title"],
)
def test_fingerprint_ignores_what_is_not_content(first: str, second: str) -> None:
    """Navigation, sidebars, scripts, comments, asset hashes and spacing are not content."""
    assert parse(first).fingerprint == parse(second).fingerprint


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("<main><p>a</p></main>", "<main><p>b</p></main>"),
        ('<main><a href="/x/">a</a></main>', '<main><a href="/y/">a</a></main>'),
        ('<main><img src="/a.png"></main>', '<main><img src="/b.png"></main>'),
        ("<body><article>A</article><article>B</article></body>",
         "<body><article>A</article><article>C</article></body>"),
        ("<body><p>x</p></body>", "<body><p>y</p></body>"),
        ("<div role=main>x</div>", "<div role=main>y</div>"),
    ],
    ids=["text", "link", "image", "second-article", "body", "role-main"],
)
def test_fingerprint_sees_content_changes(first: str, second: str) -> None:
    """Text, links and images of the main content change the fingerprint."""
    assert parse(first).fingerprint != parse(second).fingerprint


@pytest.mark.parametrize("role", ["main", "MAIN", " main ", "main region"])
def test_role_main_is_a_token_in_any_case(role: str) -> None:
    """role="main" marks the region however it is spelt, the navigation before it not content."""
    def page(nav: str, role: str = role) -> PageRecord:
        return parse(f'<body><div><ul><li><a href="/{nav}/">{nav}</a></li></ul></div>'
                     f'<div role="{role}"><h1>Title</h1><a href="/in/">in</a></div></body>')

    assert page("one").fingerprint == page("two").fingerprint
    assert page("one").heading == "Title"
    # Without the role the whole body is the region: the navigation's links count.
    assert (page("one", "presentation").fingerprint
            != page("two", "presentation").fingerprint)


def test_several_articles_are_read_together_and_what_is_between_them_is_not() -> None:
    """A blog index: every outermost <article> is content (even one inside an <aside>), the
    navigation between them is not, and the first heading is the first article's."""
    def index(nav: str, link: str) -> PageRecord:
        return parse(f'<body><section><aside><article><h1>First</h1><img src="/a.png">'
                     f'<a href="/{link}/">more</a><nav><a href="/n1/">n</a></nav></article>'
                     f'</aside><nav><a href="/{nav}/">{nav}</a></nav><div><p>{nav}</p></div>'
                     f'<article><h1>Second</h1><img src="/b.png"><article>inner</article>'
                     f"</article></section></body>")

    one = index("one", "x")
    assert one.fingerprint == index("two", "x").fingerprint
    assert one.fingerprint != index("one", "y").fingerprint
    assert one.heading == "First"
    assert one.images == ("/a.png", "/b.png")


@pytest.mark.parametrize(("body", "heading"), [
    # A theme's article title sits in the article's own <header>.
    (("<header><h1>Blog</h1></header><main><article><header><h1>Post</h1></header>"
     "<p>text</p></article></main>"), "Post"),
    ("<main><header><h1>Post</h1></header><p>text</p></main>", "Post"),
    ('<div role="main"><header><h1>Post</h1></header></div>', "Post"),
    # An <h1> in the content itself comes first.
    ("<main><header><h1>Kicker</h1></header><h1>Post</h1></main>", "Post"),
    # No region: the body's <header> is the site's banner, not the page's title.
    ("<header><h1>Blog</h1></header><div><p>text</p></div>", None),
    # Several articles (an index): no one article's header names the page.
    (("<article><header><h1>One</h1></header></article>"
     "<article><header><h1>Two</h1></header></article>"), None),
    (("<article><header><h1>One</h1></header></article>"
     "<article><h1>Two</h1></article>"), "Two"),
    # The header's navigation is not the content's.
    ("<main><header><nav><h1>Menu</h1></nav><h1>Post</h1></header></main>", "Post"),
], ids=["article-header", "main-header", "role-main-header", "content-first", "banner",
        "index", "index-outside-headers", "nav-in-header"])
def test_heading_from_the_contents_own_header(body: str, heading: str | None) -> None:
    """The page's heading: its content's first <h1>, else the one in the content's own
    header, but never the site's banner's."""
    assert parse(f"<html><body>{body}</body></html>").heading == heading


BANNER = '<header id="banner"><h1><a href="/">Blog</a></h1><nav><a href="/{nav}/">{nav}</a></nav></header>'


@pytest.mark.parametrize("body", [
    # Pelican's notmyidea: no <main>, the article is the region.
    (BANNER + '<section id="content"><article><header><h1><a href="/post.html" rel="bookmark">'
     "Post</a></h1></header><div>Text.</div></article></section>"),
    # Pelican's simple: <main><article><header>.
    BANNER + "<main><article><header><h2>Post</h2></header><p>Text.</p></article></main>",
    # A theme's page header right inside <main>, or a role=main element.
    BANNER + "<main><header><h1>Post</h1><p>By Ann</p></header><p>Text.</p></main>",
    BANNER + '<div role="main"><header><h1>Post</h1></header><p>Text.</p></div>',
    # A blog's index: every article's header, the listed titles.
    (BANNER + "<ol><li><article><header><h2><a href='/post.html'>Post</a></h2></header>"
     "<p>Text.</p></article></li><li><article><header><h2>Other</h2></header></article></li>"
     "</ol>"),
    # Material's blog index: the index page's own text sits in a <header> in <main>.
    (BANNER + '<main><div class="md-content"><header class="md-typeset"><p>Post</p></header>'
     '<article class="md-post"><header class="md-post__header"><nav>'
     '<img src="/{nav}.png"></nav><time>2024-01-01</time></header><p>Text.</p></article>'
     "</div></main>"),
], ids=["notmyidea", "simple", "main-header", "role-main-header", "index", "material-blog"])
def test_the_contents_own_header_is_content(body: str) -> None:
    """A <header> inside a <main>, <article> or role=main region is content: editing only the
    title in it moves the fingerprint, while the site's banner and any navigation (even in
    that header) still do not count."""
    def page(title: str, nav: str) -> str:
        return parse(body.replace("Post", title).replace("{nav}", nav)).fingerprint

    assert page("Post", "one") != page("Renamed", "one")
    assert page("Post", "one") == page("Post", "two")


AROUND = ("<header><p>{around}</p><article><header><h2>{title}</h2></header></article>"
          "</header><div><article>B</article></div>")


@pytest.mark.parametrize(("page", "same", "moved"), [
    # No main region: the body's header is the site's banner, whatever it holds; the same
    # header in <main> is the content's.
    ("<header><h1>Blog</h1></header><div><p>Text</p></div>",
     "<header><h1>Blog two</h1></header><div><p>Text</p></div>",
     "<main><header><h1>Blog two</h1></header><div><p>Text</p></div></main>"),
    # A header that names itself the banner, inside <main>, and one that does not.
    ('<main><header role="banner"><h1>Blog</h1></header><p>Text</p></main>',
     '<main><header role="BANNER"><h1>Blog two</h1></header><p>Text</p></main>',
     '<main><header role="heading"><h1>Blog two</h1></header><p>Text</p></main>'),
    # A header holding one of the articles of an index: what lies around them is not
    # content, the article's own header is.
    tuple(AROUND.format(around=around, title=title)
          for around, title in (("one", "Post"), ("two", "Post"), ("one", "Renamed"))),
], ids=["body-banner", "role-banner", "header-around-articles"])
def test_a_banner_is_not_content(page: str, same: str, moved: str) -> None:
    """The site's banner does not count, the content's own header does."""
    assert parse(page).fingerprint == parse(same).fingerprint
    assert parse(page).fingerprint != parse(moved).fingerprint


def test_main_region_wins_over_the_rest() -> None:
    """Only the first <main> counts when there is one: text outside it does not."""
    a = parse("<body><p>outside 1</p><main>in</main><article>x</article></body>")
    b = parse("<body><p>outside 2</p><main>in</main><article>y</article></body>")
    assert a.fingerprint == b.fingerprint


PAGE_PIECES = st.lists(st.sampled_from([
    "<main>", "</main>", "<article>", "</article>", "<nav>", "</nav>", "<p>", "</p>",
    "<div role=main>", "</div>", "<script>", "</script>", "<!--", "-->", "<", ">", "&amp;",
    "text", " ", "\n", "\x00", "\xa0", "<a href=/x/>", "</a>", "<img src=/i.png>",
    "<svg>", "</svg>", "<template>", "</template>", "é", "<h1>", "</h1>", "<video src=v.mp4>",
    "<iframe src=https://www.youtube.com/embed/x>", "<picture><source srcset='a 1x, b 2x'>",
]), max_size=60).map("".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(PAGE_PIECES)
def test_any_markup_gives_a_stable_record(page: str) -> None:
    """Any markup parses, the same bytes give the same record, and the cache keeps it whole."""
    raw = page.encode("utf-8")
    record = parse_html(raw)
    assert parse_html(raw) == record
    assert decode_record(encode_record(record)) == record


@pytest.mark.parametrize(("h1", "heading"), [
    # Python-Markdown's toc permalink (MkDocs), as mkdocstrings' site spells it, and its default.
    (('<h1 id="troubleshooting">Troubleshooting<a class="headerlink" href="#troubleshooting" '
     'title="Permanent link">¤</a></h1>'), "Troubleshooting"),
    (('<h1 id="install">Install<a class="headerlink" href="#install" '
     'title="Permanent link">&para;</a></h1>'), "Install"),
    # Sphinx.
    ('<h1>Welcome<a class="headerlink" href="#welcome" title="Link to this heading">¶</a></h1>',
     "Welcome"),
    # Docusaurus: a zero-width space in the link.
    (('<h1 class="anchor" id="intro">Intro<a href="#intro" class="hash-link" '
     'aria-label="Direct link to Intro" title="Direct link to Intro">\u200b</a></h1>'), "Intro"),
    # Docusaurus with an absolute href (a site built with absolute links).
    (('<h1 class="anchor" id="whats-opendal">What&#39;s OpenDAL?<a '
      'href="https://opendal.apache.org/blog/2025/03/01/2025-roadmap/#whats-opendal" '
      'class="hash-link" title="Direct link to What&#39;s OpenDAL?">\u200b</a></h1>'),
     "What's OpenDAL?"),
    # A theme's anchor before the text (Hugo).
    ('<h1 id="setup"><a class="anchor" href="#setup">#</a> Setup</h1>', "Setup"),
    # A heading that is all one link to itself keeps its text.
    ('<h1 id="t"><a href="#t">Title</a></h1>', "Title"),
    # A link elsewhere is part of the heading.
    ('<h1>About <a href="/x/">X</a></h1>', "About X"),
], ids=["markdown-toc", "markdown-toc-para", "sphinx", "docusaurus", "docusaurus-absolute",
        "hugo-before",
        "all-self-link", "link-elsewhere"])
def test_heading_leaves_out_its_permalink(h1: str, heading: str) -> None:
    """A heading's permalink (a link to a fragment of the page: ¶, ¤, #) is no part of its
    text, which names the page in the HTML site map."""
    assert parse(f"<html><body><main>{h1}<p>text</p></main></body></html>").heading == heading


# --- media and headings ------------------------------------------------------------------


def test_images_of_the_main_content() -> None:
    """img src, the largest srcset candidate, picture sources; no pixels, data: or logos."""
    record = parse(
        '<header><img src="/logo.png"></header>'
        "<main>"
        '<img src="/a.png"><img src="/a.png">'
        '<img srcset="/s-small.png 480w, /s-big.png 1200w">'
        '<picture><source srcset="/p1.webp 1x, /p2.webp 2x"><img src="/p.png"></picture>'
        '<img src="/pixel.gif" width="1" height="1">'
        '<img src="data:image/png;base64,AAAA">'
        "<nav><img src=/nav.png></nav>"
        "</main>")
    assert record.images == ("/a.png", "/s-big.png", "/p.png", "/p2.webp")


def test_videos_of_the_main_content() -> None:
    """<video> and embed iframes, with poster, title and the figure's caption."""
    record = parse(
        "<main><figure>"
        '<video poster="/t.jpg" title="Demo"><source src="/v.mp4"></video>'
        "<figcaption>How it works</figcaption></figure>"
        '<iframe src="https://www.youtube.com/embed/abc" title="Talk"></iframe>'
        "</main>")
    assert record.videos == (
        Video("/v.mp4", "", "/t.jpg", "Demo", "How it works"),
        Video("", "https://www.youtube.com/embed/abc", "", "Talk", ""),
    )


# --- reading files -----------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 4_095, 9_000, 65_536, 65_537, 1 << 20],
                         ids=lambda size: f"{size}B")
def test_a_whole_page_is_read_whole(tmp_path: Path, size: int) -> None:
    """A page under the bound is read whole and said to be complete, whatever its size."""
    page = tmp_path / "page.html"
    page.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
    read = read_bytes(str(page))
    assert (read.raw, read.complete) == (page.read_bytes(), True)


def test_short_reads_still_give_every_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read may return fewer bytes than asked (network file systems): the reader goes on."""
    page = tmp_path / "page.html"
    page.write_bytes(b"<p>" + b"x" * 70_000 + b"</p>")
    real_read = os.read
    monkeypatch.setattr(os, "read",
                        lambda descriptor, count: real_read(descriptor, min(count, 777)))
    assert read_bytes(str(page)).raw == page.read_bytes()


@pytest.mark.parametrize(("inline", "short_reads"), [
    (b'<script type="application/ld+json">{"graph": [%s]}</script>', False),
    (b"<style>%s</style>", True),
], ids=["json-ld", "css-short-reads"])
def test_a_noindex_after_megabytes_of_inline_head_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inline: bytes, short_reads: bool,
) -> None:
    """The head is read to its end past the body's bound: a robots meta and a canonical after
    more than MAX_PARSED_BYTES of inline JSON-LD or CSS count; the body stays unread."""
    filler = b'{"@type": "Thing", "name": "x"},' * (MAX_PARSED_BYTES // 32 + 1000)
    page = tmp_path / "big.html"
    page.write_bytes(b"<!doctype html><html><head>" + inline.replace(b"%s", filler)
                     + b'<meta name="robots" content="noindex"><link rel="canonical" '
                     b'href="https://example.org/x/"></head><body><main>'
                     + b"<p>word</p>" * 600_000 + b"</main></body></html>")
    if short_reads:
        real_read = os.read
        monkeypatch.setattr(os, "read", lambda fd, count: real_read(fd, min(count, 1 << 19)))
    read = read_bytes(str(page))
    assert MAX_PARSED_BYTES < len(read.raw) < len(filler) + 200
    assert read.raw.endswith(b"</head>")
    record = read_record(read, html=True)
    assert ("noindex" in record.robots, record.canonical) == (True, "https://example.org/x/")


def test_a_head_without_an_end_is_read_up_to_its_bound(tmp_path: Path) -> None:
    """Past the bound only a cut <script>/<style> is read on: its body is skipped, the head
    after it kept up to MAX_HEAD_BYTES; an element that never ends, or a cut title, keeps
    nothing more (a 200 MB head took 1.7 GB when it was read whole); a <body> ends it."""
    page = tmp_path / "big.html"
    page.write_bytes(b"<head><style>" + b"p{}" * (2 * MAX_PARSED_BYTES // 3))
    assert len(read_bytes(str(page)).raw) == MAX_PARSED_BYTES + 1
    page.write_bytes(b"<head><title>" + b"t" * 2 * MAX_PARSED_BYTES + b"</title></head>")
    assert len(read_bytes(str(page)).raw) == MAX_PARSED_BYTES + 1
    page.write_bytes(b"<head><style>" + b"p{}" * (MAX_PARSED_BYTES // 2) + b"</style>"
                     + b"<meta name=x>" * MAX_PARSED_BYTES)
    assert len(read_bytes(str(page)).raw) == MAX_HEAD_BYTES
    page.write_bytes(b"<head><style>" + b"p{}" * (MAX_PARSED_BYTES // 3) + b"</style><BODY>"
                     + b"<p>x</p>" * MAX_PARSED_BYTES)
    assert read_bytes(str(page)).raw.endswith(b"</style><BODY>")


@pytest.mark.integration
def test_a_page_over_the_bound_is_parsed_in_part(tmp_path: Path) -> None:
    """Past the bound, the head is still read, memory stays bounded, every byte counts."""
    page = tmp_path / "big.html"
    head = b"<head><link rel=canonical href=/big/></head><body><main>"
    paragraph = b"<p>word</p>"
    page.write_bytes(head + paragraph * (MAX_PARSED_BYTES // len(paragraph) + 100))
    read = read_bytes(str(page))
    assert (len(read.raw), read.complete) == (MAX_PARSED_BYTES, False)
    record = read_record(read, html=True)
    assert record.canonical == "/big/"
    assert record.fingerprint.startswith("raw:")
    assert "page-too-large" in [code for code, _ in record.problems]
    with page.open("ab") as handle:
        handle.write(b"<p>one more</p>")
    assert read_record(read_bytes(str(page)), html=True).fingerprint != (
        record.fingerprint)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_is_never_waited_on(tmp_path: Path) -> None:
    """A named pipe standing where a page was gives an error at once, not a hang."""
    fifo = tmp_path / "page.html"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        read_bytes(str(fifo))


def test_max_parsed_bytes_is_a_bound_on_memory() -> None:
    """The bound is what a page may cost in memory: megabytes, not the file's size."""
    assert MAX_PARSED_BYTES <= 16 * 1024 * 1024


@pytest.mark.parametrize(
    "text",
    ["", "[]", "null", '["x"]', "[" + "[" * 100_000 + "]" * 100_000 + "]",
     '["f",true,null,[],null,[["en"]],null,null,null,null,null,null,null,null,[],[],[],[]]'],
    ids=["empty", "empty-list", "null", "short", "deep", "bad-pair"],
)
def test_a_damaged_cached_record_is_not_used(text: str) -> None:
    """Anything but what encode_record wrote decodes to None: the page is parsed again."""
    assert decode_record(text) is None


_NOT_XML_CHARS = frozenset(chr(c) for c in [*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20),
                                            *range(0xD800, 0xE000), 0xFFFE, 0xFFFF])
_TRICKY_TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF),
                       max_size=8) | st.sampled_from(
    ["\\b", "\\u0001", "C:\\foo", "\ud83d", "\ude00", "\U0001f600", "\ud83d\\ude00",
     "\\\ud83d", "\ufffe", "\x0c", "\t\n\r", "\x7f\x85"])


@pytest.mark.integration
@settings(max_examples=2_000, deadline=None)
@given(title=_TRICKY_TEXT, images=st.lists(_TRICKY_TEXT, max_size=3))
def test_a_cached_record_holds_only_text_xml_can_hold(title: str, images: list[str]) -> None:
    """A record comes back from the cache exactly when every string in it is text XML 1.0
    can hold: an emoji (a surrogate pair in the JSON) or a backslash does, a control
    character or a lone surrogate does not (the page is then read again)."""
    record = PageRecord("f", html=True, title=title, images=tuple(images))
    clean = not any(ch in _NOT_XML_CHARS for text in (title, *images) for ch in text)
    assert decode_record(encode_record(record)) == (record if clean else None)


@pytest.mark.parametrize("depth", [2_000, 400_000])
def test_deep_nesting_costs_linear_time(depth: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tags nested thousands deep (an HTML5 parser's quadratic case) are read up to a bound:
    the head still counts, the page is fingerprinted by its bytes, and it says why."""
    def page(depth: int) -> bytes:
        return b"<html><head><link rel=canonical href=/x/></head><body>" + b"<nav>" * depth + b"x"
    assert_linear(lambda size: parse_html(page(size)), depth)
    raw = page(depth)
    fed = parser_input(monkeypatch)
    record = parse_html(raw)
    assert max(fed) < 6_000  # the HTML5 parser gets the page up to the bound, not 2 MB
    assert record.canonical == "/x/"
    assert record.fingerprint.startswith("raw:")
    assert [code for code, _ in record.problems] == ["nested-too-deep"]
    assert parse_html(raw + b"y").fingerprint != record.fingerprint


def _distinct_attributes(count: int) -> str:
    return "".join(f'data-a{number}=">" ' for number in range(count))


@pytest.mark.parametrize("count", [100_000, 300_000])
def test_an_element_of_many_attributes_costs_linear_time(
        count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lexbor looks for each new attribute's name among those before it: one element of
    40,000 distinct attributes took it 2 s, and 4 MB could hold 700,000. The page is read up
    to that element, fingerprinted by its bytes, and says why; a ">" in a quoted value does
    not hide the element."""
    def page(count: int) -> bytes:
        return ("<html><head><link rel=canonical href=/x/></head><body><main><p>Before."
                f"<img src=/a.png alt=A></p><div {_distinct_attributes(count)}>x</div>"
                "<img src=/after.png></main></body></html>").encode()
    assert_linear(lambda size: parse_html(page(size)), 20_000)  # 12 s for 100,000 once
    raw = page(count)
    fed = parser_input(monkeypatch)
    record = parse_html(raw)
    assert max(fed) < 200  # the HTML5 parser never sees the element
    assert record.canonical == "/x/"
    assert record.images == ("/a.png",)
    assert record.fingerprint.startswith("raw:")
    assert [code for code, _ in record.problems] == ["too-many-attributes"]
    assert parse_html(raw + b"y").fingerprint != record.fingerprint


def test_a_host_s_content_is_bounded_as_a_page_read_from_disk() -> None:
    """What a host rendered goes through the same bounds: deep nesting and an element of
    many attributes in ``page.content`` are read up to there, with the same problems."""
    from sitemap_plugins.page.reader import HostPage, read_parts  # noqa: PLC0415

    head = "<html lang=en><head><title>T</title><link rel=canonical href=/x/>"
    for make, code in ((lambda n: f"<p>Before.</p><div {_distinct_attributes(n)}>x</div>",
                        "too-many-attributes"),
                       (lambda n: "<p>Before.</p>" + "<nav>" * (n // 2) + "x",
                        "nested-too-deep")):
        assert_linear(lambda n, make=make: read_parts(HostPage(head, make(n))), 20_000)
        content = make(100_000)
        record = read_parts(HostPage(head, content))
        assert (record.canonical, record.lang) == ("/x/", "en")
        assert [problem for problem, _ in record.problems] == [code]
        assert read_parts(HostPage(head, content + "y")).fingerprint != record.fingerprint


def test_large_pages_of_long_attributes_are_read_whole() -> None:
    """A megabyte data: URI, a long SVG path and elements of a few dozen attributes are no
    reason to stop reading: everything after them counts."""
    svg_path = "M0 0 " + "L1 2 " * 40_000
    many = " ".join(f"data-x{number}=v" for number in range(60))
    raw = ("<html><head></head><body><main><img src='data:image/png;base64,"
           + "A" * 1_000_000 + f"' alt=inline><svg><path d='{svg_path}'/></svg>"
           + f"<p {many}>Text.</p>" * 200 + "<img src=/after.png></main></body></html>").encode()
    record = parse_html(raw)
    assert record.problems == ()
    assert record.images == ("/after.png",)


def test_ordinary_nesting_is_parsed_whole() -> None:
    """Thousands of tags at an ordinary depth are parsed as usual."""
    raw = b"<title>T</title><main>" + b"<p><a href=/a/>x</a></p>" * 5_000 + b"</main>"
    record = parse_html(raw)
    assert not record.problems
    assert not record.fingerprint.startswith("raw:")


# -- a <main> the reader never sees as the page -------------------------------------------


@pytest.mark.parametrize("hidden", [
    "<noscript><main><p>Enable JavaScript.</p><img src='ns.png'></main></noscript>",
    "<template><main><p>Later.</p><img src='t.png'></main></template>",
    "<script>document.write('<main><p>Late</p></main>')</script>",
    "<noscript><div role='main'><p>Enable JavaScript.</p></div></noscript>",
    "<noscript><article><p>Enable JavaScript.</p></article></noscript>",
], ids=["noscript-main", "template-main", "script-string", "noscript-role-main",
        "noscript-article"])
def test_a_main_that_is_not_shown_is_never_the_content(hidden: str) -> None:
    """A ``<main>`` (or ``<article>``, ``role=main``) inside ``<noscript>`` or
    ``<template>``, or in a script's string, is not the content: the page reads as if it
    were not there."""
    real = "<div class='content'><h1>Title</h1><p>Text.</p><img src='real.png'></div>"
    without = parse(f"<html><body>{real}</body></html>")
    record = parse(f"<html><body>{hidden}{real}</body></html>")
    assert (record.fingerprint, record.images, record.heading) == (
        without.fingerprint, ("real.png",), "Title")


# -- a page its host rendered ---------------------------------------------------------------


def test_host_parts_give_head_facts_from_the_head_and_the_rest_from_the_content() -> None:
    """``read_parts``: canonical, robots, lang and dates from the written head; fingerprint,
    images and heading from the host's content, whatever the theme put around it."""
    from sitemap_plugins.page.reader import HostPage, read_parts  # noqa: PLC0415

    head = ('<!DOCTYPE html><html lang="fr"><head><title>Guide - Site</title>'
            '<link rel="canonical" href="https://example.org/guide/">'
            '<meta name="robots" content="noarchive">'
            '<meta property="article:modified_time" content="2024-01-02"><img src="no.png">')
    content = "<h1>Guide</h1><p>How to.</p><img src='shot.png'><nav><a href='x/'>X</a></nav>"
    record = read_parts(HostPage(head, content))
    assert (record.canonical, record.robots, record.lang, record.modified, record.title) == (
        "https://example.org/guide/", frozenset({"noarchive"}), "fr", "2024-01-02",
        "Guide - Site")
    assert (record.heading, record.images) == ("Guide", ("shot.png",))
    # The same content in any theme is the same fingerprint; a word of it is not.
    themed = read_parts(HostPage(head.replace("<title>", "<title>New "), content))
    assert themed.fingerprint == record.fingerprint
    edited = read_parts(HostPage(head, content.replace("How to.", "How to, better.")))
    assert edited.fingerprint != record.fingerprint
    # A listing's images are its articles': none of them is the listing's own.
    listing = read_parts(HostPage(head.encode(), content, media=False))
    assert (listing.images, listing.fingerprint) == ((), record.fingerprint)


def test_listing_items_and_titles_are_content() -> None:
    """A listing's content is its items (URL, title, date, summary); a page's title counts
    as its first heading when its content has none."""
    from sitemap_plugins.page.reader import HostPage, listing_items, read_parts, titled  # noqa: PLC0415

    def fingerprint(content: str) -> str:
        return read_parts(HostPage("<html><head></head>", content)).fingerprint

    items = [("a.html", "A & B", "2024-01-02", "<p>Sum.</p>")]
    assert fingerprint(listing_items(items)) != fingerprint(
        listing_items([("a.html", "A & C", "2024-01-02", "<p>Sum.</p>")]))
    assert fingerprint(titled("One", "<p>x</p>")) != fingerprint(titled("Two", "<p>x</p>"))
    assert titled("One", "<h1>Own</h1><p>x</p>") == "<h1>Own</h1><p>x</p>"
    assert read_parts(HostPage("", titled("A <b>", "<p>x</p>"))).heading == "A <b>"


def test_what_a_head_lets_slip_into_the_body_is_not_the_host_s_content() -> None:
    """A tracker's ``<noscript><p><img></p></noscript>`` in the head (molivier/nest's Piwik),
    which an HTML parser moves into the body, is not part of the host's content."""
    from sitemap_plugins.page.reader import HostPage, read_parts  # noqa: PLC0415

    head = ('<html lang="en"><head><title>T</title><noscript><p><img src="piwik.php?id=1">'
            "</p></noscript>")
    record = read_parts(HostPage(head, "<h1>T</h1><p>Text.</p></div><img src='a.png'>"))
    clean = read_parts(HostPage('<html lang="en"><head><title>T</title>',
                                "<h1>T</h1><p>Text.</p></div><img src='a.png'>"))
    assert (record.images, record.fingerprint, record.lang) == (
        ("a.png",), clean.fingerprint, "en")


@pytest.mark.parametrize(("markup", "template"), [
    ("{% macro head_pre_assets() %}<link href='{{ pathto(\"x.css\", 1) }}'>{% endmacro %}", True),
    ("<!-- generated -->\n{# icons #}\n<link rel=stylesheet href=x.css>", True),
    ("<% if user %><p>Hi</p><% end %>", True),
    ("<!doctype html><title>Jinja</title><p>Write {{ name }} or {% if %}.</p>", False),
    ("<!doctype html><html><body>{{ left unrendered }}</body></html>", False),
    ("<nav class=menu><ul><li><a href='/'>Home</a></li></ul></nav>", False),
    ("<title>Notes</title><p>A short page, no template syntax.</p>", False),
    ("google-site-verification: google1234abcd.html", False),
    (('<!DOCTYPE html><html lang="{{ .Site.LanguageCode }}"><head><title>{{ .Title }} | '
      '{{ .Site.Title }}</title></head><body>{{ block "main" . }}{{ end }}</body></html>'), True),
    (("---\nlayout: default\n---\n<html><head><title>{{ page.title }}</title></head><body>"
      "{% for p in site.posts %}{{ p.title }}{% endfor %}</body></html>"), True),
    ("<html><head><title><%= @title %></title></head><body><p>x</p></body></html>", True),
    ("<html><head><title><?php echo $t; ?></title></head><body><p>x</p></body></html>", True),
    (("<!doctype html><html><head><title>App</title></head><body><div id=app><p>{{ msg }}</p>"
      "</div></body></html>"), False),
    ("<!doctype html><title>Use {{ in Jinja</title><p>An opener alone.</p>", False),
], ids=["jinja-macros", "jinja-comment", "erb", "syntax-in-text", "page-with-syntax",
        "partial", "titled-fragment", "plain-text", "hugo-baseof", "jekyll-layout", "erb-layout",
        "php-layout", "vue-app", "title-with-an-opener"])
def test_a_template_file_is_not_a_page(markup: str, template: bool) -> None:
    """A file naming no <html>, <head>, <body> or doctype with template syntax outside its
    tags, or a layout whose title is a template tag; a fragment without syntax stays a page."""
    assert parse(markup).template is template

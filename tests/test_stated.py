"""The dates a page states in its body, and the source its edit link names (page.stated)."""

from __future__ import annotations

import pytest
from selectolax.lexbor import LexborHTMLParser

from sitemap_plugins.page import content, stated
from sitemap_plugins.page.codec import decode_record, encode_record
from sitemap_plugins.page.content import select
from sitemap_plugins.page.reader import parse_html
from sitemap_plugins.page.stated import linked_source

_JSON_LD = '<script type="application/ld+json">{}</script>'
_POST_META = ('<h1>Post</h1><ul class="post-metadata"><li><time datetime="2018-08-24">24 '
              'August 2018</time></li><li><a href="/tags/x/" class="post-tag">x</a></li></ul>')


@pytest.mark.parametrize(("body", "modified", "published"), [
    # Eleventy's base blog: the post's metadata right after its heading.
    (f"<main>{_POST_META}<p>Text</p></main>", None, "2018-08-24"),
    # Its home page: the heading, then a list of posts, each a link and a time.
    (('<main><h1>Latest</h1><ol class="postlist"><li><a href="/a/">A</a><time '
     'datetime="2018-08-24">x</time></li></ol></main>'), None, None),
    (('<main><h1>Latest</h1><div><time datetime="2018-01-01"></time><time '
     'datetime="2019-01-01"></time></div></main>'), None, None),
    # An article's own header; not a comment's, not one of several articles (a listing).
    (('<article><header><h1>A</h1><time datetime="2023-01-02T10:00:00+01:00">x</time>'
     "</header><p>t</p></article>"), None, "2023-01-02T10:00:00+01:00"),
    (('<article><h1>A</h1><p>t</p><article class="comment"><header><time '
     'datetime="2025-01-01">c</time></header></article></article>'), None, None),
    (('<article><header><time datetime="2021-01-01"></time></header></article>'
     '<article><header><time datetime="2022-01-01"></time></header></article>'), None, None),
    # A date elsewhere in the body: a paragraph, a sidebar, an article's body.
    ('<main><h1>A</h1><p>Text</p><p>On <time datetime="2020-02-02">then</time></p></main>',
     None, None),
    ('<main><h1>A</h1><p>t</p></main><aside><time datetime="2020-02-02">x</time></aside>',
     None, None),
    ('<article><h1>A</h1><p>t <time datetime="2020-02-02">x</time></p></article>', None, None),
    # h-entry; a comment's h-cite, and an h-feed of several entries, date nothing.
    (('<div class="h-entry"><time class="dt-published" datetime="2021-01-01">a</time><time '
     'class="dt-updated" datetime="2021-06-01">b</time></div>'), "2021-06-01", "2021-01-01"),
    (('<div class="h-entry"><p class="e-content">t</p><div class="p-comment h-cite"><time '
     'class="dt-published" datetime="2026-01-01">c</time></div></div>'), None, None),
    (('<div class="h-feed"><div class="h-entry"><time class="dt-published" '
     'datetime="2021-01-01"></time></div><div class="h-entry"><time class="dt-published" '
     'datetime="2021-02-01"></time></div></div>'), None, None),
    # Microdata, by content or datetime; a comment's item dates nothing.
    (('<div itemscope itemtype="https://schema.org/BlogPosting"><meta itemprop="dateModified" '
     'content="2020-05-05"><time itemprop="datePublished" datetime="2019-05-05">x</time>'
     "</div>"), "2020-05-05", "2019-05-05"),
    (('<div itemscope><p>t</p><div itemprop="comment" itemscope><meta itemprop="dateModified" '
     'content="2026-01-01"></div></div>'), None, None),
    # JSON-LD: an object, an @graph, a list; nested items (a blog's posts) date nothing.
    (_JSON_LD.format('{"@type": "Article", "datePublished": "2017-01-01", "dateModified": '
                     '"2017-02-02T08:00:00Z"}'), "2017-02-02T08:00:00Z", "2017-01-01"),
    (_JSON_LD.format('{"@graph": [{"@type": "WebPage", "dateModified": "2016-03-03"}]}'),
     "2016-03-03", None),
    (_JSON_LD.format('[{"@type": "Article", "datePublished": "2015-04-04"}]'), None,
     "2015-04-04"),
    (_JSON_LD.format('{"@type": "Blog", "blogPost": [{"datePublished": "2015-04-04"}]}'),
     None, None),
    (_JSON_LD.format('{"dateModified": "2015-04-04",'), None, None),  # broken: quietly none
    (_JSON_LD.format('{"dateModified": 20150404}'), None, None),
    # The order: JSON-LD, then microdata, then h-entry, then the article's header.
    (_JSON_LD.format('{"dateModified": "2014-01-01"}') + '<div itemscope><meta '
     'itemprop="dateModified" content="2013-01-01"></div><article><header><time '
     'datetime="2012-01-01"></time></header></article>', "2014-01-01", "2012-01-01"),
    # No date: not a W3C date, or a page with none.
    ('<article><header><time datetime="yesterday">x</time></header></article>', None, None),
    ("<main><h1>A</h1><p>Updated daily; datetime module.</p></main>", None, None),
], ids=["eleventy-post", "eleventy-home", "two-times-beside", "article-header",
        "comment-article", "two-articles", "paragraph", "sidebar", "article-body",
        "h-entry", "h-cite-comment", "h-feed", "microdata", "microdata-comment", "json-ld",
        "json-ld-graph", "json-ld-list", "json-ld-nested", "json-ld-broken",
        "json-ld-not-text", "order", "not-a-date", "no-date"])
def test_stated_dates(body: str, modified: str | None, published: str | None) -> None:
    """A page's own date stated in its body is its modified or published date; others are not."""
    record = parse_html(f"<html><head><title>t</title></head><body>{body}</body></html>".encode())
    assert (record.modified, record.published) == (modified, published)
    assert decode_record(encode_record(record)) == record


def test_head_meta_comes_before_the_body() -> None:
    """The head's ``article:modified_time`` wins over a date the body states."""
    record = parse_html(
        b'<html><head><meta property="article:modified_time" content="2024-01-01"></head>'
        b'<body><script type="application/ld+json">{"dateModified": "2020-01-01", '
        b'"datePublished": "2019-01-01"}</script></body></html>')
    assert (record.modified, record.published) == ("2024-01-01", "2019-01-01")


@pytest.mark.parametrize(("body", "link"), [
    (('<a href="https://github.com/o/r/edit/main/docs/a.md" title="Edit this page" '
     'class="md-content__button md-icon" rel="edit">e</a>'),
     "https://github.com/o/r/edit/main/docs/a.md"),  # MkDocs Material
    (('<a href="https://github.com/o/r/tree/main/website/docs/a.md" target="_blank" '
     'rel="noopener noreferrer" class="theme-edit-this-page">Edit this page</a>'),
     "https://github.com/o/r/tree/main/website/docs/a.md"),  # Docusaurus
    (('<p><a href="https://github.com/o/r/edit/main/src/content/docs/a.md" class="sl-flex">'
     "Edit page</a></p>"), "https://github.com/o/r/edit/main/src/content/docs/a.md"),  # Starlight
    (('<p id="edit-this-page-p"><a href="https://github.com/o/r/tree/main/docs/a.md" '
     'id="edit-this-page">Edit this page on GitHub</a></p>'),
     "https://github.com/o/r/tree/main/docs/a.md"),  # just-the-docs
    (('<div class="edit-this-page"><a class="muted-link" href="https://github.com/o/r/edit/'
     'main/docs/a.rst" title="Edit this page">e</a></div>'),
     "https://github.com/o/r/edit/main/docs/a.rst"),  # furo
    ('<a href="../_sources/a.rst.txt" rel="edit">source</a>', None),  # not a forge's URL
    ('<p>Edited by <a href="https://github.com/o/r/blob/main/a.md">me</a>.</p>', None),
], ids=["material", "docusaurus", "starlight", "just-the-docs", "furo", "relative", "none"])
def test_edit_link(body: str, link: str | None) -> None:
    """The theme's "Edit this page" link is the page's source link; a blob link in text is not."""
    record = parse_html(f"<html><body><main>{body}<p>t</p></main></body></html>".encode())
    assert record.source_link == link
    assert decode_record(encode_record(record)) == record


_TRACKED = frozenset({"docs/a.md", "docs/sub dir/b.md", "README.md", "website/docs/c.md"})


@pytest.mark.parametrize(("link", "source"), [
    ("https://github.com/o/r/edit/main/docs/a.md", "docs/a.md"),
    ("https://github.com/o/r/blob/feature/x/docs/a.md", "docs/a.md"),  # a branch with a slash
    ("https://gitlab.com/g/sub/r/-/edit/main/docs/a.md", "docs/a.md"),
    ("https://codeberg.org/o/r/_edit/main/docs/sub%20dir/b.md", "docs/sub dir/b.md"),
    ("https://github.com/o/r/tree/main/website/docs/c.md", "website/docs/c.md"),
    ("https://bitbucket.org/o/r/src/main/README.md?mode=edit", "README.md"),
    ("https://github.com/o/r/edit/main/docs/gone.md", None),
    ("https://github.com/o/r/edit/main/", None),
], ids=["github", "slashed-branch", "gitlab", "gitea-quoted", "monorepo", "bitbucket", "gone",
        "no-path"])
def test_linked_source(link: str, source: str | None) -> None:
    """An edit link names the tracked file that is the longest ending of its path."""
    assert linked_source(link, _TRACKED) == source


def test_the_query_finds_only_what_can_state() -> None:
    """Plain scripts are not handed to Python; an element several parts match comes per part."""
    html = ('<head><script src="a.js"></script><script>var x = 1;</script>'
            '<script type="Application/LD+JSON">{}</script></head><body>'
            '<a class="theme-edit-this-page" href="https://x.org/o/r/edit/main/a.md">Edit</a>'
            '<time itemprop="dateModified" datetime="2020-01-01">x</time></body>')
    tree = LexborHTMLParser(html)
    assert tree.root is not None
    found = [node.tag for node in select(tree.root, stated._STATING)]
    assert found == ["script", "a", "time", "time"]


def test_one_selector_engine_serves_every_page() -> None:
    """The reader's queries share one engine a thread; each page's results are its own."""
    first = parse_html(b'<main><h1>One</h1><a href="/a/">a</a></main>')
    engine = content._ENGINES.engine
    second = parse_html(b'<main><h1>Two</h1><a href="/b/">b</a></main>')
    assert content._ENGINES.engine is engine
    assert (first.heading, second.heading) == ("One", "Two")
    assert first.fingerprint != second.fingerprint

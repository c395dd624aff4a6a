"""The rule book's table: literal HTML before and after, whether the fingerprint moves, and
the page's title (its first heading, as the HTML site map shows it).

Rows come from real sites: Python-Markdown's documentation moved 67 of 68 lastmods when
``toc: {permalink: true}`` became ``"§"`` and 48 when codehilite's ``linenums`` became true;
hatch's 71 of 88 with pymdownx's ``anchor_linenums`` and five when mkdocs-glightbox was
turned off; Elegant's 112 of 118 when ``TYPOGRIFY`` was turned off. The title and the
fingerprint read a heading by the same permalink rule.
"""

from __future__ import annotations

import hashlib
import re

import pytest

from sitemap_plugins.page import reader, rulebook
from sitemap_plugins.page.reader import parse_html

CODE = '<div class="highlight"><pre>x = 1</pre></div>'
PYGMENTS_NUMBERED = ('<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv">'
                     f'<pre>1</pre></div></td><td class="code">{CODE}</td></tr></table>')
CHROMA = ('<pre class="chroma"><code><span class="line"><span class="cl">x = 1</span></span>'
          "</code></pre>")
CHROMA_NUMBERED = CHROMA.replace('<span class="cl">', '<span class="ln">1</span><span class="cl">')
FIGURE = '<p><img alt="Run file" src="run.png"></p>'
SIGNATURE = ('<div class="doc-signature highlight"><pre><span></span><code>run(app: <a class='
             '"autorefs autorefs-internal" title="App (pkgx.App)" href="#pkgx.App">App</a>)'
             "</code></pre></div>")
ANCHORED = CODE.replace("<pre>", '<pre><span id="__span-0-1"><a id="__codelineno-0-1" '
                        'name="__codelineno-0-1"></a><a href="#__codelineno-0-1"><span '
                        'class="linenos" data-linenos="1 "></span></a>').replace(
    "</pre>", "</span></pre>")

# (before, after, does the fingerprint move, the title of before, of after)
TABLE = [
    # Sphinx: the headerlink's title and symbol are the theme's and the language's.
    pytest.param('<h1>Install<a class="headerlink" href="#install" title="Link">¶</a></h1>',
                 '<h1>Install<a class="headerlink" href="#install" title="Lien">#</a></h1>',
                 False, "Install", "Install", id="sphinx-headerlink"),
    # Hugo themes: a "#" link to the heading before its text.
    pytest.param('<h1 id="install"><a href="#install">#</a> Install</h1>',
                 '<h1 id="install"><a href="#install" aria-hidden="true">🔗</a> Install</h1>',
                 False, "Install", "Install", id="hugo-hash"),
    # Docusaurus: a zero-width space in its hash-link.
    pytest.param('<h1>Install<a class="hash-link" href="#install">\u200b</a></h1>',
                 '<h1>Install<a class="hash-link" href="#install-1">\u200b</a></h1>',
                 False, "Install", "Install", id="docusaurus-hash-link"),
    # A heading that is all a link to itself: the link is the heading, its text counts.
    pytest.param('<h1 id="install"><a href="#install">Install</a></h1>',
                 '<h1 id="install"><a href="#install">Installing</a></h1>',
                 True, "Install", "Installing", id="all-a-link"),
    pytest.param('<h1>Install<a class="headerlink" href="#install">¶</a></h1>',
                 '<h1>Installing<a class="headerlink" href="#installing">¶</a></h1>',
                 True, "Install", "Installing", id="heading-edited"),
    # A link to a fragment with words is part of the heading, not its permalink: the title
    # keeps it as the fingerprint does (the site map used to say "Install").
    pytest.param('<h1 id="install">Install <a href="#pip">with pip</a></h1>',
                 '<h1 id="install">Install <a href="#uv">with uv</a></h1>',
                 True, "Install with pip", "Install with uv", id="words-in-a-fragment-link"),
    pytest.param('<h1 id="v2">Version 2 <a href="#notes-2">(notes)</a></h1>',
                 '<h1 id="v2">Version 2 <a href="#notes-2">(breaking)</a></h1>',
                 True, "Version 2 (notes)", "Version 2 (breaking)", id="words-in-brackets"),
    # A heading that is all a link holding markup: bryceboe.com's tag list; a permalink's
    # class changes nothing then.
    pytest.param('<h1><a data-toggle="collapse" href="#c-acm">acm <span class="b">1</span></a></h1>',
                 '<h1><a data-toggle="collapse" href="#c-ai">ai <span class="b">1</span></a></h1>',
                 True, "acm 1", "ai 1", id="collapsing-panel-title"),
    pytest.param('<h1><a class="anchor-link" href="#install">Install <code>pip</code></a></h1>',
                 '<h1><a class="anchor-link" href="#install">Install <code>uv</code></a></h1>',
                 True, "Install pip", "Install uv", id="anchor-link-is-all"),
    # Zola's and GitHub's permalinks: a symbol, or an icon and no text.
    pytest.param('<h1 id="install">Install <a class="zola-anchor" href="#install">🔗</a></h1>',
                 '<h1 id="install">Install <a class="anchor" href="#install"><svg></svg></a></h1>',
                 False, "Install", "Install", id="zola-github-icon"),
    # Line numbers: Sphinx's (Pygments, a table) and Hugo's (Chroma, inline).
    pytest.param(CODE, PYGMENTS_NUMBERED, False, None, None, id="pygments-linenos"),
    pytest.param(CHROMA, CHROMA_NUMBERED, False, None, None, id="chroma-linenos"),
    # pymdownx.highlight's anchor_linenums: a link to each line around its number.
    pytest.param(CODE, ANCHORED, False, None, None, id="anchor-linenums"),
    pytest.param(CODE, CODE.replace("x = 1", "x = 2"), True, None, None, id="code-edited"),
    pytest.param(CODE, CODE.replace("<pre>", '<pre><a href="#l-1"><span class="linenos"> 1</span></a>'),
                 False, None, None, id="anchorlinenos"),
    # A link to the page's own fragment inside code that is code (mkdocstrings' autorefs).
    pytest.param(SIGNATURE, SIGNATURE.replace("App", "Router"), True, None, None,
                 id="autorefs-in-code"),
    pytest.param(SIGNATURE, SIGNATURE.replace(">App<", ">Apps<"), True, None, None,
                 id="autorefs-text"),
    # A lightbox's link to the image it holds (mkdocs-glightbox; Sphinx's scaled images).
    pytest.param(FIGURE, FIGURE.replace("<img", '<a class="glightbox" href="run.png"><img')
                 .replace("</p>", "</a></p>"), False, None, None, id="glightbox"),
    pytest.param(FIGURE, FIGURE.replace("<img", '<a class="reference internal image-reference" '
                                        'href="run.png"><img').replace("</p>", "</a></p>"),
                 False, None, None, id="sphinx-scaled-image"),
    # A link around an image to another page is a link.
    pytest.param(FIGURE, FIGURE.replace("<img", '<a href="/install/"><img')
                 .replace("</p>", "</a></p>"), True, None, None, id="image-linking-a-page"),
    # Typography (TYPOGRIFY on Elegant: caps spans, curly quotes, an em dash) and rewrapping.
    pytest.param("<p>It's the URL. Don't -- ever.\nReally.</p>",
                 '<p>It\u2019s the <span class="caps">URL</span>. Don\u2019t \u2014 ever. '
                 "Really.</p>", False, None, None, id="typography"),
    pytest.param("<p>One.</p>\n<p>Two.</p>", "<p>One.</p><p>Two.</p>", False, None, None,
                 id="white-space"),
    pytest.param("<p>It's the URL.</p>", "<p>It's the URI.</p>", True, None, None, id="prose"),
    # In code, white space is content: re-indented code is changed code.
    pytest.param("<pre><code>if x:\n    y()\nz()</code></pre>",
                 "<pre><code>if x:\n    y()\n    z()</code></pre>", True, None, None,
                 id="code-indent"),
    pytest.param("<pre><code>--verbose</code></pre>", "<pre><code>-verbose</code></pre>", True,
                 None, None, id="code-dashes"),
    # Navigation and a site banner inside a <body> region are no content; a header in <main> is.
    pytest.param("<nav><a href='/a/'>A</a></nav><p>Text.</p>",
                 "<nav><a href='/a/'>A</a><a href='/b/'>B</a></nav><p>Text.</p>", False, None,
                 None, id="nav"),
]


def _page(content: str) -> bytes:
    return f"<!doctype html><html><body><main>{content}<p>Text.</p></main></body></html>".encode()


@pytest.mark.parametrize(("before", "after", "moves", "title", "title_after"), TABLE)
def test_the_rule_book_s_table(before: str, after: str, moves: bool, title: str | None,
                               title_after: str | None) -> None:
    """Each row: whether the fingerprint moves, and the title the HTML site map shows."""
    old, new = parse_html(_page(before)), parse_html(_page(after))
    assert (old.fingerprint != new.fingerprint) is moves
    assert (old.heading, new.heading) == (title, title_after)


def _canonical(value: object) -> str:
    """A value of the rule book as text that is the same in every process."""
    if isinstance(value, re.Pattern):
        return f"re({value.pattern!r}, {int(value.flags)})"
    if isinstance(value, (frozenset, set)):
        return "{" + ", ".join(sorted(_canonical(item) for item in value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_canonical(k)}: {_canonical(v)}"
                               for k, v in sorted(value.items())) + "}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_canonical(item) for item in value) + ")"
    return repr(value)


def rulebook_digest() -> str:
    """A digest of every rule of the rule book, by name."""
    rules = sorted((name, _canonical(value)) for name, value in vars(rulebook).items()
                   if name.isupper())
    return hashlib.sha256(repr(rules).encode()).hexdigest()[:16]


def test_a_changed_rule_book_bumps_the_versions() -> None:
    """Records made by another rule book are never taken for this one's."""
    assert rulebook_digest() == reader.RULEBOOK_DIGEST, (
        "the rule book changed: bump the fingerprint version (FINGERPRINT_VERSION) if any "
        "fingerprint moves, and READER_VERSION in any case; then set RULEBOOK_DIGEST to "
        f"{rulebook_digest()!r}")

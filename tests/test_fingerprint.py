"""The fast fingerprint reader gives exactly what the token-by-token reference reader gives.

``fingerprint_reference.py`` is the first reader, one Python step per token; it stays as the
oracle. Equal content text means equal fingerprints, so a manifest written before the fast
reader keeps every page's lastmod.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fingerprint_reference import reference_content_text
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sitemap_plugins import fingerprint
from sitemap_plugins.fingerprint import content_text

ROOT = Path(__file__).resolve().parent.parent

# Tags and fragments that move the reader between its states: the region (main, article,
# role=main on any element, body), the dropped elements, comments, self-closing forms, case
# variants, names that only start like a dropped one, broken tags and stray "<" and ">".
_FRAGMENTS = [
    "<main>", "</main>", "<MAIN class=x>", "<main/>", "<article>", "</article>", "<Article >",
    '<div role="main">', "<div role=main>", "</div>", "<div>", "<section role='main' >",
    "<div ROLE=MAIN>", "role=main", "<p role = 'Main'>", "xrole=main", "<MA\u0130N>",
    "<arti\u0131cle>", "<BODY>", "<body>", "</body>", "<nav>", "</nav>", "<NAV>", "<nav/>", "<nav >", "<navx>",
    "</navx>", "<nav-bar>", "<header>", "</header>", "<footer>", "</footer>", "<aside>",
    "</aside>", "<script>", "</script>", "<script src=app.js>", "<style>", "</style>",
    "<noscript>", "</noscript>", "<template>", "</template>", "<svg>", "</svg>", "<svg/>",
    "<!--", "-->", "<!-- c -->", "<!-->", "<!---->", "<p>", "</p>", "<br/>", "<br>",
    '<a href="/x/">', "<a href=/y/ title=z>", "<a href='/q/'>", '<a href="/a.css">',
    "</a>", '<img src="/i.png">', "<img src=/app.4f.js>", '<a title="x href=/t/">',
    '<a href="x>y">', '<a href="/&amp;/">', "<a\nhref=/nl/>", "<a href=>", "<a href>",
    "<", ">", "< p>", "</ >", "<1>", "<a <b>", "<p\u212a>", "<\u212ab>", "<\u017fvg>", "</\u017fvg>", "&amp;", "&am", "p;",
    "&lt;nav&gt;", "&nbsp;", "href=/text/", " src=/text/", "text", "word", "\u00e9t\u00e9",
    " ", "  ", "\n", "\t", "\r\n", "\xa0", "\u3000", "\u2028", "\x1f", "\x85", "\x0b",
]
_PAGES = st.lists(st.sampled_from(_FRAGMENTS), max_size=40).map("".join)


@pytest.mark.parametrize(
    "page",
    [
        "<main><p>a <a href=/x/>b</a></p><nav><a href=/n/>n</a></nav></main>",
        "<body><article>A</article><aside>s</aside><article>B<footer>f</footer></article>",
        "<body><div role=main><div><p>C</p></div></div><div>outside</div></body>",
        "<p>&am<!-- -->p; x&am<nav>y</nav>p; z&am<nav><b>y</b></nav>p;</p>",
        "<main>a<script>if (a < b) {}</script>b<nav><a href=/n/>x</a></nav>c</main>",
        "<main><!-- never closed <p>hidden</p>",
        "<main>a</main><main>second region is not read</main>",
        "<body>" + "<nav>" * 500 + "text" + "</p>" * 500,
        "<main>\u2003spaced\u3000out\xa0\n\t words \x1c</main>",
        "no markup at all",
        "<HTML><BODY><NAV>N</NAV><DIV ROLE=MAIN><P>R</P></DIV></BODY>",
        "<body><p>role=main in text</p><div role=main>r</div></body>",
        "<body>\u00e9<div role=main>non-ASCII page</div><ma\u0130n>x</ma\u0130n></body>",
        "",
    ],
)
def test_cases_agree_with_reference(page: str) -> None:
    """Hand-picked pages that exercise each state of the reader."""
    assert content_text(page) == reference_content_text(page)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PAGES)
@example("<main><nav>a<p>b</p>c</nav>d</main>")
@example("<article>a</article>x<article>b")
def test_property_agrees_with_reference(page: str) -> None:
    """Any sequence of region, dropped, comment, broken and text fragments reads the same."""
    assert content_text(page) == reference_content_text(page)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<>/!-=\"' &;#abdehimnorstvAMN\n\t\xa0\u212a", max_size=120))
def test_property_markup_noise_agrees(page: str) -> None:
    """Random markup characters read the same as with the reference."""
    assert content_text(page) == reference_content_text(page)


def test_white_space_list_is_what_str_isspace_says() -> None:
    """The collapsed white space is exactly str.split()'s: every character str.isspace() knows."""
    every = {chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()}
    assert set(fingerprint._SPACES) | {" "} == every
    assert set(fingerprint._ASCII_SPACES) == {c for c in every if c.isascii()} - {" "}


def test_generated_site_pages_agree_with_reference(tmp_path: Path) -> None:
    """Every page of a generated benchmark site (three head styles, realistic bodies)."""
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "make_site.py"), "--pages", "300",
         "--out", str(site), "--body-kb", "4"],
        check=True, capture_output=True,
    )
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 300
    texts = [page.read_text(encoding="utf-8") for page in pages]
    mismatched = [str(p) for p, t in zip(pages, texts, strict=True)
                  if content_text(t) != reference_content_text(t)]
    assert mismatched == []
    assert sum(bool(content_text(t).strip()) for t in texts) > 290  # the pages have content

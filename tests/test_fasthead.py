"""The fast head scanner gives exactly what the html.parser reader gives, or gives up."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_plugins.fasthead import parse_head_fast
from sitemap_plugins.head import PageMeta, parse_head

MATERIAL = """<!doctype html>
<html lang="en" class="no-js">
  <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width,initial-scale=1">
      <meta name="description" content="A page">
      <link rel="canonical" href="https://example.org/guide/">
      <link rel="alternate" hreflang="de" href="https://example.org/de/guide/">
      <link rel="alternate" hreflang="en" href="https://example.org/guide/">
      <link rel="icon" href="/assets/images/favicon.png">
      <meta name="generator" content="mkdocs-1.6.1, mkdocs-material-9.5.0">
      <meta property="article:modified_time" content="2024-05-01T10:00:00+00:00">
    <title>Guide - Docs</title>
      <link rel="stylesheet" href="/assets/stylesheets/main.css">
    <script>__md_scope=new URL("/",location),__md_get=(e,_=localStorage)=>JSON.parse(_)</script>
      <script src="/assets/javascripts/bundle.js"></script>
  </head>
  <body dir="ltr"><link rel="canonical" href="https://example.org/late/"></body>
</html>
"""

# (id, html, whether the fast path is expected to take it)
CASES = [
    ("material", MATERIAL, True),
    ("minified-unquoted",
     ("<!DOCTYPE html><html lang=fr><head><meta charset=utf-8><link rel=canonical "
     "href=https://e.org/a/><meta name=robots content=noindex,nofollow><link rel=stylesheet "
     "href=/c.css></head><body>"), True),
    ("upper-case",
     ('<HTML LANG="de"><HEAD><LINK REL="Canonical" HREF="../b/"><META NAME="ROBOTS" '
     'CONTENT="NOINDEX"><BASE HREF="/root/"></HEAD><BODY>'), True),
    ("comment-holds-tags",
     ('<head><!-- <link rel="canonical" href="nope"> <body> </head> -->'
     '<link rel="canonical" href="yes"></head>'), True),
    ("script-holds-tags",
     ("<head><script>var s = '<link rel=\"canonical\" href=\"nope\"></head><body>';</script>"
     '<link rel="canonical" href="yes"></head>'), True),
    ("style-holds-tags",
     '<head><style>a::after{content:"<body>"}</style><meta name=robots content=none></head>',
     True),
    ("json-ld", ('<head><script type="application/ld+json">{"a":"</b>"}</script>'
     "<link rel=canonical href=/x></head>"), True),
    ("entities-in-href",
     '<head><link rel="canonical" href="/a?x=1&amp;y=2&#38;z=&#x33;"></head>', True),
    ("entity-in-rel", '<head><link rel="&#99;anonical" href="/c"></head>', True),
    ("raw-ampersand", '<head><link rel="canonical" href="/a?x=1&y=2"></head>', False),
    ("legacy-entity", '<head><link rel="canonical" href="/a?x=1&para=2"></head>', False),
    ("crlf", '<head>\r\n<link\r\nrel="canonical"\r\nhref="/crlf/">\r\n</head>\r\n', True),
    ("attributes-span-lines",
     '<head><meta\n  name="robots"\n  content="noindex,\n  follow"\n></head>', True),
    ("single-quotes", "<head><link rel='canonical' href='/it&#39;s/'></head>", True),
    ("self-closing", ('<head><link rel="canonical" href="/s/" /><meta name=robots '
     'content=noarchive/></head>'), True),
    ("bare-value-slash", "<head><base href=/></head>", True),
    ("conflicting-canonicals",
     ("<head><link rel=canonical href=a><link rel=canonical href=b><link rel=canonical "
     "href=a></head>"), True),
    ("same-canonical-twice", "<head><link rel=canonical href=a><link rel=canonical href=a>",
     True),
    ("googlebot", ('<head><meta name="GoogleBot" content="noindex"><meta name=bingbot '
     "content=none></head>"), True),
    ("refresh", "<head><meta http-equiv=\"Refresh\" content=\"0; URL='../new/'\"></head>", True),
    ("refresh-no-url", '<head><meta http-equiv="refresh" content="5"></head>', True),
    ("hreflang", ('<head><link rel="alternate" hreflang="x-default" href="/"><link '
     'rel="alternate" hreflang=" de " href=" /de/ "><link rel=alternate href=/feed.xml '
     "type=application/rss+xml></head>"), True),
    ("dates", ('<head><meta itemprop="dateModified" content="2024-01-02"><meta '
     'name="DC.date" content="2020-01-01"><meta property="og:updated_time" '
     'content="2024-02-02"></head>'), True),
    ("stop-at-body", "<head><title>x</title><body><meta name=robots content=noindex>", True),
    ("stop-at-head-end", "<head></HEAD ><meta name=robots content=noindex>", True),
    ("no-head-end", "<title>t</title><link rel=canonical href=/only/><p>text</p>", True),
    ("xml-prolog", ('<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD '
     'XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html '
     'xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en"><head><link '
     'rel="canonical" href="/x/"/></head>'), True),
    ("noscript", ('<head><noscript><link rel="stylesheet" href="/a.css"></noscript><link '
     "rel=canonical href=/n/></head>"), True),
    ("duplicate-attributes", "<head><link rel=canonical href=/first/ href=/second/></head>",
     True),
    ("empty-and-valueless", ('<head><link rel=canonical href><link rel=canonical href="">'
     "<html lang><base href=''></head>"), True),
    ("title-with-less-than", "<head><title>a < b</title><link rel=canonical href=/lt/>",
     True),
    ("data-less-than", "<head>1 < 2 <link rel=canonical href=/d/></head>", True),
    ("second-html-tag", "<html lang=en><head><html lang=de></head>", True),
    ("script-then-end-spaces", "<head><script>x</SCRIPT \n></head>", True),
    # Markup that some html.parser version reads differently: the fast path gives up.
    ("comment-gt", "<head><!--><link rel=canonical href=/a/>--></head>", False),
    ("comment-dash-gt", "<head><!---><link rel=canonical href=/a/>--></head>", False),
    ("comment-bang", "<head><!-- a --!><link rel=canonical href=/a/>--></head>", False),
    ("comment-space", "<head><!-- a -- ><link rel=canonical href=/a/>--></head>", False),
    ("comment-unclosed", "<head><!-- <link rel=canonical href=/a/>", False),
    ("template", "<head><template><link rel=canonical href=/t/></template></head>", False),
    ("iframe", "<head><iframe><link rel=canonical href=/i/></iframe></head>", False),
    ("script-self-closing", "<head><script src=a.js /><link rel=canonical href=/s/>", False),
    ("script-unclosed", "<head><script>var a = 1; <link rel=canonical href=/u/>", False),
    ("script-comment", "<head><script><!-- </script> --></script></head>", False),
    ("script-end-variant", "<head><script>a</script foo><link rel=canonical href=/v/>",
     False),
    ("title-holds-tag", "<head><title><link rel=canonical href=/t/></title></head>", False),
    ("end-tag-space", "<head></ head><link rel=canonical href=/e/>", False),
    ("cdata", "<head><![CDATA[<link rel=canonical href=/c/>]]></head>", False),
    ("bogus-declaration", "<head><!ELEMENT x><link rel=canonical href=/b/></head>", False),
    ("nul", "<head>\x00<link rel=canonical href=/n/></head>", False),
    ("nbsp-in-tag", "<head><link\xa0rel=canonical href=/nb/></head>", False),
    ("quote-in-bare-value", '<head><link rel=canonical href=/a"b></head>', False),
    ("no-space-between-attributes", '<head><link rel="canonical"href="/x/"></head>', False),
    ("at-attribute", '<head><link @click="x" rel="canonical" href="/x/"></head>', False),
    ("cut-tag", '<head><link rel="canonical" href="/cut', False),
    ("equals-in-bare-value", "<head><a b=c=d><link rel=canonical href=/x/></head>", False),
]


@pytest.mark.parametrize(("html", "fast"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_same_as_html_parser(html: str, fast: bool) -> None:
    """The fast path takes plain markup and then agrees with parse_head; it gives up otherwise."""
    result = parse_head_fast(html)
    assert (result is not None) == fast
    if result is not None:
        assert result == parse_head(html)


def test_fast_path_reads_everything() -> None:
    """A realistic head gives every field through the fast path."""
    meta = parse_head_fast(MATERIAL)
    assert meta == PageMeta(
        canonical="https://example.org/guide/",
        alternates=[("de", "https://example.org/de/guide/"), ("en", "https://example.org/guide/")],
        lang="en",
        modified="2024-05-01T10:00:00+00:00",
    )


# --------------------------------------------------------------------------- properties

_TAGS = ["link", "meta", "LINK", "Meta", "html", "base", "body", "title", "script", "style",
         "div", "noscript", "head", "template", "textarea"]
_NAMES = ["rel", "href", "name", "content", "hreflang", "http-equiv", "property", "itemprop",
          "lang", "HREF", "REL", "charset", "type", "x"]
_VALUES = ["canonical", "alternate", "Canonical alternate", "robots", "googlebot", "noindex",
           "none, nofollow", "refresh", "0; url=/r/", "0;URL='x'", "de", "x-default",
           "article:modified_time", "datePublished", "2024-01-02", "", " ", "/p/",
           "https://e.org/a?b=1&amp;c=2", "a&b", "&#99;anonical", "&para;", "x>y", "x<y",
           "a b", 'q"q', "q'q", "a=b", "\u00e9", "a/"]
_QUOTES = ['"', "'", "", None]
_SPACES = [" ", "\n", "\t", "\r\n", "  ", "\f", "\xa0", "\x0b"]
_ENDS = [">", "/>", " />", " >", ""]
_RAW = ["<!-- c -->", "<!-- <link rel=canonical href=/no/> -->", "<!-->", "<!--->",
        "<!-- --!>", "<script>'<link rel=canonical href=/s/>'</script>", "<script>",
        "</script>", "<script/>", "<style>p{}</style>", "<style>", "</head>", "</HEAD >",
        "</ head>", "<body>", "<BODY class=x>", "</body>", "<!DOCTYPE html>", "<?xml x?>",
        "<![CDATA[x]]>", "<!x>", "text", " < ", "&amp;", "<", ">", "</>", "</a b>",
        "<title>t</title>", "<title>", "</title>", "<template>", "\x00", "\r\n"]


@st.composite
def _tag(draw: st.DrawFn) -> str:
    parts = ["<" + draw(st.sampled_from(_TAGS))]
    for _ in range(draw(st.integers(0, 4))):
        parts.append(draw(st.sampled_from(_SPACES)) + draw(st.sampled_from(_NAMES)))
        quote = draw(st.sampled_from(_QUOTES))
        if quote is not None:
            parts.append("=" + quote + draw(st.sampled_from(_VALUES)) + quote)
    return "".join(parts) + draw(st.sampled_from(_ENDS))


_HEADS = st.lists(st.one_of(_tag(), st.sampled_from(_RAW)), max_size=14).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_HEADS)
def test_property_same_as_html_parser(html: str) -> None:
    """Whenever the fast path answers, its answer equals parse_head's."""
    result = parse_head_fast(html)
    if result is not None:
        assert result == parse_head(html)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="<>/!-=\"' &;#abcdehklmnoprstuyABCHKLMR\n\r\t\xa0", max_size=80))
def test_property_markup_noise(html: str) -> None:
    """Random markup characters never make the fast path disagree with parse_head."""
    result = parse_head_fast(html)
    if result is not None:
        assert result == parse_head(html)


def test_property_cases_take_the_fast_path() -> None:
    """The generated heads are not all given up on (the property tests test something)."""
    taken = sum(parse_head_fast(c[1]) is not None for c in CASES)
    assert taken >= len(CASES) // 2


"""Property-based robustness: hostile names, base URLs, canonicals, hreflang, head markup.

Every generated site is built with the real core, and the output must validate against the
official XSDs and read back (lxml and minidom, ``sitemap_urls``) as exactly the URL set
computed here, independently of ``urls.py``: ``urllib.parse.quote`` of the UTF-8 path with
the RFC 3986 path characters kept, and ``index.html`` as its folder URL.

The default run tries ``QUICK_EXAMPLES`` examples per property. The long run
(``python -m pytest -m slow tests/test_robustness_properties.py --hypothesis-show-statistics``)
tries 10,000 per property; ``SITEMAP_HYPOTHESIS_EXAMPLES=N`` sets another count.
"""

from __future__ import annotations

import contextlib
import html
import io
import os
import re
import tempfile
import urllib.robotparser
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from lxml import etree
from protego import Protego

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.cli import main
from sitemap_plugins.entry.robots_txt import merge_sitemap_line, names_sitemap, utf16_codec
from sitemap_plugins.vocab.errors import ConfigError, SitemapError
from sitemap_plugins.vocab.urls import resolve_href

QUICK_EXAMPLES = 40
LONG_EXAMPLES = int(os.environ.get("SITEMAP_HYPOTHESIS_EXAMPLES") or 10_000)
_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
           HealthCheck.data_too_large, HealthCheck.large_base_example]
QUICK = settings(max_examples=QUICK_EXAMPLES, deadline=None, suppress_health_check=_HEALTH)
LONG = settings(max_examples=LONG_EXAMPLES, deadline=None, suppress_health_check=_HEALTH)

SAFE = "-._~!$&'()*+,;=:@/"  # RFC 3986 pchar minus "%", plus "/"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
# RFC 3986: what a <loc> may hold once percent-encoded (no "[" or "]" outside the host).
RFC3986_URL = re.compile(
    r"https?://(?:[A-Za-z0-9._~!$&'()*+,;=-]+|\[[0-9A-Fa-f:.]+\])(?::\d+)?"
    r"(?:/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-F]{2})*)*"
    r"(?:\?(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-F]{2})*)?\Z")
LANGUAGE = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*\Z")

# Characters that break naive code: XML and URL specials, line breaks of every kind, a BOM,
# no-break and ideographic spaces (str.strip() eats them), combining marks, emoji, RTL.
SPECIALS = [
    *" &<>\"'%#?;=+~!$*(),:@[]\\^`{|}\t\n\r\x0b\x0c\x1f\x7f\x85\xa0",
    "\u2028", "\u2029", "\ufeff", "\u3000", "\u200b", "e\u0301", "é", "日本", "😀", "\u202e",
    "%41", "%zz", "%2F", "index.html", ".",
]
_CHAR = st.one_of(
    st.sampled_from(SPECIALS),
    st.characters(exclude_categories=("Cs",), exclude_characters="/\x00"),
)
_STEM = st.lists(_CHAR, min_size=1, max_size=8).map("".join).filter(
    lambda s: "/" not in s and "\x00" not in s)
_PAGE_EXT = st.sampled_from([".html", ".htm", ".HTML", ".Htm"])
_ANY_EXT = st.sampled_from([".html", ".htm", ".HTML", ".txt", ".css", "", ".html.bak"])


def _ok_name(name: str) -> bool:
    return name not in (".", "..") and 0 < len(name.encode("utf-8")) <= 120


file_names = st.one_of(
    st.builds(lambda stem, ext: stem + ext, _STEM, _ANY_EXT),
    st.sampled_from(["index.html", "INDEX.HTM", "index.htm", "Index.Html", "404.html"]),
).filter(_ok_name)
dir_names = _STEM.filter(_ok_name)
page_names = st.one_of(
    st.builds(lambda stem, ext: stem + ext, _STEM, _PAGE_EXT),
    st.just("index.html"),
).filter(lambda n: _ok_name(n) and not n.startswith(".") and n.lower() != "404.html")
visible_dirs = dir_names.filter(lambda n: not n.startswith("."))


# --- the independent model -----------------------------------------------------------------

def expected_url(base: str, rel: str) -> str:
    """``base`` + the percent-encoded path, ``index.html`` (exactly) as its folder."""
    parts = rel.split("/")
    if parts[-1] in ("index.html", "index.htm"):
        parts[-1] = ""
    return base + quote("/".join(parts).encode("utf-8"), safe=SAFE)


def is_listed(rel: str) -> bool:
    """Pages: visible, .html/.htm in any case, not the 404 page."""
    parts = rel.split("/")
    if any(p.startswith(".") for p in parts):
        return False
    name = parts[-1].lower()
    return name.endswith((".html", ".htm")) and name not in ("404.html", "404.htm")


@st.composite
def base_urls(draw: st.DrawFn) -> tuple[str, str]:
    """(text given to --base-url, the normalised base the URLs must start with)."""
    scheme = draw(st.sampled_from(["https", "http", "HTTPS", "Http"]))
    host = draw(st.one_of(
        st.sampled_from(["example.org", "EXAMPLE.org", "docs.example.co.uk", "127.0.0.1",
                         "[::1]", "[2001:DB8::1]", "bücher.example", "例え.テスト",
                         "xn--bcher-kva.example", "a_b.example.org", "localhost"]),
        st.from_regex(r"[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?(\.[a-z0-9]{1,6}){0,2}\.(org|de|io)",
                      fullmatch=True),
    ))
    port = draw(st.one_of(st.none(), st.sampled_from([80, 443, 8080]),
                          st.integers(1, 65535)))
    segments = draw(st.lists(_STEM.filter(lambda s: s not in (".", "..")), max_size=3))
    slash = draw(st.booleans())
    path = "/".join(quote(s, safe=SAFE) for s in segments)
    text = f"{scheme}://{host}{'' if port is None else f':{port}'}/{path}"
    if slash and path:
        text += "/"
    scheme = scheme.lower()
    if host.startswith("["):
        norm_host = host.lower()
    else:
        norm_host = host.lower().encode("idna").decode("ascii")
    default = {"http": 80, "https": 443}[scheme]
    netloc = norm_host if port in (None, default) else f"{norm_host}:{port}"
    expected = f"{scheme}://{netloc}/{path}{'/' if path else ''}"
    return text, expected


@st.composite
def trees(draw: st.DrawFn) -> list[tuple[list[str], str]]:
    """A few files, each under up to two folders."""
    return draw(st.lists(
        st.tuples(st.lists(dir_names, max_size=2), file_names), min_size=1, max_size=8))


PAGE = b"<!DOCTYPE html><html><head><title>t</title></head><body>x</body></html>"


def make_tree(site: Path, tree: list[tuple[list[str], str]], content: bytes = PAGE) -> list[str]:
    """Write the files that the file system accepts; return their relative paths."""
    written: list[str] = []
    for folders, name in tree:
        folder = site.joinpath(*folders)
        path = folder / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if path.exists() or path.is_symlink():
                continue
            path.write_bytes(content)
        except (FileExistsError, NotADirectoryError, IsADirectoryError):
            continue  # a name already used by a file at another level
        written.append("/".join([*folders, name]))
    return written


def distinct_pages(base: str, pages: list[tuple[list[str], str]]) -> list[str]:
    """Listed pages with distinct URLs whose paths do not clash (a name both file and folder)."""
    rels: list[str] = []
    urls: set[str] = set()
    files: set[str] = set()
    folders: set[str] = set()
    for parts, name in pages:
        rel = "/".join([*parts, name])
        prefixes = {"/".join(parts[: i + 1]) for i in range(len(parts))}
        url = expected_url(base, rel)
        if not is_listed(rel) or url in urls or rel in folders or prefixes & files:
            continue
        rels.append(rel)
        urls.add(url)
        files.add(rel)
        folders |= prefixes
    return rels


def build(site: Path, base: str, **options: object) -> None:
    config = SitemapConfig.from_mapping({"base_url": base, **options})
    generate(site, config)


def urlset_entries(site: Path) -> list[etree._Element]:
    """Every <url> element of the XML sitemap (following an index)."""
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    if root.tag == f"{SM}urlset":
        return list(root)
    entries: list[etree._Element] = []
    for loc in root.iter(f"{SM}loc"):
        part = etree.parse(str(site / loc.text.rsplit("/", 1)[1])).getroot()
        entries.extend(part)
    return entries


# --- property 1: file names and base URLs ----------------------------------------------------

def check_names(sitemap_urls, snapshot, base: tuple[str, str], tree) -> None:
    text, expected_base = base
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        site.mkdir()
        written = make_tree(site, tree)
        expected = {expected_url(expected_base, rel) for rel in written if is_listed(rel)}
        assume(all(len(u) < 2048 for u in expected))
        before = snapshot(site)
        build(site, text)
        after = snapshot(site)
        assert {k: v for k, v in after.items() if k in before} == before, "a file changed"
        build(site, text)
        assert snapshot(site) == after, "a second build changed a byte"
        if not expected:
            assert not (site / "sitemap.xml").exists()
            return
        urls = sitemap_urls(site)
        assert len(urls) == len(set(urls)), "a URL is listed twice"
        assert set(urls) == expected
        for url in urls:
            assert RFC3986_URL.match(url), url
            assert url.startswith(expected_base)


@pytest.mark.integration
@QUICK
@given(base=base_urls(), tree=trees())
@example(base=("https://example.org/", "https://example.org/"),  # both were the folder URL
         tree=[([], "index.htm"), ([], " .html"), ([], "Index.Html")])
@example(base=("HTTP://[2001:DB8::1]:443/a%20b/./c/..", "http://[2001:db8::1]:443/a%20b/"),
         tree=[(["x"], "a[1].html"), ([], "\xa0.html")])
def test_names_and_base_urls(sitemap_urls, snapshot, base, tree) -> None:
    """Any file names under any base URL give exactly the expected, valid URLs, and a
    second build changes no byte."""
    check_names(sitemap_urls, snapshot, base, tree)


@pytest.mark.slow
@LONG
@given(base=base_urls(), tree=trees())
def test_names_and_base_urls_long(sitemap_urls, snapshot, base, tree) -> None:
    """The same property, 10,000 examples."""
    check_names(sitemap_urls, snapshot, base, tree)


# --- property 2: canonical and hreflang values -----------------------------------------------

SELF_KINDS = ["none", "exact", "relative", "root-relative", "encoded", "unreserved-escaped",
              "iri", "fragment", "upper", "dots", "junk", "empty"]
JUNK = ["mailto:someone@example.org", "javascript:void(0)", "data:text/html,x", "ftp://x.org/",
        "about:blank", "http://[bad", "https://", "tel:+1"]
VALID_LANGS = ["en", "de-AT", "x-default", "zh-Hant-TW", "EN-us", "fr"]
INVALID_LANGS = ["", "english language", "12", "en_US", "é", "-", "toolonglang"]


def canonical_href(
    kind: str, url: str, base: str, data: st.DataObject
) -> str | None:
    """An href for the page at ``url`` (its expected URL, under ``base``) in spelling ``kind``."""
    parts = urlsplit(url)
    path = parts.path
    name = url.rsplit("/", 1)[1]
    if kind == "none":
        return None
    if kind == "exact":
        return url
    if kind == "relative":
        return name or "./"
    if kind == "root-relative":
        return path
    if kind == "encoded":  # the page part with every byte but "/" escaped (MkDocs: q%26a/)
        return base + quote(unquote(url[len(base):]).encode("utf-8"), safe="/")
    if kind == "unreserved-escaped":  # RFC 3986 6.2.2.2: %7E is "~", %41 is "A"
        return url[: -len(path)] + "".join(
            f"%{ord(c):02X}" if c.isascii() and (c.isalnum() or c in "-._~") else c
            for c in path)
    if kind == "iri":  # non-ASCII left as it is, as authors write it
        return url[: -len(path)] + "".join(
            c if ord(c) > 127 else quote(c, safe=SAFE) for c in unquote(path))
    if kind == "fragment":
        return url + "#" + data.draw(st.sampled_from(["top", "", "a%20b", "é"]))
    if kind == "upper":
        netloc = parts.netloc.upper()
        if parts.port is None and not netloc.startswith("["):
            netloc += ":443" if parts.scheme == "https" else ":80"
        return f"{parts.scheme.upper()}://{netloc}{path}"
    if kind == "dots":
        return url[: -len(path)] + path.rsplit("/", 1)[0] + "/zz/../" + name
    if kind == "junk":
        return data.draw(st.sampled_from(JUNK))
    if kind == "empty":
        return ""
    if kind == "index-form":
        return url + "index.html"
    raise AssertionError(kind)


# Alternates at a local address: a development server's URLs left in a page.
LOCAL = ["http://localhost:8000/page.html", "http://127.0.0.1/x/"]


def check_canonicals(sitemap_urls, base: tuple[str, str], pages: list[tuple[list[str], str]],
                     data: st.DataObject, *, hreflang: bool) -> None:
    text, expected_base = base
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        site.mkdir()
        rels = distinct_pages(expected_base, pages)
        own = {rel: expected_url(expected_base, rel) for rel in rels}
        host = urlsplit(expected_base)
        offsite = [
            "https://elsewhere.example/page.html",
            f"{'http' if host.scheme == 'https' else 'https'}://{host.netloc}{host.path}x.html",
            f"{host.scheme}://{host.hostname if ':' not in (host.hostname or '') else 'h.org'}:1/",
            f"{host.scheme}://{host.netloc}/../outside-the-base/",
        ]
        expected: set[str] = set()
        named: set[str | None] = set()  # every alternate a page names, resolved
        for rel in rels:
            url = own[rel]
            kinds = [*SELF_KINDS, "offsite", "noindex"]
            if url.endswith("/"):
                kinds.append("index-form")
            if len(rels) > 1:
                kinds.append("other")
            kind = data.draw(st.sampled_from(kinds), label=f"canonical of {rel!r}")
            head = []
            if kind == "other":
                other = data.draw(st.sampled_from([r for r in rels if r != rel]))
                href = own[other]
            elif kind == "offsite":
                href = data.draw(st.sampled_from(offsite))
                if not url.startswith(expected_base) or href.startswith(expected_base):
                    href = "https://elsewhere.example/"
            elif kind == "noindex":
                href = None
                head.append('<meta name="robots" content="noindex, follow">')
            else:
                href = canonical_href(kind, url, expected_base, data)
            if href is not None:
                head.append(f'<link rel="canonical" href="{html.escape(href)}">')
            if kind in SELF_KINDS:
                expected.add(unquote(url))
            elif kind == "index-form":
                expected.add(unquote(url) + "index.html")
            for _ in range(data.draw(st.integers(0, 3)) if hreflang else 0):
                lang = data.draw(st.sampled_from(VALID_LANGS + INVALID_LANGS))
                target = data.draw(st.sampled_from(
                    [own[r] for r in rels] + offsite[:2] + LOCAL + JUNK[:2] + ["./", "../x/"]))
                head.append(f'<link rel="alternate" hreflang="{html.escape(lang)}" '
                            f'href="{html.escape(target)}">')
                named.add(resolve_href(target, url))
            path = site / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
                            + "".join(head) + "<title>t</title></head><body></body></html>",
                            encoding="utf-8")
        assume(all(len(u) < 2000 for u in own.values()))
        build(site, text, hreflang=hreflang)
        if not expected:
            assert not (site / "sitemap.xml").exists()
            return
        urls = sitemap_urls(site)
        assert len(urls) == len(set(urls))
        assert {unquote(u) for u in urls} == expected
        for url in urls:
            assert RFC3986_URL.match(url), url
            assert url.startswith(expected_base), f"{url} is not under the base"
        for entry in urlset_entries(site):
            loc = entry.findtext(f"{SM}loc")
            links = entry.findall(f"{XHTML}link")
            for link in links:
                # Another site's translation is named; a development server's never is.
                href = link.get("href")
                assert href.startswith(expected_base) or (
                    href in named
                    and urlsplit(href).hostname not in ("localhost", "127.0.0.1")), href
                assert RFC3986_URL.match(link.get("href")), link.get("href")
                assert LANGUAGE.match(link.get("hreflang")), link.get("hreflang")
            if links:  # a language group holds the page itself and another version
                assert unquote(loc) in {unquote(link.get("href")) for link in links}
                assert len(links) >= 2


page_lists = st.lists(st.tuples(st.lists(visible_dirs, max_size=2), page_names),
                      min_size=1, max_size=5)


@pytest.mark.integration
@QUICK
@given(base=base_urls(), pages=page_lists, data=st.data(), hreflang=st.booleans())
def test_canonical_and_hreflang_values(sitemap_urls, base, pages, data, hreflang) -> None:
    """Canonicals in every spelling, off-site, junk, and hreflang links give the right set."""
    check_canonicals(sitemap_urls, base, pages, data, hreflang=hreflang)


@pytest.mark.slow
@LONG
@given(base=base_urls(), pages=page_lists, data=st.data(), hreflang=st.booleans())
def test_canonical_and_hreflang_values_long(sitemap_urls, base, pages, data, hreflang) -> None:
    """The same property, 10,000 examples."""
    check_canonicals(sitemap_urls, base, pages, data, hreflang=hreflang)


# Examples the properties found, kept as plain tests (each was a bug, now fixed).
FOUND = [
    # a base spelled with an escaped backslash (%5C), and an index page whose canonical names
    # its index.html form: the base was compared unnormalised, the canonical "off the base"
    ("https://example.org/%5C/", "index.html", "https://example.org/%5C/index.html",
     "https://example.org/%5C/index.html"),
    # base with "~" and a canonical that escapes it (%7E): was judged off the site, left out
    ("https://example.org/~user/", "a.html", "https://example.org/%7Euser/a.html",
     "https://example.org/~user/a.html"),
    # a canonical with "[" "]" in the path: was listed with raw brackets (not RFC 3986)
    ("https://example.org/", "a[1].html", "https://example.org/a[1].html",
     "https://example.org/a%5B1%5D.html"),
    # a name that starts with a no-break space, relative canonical written as an IRI:
    # str.strip() ate the space and the page became "canonical elsewhere"
    ("https://example.org/", "\xa0x.html", "\xa0x.html", "https://example.org/%C2%A0x.html"),
    # dot segments spelled as escapes are dot segments too
    ("https://example.org/d/", "a.html", "https://example.org/d/x/%2E%2E/a.html",
     "https://example.org/d/a.html"),
]


@pytest.mark.parametrize(("base", "name", "canonical", "url"), FOUND,
                         ids=["escaped-backslash-base", "escaped-tilde", "brackets", "nbsp-iri",
                              "escaped-dots"])
def test_found_examples(sitemap_urls, tmp_path: Path, base, name, canonical, url) -> None:
    """Canonicals that name the page itself in another spelling keep it listed, well-formed."""
    site = tmp_path / "site"
    site.mkdir()
    (site / name).write_text(f'<html><head><link rel="canonical" href="{html.escape(canonical)}">'
                             "</head></html>", encoding="utf-8")
    build(site, base)
    assert sitemap_urls(site) == [url]


# --- property 3: head markup -----------------------------------------------------------------

CHARSETS = ["utf-8", "latin-1", "shift_jis", "koi8-r", "hex", "base64", "rot13", "utf-7",
            "utf-16", "utf-32", "cp037", "x-bogus", "undefined", "idna", "unicode_escape",
            "punycode", "zlib", ""]
NOISE = st.one_of(
    st.sampled_from([
        "<title>", "</title>", "<title>a<b</title>", "<!--", "-->", "<!-- c -->", "<![CDATA[",
        "]]>", "<!DOCTYPE html>", "<?xml ?>", "<script>", "</script>",
        "<script>var a='</head><body>';</script>", "<style>", "</style>", "<style>a{}</style>",
        '<meta name="description" content="a & b <c>">', "<noscript>", "<template>",
        '<meta property="og:updated_time" content="2024-13-45">',
        '<meta name="dcterms.modified" content="2024-02-30T25:61:00Z">',
        '<meta name="date" content="1999">', '<meta itemprop="dateModified" content="x">',
        '<meta http-equiv="content-type" content="text/html; charset=koi8-r">',
        '<link rel="stylesheet" href="x.css">', '<link rel="alternate" hreflang="fr" href="fr/">',
        '<link rel="alternate" hreflang="en_US" href=":::">', "<link rel=alternate hreflang>",
        '<html lang="zz-ZZZZZZZZZ">', '<html lang="">', "</head>", "<body>", "<body", "</",
        "<", ">", "&", "&amp", "&#", "&#x110000;", "&#0;", "&nosuch;", "\ufeff", "\u2028",
        "\r\n", "\r", "'", '"', "=", "<a b='", '<a b="', "<meta", "<link", "<!", "<![",
        "<![if IE]>", "<?", "</head", "\x80", "\x1b$B", "</</</", "<a\n", "é", "日本",
    ]),
    st.builds(lambda c: f'<meta charset="{c}">', st.sampled_from(CHARSETS)),
    st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=20),
)
DIRECTIVES = ["none", "noindex", "self", "other", "offsite"]


def check_head_markup(sitemap_urls, pages, data: st.DataObject) -> None:
    base = "https://example.org/"
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        site.mkdir()
        rels = distinct_pages(base, pages)
        expected = set()
        for rel in rels:
            url = expected_url(base, rel)
            choices = DIRECTIVES if len(rels) > 1 else DIRECTIVES[:3] + DIRECTIVES[4:]
            directive = data.draw(st.sampled_from(choices), label=f"directive of {rel!r}")
            if directive == "other":
                other = data.draw(st.sampled_from([r for r in rels if r != rel]))
                first = f'<link rel="canonical" href="{html.escape(expected_url(base, other))}">'
            else:
                first = {
                    "none": "",
                    "noindex": '<meta name="robots" content="noindex">',
                    "self": f'<link rel="canonical" href="{html.escape(url)}">',
                    "offsite": '<link rel="canonical" href="https://elsewhere.example/">',
                }[directive]
            if directive in ("none", "self"):
                expected.add(url)
            # The noise comes after the directive, so it cannot hide it; it holds no
            # canonical, robots, refresh or base tag of its own.
            noise = "".join(data.draw(st.lists(NOISE, max_size=12), label="noise"))
            path = site / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(
                ("<!DOCTYPE html><html><head>" + first + noise + "</head><body>b</body></html>")
                .encode("utf-8", "surrogatepass"))
        build(site, base)
        if not expected:
            assert not (site / "sitemap.xml").exists()
            return
        urls = sitemap_urls(site)
        assert len(urls) == len(set(urls))
        assert set(urls) == expected


head_pages = st.lists(st.tuples(st.lists(visible_dirs, max_size=1), page_names),
                      min_size=1, max_size=4)


@pytest.mark.integration
@QUICK
@given(pages=head_pages, data=st.data())
def test_head_markup(sitemap_urls, pages, data) -> None:
    """Broken, hostile head markup after a page's directives never changes the outcome."""
    check_head_markup(sitemap_urls, pages, data)


@pytest.mark.slow
@LONG
@given(pages=head_pages, data=st.data())
def test_head_markup_long(sitemap_urls, pages, data) -> None:
    """The same property, 10,000 examples."""
    check_head_markup(sitemap_urls, pages, data)


# --- property 4: any robots.txt bytes ---------------------------------------------------------

TARGET = "https://example.org/sitemap.xml"
ROBOTS_LINES = st.one_of(
    st.sampled_from([
        "User-agent: *", "Disallow: /", "Disallow:", "Allow: /x", "# comment", "", "  ", "\t",
        "Sitemap: https://other.example/s.xml", "sitemap: https://example.org/sitemap.xml",
        "Site-map: https://example.org/sitemap.xml", "# Sitemap: https://example.org/sitemap.xml",
        "Sitemap: HTTPS://EXAMPLE.ORG:443/sitemap.xml", "Sitemap: https://example.org/sitemap.xml.gz",
        "Sitemap: http://example.org/sitemap.xml", "Sitemap:https://example.org/sitemap.xml#x",
        "  Sitemap :\thttps://example.org/sitemap.xml   # ours", "Sitemap: /sitemap.xml",
        "\x0c", "\u2028", "\x85", "\x1c", "\x0b", "\ufeff", "Crawl-delay: 1.5", "<html>",
    ]),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=30),
)


@st.composite
def robots_files(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(ROBOTS_LINES, max_size=10))
    breaks = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=len(lines),
                           max_size=len(lines)))
    text = "".join(line + brk for line, brk in zip(lines, breaks, strict=True))
    if lines and draw(st.booleans()):
        text = text.rstrip("\r\n")
    raw = text.encode(draw(st.sampled_from(["utf-8", "latin-1"])), "replace")
    if draw(st.booleans()):
        raw = b"\xef\xbb\xbf" + raw
    return draw(st.one_of(st.just(raw), st.binary(max_size=200)))


def _names_target(raw: bytes) -> bool:
    """An independent reading: a Sitemap line whose URL is ours in any equivalent spelling."""
    body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw
    for line in re.split(rb"\r\n|\r|\n", body):
        key, sep, value = line.partition(b":")
        if not sep or key.strip(b" \t").lower() != b"sitemap":
            continue
        words = value.split(b"#", 1)[0].split()
        if words and _same_url(words[0].decode("utf-8", "replace"), TARGET):
            return True
    return False


def _same_url(a: str, b: str) -> bool:
    def key(url: str) -> tuple[str, str, int | None, str, str] | None:
        try:
            p = urlsplit(url)
            port = p.port
        except ValueError:
            return None
        scheme = p.scheme.lower()
        if port == {"http": 80, "https": 443}.get(scheme):
            port = None
        return scheme, (p.hostname or "").lower(), port, p.path or "/", p.query
    return key(a) is not None and key(a) == key(b)


def _check_utf16_robots(raw: bytes, codec: str) -> None:
    """A UTF-16 robots.txt stays UTF-16: its text kept, our line added once in its encoding;
    one that does not decode is refused (and the caller leaves it as it is)."""
    try:
        text = raw[2:].decode(codec)
    except UnicodeDecodeError:
        with pytest.raises(UnicodeError):
            merge_sitemap_line(raw, TARGET)
        return
    out = merge_sitemap_line(raw, TARGET)
    assert out[:2] == raw[:2]
    assert out[2:].decode(codec).startswith(text)
    assert names_sitemap(out, TARGET)
    assert merge_sitemap_line(out, TARGET) == out, "a second run changed the file"


def check_robots(raw: bytes) -> None:
    codec = utf16_codec(raw)
    if codec is not None:  # random bytes may start with a UTF-16 byte-order mark
        _check_utf16_robots(raw, codec)
        return
    out = merge_sitemap_line(raw, TARGET)
    ours = f"Sitemap: {TARGET}".encode()
    if _names_target(raw):
        assert out == raw
    else:
        assert out.startswith(raw)
        lines = re.split(rb"\r\n|\r|\n", out)
        assert sum(line == ours for line in lines) == 1 + sum(
            line == ours for line in re.split(rb"\r\n|\r|\n", raw))
        assert out.endswith((ours + b"\n", ours + b"\r", ours + b"\r\n"))
    assert merge_sitemap_line(out, TARGET) == out, "a second run changed the file"
    text = out.decode("utf-8", "replace")
    stripped = text.removeprefix("\ufeff")
    protego = Protego.parse(stripped)
    assert any(_same_url(u, TARGET) for u in protego.sitemaps)
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(stripped.splitlines())
    assert any(_same_url(u, TARGET) for u in parser.site_maps() or [])


@QUICK
@given(raw=robots_files())
@example(raw=b"\xfe\xff")  # only a UTF-16 byte-order mark: the case Hypothesis once found
@example(raw=b"\xff\xfe\x00")  # UTF-16 that does not decode
def test_robots_bytes(raw: bytes) -> None:
    """Any robots.txt keeps its bytes, gains our line once, and both parsers then see it."""
    check_robots(raw)


@pytest.mark.slow
@LONG
@given(raw=robots_files())
def test_robots_bytes_long(raw: bytes) -> None:
    """The same property, 10,000 examples."""
    check_robots(raw)


# --- property 5: any value of any option ------------------------------------------------------

OPTION_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
    st.text(max_size=20), st.binary(max_size=5),
    st.lists(st.one_of(st.text(max_size=8), st.integers(), st.none()), max_size=3),
    st.dictionaries(st.text(max_size=5), st.one_of(st.text(max_size=8), st.floats(),
                                                    st.integers()), max_size=3),
    st.tuples(st.text(max_size=4), st.text(max_size=4)),
)
OPTIONS = sorted(f.name for f in __import__("dataclasses").fields(SitemapConfig))
OPTION_TABLE = __import__("sitemap_plugins.vocab.options").vocab.options.OPTIONS
OPTION_BY_NAME = __import__("sitemap_plugins.vocab.options").vocab.options.OPTION_BY_NAME


@contextlib.contextmanager
def _inside(folder: str):
    """Run with ``folder`` as the current folder (relative cache_dir/changes_file land there)."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def _safe_path_value(option: str, value: object) -> bool:
    """Paths stay inside the temporary folder: never write "/x" as root."""
    if option not in ("cache_dir", "changes_file") or not isinstance(value, str):
        return True
    return not value.lstrip().startswith(("/", "~")) and ".." not in value


def check_option_value(sitemap_urls, option: str, value: object, base: str) -> None:
    assume(_safe_path_value(option, value))
    data = {"base_url": base} if option != "base_url" else {}
    data[option] = value
    try:
        config = SitemapConfig.from_mapping(data)
    except ConfigError as err:
        where, message = err.option, err.message
    else:
        where, message = option, None
    if message is not None:
        assert where == option
        assert message
        assert "\n" not in message
        return
    with tempfile.TemporaryDirectory() as tmp, _inside(tmp):
        site = Path(tmp) / "site"
        (site / "a").mkdir(parents=True)
        (site / "index.html").write_bytes(PAGE)
        (site / "a" / "b.html").write_bytes(PAGE)
        try:
            generate(site, config)
        except SitemapError:
            return  # a clear error (e.g. a cache folder inside the site)
        if (site / f"{config.sitemap_name}.xml").exists():
            sitemap_urls(site, config.sitemap_name)


@QUICK
@given(option=st.sampled_from(OPTIONS), value=OPTION_VALUES,
       base=st.sampled_from(["https://example.org/", "http://[::1]:8080/d/"]))
def test_any_option_value(sitemap_urls, option, value, base) -> None:
    """Any value of any option is accepted or refused with a ConfigError, never a crash."""
    check_option_value(sitemap_urls, option, value, base)


@QUICK
@given(text=st.one_of(st.text(max_size=40), st.builds(
    lambda s, h, r: f"{s}://{h}{r}", st.sampled_from(["http", "https", "HTTP", "ftp", ""]),
    st.text(max_size=15), st.text(max_size=15))))
def test_any_base_url_text(sitemap_urls, text) -> None:
    """Any --base-url text is refused with one message or gives valid output."""
    check_option_value(sitemap_urls, "base_url", text, "")


@pytest.mark.slow
@LONG
@given(text=st.one_of(st.text(max_size=40), st.builds(
    lambda s, h, r: f"{s}://{h}{r}", st.sampled_from(["http", "https", "HTTP", "ftp", ""]),
    st.text(max_size=15), st.text(max_size=15))))
def test_any_base_url_text_long(sitemap_urls, text) -> None:
    """The same property, 10,000 examples."""
    check_option_value(sitemap_urls, "base_url", text, "")


@QUICK
@given(option=st.sampled_from([o.name for o in OPTION_TABLE
                               if o.name != "base_url" and o.cli and not o.command]),
       value=st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"),
                     max_size=12))
def test_any_command_line_value(option, value) -> None:
    """Any text after any flag exits 0, 1 or 2 with a message, never a traceback."""
    assume(_safe_path_value(option, value))
    with tempfile.TemporaryDirectory() as tmp, _inside(tmp):
        site = Path(tmp) / "site"
        site.mkdir()
        (site / "index.html").write_bytes(PAGE)
        flag = OPTION_BY_NAME[option].cli_flag
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main(["build", str(site), "--base-url", "https://example.org/",
                             f"{flag}={value}"])
            except SystemExit as exit_:
                code = exit_.code
        assert code in (0, 1, 2)
        assert "Traceback" not in err.getvalue()
        if code == 2:
            last = err.getvalue().strip().splitlines()[-1]
            assert last.startswith("error: --") or "argument --" in last, last

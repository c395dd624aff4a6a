"""URL building, encoding, resolution and scope."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_plugins.vocab.urls import (
    comparison_key,
    encode_path,
    is_public,
    is_within,
    page_url,
    parse_base_url,
    resolve_href,
)

BASE = parse_base_url("https://example.org/docs/")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://example.org", "https://example.org/"),
        ("HTTPS://Example.ORG/Docs", "https://example.org/Docs/"),
        ("https://example.org:443/", "https://example.org/"),
        ("http://example.org:8080/a/b/", "http://example.org:8080/a/b/"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        ("https://example.org/my docs/", "https://example.org/my%20docs/"),
        ("https://example.org/a%20b/", "https://example.org/a%20b/"),
        ("  https://example.org/  ", "https://example.org/"),
    ],
    ids=["no-slash", "case", "default-port", "port-path", "idna", "space", "no-double", "strip"],
)
def test_parse_base_url_normalises(text: str, expected: str) -> None:
    """Base URLs get a lower-case scheme and host, IDNA, no default port and a final slash."""
    assert str(parse_base_url(text)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("example.org", "Expected an absolute http(s) URL such as 'https://example.org/' but received: 'example.org'"),
        ("ftp://example.org/", "Expected an absolute http(s) URL such as 'https://example.org/' but received: 'ftp://example.org/'"),
        ("https://example.org/?a=1", "Expected a URL without query or fragment but received: 'https://example.org/?a=1'"),
        ("https://u:p@example.org/", "Expected a URL without user name or password but received: 'https://***@example.org/'"),
        ("", "Expected an absolute http(s) URL such as 'https://example.org/' but received: ''"),
    ],
    ids=["no-scheme", "ftp", "query", "userinfo", "empty"],
)
def test_parse_base_url_rejects(text: str, message: str) -> None:
    """Bad base URLs give one message in the config grammar."""
    with pytest.raises(ValueError, match="^" + __import__("re").escape(message) + "$"):
        parse_base_url(text)


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("index.html", "https://example.org/docs/"),
        ("a/b/index.html", "https://example.org/docs/a/b/"),
        ("a/index.htm", "https://example.org/docs/a/"),
        # Only the exact names: no case-sensitive server answers a/ with a/INDEX.HTM.
        ("a/INDEX.HTM", "https://example.org/docs/a/INDEX.HTM"),
        ("a/b.html", "https://example.org/docs/a/b.html"),
        ("my page.html", "https://example.org/docs/my%20page.html"),
        ("q&a.html", "https://example.org/docs/q&a.html"),
        ("100%.html", "https://example.org/docs/100%25.html"),
        ("%41.html", "https://example.org/docs/%2541.html"),
        ("café/crème.html", "https://example.org/docs/caf%C3%A9/cr%C3%A8me.html"),
        ("why?.html", "https://example.org/docs/why%3F.html"),
        ("c#.html", "https://example.org/docs/c%23.html"),
        ('say "hi".html', "https://example.org/docs/say%20%22hi%22.html"),
        ("a<b>.html", "https://example.org/docs/a%3Cb%3E.html"),
        ("line\nbreak.html", "https://example.org/docs/line%0Abreak.html"),
        ("it's.html", "https://example.org/docs/it's.html"),
    ],
    ids=["root", "nested-index", "htm", "htm-upper-is-a-page", "file", "space", "amp", "percent",
         "no-decode", "non-ascii", "question", "hash", "quotes", "angle", "newline", "apos"],
)
def test_page_url_encodes_literal_names(rel: str, expected: str) -> None:
    """File names are taken literally and percent-encoded once, as UTF-8."""
    assert page_url(BASE, rel) == expected


def test_page_url_keeps_file_urls_when_asked() -> None:
    """Sites without directory URLs keep index.html in the URL."""
    assert page_url(BASE, "a/index.html", directory_urls=False) == "https://example.org/docs/a/index.html"


def test_encode_path_handles_undecodable_bytes() -> None:
    """A name that is not UTF-8 (surrogate escapes) is encoded from its original bytes."""
    name = b"caf\xe9.html".decode("utf-8", "surrogateescape")
    assert encode_path(name) == "caf%E9.html"


@pytest.mark.parametrize(
    ("href", "against", "expected"),
    [
        ("../fr/", "https://example.org/docs/en/", "https://example.org/docs/fr/"),
        ("./", "https://example.org/docs/a/", "https://example.org/docs/a/"),
        ("b.html#top", "https://example.org/docs/a/", "https://example.org/docs/a/b.html"),
        ("https://EXAMPLE.org/docs/caf%c3%a9/", "https://example.org/docs/", "https://example.org/docs/caf%C3%A9/"),
        ("https://example.org/docs/café/", "https://example.org/docs/", "https://example.org/docs/caf%C3%A9/"),
        ("https://example.org/docs/a b/", "https://example.org/docs/", "https://example.org/docs/a%20b/"),
        ("https://example.org/docs/fr/../en/", "https://example.org/docs/", "https://example.org/docs/en/"),
        ("https://example.org:443/docs/", "https://example.org/docs/", "https://example.org/docs/"),
        ("mailto:x@example.org", "https://example.org/docs/", None),
        ("javascript:void(0)", "https://example.org/docs/", None),
        ("", "https://example.org/docs/", None),
        ("https://example.org/docs/?a=1&b=2", "https://example.org/docs/", "https://example.org/docs/?a=1&b=2"),
    ],
    ids=["relative", "dot", "fragment", "lower-hex", "iri", "space", "dot-segments",
         "default-port", "mailto", "javascript", "empty", "query-amp"],
)
def test_resolve_href(href: str, against: str, expected: str | None) -> None:
    """Hrefs from pages are resolved, normalised and encoded without double encoding."""
    assert resolve_href(href, against) == expected


@pytest.mark.parametrize(
    ("url", "inside"),
    [
        ("https://example.org/docs/", True),
        ("https://example.org/docs/a/b", True),
        ("https://example.org/doc", False),
        ("https://example.org/docsx/", False),
        ("http://example.org/docs/", False),
        ("https://example.org:8443/docs/", False),
        ("https://www.example.org/docs/", False),
    ],
    ids=["root", "below", "parent", "sibling-prefix", "scheme", "port", "host"],
)
def test_is_within_follows_location_rule(url: str, inside: bool) -> None:
    """Only URLs at or below the base's scheme, host, port and path are in scope."""
    assert is_within(url, BASE) is inside


def test_comparison_key_equates_spellings() -> None:
    """Encoded and literal spellings of one URL compare equal; the fragment is ignored."""
    assert comparison_key("https://Example.org/q%26a/#x") == comparison_key("https://example.org/q&a/")


@pytest.mark.parametrize(("url", "public"), [
    ("https://www.example.de/deutsch/", True),
    ("https://例え.jp/", True),
    ("https://93.184.216.34/", True),
    ("https://[2606:2800:220:1::]/", True),
    ("http://localhost:8000/fr/", False),
    ("http://LOCALHOST./fr/", False),
    ("http://docs.localhost/", False),
    ("http://127.0.0.1:8000/", False),
    ("http://[::1]:8000/", False),
    ("http://0.0.0.0:8000/", False),
    ("http://192.168.1.20/", False),
    ("http://10.0.0.5/", False),
    ("http://169.254.1.1/", False),
    ("http://mybox.local/", False),
    ("http://127.1:1313/", False),
    ("http://2130706433/", False),
    ("http://0x7f000001/", False),
    ("http://0300.0250.0.1/", False),
    ("https://1e100.net/", True),
    ("https://123.example/", True),
    ("http://wiki.corp.internal/", False),
    ("http://[::1/", False),
    ("http://a\x00b/", False),  # no host name holds a NUL (and no crash)
], ids=str)
def test_is_public_names_a_host_the_public_can_reach(url: str, public: bool) -> None:
    """A development server's address (loopback, private, link-local, local-only names) is
    not public; any other host is."""
    assert is_public(url) is public


@pytest.mark.integration
@settings(max_examples=2_000, deadline=None)
@given(host=st.text(max_size=40), scheme=st.sampled_from(["http", "https"]))
def test_is_public_answers_for_any_host(host: str, scheme: str) -> None:
    """Whatever a page or a sitemap names as the host, the answer is yes or no, never an
    exception (a build must not stop on one page's odd alternate)."""
    assert is_public(f"{scheme}://{host}/x") in (True, False)

"""The fingerprint of what a reader sees on a page, so that lastmod moves only on real change.

What is fingerprinted, exactly:

1. The main content region: the first ``<main>`` element; else every ``<article>`` element;
   else the first element with ``role="main"``; else ``<body>``; else the whole page.
2. Inside it, these elements are removed with everything in them: ``nav``, ``header``,
   ``footer``, ``aside``, ``script``, ``style``, ``noscript``, ``template``, ``svg`` and
   comments. Navigation, sidebars, build stamps and inline assets therefore do not count, so
   adding a page to the site's navigation changes no other page's fingerprint.
3. What remains is reduced to its text (entities decoded, white space collapsed) plus the
   ``href`` and ``src`` values of its elements that do not point at versioned assets (links and
   images are content; a hash in an asset's file name is not).
4. BLAKE2b (16 bytes) of that, as hex.

A file too large to parse (over ``MAX_PARSED_BYTES``) or that is not HTML is fingerprinted by
all of its bytes.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re

MAX_PARSED_BYTES = 8 * 1024 * 1024
_CHUNK = 1 << 20
_DROPPED = ("nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg")
# Asset links whose names carry a build hash (style.4f3a9c.css, app.js?v=123).
_ASSET = re.compile(r"\.(?:css|js|mjs|map|woff2?|ttf|ico)(?:[?#].*)?\Z", re.IGNORECASE)
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)")
# What str.isspace() calls white space, the space itself left out (a test checks the list).
_ASCII_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
_SPACES = _ASCII_SPACES + (
    "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000")
_SPACE_RUN = re.compile("  +")
_TAG = re.compile(r"</?[A-Za-z][^<>]*+>")
_OPENING_TAG_BODY = re.compile(r"<[A-Za-z][A-Za-z0-9:-]*+([^<>]*+)>")
_ROLE_MAIN = re.compile(r"""\brole\s*=\s*["']?main\b""", re.IGNORECASE)
_HAS = {name: re.compile(rf"<{name}\b", re.IGNORECASE) for name in ("main", "article", "body")}
# Explicit letter classes instead of IGNORECASE, which is several times slower here (and
# would also match the long s, U+017F, in "src"). Run over the kept tags' bodies joined by
# ">": no part of a match can hold a ">" (a body never does), so no match spans two tags.
_LINKS = re.compile(
    r"""\s(?:[hH][rR][eE][fF]|[sS][rR][cC])\s*=\s*(?:"([^">]*)"|'([^'>]*)'|([^\s>]+))""")


def _first(
    pattern: re.Pattern[str], word: str, page: str, lowered: str | None
) -> re.Match[str] | None:
    """``pattern.search(page)`` for a case-blind pattern that starts with ``word``.

    On an ASCII page the candidates come from ``str.find`` in the lower-cased copy: a
    case-blind search cannot skip ahead to a literal and is up to ten times slower.
    """
    if lowered is None:
        return pattern.search(page)
    position = lowered.find(word)
    while position != -1:
        match = pattern.match(page, position)
        if match:
            return match
        position = lowered.find(word, position + 1)
    return None


def _region_start(page: str) -> tuple[str | None, int]:
    """The element whose content is fingerprinted, and where its first opening tag is.

    None means the whole page.
    """
    lowered = page.lower() if page.isascii() else None
    for name in ("main", "article"):
        match = _first(_HAS[name], "<" + name, page, lowered)
        if match:
            return name, match.start()
    role = _first(_ROLE_MAIN, "role", page, lowered)
    if role:
        start = page.rfind("<", 0, role.start())
        tag = _TAG_NAME.match(page, start) if start >= 0 else None
        if tag and not tag.group(1) and ">" not in page[start : role.start()]:
            return tag.group(2).lower(), start
    match = _first(_HAS["body"], "<body", page, lowered)
    if match:
        return "body", match.start()
    return None, 0


@functools.lru_cache(maxsize=64)
def _structure(region: str | None) -> re.Pattern[str]:
    """Comments and the tags that open or close the region or a dropped element.

    Only these take a Python step each; the markup between them is read by whole-segment
    patterns. Names match ASCII letters only, as ``_TAG_NAME`` does (``re.IGNORECASE`` alone
    would also take the Kelvin sign for a ``k``).
    """
    wanted = {*_DROPPED, region} if region else set(_DROPPED)
    names = "|".join(re.escape(name) for name in sorted(wanted))
    return re.compile(
        rf"<!--.*?(?:-->|\Z)|<(/?)({names})(?![A-Za-z0-9:-])([^<>]*+)>",
        re.DOTALL | re.IGNORECASE | re.ASCII,
    )


def _read_segment(segment: str, dropped: int, texts: list[str], tag_bodies: list[str]) -> None:
    """Markup between two structural tokens inside the region: its text, each tag a space."""
    if dropped:
        if _TAG.search(segment):
            texts.append(" ")  # what the tags inside a dropped element leave behind
        return
    texts.append(_TAG.sub(" ", segment))
    if "=" in segment:
        tag_bodies.extend(_OPENING_TAG_BODY.findall(segment))


def content_text(page: str) -> str:
    """The normalised reader-visible content of an HTML page (what is hashed).

    A token is a comment (``<!--`` to ``-->`` or the end of the page), a tag (``<``, an
    optional ``/``, an ASCII letter, and all up to the next ``>`` if no ``<`` comes first) or
    text (anything else, a ``<`` that starts no tag included). Every pattern here is linear,
    so markup with thousands of unclosed ``<`` or elements costs linear time.
    """
    region, position = _region_start(page)
    every_article = region == "article"
    depth = 0 if region else 1  # inside the region when > 0
    dropped = 0
    texts: list[str] = []
    tag_bodies: list[str] = []  # the kept opening tags, for their links
    for match in _structure(region).finditer(page, position):
        if depth and match.start() > position:
            _read_segment(page[position : match.start()], dropped, texts, tag_bodies)
        position = match.end()
        name = match.group(2)
        if name is None:  # a comment
            continue
        name = name.lower()
        closing = bool(match.group(1))
        self_closing = match.group(3).rstrip().endswith("/")
        if name == region:
            if closing:
                depth = max(0, depth - 1)
                if depth == 0 and not every_article:
                    break
            elif not self_closing:
                depth += 1
            texts.append(" ")
        elif depth:
            if closing:
                dropped = max(0, dropped - 1)
            elif not self_closing:
                dropped += 1
    else:
        if depth and position < len(page):
            _read_segment(page[position:], dropped, texts, tag_bodies)
    links = []
    for match in _LINKS.finditer(">".join(tag_bodies)):
        link = html.unescape(next(value for value in match.groups() if value is not None))
        if not _ASSET.search(link):
            links.append(link)
    return _collapse_white_space(html.unescape("".join(texts))) + "\n" + "\n".join(links)


def _collapse_white_space(text: str) -> str:
    """``" ".join(text.split())``, without making a string of every word (twice as fast)."""
    for space in _ASCII_SPACES if text.isascii() else _SPACES:
        if space in text:
            text = text.replace(space, " ")
    return _SPACE_RUN.sub(" ", text).strip(" ")


def fingerprint_html(page: str) -> str:
    """The fingerprint of an HTML page's text."""
    return hashlib.blake2b(content_text(page).encode("utf-8", "surrogatepass"),
                           digest_size=16).hexdigest()


def fingerprint_bytes(raw: bytes) -> str:
    """What :func:`fingerprint_file` gives for a file holding ``raw``."""
    return "raw:" + hashlib.blake2b(raw, digest_size=16).hexdigest()


def fingerprint_file(path: str) -> str:
    """The fingerprint of every byte of a file (for non-HTML and very large files)."""
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return "raw:" + digest.hexdigest()

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

import hashlib
import html
import re

MAX_PARSED_BYTES = 8 * 1024 * 1024
_CHUNK = 1 << 20
_DROPPED = ("nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_DROP_PATTERNS = {
    name: re.compile(
        rf"<{name}\b[^>]*>(?:(?!<{name}\b).)*?(?:</{name}\s*>|\Z)", re.DOTALL | re.IGNORECASE
    )
    for name in _DROPPED
}
_OPEN = {name: re.compile(rf"<{name}\b[^>]*>", re.IGNORECASE) for name in ("main", "body")}
_ARTICLE = re.compile(r"<article\b[^>]*>(.*?)(?:</article\s*>|\Z)", re.DOTALL | re.IGNORECASE)
_ROLE_MAIN = re.compile(r"""<([a-z][a-z0-9]*)\b[^>]*\brole\s*=\s*["']?main\b[^>]*>""",
                        re.IGNORECASE)
_LINKS = re.compile(r"""\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")
# Asset links whose names carry a build hash (style.4f3a9c.css, app.js?v=123).
_ASSET = re.compile(r"\.(?:css|js|mjs|map|woff2?|ttf|ico)(?:[?#].*)?\Z", re.IGNORECASE)


def _region(text: str) -> str:
    for name in ("main",):
        match = _OPEN[name].search(text)
        if match:
            end = text.lower().rfind(f"</{name}")
            return text[match.end() : end if end > match.end() else len(text)]
    articles = _ARTICLE.findall(text)
    if articles:
        return "\n".join(articles)
    match = _ROLE_MAIN.search(text)
    if match:
        return _element_body(text, match)
    match = _OPEN["body"].search(text)
    if match:
        return text[match.end() :]
    return text


def _element_body(text: str, opening: re.Match[str]) -> str:
    """The content of the element opened by ``opening``, by counting same-name tags."""
    name = opening.group(1)
    tags = re.compile(rf"<(/?){name}\b[^>]*>", re.IGNORECASE)
    depth = 1
    for tag in tags.finditer(text, opening.end()):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return text[opening.end() : tag.start()]
    return text[opening.end() :]


def content_text(page: str) -> str:
    """The normalised reader-visible content of an HTML page (what is hashed)."""
    region = _COMMENT.sub(" ", _region(page))
    for name in _DROPPED:
        pattern = _DROP_PATTERNS[name]
        # Innermost first: a nested nav inside a nav is removed before its parent.
        while True:
            reduced = pattern.sub(" ", region)
            if reduced == region:
                break
            region = reduced
    links = [
        next(v for v in match.groups() if v is not None)
        for match in _LINKS.finditer(region)
    ]
    links = [html.unescape(link) for link in links if not _ASSET.search(link)]
    text = html.unescape(_TAG.sub(" ", region))
    return _SPACE.sub(" ", text).strip() + "\n" + "\n".join(links)


def fingerprint_html(page: str) -> str:
    """The fingerprint of an HTML page's text."""
    return hashlib.blake2b(content_text(page).encode("utf-8", "surrogatepass"),
                           digest_size=16).hexdigest()


def fingerprint_file(path: str) -> str:
    """The fingerprint of every byte of a file (for non-HTML and very large files)."""
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return "raw:" + digest.hexdigest()

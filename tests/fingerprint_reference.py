"""The first fingerprint reader: one Python step per token. Kept as the oracle the fast reader
in :mod:`sitemap_plugins.fingerprint` must agree with, character for character, so that a
manifest written by either gives the same lastmod.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

_DROPPED = ("nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg")
_ASSET = re.compile(r"\.(?:css|js|mjs|map|woff2?|ttf|ico)(?:[?#].*)?\Z", re.IGNORECASE)
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)")
_ROLE_MAIN = re.compile(r"""\brole\s*=\s*["']?main\b""", re.IGNORECASE)
_HAS = {name: re.compile(rf"<{name}\b", re.IGNORECASE) for name in ("main", "article", "body")}
_LINKS = re.compile(
    r"""\s(?:[hH][rR][eE][fF]|[sS][rR][cC])\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


def _region_start(page: str) -> tuple[str | None, int]:
    """The element whose content is fingerprinted, and where its first opening tag is.

    None means the whole page.
    """
    for name in ("main", "article"):
        match = _HAS[name].search(page)
        if match:
            return name, match.start()
    role = _ROLE_MAIN.search(page)
    if role:
        start = page.rfind("<", 0, role.start())
        tag = _TAG_NAME.match(page, start) if start >= 0 else None
        if tag and not tag.group(1) and ">" not in page[start : role.start()]:
            return tag.group(2).lower(), start
    match = _HAS["body"].search(page)
    if match:
        return "body", match.start()
    return None, 0


def _tokens(page: str, position: int) -> Iterator[tuple[str | None, bool, str]]:
    """``(tag name or None for text, closing, attributes or text)``, in one linear pass.

    Built on ``str.find`` with the next ``<`` and ``>`` remembered, so that markup with
    thousands of unclosed ``<`` or tags costs linear time, not quadratic.
    """
    length = len(page)
    next_gt = -1
    while position < length:
        lt = page.find("<", position)
        if lt == -1:
            yield None, False, page[position:]
            return
        if lt > position:
            yield None, False, page[position:lt]
        if page.startswith("<!--", lt):
            close = page.find("-->", lt + 4)
            position = length if close == -1 else close + 3
            continue
        if next_gt <= lt:
            next_gt = page.find(">", lt + 1)
            if next_gt == -1:
                next_gt = length + 1
        following_lt = page.find("<", lt + 1, min(next_gt, length))
        tag = _TAG_NAME.match(page, lt)
        if tag is None or next_gt > length or following_lt != -1:
            yield None, False, "<"
            position = lt + 1
            continue
        yield tag.group(2).lower(), tag.group(1) == "/", page[tag.end() : next_gt]
        position = next_gt + 1


def reference_content_text(page: str) -> str:
    """The normalised reader-visible content of an HTML page (what is hashed)."""
    region, position = _region_start(page)
    every_article = region == "article"
    depth = 0 if region else 1  # inside the region when > 0
    dropped = 0
    texts: list[str] = []
    links: list[str] = []
    for name, closing, body in _tokens(page, position):
        if name is None:
            if depth and not dropped:
                texts.append(body)
            continue
        self_closing = body.rstrip().endswith("/")
        if region is not None and name == region:
            if closing:
                depth = max(0, depth - 1)
                if depth == 0 and not every_article:
                    break
            elif not self_closing:
                depth += 1
            texts.append(" ")
            continue
        if not depth:
            continue
        if name in _DROPPED:
            if closing:
                dropped = max(0, dropped - 1)
            elif not self_closing:
                dropped += 1
            continue
        texts.append(" ")
        if not dropped and not closing:
            for match in _LINKS.finditer(body):
                link = html.unescape(next(v for v in match.groups() if v is not None))
                if not _ASSET.search(link):
                    links.append(link)
    text = html.unescape("".join(texts))
    return " ".join(text.split()) + "\n" + "\n".join(links)

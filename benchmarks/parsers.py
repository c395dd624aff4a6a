"""The page reader's parser, chosen by measurement: Lexbor (selectolax) against lxml.

Each candidate does the same work on the same pages of a generated site: parse the whole page,
read the head's link and meta elements, find the main region, drop navigation and scripts
from it, and take its text and links (what the fingerprint hashes). The figures are CPU time
per page, medians of ``--runs``, with each tree parsed and used right away (hot in the
processor's cache, as in a build). ``reader.parse_html`` (the record the build makes: also
titles, headings, images and videos) is timed beside them.

Usage::

    python benchmarks/parsers.py SITE_DIR [--pages 2000] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING

import lxml.html
from selectolax.lexbor import LexborHTMLParser

from sitemap_plugins.page.reader import parse_html

if TYPE_CHECKING:
    from collections.abc import Callable

DROPPED = ("nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg")
LINKING = ("a", "area", "img", "iframe", "embed", "source", "track", "video", "audio", "input")


def lexbor_parse(raw: bytes) -> object:
    return LexborHTMLParser(raw)


def lexbor_work(raw: bytes) -> object:
    tree = LexborHTMLParser(raw)
    facts = [node.attributes for node in tree.head.iter() if node.tag in ("link", "meta")]
    mains = tree.tags("main")
    region = mains[0] if mains else tree.body
    for name in DROPPED:
        for node in tree.tags(name):
            node.remove()
    text = region.text(separator=" ", strip=True, skip_empty=True)
    links = [node.attributes.get("href") for name in LINKING for node in tree.tags(name)]
    return facts, text, links, tree


def lxml_parse(raw: bytes) -> object:
    return lxml.html.document_fromstring(raw)


def lxml_work(raw: bytes) -> object:
    tree = lxml.html.document_fromstring(raw)
    head = tree.find("head")
    facts = [dict(node.attrib) for node in (head if head is not None else ())
             if node.tag in ("link", "meta")]
    region = tree.find(".//main")
    if region is None:
        region = tree.find("body")
    for node in list(region.iter(*DROPPED)):
        node.drop_tree()
    text = " ".join(part.strip() for part in region.itertext() if part.strip())
    links = [node.get("href") or node.get("src") for node in region.iter(*LINKING)]
    return facts, text, links, tree


def measure(pages: list[bytes], work: Callable[[bytes], object], runs: int) -> float:
    """Median CPU µs a page; the last result is held while the next page is parsed, as the
    reader does (freeing a tree at once costs a page fault storm on the next parse)."""
    figures = []
    for _ in range(runs):
        held: list[object] = []
        start = time.process_time()
        for raw in pages:
            held[:] = [work(raw)]
        figures.append((time.process_time() - start) / len(pages) * 1e6)
    return statistics.median(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    files = sorted(args.site.rglob("*.html"))[: args.pages]
    pages = [path.read_bytes() for path in files]
    size = sum(map(len, pages)) / len(pages) / 1024
    print(f"{len(pages):,} pages of {size:.1f} KiB on average, CPU µs a page (median of "
          f"{args.runs} runs)")
    for label, work in (("lexbor (selectolax): parse", lexbor_parse),
                        ("lxml: parse", lxml_parse),
                        ("lexbor: parse + head + main text + links", lexbor_work),
                        ("lxml: parse + head + main text + links", lxml_work),
                        ("reader.parse_html (the whole record)", parse_html)):
        print(f"  {label:44} {measure(pages, work, args.runs):7.1f}")


if __name__ == "__main__":
    main()

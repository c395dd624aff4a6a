"""Generate a synthetic built static site for the benchmarks.

The same ``--seed`` and ``--pages`` always give the same files, byte for byte, whatever the
number of processes used to write them: every page draws from its own random generator,
seeded from the run seed and the page number.

Layout: ``section-S/topic-TT/group-GGGG/`` folders of 50 pages each. Most pages are
``name/index.html`` (directory URLs, as MkDocs and Hugo write them), the rest ``name.html``.

Mix per page (fractions of N, approximate):

* 100 %  realistic head: charset, viewport, title, description, generator, Open Graph tags,
         4 stylesheets, 5 scripts (1 inline), a favicon; three head styles (MkDocs-Material
         like, Pelican like, minified Hugo like with unquoted attributes and upper-case tags)
*  40 %  self canonical, 3 % canonical to another page
*  15 %  hreflang alternates (en, de, fr, x-default)
*  50 %  a modified-date meta, 20 % a published-date meta
*   1 %  ``noindex``
*   2 %  redirect stubs (tiny pages with a meta refresh, as mkdocs-redirects writes them)
*   2 %  inline critical CSS of about 12 KB in the head (a head longer than 8 KiB)
* bodies of about ``--body-kb`` KB (15 by default): navigation, headings and paragraphs.

Usage::

    python benchmarks/make_site.py --pages 10000 --out /tmp/sitemap-bench/site-10000
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import sys
import time
from pathlib import Path

BASE_URL = "https://example.org/"
PAGES_PER_FOLDER = 50
_WORDS = ["sitemap", "static", "site", "build", "page", "head", "canonical", "robots", "index", "crawler", "search", "engine", "protocol", "url", "location", "language", "alternate", "redirect", "refresh", "modified", "published", "date", "theme", "template", "plugin", "markdown", "content", "folder", "file", "output", "scan", "parse", "write", "gzip", "python", "pelican", "mkdocs", "material", "navigation", "section", "topic", "group", "article", "guide", "reference", "tutorial", "install", "configure", "option", "default", "value", "example", "deploy", "server", "cache", "header", "performance", "memory", "process", "worker", "pool", "chunk", "stream", "order", "deterministic", "bytes"]
_LANGS = ("en", "de", "fr")
_PARAGRAPH_POOL = 512
_POOL_SEED = 20_240_601


def _paragraphs() -> list[str]:
    rng = random.Random(_POOL_SEED)
    pool = []
    for _ in range(_PARAGRAPH_POOL):
        sentences = []
        for _ in range(rng.randint(3, 7)):
            words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 20))]
            sentences.append(" ".join(words).capitalize() + ".")
        pool.append(" ".join(sentences))
    return pool


_POOL = _paragraphs()
_CRITICAL_CSS = "".join(
    f".c{i}{{margin:{i % 7}px {i % 5}px;padding:{i % 3}px;color:#{i * 2654435761 % 0xFFFFFF:06x}}}"
    for i in range(260)
)


def page_path(index: int, rng: random.Random) -> str:
    """The relative path of page ``index`` (its folder is fixed by the index alone)."""
    group = index // PAGES_PER_FOLDER
    folder = f"section-{group % 10}/topic-{group // 10 % 100:02d}/group-{group:05d}"
    slug = f"page-{index:07d}"
    if rng.random() < 0.7:
        return f"{folder}/{slug}/index.html"
    return f"{folder}/{slug}.html"


def url_of(rel: str) -> str:
    """The public URL of a relative path (directory URLs for index pages)."""
    if rel.endswith("/index.html"):
        rel = rel[: -len("index.html")]
    return BASE_URL + rel


def _relative(from_rel: str, to_rel: str) -> str:
    start = os.path.dirname(from_rel) or "."
    target = to_rel[: -len("index.html")] if to_rel.endswith("/index.html") else to_rel
    rel = os.path.relpath(target or ".", start)
    return rel + "/" if to_rel.endswith("/index.html") else rel


def _body(rng: random.Random, body_bytes: int, title: str) -> str:
    parts = [
        '<body dir="ltr">\n<header class="md-header"><nav class="md-header__inner">',
        '<a href="/" class="md-logo">Example</a>',
        "".join(f'<a class="md-tabs__link" href="/section-{i}/">Section {i}</a>' for i in range(10)),
        '</nav></header>\n<main class="md-main"><article class="md-content__inner">\n',
        f"<h1>{title}</h1>\n",
    ]
    size = sum(len(p) for p in parts)
    heading = 0
    while size < body_bytes:
        if rng.random() < 0.15:
            heading += 1
            chunk = f'<h2 id="s{heading}">Part {heading}</h2>\n'
        else:
            chunk = f"<p>{rng.choice(_POOL)}</p>\n"
        parts.append(chunk)
        size += len(chunk)
    parts.append("</article></main>\n<footer>Made with a generator</footer>\n"
                 '<script src="/assets/javascripts/bundle.js"></script>\n</body>\n</html>\n')
    return "".join(parts)


def _head_material(meta: dict[str, str], lines: list[str]) -> str:
    out = [
        "<!doctype html>",
        f'<html lang="{meta["lang"]}" class="no-js">',
        "  <head>",
        '      <meta charset="utf-8">',
        '      <meta name="viewport" content="width=device-width,initial-scale=1">',
        f'        <meta name="description" content="{meta["description"]}">',
        '        <meta name="author" content="Example Authors">',
        *lines,
        '      <link rel="icon" href="/assets/images/favicon.png">',
        '      <meta name="generator" content="mkdocs-1.6.1, mkdocs-material-9.5.0">',
        f'    <title>{meta["title"]} - Example Docs</title>',
        '      <link rel="stylesheet" href="/assets/stylesheets/main.8608ea7d.min.css">',
        '      <link rel="stylesheet" href="/assets/stylesheets/palette.06af60db.min.css">',
        '      <link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>',
        '      <link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto:300,400">',
        '      <link rel="stylesheet" href="/assets/_mkdocstrings.css">',
        ('    <script>__md_scope=new URL("/",location),__md_hash=e=>[...e].reduce((e,_)=>'
        "(e<<5)-e+_.charCodeAt(0),0),__md_get=(e,_=localStorage,t=__md_scope)=>JSON.parse"
        '(_.getItem(t.pathname+"."+e)),__md_set=(e,_,t=localStorage,a=__md_scope)=>{try{t.'
        'setItem(a.pathname+"."+e,JSON.stringify(_))}catch(e){}}</script>'),
        '      <script src="/assets/javascripts/glightbox.min.js"></script>',
        '      <script src="/assets/javascripts/analytics.js" defer></script>',
        '      <script src="/assets/javascripts/extra.js"></script>',
        ('      <script type="application/ld+json">{"@context":"https://schema.org",'
        f'"@type":"TechArticle","headline":"{meta["title"]}"}}</script>'),
        f'    <meta property="og:title" content="{meta["title"]}">',
        '    <meta property="og:type" content="website">',
        '    <meta property="og:image" content="/assets/images/social/card.png">',
        '    <meta name="twitter:card" content="summary_large_image">',
        "  </head>",
        "",
    ]
    return "\n".join(out)


def _head_pelican(meta: dict[str, str], lines: list[str]) -> str:
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{meta["lang"]}">',
        "<head>",
        '        <meta charset="utf-8" />',
        '        <meta http-equiv="X-UA-Compatible" content="IE=edge" />',
        '        <meta name="viewport" content="width=device-width, initial-scale=1" />',
        f"        <title>{meta['title']} &mdash; Example Blog</title>",
        '        <link rel="stylesheet" href="/theme/css/main.css" />',
        '        <link rel="stylesheet" href="/theme/css/pygment.css" />',
        '        <link rel="stylesheet" href="/theme/css/fonts.css" />',
        '        <link rel="stylesheet" href="/theme/css/print.css" media="print" />',
        ('        <link href="/feeds/all.atom.xml" type="application/atom+xml" rel="alternate"'
        ' title="Example Blog Full Atom Feed" />'),
        '        <meta name="tags" content="python" />',
        '        <meta name="tags" content="static" />',
        f'        <meta name="description" content="{meta["description"]}" />',
        *[f"        {line.strip()}" for line in lines],
        '        <script src="/theme/js/jquery.min.js"></script>',
        '        <script src="/theme/js/bootstrap.min.js"></script>',
        '        <script src="/theme/js/search.js" async></script>',
        '        <script src="/theme/js/comments.js" defer></script>',
        ("        <script>var _paq=window._paq=window._paq||[];_paq.push(['trackPageView']);"
        "_paq.push(['enableLinkTracking']);</script>"),
        "</head>",
        "",
    ]
    return "\n".join(out)


def _head_minified(meta: dict[str, str], lines: list[str]) -> str:
    # Minifiers drop quotes where they can and some templates shout their tags.
    squeezed = "".join(line.strip() for line in lines)
    return (
        f'<!DOCTYPE html><HTML lang={meta["lang"]}><HEAD><META charset=utf-8>'
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<TITLE>{meta['title']} | Example</TITLE>"
        f'<meta name=description content="{meta["description"]}">'
        '<meta name=generator content="Hugo 0.125.0">'
        f"{squeezed}"
        "<link rel=stylesheet href=/css/style.min.css>"
        "<link rel=stylesheet href=/css/syntax.css>"
        "<link rel=stylesheet href=/css/fonts.css>"
        "<link rel=stylesheet href=/css/custom.css>"
        "<script src=/js/main.min.js defer></script><script src=/js/search.js defer></script>"
        "<script src=/js/theme.js></script><script src=/js/katex.js async></script>"
        "<script>document.documentElement.className='js'</script>"
        "</HEAD>\n"
    )


def _redirect_stub(target: str) -> str:
    # What mkdocs-redirects writes.
    return (
        '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        "<title>Redirecting...</title>\n"
        f'<link rel="canonical" href="{target}">\n'
        '<meta name="robots" content="noindex">\n'
        "<script>var anchor=window.location.hash.substr(1);"
        f'location.href="{target}"+(anchor?"#"+anchor:"")</script>\n'
        f'<meta http-equiv="refresh" content="0; url={target}">\n'
        "</head>\n<body>\nRedirecting...\n</body>\n</html>\n"
    )


def render_page(seed: int, index: int, total: int, body_bytes: int) -> tuple[str, str]:
    """Return ``(relative path, HTML text)`` for page ``index`` of ``total``."""
    rng = random.Random(seed * 1_000_003 + index)
    rel = page_path(index, rng)
    kind = rng.random()
    if kind < 0.02 and total > 1:
        other = rng.randrange(total)
        other_rel = page_path(other, random.Random(seed * 1_000_003 + other))
        return rel, _redirect_stub(_relative(rel, other_rel))
    title = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(2, 6))).title()
    meta = {
        "title": title,
        "description": " ".join(rng.choice(_WORDS) for _ in range(rng.randint(10, 25))),
        "lang": "en",
    }
    lines: list[str] = []
    roll = rng.random()
    if roll < 0.40:
        lines.append(f'      <link rel="canonical" href="{url_of(rel)}">')
    elif roll < 0.43 and total > 1:
        other = rng.randrange(total)
        other_rel = page_path(other, random.Random(seed * 1_000_003 + other))
        lines.append(f'      <link rel="canonical" href="{url_of(other_rel)}">')
    if rng.random() < 0.15:
        stem = url_of(rel)[len(BASE_URL):]
        for lang in _LANGS:
            href = BASE_URL + (stem if lang == "en" else f"{lang}/{stem}")
            lines.append(f'      <link rel="alternate" hreflang="{lang}" href="{href}">')
        lines.append(f'      <link rel="alternate" hreflang="x-default" href="{url_of(rel)}">')
    if rng.random() < 0.01:
        lines.append('      <meta name="robots" content="noindex, follow">')
    elif rng.random() < 0.3:
        lines.append('      <meta name="robots" content="index, follow, max-image-preview:large">')
    if rng.random() < 0.5:
        day = rng.randrange(1, 28)
        lines.append(f'      <meta property="article:modified_time" '
                     f'content="2024-{rng.randrange(1, 13):02d}-{day:02d}T10:{day:02d}:00+00:00">')
    if rng.random() < 0.2:
        lines.append(f'      <meta name="date" content="2023-{rng.randrange(1, 13):02d}-15">')
    if rng.random() < 0.02:
        lines.append(f"      <style>{_CRITICAL_CSS}</style>")
    style = rng.random()
    if style < 0.7:
        head = _head_material(meta, lines)
    elif style < 0.9:
        head = _head_pelican(meta, lines)
    else:
        head = _head_minified(meta, lines)
    return rel, head + _body(rng, body_bytes, title)


def _write_range(args: tuple[str, int, int, int, int, int]) -> int:
    out, seed, start, stop, total, body_bytes = args
    made: set[str] = set()
    written = 0
    for index in range(start, stop):
        rel, text = render_page(seed, index, total, body_bytes)
        path = os.path.join(out, rel)
        folder = os.path.dirname(path)
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        written += len(text)
    return written


def _extras(out: Path) -> None:
    (out / "index.html").write_text(
        render_page(0, 0, 1, 2_000)[1].replace("Example Docs", "Home"), encoding="utf-8")
    (out / "404.html").write_text(
        "<!doctype html><html><head><title>Not found</title></head><body>404</body></html>\n",
        encoding="utf-8")
    (out / "robots.txt").write_text("User-agent: *\nDisallow: /search/\n", encoding="utf-8")


def make_site(out: Path, pages: int, *, seed: int = 1, body_kb: float = 15.0,
              jobs: int = 0) -> int:
    """Write the site into ``out`` (emptied first); returns the bytes of HTML written."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    _extras(out)
    body_bytes = int(body_kb * 1000)
    step = 5_000
    tasks = [(str(out), seed, start, min(start + step, pages), pages, body_bytes)
             for start in range(0, pages, step)]
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(tasks) == 1:
        return sum(map(_write_range, tasks))
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return sum(pool.imap_unordered(_write_range, tasks))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, required=True, help="number of pages (N)")
    parser.add_argument("--out", required=True, type=Path, help="folder to write (emptied)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default: 1)")
    parser.add_argument("--body-kb", type=float, default=15.0,
                        help="approximate body size per page in KB (default: 15)")
    parser.add_argument("--jobs", type=int, default=0, help="processes (default: one per core)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    size = make_site(args.out, args.pages, seed=args.seed, body_kb=args.body_kb, jobs=args.jobs)
    print(f"wrote {args.pages:,} pages ({size / 1e6:,.0f} MB) to {args.out} "
          f"in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

# Copyright (c) 2026 sitemap-plugins developers
# SPDX-License-Identifier: MIT
"""Write the robots.txt test corpus in this directory, byte for byte.

Every file is spelled out here as ``bytes`` so that the awkward details (a UTF-8 byte-order
mark, CRLF or lone-CR line ends, a missing final newline, trailing spaces and tabs, latin-1
bytes that are not valid UTF-8) are exact and can be reviewed in a diff.  None of the files
contains a NUL byte.

The line the tests add is ``Sitemap: https://example.org/sitemap.xml``.  Files whose name
contains ``target`` already hold that URL in some form (see README.md for which forms name
the same URL and which only look alike).

The shapes of the "site-like" files (WordPress, Drupal, Shopify, GitHub, Wikipedia) are
written from memory in our own words: they are short imitations, not copies.

Run it from anywhere:

    python tests/data/robots/make_corpus.py          # (re)write the files and README.md
    python tests/data/robots/make_corpus.py --check  # exit 1 if anything on disk differs
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = b"Sitemap: https://example.org/sitemap.xml"

LF = b"\n"
CRLF = b"\r\n"
CR = b"\r"
BOM = b"\xef\xbb\xbf"


def join(lines: list[bytes], eol: bytes = LF, *, final: bool = True) -> bytes:
    """Join lines with ``eol``; end with one ``eol`` unless ``final`` is false."""
    body = eol.join(lines)
    return body + eol if final and lines else body


# --- building blocks ---------------------------------------------------------------------

SIMPLE = [
    b"User-agent: *",
    b"Disallow: /admin/",
    b"Disallow: /tmp/",
    b"Allow: /admin/public/",
]


def huge() -> bytes:
    """About 600 KB: a header, a few agent groups and thousands of Disallow lines."""
    out = [
        b"# robots.txt for a large catalogue site",
        b"# Generated nightly from the product database. Do not edit by hand.",
        b"",
        b"User-agent: Googlebot",
        b"User-agent: Bingbot",
        b"Allow: /catalogue/",
        b"Disallow: /catalogue/*?sort=",
        b"Disallow: /catalogue/*&sort=",
        b"",
        b"User-agent: *",
        b"Crawl-delay: 5",
    ]
    sections = [b"archive", b"catalogue", b"search", b"user", b"tag", b"print"]
    n = 0
    while sum(len(x) + 1 for x in out) < 600 * 1024:
        section = sections[n % len(sections)]
        year = 2001 + (n // 7) % 23
        out.append(
            b"Disallow: /%s/%d/%02d/item-%06d/" % (section, year, n % 12 + 1, n),
        )
        if n % 500 == 499:  # an occasional comment
            out.append(b"# --- batch %d ---" % (n // 500 + 1))
        n += 1
    out += [
        b"",
        b"Sitemap: https://example.org/sitemaps/catalogue-index.xml",
    ]
    return join(out)


LONG_LINE = b"Disallow: /" + b"/".join(b"segment-%04d" % i for i in range(800)) + b"/"

# --- the corpus --------------------------------------------------------------------------
# (file name, one-line description, exact bytes)

CORPUS: list[tuple[str, str, bytes]] = [
    ("01-empty.txt", "Empty file: zero bytes.", b""),
    (
        "02-only-comments.txt",
        "Only comment lines, no directives.",
        join(
            [
                b"# robots.txt",
                b"# This site has no crawling restrictions.",
                b"#",
                b"# Questions: webmaster@example.org",
            ],
        ),
    ),
    (
        "03-only-blank-lines.txt",
        "Three empty lines and nothing else.",
        b"\n\n\n",
    ),
    (
        "04-whitespace-only.txt",
        "Only spaces, tabs and newlines.",
        b"   \n\t\n \t \n",
    ),
    (
        "05-allow-all-minimal.txt",
        "The classic minimal allow-all: `User-agent: *` and an empty `Disallow:`.",
        join([b"User-agent: *", b"Disallow:"]),
    ),
    (
        "06-disallow-all.txt",
        "Block everything: `User-agent: *` / `Disallow: /`.",
        join([b"User-agent: *", b"Disallow: /"]),
    ),
    (
        "07-utf8-bom.txt",
        "UTF-8 byte-order mark (EF BB BF) before the first `User-agent`.",
        BOM + join(SIMPLE),
    ),
    (
        "08-utf8-bom-only.txt",
        "Nothing but a UTF-8 byte-order mark (3 bytes, no newline).",
        BOM,
    ),
    (
        "09-crlf.txt",
        "CRLF line endings throughout, including the last line.",
        join(
            [b"# Windows-edited file", *SIMPLE, b"", b"User-agent: Bingbot", b"Crawl-delay: 2"],
            CRLF,
        ),
    ),
    (
        "10-mixed-crlf-lf.txt",
        "Mixed line endings: some lines CRLF, some LF (last line LF).",
        b"".join(
            [
                b"User-agent: *\r\n",
                b"Disallow: /private/\n",
                b"Disallow: /drafts/\r\n",
                b"\n",
                b"User-agent: Googlebot\r\n",
                b"Allow: /\n",
            ],
        ),
    ),
    (
        "11-cr-only-mac.txt",
        "Old Mac OS line endings: lone CR everywhere, no LF at all.",
        join([b"# Saved by an old Mac editor", *SIMPLE], CR),
    ),
    (
        "12-no-final-newline.txt",
        "LF file whose last directive has no final newline.",
        join(SIMPLE, final=False),
    ),
    (
        "13-crlf-no-final-newline.txt",
        "CRLF file with no line ending after the last line.",
        join(SIMPLE, CRLF, final=False),
    ),
    (
        "14-trailing-blank-lines.txt",
        "Several blank lines after the last directive.",
        join(SIMPLE) + b"\n\n\n\n",
    ),
    (
        "15-trailing-whitespace.txt",
        "Trailing spaces and tabs on most lines, and a whitespace-only line.",
        join(
            [
                b"User-agent: *   ",
                b"Disallow: /cgi-bin/\t",
                b"Disallow: /tmp/ \t ",
                b"  \t",
                b"User-agent: Googlebot\t\t",
                b"Allow: / ",
            ],
        ),
    ),
    (
        "16-tabs-and-indentation.txt",
        "Tab after the colon, indented rule lines and a space before the colon.",
        join(
            [
                b"User-agent:\t*",
                b"\tDisallow:\t/search",
                b"    Disallow: /login",
                b"Allow : /search/help",
            ],
        ),
    ),
    (
        "17-inline-comments.txt",
        "Comments after directives (`Disallow: /x # why`), including `#` with no space.",
        join(
            [
                b"User-agent: * # every crawler",
                b"Disallow: /checkout/ # nothing to index here",
                b"Disallow: /account/# no space before the hash",
                b"Allow: /account/help/   # trailing spaces before the comment",
                b"Crawl-delay: 10 # seconds",
            ],
        ),
    ),
    (
        "18-ends-with-comment-no-newline.txt",
        "Last line is a comment with no final newline.",
        join([*SIMPLE, b"", b"# end of robots.txt"], final=False),
    ),
    (
        "19-unterminated-last-group.txt",
        "Last group is a lone `User-agent:` line with no rules and no final newline.",
        join([*SIMPLE, b"", b"User-agent: BadBot"], final=False),
    ),
    (
        "20-blank-lines-inside-groups.txt",
        "Blank lines between a group's User-agent and rule lines (and between rules).",
        join(
            [
                b"User-agent: *",
                b"",
                b"Disallow: /private/",
                b"",
                b"",
                b"Disallow: /staging/",
                b"",
                b"User-agent: Googlebot",
                b"",
                b"Allow: /",
            ],
        ),
    ),
    (
        "21-sitemap-other-url.txt",
        "Already has one `Sitemap:` line for a different URL.",
        join([*SIMPLE, b"", b"Sitemap: https://example.org/sitemap_index.xml"]),
    ),
    (
        "22-sitemap-several-other-urls.txt",
        "Several `Sitemap:` lines, other hosts and paths, one of them repeated.",
        join(
            [
                b"Sitemap: https://example.org/sitemaps/pages.xml",
                b"Sitemap: https://example.org/sitemaps/posts.xml",
                b"Sitemap: https://cdn.example.net/sitemaps/images.xml.gz",
                b"",
                *SIMPLE,
                b"",
                b"Sitemap: https://example.org/sitemaps/posts.xml",
            ],
        ),
    ),
    (
        "23-sitemap-lowercase-directive.txt",
        "`sitemap:` in lower case, other URL.",
        join([*SIMPLE, b"", b"sitemap: https://example.org/news-sitemap.xml"]),
    ),
    (
        "24-sitemap-uppercase-space-before-colon.txt",
        "`SITEMAP :` in upper case with a space before the colon, other URL.",
        join([*SIMPLE, b"", b"SITEMAP : https://example.org/feeds/sitemap.xml"]),
    ),
    (
        "25-site-map-hyphenated.txt",
        "`Site-map:` (not a real directive, seen in the wild) naming the target URL.",
        join([*SIMPLE, b"", b"Site-map: https://example.org/sitemap.xml"]),
    ),
    (
        "26-sitemap-leading-space.txt",
        "` Sitemap:` with a leading space, other URL.",
        join([*SIMPLE, b"", b" Sitemap: https://example.org/sitemap-main.xml"]),
    ),
    (
        "27-target-exact.txt",
        "Already contains exactly `Sitemap: https://example.org/sitemap.xml` (must not be added again).",
        join([*SIMPLE, b"", TARGET]),
    ),
    (
        "28-target-case-variant-scheme-host.txt",
        "Target with upper-case scheme and mixed-case host: `HTTPS://Example.org/sitemap.xml`.",
        join([*SIMPLE, b"", b"Sitemap: HTTPS://Example.org/sitemap.xml"]),
    ),
    (
        "29-target-trailing-whitespace.txt",
        "Target line followed by trailing spaces and a tab.",
        join([*SIMPLE, b"", TARGET + b"  \t"]),
    ),
    (
        "30-target-lowercase-directive.txt",
        "Target written `sitemap: https://example.org/sitemap.xml` (lower-case directive).",
        join([*SIMPLE, b"", b"sitemap: https://example.org/sitemap.xml"]),
    ),
    (
        "31-target-crlf.txt",
        "CRLF file that already has the target line.",
        join([*SIMPLE, b"", TARGET], CRLF),
    ),
    (
        "32-target-no-final-newline.txt",
        "Ends with the target line and no final newline.",
        join([*SIMPLE, b"", TARGET], final=False),
    ),
    (
        "33-target-first-line.txt",
        "Target line is the very first line, before any group.",
        join([TARGET, b"", *SIMPLE]),
    ),
    (
        "34-target-inside-group.txt",
        "Target line sits between rule lines of a group.",
        join(
            [
                b"User-agent: *",
                b"Disallow: /admin/",
                TARGET,
                b"Disallow: /tmp/",
            ],
        ),
    ),
    (
        "35-target-commented-out.txt",
        "Target only appears in a comment (`# Sitemap: ...`), so it is not a directive.",
        join([*SIMPLE, b"", b"# " + TARGET]),
    ),
    (
        "36-target-http-scheme.txt",
        "Look-alike: `http://` instead of `https://` (a different URL).",
        join([*SIMPLE, b"", b"Sitemap: http://example.org/sitemap.xml"]),
    ),
    (
        "37-target-www-host.txt",
        "Look-alike: `https://www.example.org/sitemap.xml` (a different host).",
        join([*SIMPLE, b"", b"Sitemap: https://www.example.org/sitemap.xml"]),
    ),
    (
        "38-target-path-case.txt",
        "Look-alike: `/Sitemap.xml` with a capital S (paths are case-sensitive).",
        join([*SIMPLE, b"", b"Sitemap: https://example.org/Sitemap.xml"]),
    ),
    (
        "39-target-gz-and-query.txt",
        "Look-alikes: `/sitemap.xml.gz` and `/sitemap.xml?v=2` (both different URLs).",
        join(
            [
                *SIMPLE,
                b"",
                b"Sitemap: https://example.org/sitemap.xml.gz",
                b"Sitemap: https://example.org/sitemap.xml?v=2",
            ],
        ),
    ),
    (
        "40-target-default-port.txt",
        "Target with explicit default port `https://example.org:443/sitemap.xml`.",
        join([*SIMPLE, b"", b"Sitemap: https://example.org:443/sitemap.xml"]),
    ),
    (
        "41-target-no-space-after-colon.txt",
        "Target written `Sitemap:https://example.org/sitemap.xml` (no space).",
        join([*SIMPLE, b"", b"Sitemap:https://example.org/sitemap.xml"]),
    ),
    (
        "42-target-inline-comment.txt",
        "Target followed by an inline comment: `... /sitemap.xml # main sitemap`.",
        join([*SIMPLE, b"", TARGET + b" # main sitemap"]),
    ),
    (
        "43-target-twice.txt",
        "Target already present twice (a tool that ran non-idempotently before).",
        join([*SIMPLE, b"", TARGET, TARGET]),
    ),
    (
        "44-ai-crawlers.txt",
        "Groups blocking AI crawlers (GPTBot, CCBot, anthropic-ai, ClaudeBot, Google-Extended, ...).",
        join(
            [
                b"# We do not consent to our content being used to train AI models.",
                b"User-agent: GPTBot",
                b"Disallow: /",
                b"",
                b"User-agent: ChatGPT-User",
                b"Disallow: /",
                b"",
                b"User-agent: CCBot",
                b"Disallow: /",
                b"",
                b"User-agent: anthropic-ai",
                b"User-agent: ClaudeBot",
                b"User-agent: Claude-Web",
                b"Disallow: /",
                b"",
                b"User-agent: Google-Extended",
                b"User-agent: Applebot-Extended",
                b"Disallow: /",
                b"",
                b"User-agent: PerplexityBot",
                b"User-agent: Bytespider",
                b"User-agent: Amazonbot",
                b"Disallow: /",
                b"",
                b"User-agent: *",
                b"Allow: /",
            ],
        ),
    ),
    (
        "45-many-search-agents.txt",
        "Separate groups for Googlebot, Googlebot-Image, Bingbot, Slurp, DuckDuckBot, Baiduspider, YandexBot.",
        join(
            [
                b"User-agent: Googlebot",
                b"Disallow: /internal/",
                b"",
                b"User-agent: Googlebot-Image",
                b"Disallow: /photos/private/",
                b"Allow: /photos/",
                b"",
                b"User-agent: Bingbot",
                b"User-agent: Slurp",
                b"Disallow: /internal/",
                b"Crawl-delay: 1",
                b"",
                b"User-agent: DuckDuckBot",
                b"Disallow: /internal/",
                b"",
                b"User-agent: Baiduspider",
                b"Disallow: /",
                b"",
                b"User-agent: YandexBot",
                b"Disallow: /internal/",
                b"",
                b"User-agent: *",
                b"Disallow: /internal/",
                b"Disallow: /search",
            ],
        ),
    ),
    (
        "46-crawl-delay.txt",
        "`Crawl-delay` values: integer, decimal and per-agent.",
        join(
            [
                b"User-agent: *",
                b"Crawl-delay: 10",
                b"Disallow: /api/",
                b"",
                b"User-agent: Bingbot",
                b"Crawl-delay: 0.5",
                b"",
                b"User-agent: MJ12bot",
                b"User-agent: AhrefsBot",
                b"User-agent: SemrushBot",
                b"Crawl-delay: 60",
            ],
        ),
    ),
    (
        "47-allow-and-disallow.txt",
        "Interleaved `Allow` and `Disallow` rules relying on longest-match precedence.",
        join(
            [
                b"User-agent: *",
                b"Disallow: /docs/",
                b"Allow: /docs/public/",
                b"Disallow: /docs/public/drafts/",
                b"Allow: /docs/public/drafts/index.html",
                b"Allow: /",
                b"Disallow: /*.json",
            ],
        ),
    ),
    (
        "48-wildcards.txt",
        "Wildcard rules: `/*.pdf$`, `/*?sessionid=`, `/*/print$`, a bare `$`.",
        join(
            [
                b"User-agent: *",
                b"Disallow: /*.pdf$",
                b"Disallow: /*.PDF$",
                b"Disallow: /*?sessionid=",
                b"Disallow: /*&sessionid=",
                b"Disallow: /*/print$",
                b"Disallow: /search*",
                b"Allow: /$",
                b"Allow: /*.css$",
                b"Allow: /*.js$",
            ],
        ),
    ),
    (
        "49-yandex-host-clean-param.txt",
        "Yandex style: `Host:` and `Clean-param:` in a Yandex group.",
        join(
            [
                b"User-agent: Yandex",
                b"Disallow: /cart",
                b"Disallow: /search/",
                b"Clean-param: utm_source&utm_medium&utm_campaign",
                b"Clean-param: sid /forum/",
                b"Host: https://example.org",
                b"",
                b"User-agent: *",
                b"Disallow: /cart",
                b"Disallow: /search/",
            ],
        ),
    ),
    (
        "50-clean-param-outside-group.txt",
        "`Clean-param` and `Host` as stand-alone lines after the last group.",
        join(
            [
                *SIMPLE,
                b"",
                b"Clean-param: ref /catalogue/",
                b"Clean-param: from&yclid",
                b"Host: example.org",
            ],
        ),
    ),
    (
        "51-huge-600k.txt",
        "About 600 KB: thousands of `Disallow` lines, periodic comments, a Sitemap at the end.",
        huge(),
    ),
    (
        "52-very-long-line.txt",
        "One `Disallow` line of roughly 10 KB.",
        join([b"User-agent: *", LONG_LINE, b"Disallow: /after-the-long-line/"]),
    ),
    (
        "53-non-ascii-utf8-paths.txt",
        "Raw UTF-8 paths (accented Latin, Cyrillic, CJK, emoji) and a UTF-8 comment.",
        join(
            [
                b"# R\xc3\xa8gles pour les robots \xe2\x80\x94 site multilingue",
                b"User-agent: *",
                b"Disallow: /caf\xc3\xa9/brouillons/",
                b"Disallow: /\xd0\xbf\xd0\xbe\xd0\xb8\xd1\x81\xd0\xba/",
                b"Disallow: /\xe6\x90\x9c\xe7\xb4\xa2/",
                b"Allow: /stra\xc3\x9fe/",
                b"Disallow: /\xf0\x9f\x98\x80/",
            ],
        ),
    ),
    (
        "54-percent-encoded-paths.txt",
        "Percent-encoded paths, including upper- and lower-case hex and an encoded space.",
        join(
            [
                b"User-agent: *",
                b"Disallow: /caf%C3%A9/brouillons/",
                b"Disallow: /%D0%BF%D0%BE%D0%B8%D1%81%D0%BA/",
                b"Disallow: /path%20with%20spaces/",
                b"Disallow: /encoded%2fslash/",
                b"Allow: /%7Euser/public/",
                b"Disallow: /%7euser/",
            ],
        ),
    ),
    (
        "55-latin1-bytes.txt",
        "Latin-1 bytes (E9, FC, E8, DF) that are not valid UTF-8, in a comment and in paths.",
        join(
            [
                b"# R\xe8gles pour les robots \xe9crites en ISO-8859-1",
                b"User-agent: *",
                b"Disallow: /caf\xe9/",
                b"Disallow: /m\xfcnchen/intern/",
                b"Allow: /stra\xdfe/",
            ],
        ),
    ),
    (
        "56-windows-1252-quotes-crlf.txt",
        "Windows-1252 curly quotes and en dash (93 94 96) in comments, CRLF, no final newline.",
        join(
            [
                b"# \x93Private\x94 areas \x96 please don\x92t crawl",
                b"User-agent: *",
                b"Disallow: /intranet/",
            ],
            CRLF,
            final=False,
        ),
    ),
    (
        "57-wordpress.txt",
        "WordPress-like: wp-admin blocked except admin-ajax.php, plus a wp-sitemap.xml line.",
        join(
            [
                b"User-agent: *",
                b"Disallow: /wp-admin/",
                b"Allow: /wp-admin/admin-ajax.php",
                b"",
                b"Sitemap: https://example.org/wp-sitemap.xml",
            ],
        ),
    ),
    (
        "58-drupal.txt",
        "Drupal-like: long commented header, sections for directories, files and paths.",
        join(
            [
                b"#",
                b"# robots.txt",
                b"#",
                b"# This file asks well-behaved crawlers to skip parts of the site that",
                b"# only matter to logged-in users or to the server itself.",
                b"#",
                b"# More on the format: https://www.robotstxt.org/",
                b"",
                b"User-agent: *",
                b"# CSS, JS, Images",
                b"Allow: /core/*.css$",
                b"Allow: /core/*.css?",
                b"Allow: /core/*.js$",
                b"Allow: /core/*.js?",
                b"Allow: /core/*.png",
                b"Allow: /core/*.svg",
                b"# Directories",
                b"Disallow: /core/",
                b"Disallow: /profiles/",
                b"# Files",
                b"Disallow: /README.md",
                b"Disallow: /web.config",
                b"# Paths (clean URLs)",
                b"Disallow: /admin/",
                b"Disallow: /comment/reply/",
                b"Disallow: /filter/tips",
                b"Disallow: /node/add/",
                b"Disallow: /search/",
                b"Disallow: /user/register",
                b"Disallow: /user/password",
                b"Disallow: /user/login",
                b"Disallow: /user/logout",
                b"# Paths (no clean URLs)",
                b"Disallow: /index.php/admin/",
                b"Disallow: /index.php/search/",
                b"Disallow: /index.php/user/login",
            ],
        ),
    ),
    (
        "59-shopify.txt",
        "Shopify-like: many cart/checkout/collection-filter rules, per-bot groups, a sitemap.",
        join(
            [
                b"# we use a hosted shop platform as our ecommerce engine",
                b"",
                b"User-agent: *",
                b"Disallow: /a/downloads/-/*",
                b"Disallow: /admin",
                b"Disallow: /cart",
                b"Disallow: /orders",
                b"Disallow: /checkouts/",
                b"Disallow: /checkout",
                b"Disallow: /carts",
                b"Disallow: /account",
                b"Disallow: /collections/*sort_by*",
                b"Disallow: /*/collections/*sort_by*",
                b"Disallow: /collections/*+*",
                b"Disallow: /collections/*%2B*",
                b"Disallow: /collections/*%2b*",
                b"Disallow: /blogs/*+*",
                b"Disallow: /*/blogs/*+*",
                b"Disallow: /*design_theme_id*",
                b"Disallow: /*preview_theme_id*",
                b"Disallow: /*preview_script_id*",
                b"Disallow: /search",
                b"Disallow: /apple-app-site-association",
                b"Disallow: /.well-known/shopify/monorail",
                b"Sitemap: https://shop.example.com/sitemap.xml",
                b"",
                b"# Google adsbot ignores robots.txt unless specifically named!",
                b"User-agent: adsbot-google",
                b"Disallow: /checkouts/",
                b"Disallow: /checkout",
                b"Disallow: /carts",
                b"Disallow: /orders",
                b"",
                b"User-agent: Nutch",
                b"Disallow: /",
                b"",
                b"User-agent: AhrefsBot",
                b"Crawl-delay: 10",
                b"Disallow: /admin",
                b"Disallow: /cart",
                b"Sitemap: https://shop.example.com/sitemap.xml",
                b"",
                b"User-agent: Pinterest",
                b"Crawl-delay: 1",
            ],
        ),
    ),
    (
        "60-github-like.txt",
        "Code-hosting-like: a comment with contact info, many wildcard Disallows, no Sitemap.",
        join(
            [
                b"# If you would like to crawl this site, please write to us first.",
                b"# Unapproved large-scale crawling may be rate limited or blocked.",
                b"",
                b"User-agent: baidu",
                b"crawl-delay: 1",
                b"",
                b"",
                b"User-agent: *",
                b"",
                b"Disallow: /*/pulse",
                b"Disallow: /*/tree/",
                b"Disallow: /gist/",
                b"Disallow: /*/forks",
                b"Disallow: /*/stars",
                b"Disallow: /*/download",
                b"Disallow: /*/revisions",
                b"Disallow: /*/issues/new",
                b"Disallow: /*/issues/search",
                b"Disallow: /*/commits/",
                b"Disallow: /*/branches",
                b"Disallow: /*/tags",
                b"Disallow: /*/search",
                b"Disallow: /*/blame/",
                b"Disallow: /*/raw/",
                b"Disallow: /*/archive/",
                b"Disallow: /*?tab=*",
                b"Disallow: /*?q=*",
                b"Disallow: /search$",
                b"Disallow: /search/advanced",
                b"Disallow: /account-login",
                b"Disallow: /Explodingstuff/",
                b"",
            ],
        ),
    ),
    (
        "61-wikipedia-like.txt",
        "Encyclopedia-like: chatty comments, many single-bot `Disallow: /` groups, then a big `*` group.",
        join(
            [
                b"# robots.txt for https://example.org/ and friends",
                b"#",
                b"# Please note: there are a lot of pages on this site, and there are",
                b"# some misbehaved spiders out there that go _way_ too fast. If you're",
                b"# irresponsible, your access to the site may be blocked.",
                b"#",
                b"",
                b"# Advertising-related bots:",
                b"User-agent: Mediapartners-Google*",
                b"Disallow: /",
                b"",
                b"# Crawlers that are kind enough to obey, but which we'd rather not have",
                b"# unless they're feeding search engines.",
                b"User-agent: UbiCrawler",
                b"Disallow: /",
                b"",
                b"User-agent: DOC",
                b"Disallow: /",
                b"",
                b"User-agent: Zao",
                b"Disallow: /",
                b"",
                b"# Some bots are known to be trouble, particularly those designed to copy",
                b"# entire sites. Please obey robots.txt.",
                b"User-agent: sitecheck.internetseer.com",
                b"Disallow: /",
                b"",
                b"User-agent: Zealbot",
                b"Disallow: /",
                b"",
                b"User-agent: MSIECrawler",
                b"Disallow: /",
                b"",
                b"User-agent: WebCopier",
                b"Disallow: /",
                b"",
                b"User-agent: wget",
                b"Disallow: /",
                b"",
                b"#",
                b"# Friendly, low-speed bots are welcome viewing article pages, but not",
                b"# dynamically-generated pages please.",
                b"#",
                b"User-agent: *",
                b"Allow: /w/api.php?action=mobileview&",
                b"Allow: /w/load.php?",
                b"Disallow: /w/",
                b"Disallow: /api/",
                b"Disallow: /trap/",
                b"Disallow: /wiki/Special:",
                b"Disallow: /wiki/Special%3A",
                b"Disallow: /wiki/Spezial:",
                b"Disallow: /wiki/Sp%C3%A9cial:",
                b"#",
                b"# ---- per-project additions below (edited on-wiki) ----",
                b"#",
                b"Disallow: /wiki/Example:Deletion_log",
                b"Disallow: /wiki/Example_talk:Deletion_log",
                b"#",
            ],
        ),
    ),
    (
        "62-nonstandard-directives.txt",
        "Unknown and legacy directives: `Noindex`, `Request-rate`, `Visit-time`, `Content-Signal`, `X-Foo`.",
        join(
            [
                b"User-agent: *",
                b"Disallow: /private/",
                b"Noindex: /drafts/",
                b"Request-rate: 1/10s",
                b"Visit-time: 0200-0630",
                b"Content-Signal: search=yes, ai-train=no",
                b"X-Foo: bar",
            ],
        ),
    ),
    (
        "63-directive-case-variants.txt",
        "Directive names in odd cases: `USER-AGENT`, `disallow`, `ALLOW`, `user-Agent`.",
        join(
            [
                b"USER-AGENT: *",
                b"disallow: /private/",
                b"ALLOW: /private/open/",
                b"",
                b"user-Agent: googlebot",
                b"DisAllow: /nogoogle/",
            ],
        ),
    ),
    (
        "64-malformed-lines.txt",
        "Malformed lines: missing colon, value-only line, `Disallow` typo, stray text.",
        join(
            [
                b"User-agent *",
                b"Disallow /nocolon/",
                b"/just-a-path/",
                b"Dissalow: /typo/",
                b"User-agent: *",
                b"Disallow: /ok/",
                b"this line is not a directive at all",
                b":",
            ],
        ),
    ),
    (
        "65-html-error-page.txt",
        "An HTML 404 page served as robots.txt (a common misconfiguration).",
        join(
            [
                b"<!DOCTYPE html>",
                b'<html lang="en">',
                b'<head><meta charset="utf-8"><title>Page not found</title></head>',
                b"<body>",
                b"<h1>404 - Page not found</h1>",
                b'<p>Try the <a href="/">home page</a>.</p>',
                b"</body>",
                b"</html>",
            ],
        ),
    ),
    (
        "66-only-sitemap-lines.txt",
        "No groups at all, only two `Sitemap:` lines for other URLs.",
        join(
            [
                b"Sitemap: https://example.org/sitemap-pages.xml",
                b"Sitemap: https://example.org/sitemap-posts.xml",
            ],
        ),
    ),
    (
        "67-sitemap-relative-and-empty.txt",
        "Invalid Sitemap values: a relative `/sitemap.xml` (our path, but not absolute) and an empty one.",
        join([*SIMPLE, b"", b"Sitemap: /sitemap.xml", b"Sitemap:"]),
    ),
    (
        "68-sitemap-other-no-final-newline.txt",
        "Ends with a `Sitemap:` line for another URL and no final newline.",
        join([*SIMPLE, b"", b"Sitemap: https://example.org/other-sitemap.xml"], final=False),
    ),
    (
        "69-leading-blank-lines.txt",
        "Blank lines and a whitespace-only line before the first directive.",
        b"\n\n  \n" + join(SIMPLE),
    ),
    (
        "70-comment-only-no-newline.txt",
        "A single comment line with no final newline.",
        b"# nothing to see here",
    ),
    (
        "71-allow-all-no-newline.txt",
        "`User-agent: *` / `Disallow:` with no final newline.",
        join([b"User-agent: *", b"Disallow:"], final=False),
    ),
    (
        "72-splitlines-traps.txt",
        "Bytes str.splitlines() treats as line breaks: form feed (0C), FS (1C), U+0085, U+2028, VT (0B).",
        join(
            [
                b"# Section one\x0cSection two (form feed in a comment)",
                b"User-agent: *",
                b"Disallow: /a\x1cb/",
                b"# next line\xc2\x85same line (U+0085 in UTF-8)",
                b"# line\xe2\x80\xa8separator (U+2028 in UTF-8)",
                b"Disallow: /vertical\x0btab/",
            ],
        ),
    ),
    (
        "73-bom-crlf-no-final-newline.txt",
        "Byte-order mark, CRLF line endings and no final newline together.",
        BOM
        + join([*SIMPLE, b"", b"Sitemap: https://example.org/feeds/all.xml"], CRLF, final=False),
    ),
    (
        "74-bom-with-target.txt",
        "Byte-order mark, and the target line is the first line right after it.",
        BOM + join([TARGET, b"", *SIMPLE]),
    ),
    (
        "75-cr-only-with-target.txt",
        "Lone-CR line endings and the target as the last line (with its CR).",
        join([*SIMPLE, b"", TARGET], CR),
    ),
    (
        "76-crlf-trailing-blank-lines.txt",
        "CRLF file ending in several blank CRLF lines.",
        join(SIMPLE, CRLF) + CRLF * 3,
    ),
    (
        "77-ends-with-lone-cr.txt",
        "LF file whose very last byte is a lone CR (last line ends in CR, not LF).",
        join(SIMPLE[:-1]) + SIMPLE[-1] + CR,
    ),
    (
        "78-whole-file-indented.txt",
        "Every line indented by two spaces (copied out of a code block).",
        join([b"  " + line for line in [*SIMPLE, b"Sitemap: https://example.org/pages.xml"]]),
    ),
    (
        "79-comment-between-user-agents.txt",
        "Comment lines and a blank line between the User-agent lines of one group.",
        join(
            [
                b"User-agent: Googlebot",
                b"# also applies to Bing:",
                b"User-agent: Bingbot",
                b"",
                b"User-agent: DuckDuckBot",
                b"Disallow: /beta/",
            ],
        ),
    ),
    (
        "80-target-in-comment-and-other-sitemap.txt",
        "Target URL appears in a comment and as an inline comment of another Sitemap line.",
        join(
            [
                b"# Our canonical map is https://example.org/sitemap.xml (see below)",
                *SIMPLE,
                b"",
                b"Sitemap: https://example.org/news.xml # not https://example.org/sitemap.xml",
            ],
        ),
    ),
]


def readme() -> bytes:
    """README.md listing every file with its description, generated from CORPUS."""
    head = [
        b"# robots.txt test corpus",
        b"",
        b"Written byte for byte by `make_corpus.py` (run it to regenerate; `--check` to verify).",
        b"Do not edit the `.txt` files by hand. The line the tests add is",
        b"`" + TARGET + b"`; no file contains a NUL byte.",
        b"",
        b"Which files already hold the target URL, and how:",
        b"",
        b"- as a `Sitemap` directive with the URL spelled exactly: 27, 29-34, 41-43, 74, 75",
        b"  (29 trailing whitespace, 30 lower-case `sitemap:`, 41 no space after the colon,",
        b"  42 inline comment, 43 twice);",
        b"- the same URL spelled differently: 28 (`HTTPS://Example.org`), 40 (`:443`);",
        b"- look-alikes that are different URLs: 36 (http), 37 (www), 38 (`/Sitemap.xml`),",
        b"  39 (`.xml.gz`, `?v=2`);",
        b"- not as a standard directive: 25 (`Site-map:`; protego 0.x still reads it as a",
        b"  sitemap), 35 and 80 (comments only), 67 (bare path, not absolute).",
        b"",
        b"Note: in 74 the target is the first line, right after a BOM; a reader that does not",
        b"strip the BOM (protego given text decoded as plain `utf-8`) does not see it.",
        b"",
        b"| File | Description |",
        b"| --- | --- |",
    ]
    rows = [
        b"| `%s` | %s |" % (name.encode(), desc.replace("|", "\\|").encode())
        for name, desc, _ in CORPUS
    ]
    return join([*head, *rows])


def expected() -> dict[str, bytes]:
    files = {name: data for name, _, data in CORPUS}
    files["README.md"] = readme()
    return files


def main(argv: list[str]) -> int:
    names = [name for name, _, _ in CORPUS]
    assert len(names) == len(set(names)), "duplicate file name"
    assert all(b"\x00" not in data for _, _, data in CORPUS), "NUL byte in corpus"
    files = expected()
    stale = sorted(p.name for p in HERE.glob("[0-9][0-9]-*.txt") if p.name not in files)
    if "--check" in argv:
        bad = [
            n for n, d in files.items() if not (HERE / n).is_file() or (HERE / n).read_bytes() != d
        ]
        for name in [*bad, *stale]:
            sys.stderr.write(f"out of date: {name}\n")
        return 1 if bad or stale else 0
    for name in stale:
        (HERE / name).unlink()
    for name, data in files.items():
        (HERE / name).write_bytes(data)
    sys.stdout.write(f"wrote {len(CORPUS)} robots.txt files and README.md to {HERE}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""(Re)create the hand-made trap site ``site/`` next to this script.

The trap site is a *built* static site (plain HTML, as a generator would write it) full
of awkward cases for the sitemap scanner: odd file names, noindex and canonical tags,
redirect stubs, hreflang alternates, date meta tags, hidden folders, a robots.txt with
no final newline, a latin-1 page, a BOM/CRLF page and over-long URLs.

Why a script and not just committed files:
* some names (a newline, quotes, ``?``, ``:``) are awkward to review in a diff or in git tools;
* ``site/.git/`` can never be committed (git refuses any path component named ``.git``);
* the latin-1 and BOM/CRLF pages must keep their exact bytes.

Usage::

    python3 make_site.py              # rebuild ./site next to this script
    python3 make_site.py --out DIR    # build into DIR (must be missing or empty, or use --force)

The output is deterministic: same names, same bytes, and every file and folder gets the
same fixed mtime (2024-06-01T00:00:00Z) so mtime-based code gives stable results.
Standard library only; imports nothing from ``sitemap_plugins``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import sys
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "site"
FIXED_MTIME = 1717200000  # 2024-06-01T00:00:00Z
BASE = "https://example.org/"

# Long-URL chains (see README): the URL of each bottom index.html is measured *after*
# percent-encoding.  "https://example.org/long/2047/" is 30 characters; nine folders of
# 200 'a' plus one of 207 'a' (each followed by "/") bring the URL to exactly 2,047.
LONG_2047 = ["long", "2047", *(["a" * 200] * 9), "a" * 207]
LONG_2048 = ["long", "2048", *(["a" * 200] * 9), "a" * 208]
LONG_2049 = ["long", "2049", *(["a" * 200] * 9), "a" * 209]
# 4 folders of 100 x "é": 200 bytes on disk each (under the 255-byte limit), 600 characters
# each once encoded (%C3%A9).  Only 437 characters as an IRI, 2,437 as a URI.
LONG_ENCODED = ["long", "encoded", *(["\u00e9" * 100] * 4)]


def page(
    title: str,
    head: str = "",
    body: str = "",
    *,
    lang: str = "en",
    charset: str = "utf-8",
) -> str:
    """Minimal realistic built page: doctype, head with title and charset, body with <main>."""
    head_block = f"\n{head.strip()}" if head.strip() else ""
    body_text = body or f"This is the page \u201c{title}\u201d."
    return (
        "<!doctype html>\n"
        f'<html lang="{lang}">\n'
        "<head>\n"
        f'<meta charset="{charset}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>"
        f"{head_block}\n"
        "</head>\n"
        "<body>\n"
        "<main>\n"
        f"<p>{body_text}</p>\n"
        "</main>\n"
        "</body>\n"
        "</html>\n"
    )


def tiny_png() -> bytes:
    """A valid 1x1 transparent PNG, built byte by byte (deterministic)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)  # 1x1, 8-bit RGBA
    idat = zlib.compress(b"\x00\x00\x00\x00\x00", 9)  # filter byte + one transparent pixel
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def build_files() -> dict[str, bytes]:
    """Map of relative POSIX path (str, may hold any character but '/' and NUL) -> bytes."""
    f: dict[str, str | bytes] = {}

    # --- home, directory index pages, plain pages -------------------------------------
    f["index.html"] = page(
        "Example home",
        '<link rel="canonical" href="https://example.org/">',
        "Welcome to the example site. Its URL is the bare base URL.",
    )
    # Minified style: unquoted attributes, href before rel; absolute canonical to itself.
    f["about.html"] = page(
        "About",
        "<link href=https://example.org/about.html rel=canonical>",
        "About us. The canonical tag is written the way HTML minifiers write it.",
    )
    f["guide/index.html"] = page("Guide", "", "The guide index; listed as the folder URL guide/.")
    f["guide/install.html"] = page("Install", "", "How to install.")
    f["guide/install.html~"] = page(
        "Install (editor backup)", "", "An editor backup file: not an .html name, never listed."
    )
    # Relative canonical "./" on a directory index resolves to the directory URL itself.
    f["guide/advanced/index.html"] = page(
        "Advanced guide",
        '<link rel="canonical" href="./">',
        'Nested index page; its canonical is the relative "./".',
    )
    f["blog/2024/hello.htm"] = page(
        "Hello (an .htm page)",
        '<meta property="article:published_time" content="2024-03-01T09:00:00+01:00">\n'
        '<meta property="article:modified_time" content="2024-03-05T10:20:30+01:00">',
        "A blog post with the old .htm extension and both date meta tags.",
    )
    f["blog/2023/new-year.html"] = page(
        "New year",
        '<meta property="article:published_time" content="2023-01-02">',
        "A blog post with only a published date (date only, no time).",
    )

    # --- odd file names ------------------------------------------------------------------
    f["docs/my page.html"] = page(
        "My page (space)",
        '<link rel="canonical" href="https://example.org/docs/my%20page.html">',
        "A space in the file name; the canonical is already percent-encoded.",
    )
    f["r&d/index.html"] = page(
        "R&amp;D",
        '<link rel="canonical" href="https://example.org/r&amp;d/">',
        "An ampersand in a folder name; the canonical writes it as &amp;amp;.",
    )
    f["q&a.html"] = page(
        "Q&amp;A",
        '<link rel="canonical" href="https://example.org/q&amp;a.html">',
        "An ampersand in the file name.",
    )
    f["it's \"quoted\".html"] = page(
        "It&#39;s &quot;quoted&quot;",
        "",
        "Single and double quotes and spaces in the file name.",
    )
    f["caf\u00e9/cr\u00e8me.html"] = page(
        "Caf\u00e9 cr\u00e8me",
        '<link rel="canonical" href="https://example.org/caf\u00e9/cr\u00e8me.html">',
        "Non-ASCII folder and file name (NFC); the canonical is written as an IRI, not encoded.",
        lang="fr",
    )
    f["\u65e5\u672c\u8a9e.html"] = page(
        "\u65e5\u672c\u8a9e",
        '<link rel="canonical" href="https://example.org/%e6%97%a5%e6%9c%ac%e8%aa%9e.html">',
        "CJK file name; the canonical uses lower-case percent-encoding.",
        lang="ja",
    )
    f["100%.html"] = page("100%", "", "A literal percent sign in the file name.")
    f["discount-%25.html"] = page(
        "Discount %25",
        "",
        "A name that already looks percent-encoded: the % must still be encoded (%2525).",
    )
    f["c#-and-c++.html"] = page("C# and C++", "", "Hash and plus signs in the file name.")
    f["why?.html"] = page("Why?", "", "A question mark in the file name.")
    f["key=value;v2.html"] = page("key=value;v2", "", "Equals sign and semicolon in the file name.")
    f["ns:page.html"] = page(
        "ns:page",
        "",
        'A colon in the first path segment: a naive urljoin(base, "ns:page.html") '
        "reads ns: as a URL scheme.",
    )
    f["sub-delims-!$()*,@~.html"] = page(
        "Sub-delims", "", "Characters that stay literal in a path: ! $ ( ) * , @ ~."
    )
    f["launch-\U0001f680.html"] = page(
        "Launch \U0001f680", "", "A 4-byte UTF-8 character (emoji) in the file name."
    )
    f["line\nbreak.html"] = page(
        "Line break",
        "",
        "A newline in the file name: must be %0A, or sitemap.txt gains a broken line.",
    )

    # --- meta robots -----------------------------------------------------------------------
    f["meta-robots/noindex-follow.html"] = page(
        "Noindex, follow", '<meta name="robots" content="noindex, follow">', "Left out: noindex."
    )
    f["meta-robots/googlebot-none.html"] = page(
        "Googlebot none",
        '<meta name="googlebot" content="none">',
        'Left out: "none" means noindex, nofollow.',
    )
    f["meta-robots/index-follow.html"] = page(
        "Index, follow", '<meta name="robots" content="index, follow">', "Kept: explicit index."
    )
    f["meta-robots/shouting.html"] = page(
        "Shouting noindex",
        '<META NAME="ROBOTS" CONTENT="NOINDEX,NOFOLLOW">',
        "Left out: upper-case tag, attribute names and values, no space after the comma.",
    )
    f["meta-robots/commented-out.html"] = page(
        "Commented-out noindex",
        '<!-- <meta name="robots" content="noindex"> removed before launch -->',
        "Kept: the noindex tag is inside an HTML comment.",
    )

    # --- canonical -------------------------------------------------------------------------
    f["canonical/original.html"] = page(
        "Original", "", "The canonical target of duplicate.html; listed through its own page."
    )
    f["canonical/duplicate.html"] = page(
        "Duplicate",
        '<link rel="canonical" href="https://example.org/canonical/original.html">',
        "Left out: its canonical names another page of this site.",
    )
    f["canonical/duplicate-upper.html"] = page(
        "Duplicate (upper case)",
        '<LINK REL="Canonical" HREF="original.html">',
        "Left out: upper-case, relative canonical that names another page.",
    )
    f["canonical/relative-self.html"] = page(
        "Relative self canonical",
        '<link rel="canonical" href="./relative-self.html">',
        "Kept: relative canonical that resolves to this page.",
    )
    f["canonical/other-host.html"] = page(
        "Other host canonical",
        '<link rel="canonical" href="https://other.example.net/x/">',
        "Left out with a warning: canonical on another host.",
    )
    f["canonical/in-script.html"] = page(
        "Tags inside script and text",
        "<script>\n"
        "  // Only text to an HTML parser:\n"
        "  var tpl = '<link rel=\"canonical\" href=\"https://example.org/about.html\">';\n"
        "  var bot = '<meta name=\"robots\" content=\"noindex\">';\n"
        "</script>",
        'Kept. Shown as text: &lt;link rel="canonical" href="https://example.org/about.html"&gt;',
    )

    # --- redirect stubs ----------------------------------------------------------------------
    # Byte-for-byte the shape mkdocs-redirects writes (canonical + noindex + JS + refresh).
    f["old/index.html"] = (
        "<!doctype html>\n"
        '<html lang="en">\n'
        "<head>\n"
        '    <meta charset="utf-8">\n'
        "    <title>Redirecting...</title>\n"
        '    <link rel="canonical" href="../guide/">\n'
        '    <meta name="robots" content="noindex">\n'
        '    <script>var anchor=window.location.hash.substr(1);location.href="../guide/"'
        '+(anchor?"#"+anchor:"")</script>\n'
        '    <meta http-equiv="refresh" content="0; url=../guide/">\n'
        "</head>\n"
        "<body>\n"
        "Redirecting...\n"
        "</body>\n"
        "</html>\n"
    )
    # Only a meta refresh (no canonical, no noindex): tests the refresh rule on its own.
    f["moved.html"] = page(
        "Moved",
        "<meta http-equiv=\"Refresh\" content=\"0;URL='guide/install.html'\">",
        'Moved to <a href="guide/install.html">Install</a>.',
    )
    # A refresh with no URL is a self-reload, not a redirect: kept.
    f["live/status.html"] = page(
        "Live status",
        '<meta http-equiv="refresh" content="300">',
        "Reloads itself every five minutes; not a redirect.",
    )

    # --- error pages -------------------------------------------------------------------------
    f["404.html"] = page("404 - Not found", "", "The page you asked for does not exist.")
    f["guide/404.html"] = page("404 - Not found (guide)", "", "No such guide page.")

    # --- hreflang alternates -----------------------------------------------------------------
    f["en/page.html"] = page(
        "Page (English)",
        '<link rel="alternate" hreflang="en" href="https://example.org/en/page.html">\n'
        '<link rel="alternate" hreflang="fr" href="../fr/page.html">\n'
        '<link rel="alternate" hreflang="x-default" href="https://example.org/en/page.html">\n'
        '<link rel="alternate" hreflang="de" href="https://other.example.net/de/page.html">\n'
        '<link rel="alternate" type="application/rss+xml" title="Feed" href="/feed.xml">',
        "English version.",
        lang="en",
    )
    f["fr/page.html"] = page(
        "Page (fran\u00e7ais)",
        '<link rel="alternate" hreflang="en" href="../en/page.html">\n'
        '<link rel="alternate" hreflang="fr" href="page.html">\n'
        '<link rel="alternate" hreflang="x-default" href="/en/page.html">\n'
        '<link rel="alternate" hreflang="de" href="https://other.example.net/de/page.html">',
        "Version fran\u00e7aise.",
        lang="fr",
    )

    # --- assets (not pages) ------------------------------------------------------------------
    f["assets/style.css"] = "body { font-family: sans-serif; }\nmain { max-width: 40em; }\n"
    f["assets/app.js"] = 'document.documentElement.classList.add("js");\n'
    f["assets/manual.pdf"] = (
        "%PDF-1.4\n% Fake PDF for the trap site: text only, not a real document.\n%%EOF\n"
    )
    f["assets/logo.png"] = tiny_png()

    # --- hidden folders ------------------------------------------------------------------------
    f[".git/index.html"] = page("Hidden", "", "Inside a hidden .git folder: never listed.")
    f[".well-known/security.txt"] = (
        "Contact: mailto:security@example.org\nExpires: 2030-01-01T00:00:00Z\n"
    )

    # --- robots.txt-disallowed page ----------------------------------------------------------
    f["private/secret.html"] = page(
        "Secret", "", "No noindex here: only the site's robots.txt keeps it out."
    )
    # Hand-written robots.txt: LF line endings and NO final newline (trap for the merge).
    f["robots.txt"] = (
        "# robots.txt for example.org - hand-written, keep this file\n"
        "User-agent: *\n"
        "Disallow: /private/\n"
        "\n"
        "User-agent: BadBot\n"
        "Disallow: /"
    )

    # --- legacy / malformed / odd encodings ---------------------------------------------------
    f["legacy/index.htm"] = page(
        "Legacy index (.htm)", "", "index.htm maps to the folder URL legacy/."
    )
    f["legacy/malformed.html"] = (
        "<!DOCTYPE html>\n"
        "<HTML LANG=en>\n"
        "<HEAD>\n"
        "<META CHARSET=utf-8>\n"
        "<TITLE>Malformed legacy page</TITLE>\n"
        '<LINK REL="Canonical" HREF=malformed.html>\n'
        "<META NAME=robots CONTENT=index,follow>\n"
        "<LINK REL=stylesheet HREF=../assets/style.css\n"
        "<p class=oops>stray paragraph in head, never closed\n"
        "<BODY>\n"
        "<MAIN>\n"
        "<P>Unclosed paragraph with <B>unclosed bold\n"
        "<P>Another paragraph, no closing tags below\n"
    )
    f["legacy/latin1.html"] = page(
        "Caf\u00e9 cr\u00e8me - \u00e9t\u00e9",
        '<meta name="description" content="\u00abCr\u00e8me br\u00fbl\u00e9e\u00bb \u00a9 2024 '
        'M\u00fcller &amp; S\u00f6hne">\n'
        '<meta name="robots" content="index, follow">',
        "D\u00e9j\u00e0 vu: this file is ISO-8859-1 bytes, not UTF-8 (\u00e9 is the byte E9).",
        charset="iso-8859-1",
    ).encode("iso-8859-1")
    f["legacy/bom-crlf.html"] = b"\xef\xbb\xbf" + page(
        "BOM and CRLF",
        '<link rel="canonical" href="https://example.org/legacy/bom-crlf.html">',
        "Starts with a UTF-8 byte order mark and uses CRLF line ends. Gr\u00fc\u00dfe.",
    ).replace("\n", "\r\n").encode("utf-8")

    # --- over-long URLs ------------------------------------------------------------------------
    f["/".join([*LONG_2047, "index.html"])] = page(
        "URL of 2,047 characters", "", "Kept: the URL is 2,047 characters, just under the limit."
    )
    f["/".join([*LONG_2048, "index.html"])] = page(
        "URL of 2,048 characters", "", "Kept: the URL is 2,048 characters, the schema's maximum."
    )
    f["/".join([*LONG_2049, "index.html"])] = page(
        "URL of 2,049 characters", "", "Left out with a warning: at most 2,048 characters."
    )
    f["/".join([*LONG_ENCODED, "index.html"])] = page(
        "Long once encoded",
        "",
        "Left out with a warning: 437 characters as an IRI, 2,437 once percent-encoded.",
    )

    return {k: (v.encode("utf-8") if isinstance(v, str) else v) for k, v in f.items()}


def write_site(out: Path) -> int:
    files = build_files()
    for rel, data in sorted(files.items()):
        target = out.joinpath(*rel.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    # Fixed mtimes, files first, then folders deepest first (writing a file touches its folder).
    paths = sorted(out.rglob("*"), key=lambda p: (p.is_dir(), -len(p.parts), str(p)))
    for p in [*paths, out]:
        os.utime(p, (FIXED_MTIME, FIXED_MTIME))
    return len(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    parser.add_argument("--force", action="store_true", help="empty a non-empty --out folder")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    if out.exists():
        if any(out.iterdir()) and out != DEFAULT_OUT and not args.force:
            print(f"refusing to empty {out}: not the default site/ folder (use --force)",
                  file=sys.stderr)
            return 2
        shutil.rmtree(out)
    out.mkdir(parents=True)
    count = write_site(out)
    print(f"wrote {count} files to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

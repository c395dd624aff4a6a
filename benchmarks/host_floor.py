"""The least a correct sitemap plugin must spend inside a MkDocs or Pelican build.

Measured on the pages a host build wrote (``SITE_DIR``), each step alone, CPU time
(``time.process_time``), medians of ``--runs``:

* importing ``selectolax.lexbor`` (in a fresh process, after the host's own modules);
* Lexbor parsing each page as the host hands it over (a ``str``): the whole page, and only
  its ``<head>`` (the text up to ``</head>``, found with ``str.find``), with the head facts
  read from it (canonical, robots meta, ``<html lang>``);
* content facts that need no parse: a fingerprint (xxh3 of the page) and whether it holds
  an ``<img``, ``<video`` or ``<iframe`` at all (only then is there anything to parse);
* rendering the ``<url>`` entries, gzipping the sitemap (level 6) and writing both files,
  with and without ``fsync``;
* ``git``: one ``rev-parse`` outside a repository, and with ``--git-dir DIR`` the
  ``rev-parse`` and ``git log`` our ``git_dates`` runs there.

Reading the pages back from disk is not a floor cost: the host has them in memory (MkDocs'
``on_post_page``), so they are read once here, before any timing.

Usage::

    python benchmarks/host_floor.py /tmp/sitemap-bench/host-mkdocs-50/site-builtin
    python benchmarks/host_floor.py SITE_DIR --git-dir /tmp/sitemap-bench/host-mkdocs-50-git/docs
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_IMPORT = "import time; t = time.process_time(); import selectolax.lexbor; "
_BARE = "import time; t = time.process_time(); "
_PRINT = "print(time.process_time() - t)"
_HOSTS = {"mkdocs": "import mkdocs.__main__, mkdocs.commands.build, mkdocs.config.defaults; ",
          "pelican": "import pelican; "}


def _median_cpu(function: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _children_cpu(cmd: list[str], cwd: str, runs: int) -> float:
    """Median CPU of ``cmd`` (user + system of the process it starts)."""
    import resource  # noqa: PLC0415

    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.process_time()
        subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                     + time.process_time() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a folder a host build wrote")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--host", choices=sorted(_HOSTS), default="mkdocs",
                        help="whose modules are loaded before selectolax (default mkdocs)")
    parser.add_argument("--git-dir", help="a source folder inside a git repository")
    args = parser.parse_args()
    from selectolax.lexbor import LexborHTMLParser  # noqa: PLC0415

    pages = [p.read_text(encoding="utf-8") for p in sorted(args.site.rglob("*.html"))]
    count = len(pages)
    print(f"{count:,} pages in {args.site}, CPU medians of {args.runs}")
    rows: list[tuple[str, float, bool]] = []  # label, seconds, per page

    host = _HOSTS[args.host]
    imports = [float(subprocess.run([sys.executable, "-c", host + code + _PRINT],
                                    capture_output=True, text=True, check=True).stdout)
               for _ in range(args.runs) for code in (_IMPORT, _BARE)]
    rows.append((f"import selectolax.lexbor after {args.host}'s modules",
                 statistics.median(imports[0::2]) - statistics.median(imports[1::2]), False))

    def whole() -> None:
        for text in pages:
            LexborHTMLParser(text)

    def head_facts() -> None:
        for text in pages:
            end = text.find("</head>")
            tree = LexborHTMLParser(text[: end + 7] if end >= 0 else text)
            html = tree.css_first("html")
            lang = html.attributes.get("lang") if html is not None else None
            canonical = robots = None
            head = tree.head
            for node in head.iter() if head is not None else ():
                if node.tag == "link" and node.attributes.get("rel") == "canonical":
                    canonical = node.attributes.get("href")
                elif node.tag == "meta" and node.attributes.get("name") == "robots":
                    robots = node.attributes.get("content")
            del lang, canonical, robots

    import xxhash  # noqa: PLC0415

    def content_checks() -> None:
        for text in pages:
            xxhash.xxh3_64_intdigest(text.encode("utf-8", "surrogatepass"))
            for marker in ("<img", "<video", "<iframe"):
                marker in text  # noqa: B015

    rows.append(("Lexbor: parse the whole page (str)", _median_cpu(whole, args.runs), True))
    label = "content facts without a parse: xxh3 of the page, <img, <video, <iframe in it?"
    rows.append((label, _median_cpu(content_checks, args.runs), True))
    rows.append(("Lexbor: parse the <head> only, read its facts", _median_cpu(head_facts,
                                                                               args.runs), True))
    urls = [f"https://example.org/page-{i}/" for i in range(count)]

    def render() -> bytes:
        body = "".join(f"<url><loc>{u}</loc><lastmod>2024-01-02</lastmod></url>\n"
                       for u in urls)
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org'
                f'/schemas/sitemap/0.9">\n{body}</urlset>\n').encode()

    xml = render()
    rows.append(("render the <url> entries", _median_cpu(render, args.runs), True))
    rows.append(("gzip the sitemap (level 6)",
                 _median_cpu(lambda: gzip.compress(xml, 6, mtime=0), args.runs), False))
    packed = gzip.compress(xml, 6, mtime=0)
    with tempfile.TemporaryDirectory(dir=args.site.parent) as folder:

        def write(sync: bool) -> None:
            for name, data in (("sitemap.xml", xml), ("sitemap.xml.gz", packed)):
                with open(os.path.join(folder, name), "wb") as handle:
                    handle.write(data)
                    if sync:
                        handle.flush()
                        os.fsync(handle.fileno())

        rows.append(("write sitemap.xml and .gz", _median_cpu(lambda: write(False), args.runs),
                     False))
        rows.append(("the same, each fsync'd", _median_cpu(lambda: write(True), args.runs),
                     False))
        start = time.perf_counter()
        write(True)
        fsync_wall = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as outside:
        rows.append(("git rev-parse outside a repository (one spawn)", _children_cpu(
            ["git", "rev-parse", "--is-shallow-repository"], outside, args.runs), False))
    if args.git_dir:
        log = ["git", "log", "--first-parent", "--diff-merges=first-parent",
               "--no-show-signature", "--format=%x01%cI", "--name-only", "-z", "--relative",
               "--", "."]
        both = (_children_cpu(["git", "rev-parse", "--is-shallow-repository"], args.git_dir,
                              args.runs) + _children_cpu(log, args.git_dir, args.runs))
        rows.append((f"git rev-parse + git log in {args.git_dir}", both, False))
    for label, seconds, per_page in rows:
        extra = f"  {seconds / count * 1e6:7.1f} µs/page" if per_page else ""
        print(f"  {label:58} {seconds * 1e3:8.2f} ms{extra}")
    print(f"  (writing both files with fsync took {fsync_wall * 1e3:.1f} ms of wall time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Measure ``sitemap-plugins merge`` over many children: time (CPU user+sys, wall), peak RSS.

Makes ROOT with N children (sections built "in parallel": each a folder with its own
``sitemap.xml`` of ours and the ``robots-sitemap.txt`` fragment that marks it), with the URLs
spread evenly, then runs the merge in a fresh process, twice: the first writes the root index,
the second finds nothing changed and writes nothing. Merge reads only the children's sitemap
files (no page exists here at all), streamed, so peak memory should not grow with the URLs:
the default run measures 10 and then 40 children of 50,000 URLs each.

    python benchmarks/merge.py                      # 10 x 50,000 and 40 x 50,000 URLs
    python benchmarks/merge.py --children 40 --urls 2000000 --keep /tmp/merge-root
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sitemap_plugins.entry.robots_txt import render_fragment

BASE = "https://example.org/"
HEADER = ('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')


def make_root(root: Path, children: int, urls: int) -> None:
    """ROOT with ``children`` sections holding ``urls`` URLs in all, as builds leave them."""
    per_child = urls // children
    for number in range(children):
        name = f"section-{number:02d}"
        folder = root / name
        folder.mkdir(parents=True)
        lines = [HEADER]
        for page in range(per_child):
            day = 1 + (page * 7 + number) % 28
            lines.append(
                f"  <url>\n    <loc>{BASE}{name}/topic-{page // 100:03d}/page-{page:05d}/</loc>\n"
                f"    <lastmod>2024-05-{day:02d}T10:{page % 60:02d}:00Z</lastmod>\n  </url>\n")
        lines.append("</urlset>\n")
        (folder / "sitemap.xml").write_text("".join(lines), "utf-8")
        (folder / "robots-sitemap.txt").write_bytes(
            render_fragment(f"{BASE}{name}/sitemap.xml", BASE))
    (root / "robots.txt").write_text("User-agent: *\nDisallow:\n", "utf-8")


def run_merge(root: Path) -> tuple[float, float, int, str]:
    """(wall seconds, CPU user+sys seconds, peak RSS in KiB, the summary) of one merge."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c",
         ("import resource, sys\n"
         "from sitemap_plugins.cli import main\n"
         f"code = main(['merge', {str(root)!r}, '--base-url', {BASE!r}])\n"
         "print('peak', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
         "sys.exit(code)\n")],
        capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    peak = int(lines[-1].split()[1])
    return wall, cpu, peak, "\n".join(lines[:-1])


def measure(children: int, urls: int, keep: Path | None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="merge-bench-")) if keep is None else keep
    root = folder / "root"
    if root.exists():
        shutil.rmtree(root)
    start = time.perf_counter()
    make_root(root, children, urls)
    size = sum(p.stat().st_size for p in root.rglob("sitemap.xml"))
    print(f"{children} children, {urls:,} URLs, {size / 1e6:,.0f} MB of child sitemaps "
          f"(made in {time.perf_counter() - start:.1f} s)")
    for label in ("first merge", "second merge (nothing changed)"):
        wall, cpu, peak, summary = run_merge(root)
        print(f"  {label}: wall {wall:.2f} s, CPU user+sys {cpu:.2f} s, "
              f"peak RSS {peak / 1024:.1f} MiB")
        for line in summary.splitlines():
            print(f"    {line}")
    if keep is None:
        shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--children", type=int, default=0)
    parser.add_argument("--urls", type=int, default=0)
    parser.add_argument("--keep", type=Path, default=None,
                        help="make ROOT in this folder and leave it there")
    args = parser.parse_args()
    if args.children:
        measure(args.children, args.urls or args.children * 50_000, args.keep)
        return
    measure(10, 500_000, args.keep)
    measure(40, 2_000_000, args.keep)


if __name__ == "__main__":
    main()

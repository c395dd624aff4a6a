"""What-if timings: the build with parts of the core swapped out, in benchmark-only processes.

Each variant runs ``sitemap-plugins build`` in a fresh process after patching the core in
that process only (worker processes are forked, so they inherit the patch). The sitemap
bytes of every variant are compared with the unpatched build's: a variant that changes the
output is reported as such.

Variants (combine with ``+``). Earlier ones (``fast``, ``headonly``, ``fasturl``, ``fp``)
measured changes that have since landed in the core; see the figures in README.md.

* ``baseline``  nothing patched
* ``read8k``    ``head.READ_CHUNK`` = 8 KiB (the first read of a head; 16 KiB today)
* ``render``    ``<url>`` elements rendered by an f-string instead of a Jinja macro call
* ``window``    ``generate.evaluate_site`` keeps at most 4 batches of 256 pages per worker in
                flight (``map_async`` per batch, results taken in order) instead of
                ``Pool.imap`` over the whole scan, which buffers without bound

Usage::

    python benchmarks/experiment.py SITE_DIR --variants baseline,read8k,render --workers 1
    python benchmarks/experiment.py SITE_DIR --profile baseline --workers 1   # cProfile, top 25
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import hashlib
import itertools
import json
import multiprocessing
import pstats
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

BASE_URL = "https://example.org/"


def _patch(variant: str) -> None:
    from sitemap_plugins import head  # noqa: PLC0415

    parts = set(variant.split("+")) - {"baseline"}
    unknown = parts - {"read8k", "render", "window"}
    if unknown:
        raise SystemExit(f"unknown variant parts: {sorted(unknown)}")
    if "read8k" in parts:
        head.READ_CHUNK = 8192
    if "render" in parts:
        from sitemap_plugins import writers  # noqa: PLC0415

        writers.render_url = _render_url
    if "window" in parts:
        from sitemap_plugins import generate  # noqa: PLC0415

        generate.evaluate_site = _evaluate_site_windowed


def _evaluate_site_windowed(files, rules, hints, known=None):
    """``generate.evaluate_site`` with a bounded number of batches in flight."""
    from sitemap_plugins import generate as g  # noqa: PLC0415

    if known is not None:  # read ahead by a host adapter: no pool either way
        yield from g.evaluate_site(files, rules, hints, known)
        return
    iterator = iter(files)
    head = list(itertools.islice(iterator, g.PARALLEL_THRESHOLD))
    workers = g._worker_count(rules.config)  # noqa: SLF001
    if workers == 1 or len(head) < g.PARALLEL_THRESHOLD:
        for built in itertools.chain(head, iterator):
            yield g.evaluate_page(built, rules, hints.get(built.rel_path))
        return
    context = multiprocessing.get_context("fork")
    source = itertools.chain(head, iterator)
    with context.Pool(workers, initializer=g._init_worker, initargs=(rules, hints)) as pool:  # noqa: SLF001
        pending: collections.deque = collections.deque()
        while True:
            batch = list(itertools.islice(source, g._CHUNK))  # noqa: SLF001
            if batch:  # one task per batch: a worker returns its outcomes as one list
                pending.append(pool.map_async(g._evaluate_in_worker, batch, len(batch)))  # noqa: SLF001
            if not pending:
                return
            if not batch or len(pending) >= workers * 4:
                yield from pending.popleft().get()


_XML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;",
                              "'": "&#39;"})


def _render_url(entry) -> str:  # the same bytes as the urlset.xml macro
    parts = ["  <url>\n    <loc>", entry.loc.translate(_XML_ESCAPES), "</loc>\n"]
    if entry.lastmod is not None:
        parts += ["    <lastmod>", entry.lastmod_w3c.translate(_XML_ESCAPES), "</lastmod>\n"]
    if entry.changefreq:
        parts += ["    <changefreq>", entry.changefreq.translate(_XML_ESCAPES),
                  "</changefreq>\n"]
    if entry.priority is not None:
        parts += ["    <priority>", entry.priority_text, "</priority>\n"]
    for alternate in entry.alternates:
        parts += ['    <xhtml:link rel="alternate" hreflang="',
                  alternate.hreflang.translate(_XML_ESCAPES), '" href="',
                  alternate.href.translate(_XML_ESCAPES), '"/>\n']
    parts.append("  </url>\n")
    return "".join(parts)


def _child(variant: str, site: str, workers: int, profile: str | None) -> int:
    _patch(variant)
    from sitemap_plugins.cli import main  # noqa: PLC0415

    argv = ["-q", "build", site, "--base-url", BASE_URL, "--workers", str(workers)]
    if profile:
        profiler = cProfile.Profile()
        code = profiler.runcall(main, argv)
        profiler.dump_stats(profile)
        return code
    return main(argv)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site")
    parser.add_argument("--variants", default="baseline,read8k,render")
    parser.add_argument("--workers", default="1", help="comma-separated worker counts")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", metavar="VARIANT", help="cProfile one variant instead")
    parser.add_argument("--child", metavar="VARIANT", help=argparse.SUPPRESS)
    parser.add_argument("--profile-out", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args.child, args.site, int(args.workers), args.profile_out)

    import run  # noqa: PLC0415

    site = Path(args.site)
    env = run._env()  # noqa: SLF001
    me = [sys.executable, str(Path(__file__).resolve())]
    if args.profile:
        out = Path("/tmp") / f"profile-{args.profile}.prof"
        run.warm_cache(site)
        run.run_timed([*me, str(site), "--child", args.profile, "--workers", args.workers,
                       "--profile-out", str(out)], env=env)
        stats = pstats.Stats(str(out))
        print(f"== cProfile, variant {args.profile}, --workers {args.workers} "
              f"(profile in {out}) ==")
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(30)
        return 0
    pages = sum(1 for _ in site.rglob("*.html"))
    results: dict[str, dict[str, object]] = {}
    reference: dict[str, str] | None = None
    print(f"{'variant':28} {'workers':>7} {'wall s':>7} {'cpu s':>7} {'µs/page':>8} "
          f"{'vs base':>7} {'RSS MB':>7} output")
    for workers in args.workers.split(","):
        base_wall = None
        for variant in args.variants.split(","):
            walls, cpus, rss, digests = [], [], [], []
            for _ in range(args.runs):
                run.warm_cache(site)
                measure = run.run_timed([*me, str(site), "--child", variant, "--workers",
                                         workers], env=env)
                walls.append(measure.wall)
                cpus.append(measure.cpu)
                rss.append(measure.maxrss_mb)
                digests.append(run.output_digest(site))
            wall = statistics.median(walls)
            base_wall = base_wall or wall
            reference = reference or digests[0]
            same = all(d == reference for d in digests)
            print(f"{variant:28} {workers:>7} {wall:7.2f} {statistics.median(cpus):7.2f} "
                  f"{wall / pages * 1e6:8.1f} {wall / base_wall:7.2f} {max(rss):7.1f} "
                  f"{'identical' if same else 'DIFFERENT'}", flush=True)
            results[f"{variant} w{workers}"] = {
                "walls_s": [round(w, 3) for w in walls], "median_wall_s": round(wall, 3),
                "median_cpu_s": round(statistics.median(cpus), 3), "max_rss_mb": max(rss),
                "identical_output": same,
                "digest": hashlib.sha256(json.dumps(digests[0]).encode()).hexdigest()[:12]}
    if args.json:
        args.json.write_text(json.dumps({"site": str(site), "pages": pages, **results},
                                        indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

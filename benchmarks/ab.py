"""Before and after on the same machine, in the same minutes: builds of two trees, interleaved.

A shared machine's speed drifts by tens of percent from hour to hour, so figures taken on
different days do not compare. This runs a first build (no cache) and a rebuild after every
page was touched, for each tree in turn, for several rounds, and prints the medians: wall
time and CPU of every process (worker pools included, as ``run.py`` counts them).

Usage::

    git worktree add /tmp/before <commit>
    python benchmarks/ab.py --before /tmp/before --after . --site /tmp/sitemap-bench/site-100000
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from run import BASE_URL, run_timed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the old code")
    parser.add_argument("--after", type=Path, required=True, help="a checkout of the new code")
    parser.add_argument("--site", type=Path, required=True, help="a site from make_site.py")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    figures: dict[str, list[tuple[float, float, float, float]]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory(prefix="sitemap-ab-") as scratch:
        cache = Path(scratch) / "cache"
        for number in range(1, args.rounds + 1):
            for name in ("before", "after"):
                tree = getattr(args, name).resolve()
                env = {**os.environ, "PYTHONPATH": str(tree), "SOURCE_DATE_EPOCH": "1700000000"}
                command = [sys.executable, "-m", "sitemap_plugins", "build", str(args.site),
                           "--base-url", BASE_URL, "--workers", str(args.workers),
                           "--cache-dir", str(cache), "-q"]
                shutil.rmtree(cache, ignore_errors=True)
                first = run_timed(command, env=env)
                subprocess.run(["find", str(args.site), "-name", "*.html", "-exec", "touch",
                                "{}", "+"], check=True)  # rewritten, as hosts do
                rebuild = run_timed(command, env=env)
                figures[name].append((first.wall, first.cpu, rebuild.wall, rebuild.cpu))
                print(f"round {number} {name:6}  first {first.wall:6.2f} s / {first.cpu:6.2f} s"
                      f"  rebuild {rebuild.wall:6.2f} s / {rebuild.cpu:6.2f} s", flush=True)
    print(f"medians of {args.rounds}, wall / cpu, --workers {args.workers}:")
    for name, rows in figures.items():
        first_wall, first_cpu, rebuild_wall, rebuild_cpu = (
            statistics.median(row[i] for row in rows) for i in range(4))
        print(f"  {name:6}  first {first_wall:6.2f} s / {first_cpu:6.2f} s"
              f"  rebuild {rebuild_wall:6.2f} s / {rebuild_cpu:6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where our plugin's time goes inside a real MkDocs or Pelican build.

Two reports, both limited to our package's share of the build:

* ``--imports``: ``python -X importtime`` of ``sitemap_plugins.mkdocs`` (or ``.pelican``)
  after the host's own modules, medians of ``--runs`` fresh processes: the whole import, then
  every module it loads, ours and third-party, by self time.
* a build under cProfile: every call from the host into our package (hooks, signal handlers,
  the import of our modules), and inside it our functions by cumulative time and the other
  code they call (Lexbor, file reads, sqlite, gzip, ``git``), by the time spent on our behalf.
* ``--timers``: the same build without cProfile, CPU time (``time.process_time``) around
  the import, every hook and the steps listed in ``STEPS`` only: real CPU figures (about
  2 µs of timer a call), where cProfile's are inflated several times over by counting every
  call (and, with its wall-clock timer, by other processes on a busy machine).

cProfile slows Python code down (every call is counted) and not the C code it calls, so
read its shares, not its absolute figures; ``run.py --hosts`` measures the real cost.

Usage (from the host project's folder)::

    python benchmarks/host_profile.py --imports mkdocs
    python benchmarks/host_profile.py --pages 2000 mkdocs build -q -f mkdocs-ours.yml
    python benchmarks/host_profile.py --timers --pages 2000 mkdocs build -q -f mkdocs-ours.yml
    python benchmarks/host_profile.py --pages 3017 pelican content -s pelicanconf-ours.py -o out -q
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import importlib
import json
import os
import pstats
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from typing import Any

OURS = f"{os.sep}sitemap_plugins{os.sep}"
_HOST_IMPORTS = {
    # What every build loads before any plugin (see host_timer.py).
    "mkdocs": ("mkdocs.__main__", "mkdocs.commands.build", "mkdocs.config.defaults",
               "mkdocs.plugins", "mkdocs.utils.meta"),
    "pelican": ("pelican",),
}
_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def imports(host: str, runs: int) -> None:
    """Print the import time of our host module, after the host's own, over ``runs`` processes.

    The total is CPU time (``time.process_time``), which a busy machine inflates less than
    the wall-clock figures of ``-X importtime``; for those the minimum over the runs is shown
    beside the median (being preempted only ever adds).
    """
    code = ("import json, time\n" + "".join(f"import {m}\n" for m in _HOST_IMPORTS[host])
            + "cpu, wall = time.process_time(), time.perf_counter()\n"
            + f"import sitemap_plugins.{host}\n"
            + "print(json.dumps([time.process_time() - cpu, time.perf_counter() - wall]))")
    selfs: dict[str, list[int]] = defaultdict(list)
    cumulative: dict[str, list[int]] = defaultdict(list)
    cpus: list[float] = []
    walls: list[float] = []
    for _ in range(runs):
        env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, check=True)
        cpu, wall = json.loads(done.stdout.strip().splitlines()[-1])
        cpus.append(cpu)
        walls.append(wall)
        lines = [m for m in map(_LINE.match, done.stderr.splitlines()) if m]
        # Everything printed after the host's last top-level import belongs to ours.
        start = max(i for i, m in enumerate(lines)
                    if len(m.group(3)) == 1 and not m.group(4).startswith("sitemap_plugins"))
        for match in lines[start + 1:]:
            selfs[match.group(4)].append(int(match.group(1)))
            cumulative[match.group(4)].append(int(match.group(2)))
    print(f"import of sitemap_plugins.{host} after the host's modules, {runs} processes: "
          f"CPU median {statistics.median(cpus) * 1e3:.1f} ms, min {min(cpus) * 1e3:.1f} ms; "
          f"wall median {statistics.median(walls) * 1e3:.1f} ms ({len(selfs)} modules loaded)")
    for label, pick in (("median", statistics.median), ("min", min)):
        mine = sum(pick(v) for k, v in selfs.items() if k.startswith("sitemap_plugins"))
        rest = sum(pick(v) for k, v in selfs.items() if not k.startswith("sitemap_plugins"))
        print(f"  -X importtime self times, {label}s: our modules {mine / 1e3:.1f} ms, "
              f"the modules they load {rest / 1e3:.1f} ms")
    print(f"  {'module':40} {'self ms: min':>12} {'median':>7} {'cumul ms: min':>14} {'median':>7}")
    ranked = sorted(selfs, key=lambda k: -min(cumulative[k]))
    for name in ranked[:45]:
        print(f"  {name:40} {min(selfs[name]) / 1e3:12.2f} "
              f"{statistics.median(selfs[name]) / 1e3:7.2f} {min(cumulative[name]) / 1e3:14.2f} "
              f"{statistics.median(cumulative[name]) / 1e3:7.2f}")


def _label(func: tuple[str, int, str]) -> str:
    filename, line, name = func
    if OURS in filename:
        return f"{filename.split(OURS, 1)[1]}:{line}({name})"
    if filename == "~":
        return name
    return f"{os.path.basename(filename)}:{line}({name})"


def profile(argv: list[str], pages: int, top: int) -> None:
    """Run the build under cProfile and print our share of it."""
    host = argv[0]
    for module in _HOST_IMPORTS[host]:  # the host's own modules are not ours to count
        importlib.import_module(module)
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        if host == "mkdocs":
            from mkdocs.__main__ import cli  # noqa: PLC0415

            cli(argv[1:], standalone_mode=False)
        else:
            from pelican import main as pelican_main  # noqa: PLC0415

            pelican_main(argv[1:])
    except SystemExit:
        pass
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total_build = sum(entry[2] for entry in stats.values())

    def ours(func: tuple[str, int, str]) -> bool:
        return OURS in func[0]

    # The calls into our package from anything else: its whole share of the build.
    entries: dict[str, float] = defaultdict(float)
    for func, (_, _, _, _, callers) in stats.items():
        if ours(func):
            for caller, (_, _, _, ct) in callers.items():
                if not ours(caller):
                    entries[_label(func)] += ct
    share = sum(entries.values())
    print(f"build under cProfile: {total_build:.3f} s; ours {share:.3f} s "
          f"({share / total_build:.1%}), {share / pages * 1e6:.0f} µs a page ({pages:,} pages)")
    print("  entry points (called by the host or by the import machinery), cumulative:")
    for name, seconds in sorted(entries.items(), key=lambda kv: -kv[1])[:12]:
        print(f"    {seconds * 1e3:9.1f} ms {seconds / pages * 1e6:8.1f} µs/page  {name}")
    print(f"  our functions by cumulative time (top {top}):")
    mine = sorted((f for f in stats if ours(f)), key=lambda f: -stats[f][3])
    for func in mine[:top]:
        _, calls, tottime, cumtime, _ = stats[func]
        print(f"    {cumtime * 1e3:9.1f} ms {cumtime / pages * 1e6:8.1f} µs/page "
              f"self {tottime * 1e3:7.1f} ms {calls:>7} calls  {_label(func)}")
    # Other code run on our behalf: each function's time when its caller is ours.
    foreign: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for func, (_, _, _, _, callers) in stats.items():
        if ours(func):
            continue
        for caller, (_, nc, _, ct) in callers.items():
            if ours(caller):
                foreign[_label(func)][0] += ct
                foreign[_label(func)][1] += nc
    print(f"  other code called straight from ours, by cumulative time (top {top}):")
    for name, (seconds, calls) in sorted(foreign.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"    {seconds * 1e3:9.1f} ms {seconds / pages * 1e6:8.1f} µs/page "
              f"{int(calls):>7} calls  {name}")


# Steps timed by --timers: "module:qualified.name" in sitemap_plugins, nested as they run.
STEPS = (
    "products.build.pipeline:generate", "disk.site:scan_site", "products.build.pipeline:PageStep.run", "disk.site:read_bytes",
    "page.reader:read_record", "page.reader:parse_html", "page.reader:read_parts", "page.codec:encode_record",
    "entry.rules:place", "entry.rules:evaluate", "disk.history:History.settle", "entry.render:render_url",
    "products.build.pipeline:write_entries", "entry.render:_PartWriter.add", "entry.render:_PartWriter.finish",
    "entry.render:template_module", "entry.render:gzip_stream", "disk.site:write_bytes_atomic",
    "disk.history:Manifest.__init__", "disk.history:Manifest.save", "disk.site:make_cache_folder",
    "disk.owned:Ownership.load", "disk.owned:Ownership._save", "disk.owned:install", "disk.robots:update_robots",
    "disk.owned:remove_stale", "hosts.git_dates:read_git_dates",
)


def _wrap_steps(totals: dict[str, list[float]]) -> None:
    """Time every function of ``STEPS`` (CPU), wherever our modules hold a reference to it."""
    import time  # noqa: PLC0415

    def timed(name: str, function: Any) -> Any:
        @functools.wraps(function)
        def wrapper(*args: object, **kwargs: object) -> object:
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                entry = totals[name]
                entry[0] += time.process_time() - start
                entry[1] += 1

        return wrapper

    modules = [m for n, m in list(sys.modules.items())
               if n.startswith("sitemap_plugins") and m is not None]
    for step in STEPS:
        module_name, _, qualname = step.partition(":")
        module = importlib.import_module(f"sitemap_plugins.{module_name}")
        owner: Any = module
        *parents, name = qualname.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        original = getattr(owner, name)
        wrapper = timed(step, original)
        setattr(owner, name, wrapper)
        if not parents:  # "from module import name" elsewhere: replace those references too
            for other in modules:
                for key, value in list(vars(other).items()):
                    if value is original:
                        setattr(other, key, wrapper)
    original_fsync = os.fsync

    def fsync(fd: int) -> None:
        start = time.process_time()
        try:
            original_fsync(fd)
        finally:
            totals["os.fsync"][0] += time.process_time() - start
            totals["os.fsync"][1] += 1

    os.fsync = fsync


def timers(argv: list[str], pages: int) -> None:
    """Run the build with CPU timers around our import, hooks and ``STEPS``; print them."""
    import resource  # noqa: PLC0415
    import time  # noqa: PLC0415

    import host_timer  # noqa: PLC0415

    host = argv[0]
    for module in _HOST_IMPORTS[host]:
        importlib.import_module(module)
    start = time.process_time()
    importlib.import_module(f"sitemap_plugins.{host}")
    import_s = time.process_time() - start
    (host_timer._patch_mkdocs if host == "mkdocs" else host_timer._patch_pelican)()  # noqa: SLF001
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    _wrap_steps(totals)

    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    build_start, children_start = time.process_time(), children()
    try:
        if host == "mkdocs":
            from mkdocs.__main__ import cli  # noqa: PLC0415

            cli(argv[1:], standalone_mode=False)
        else:
            from pelican import main as pelican_main  # noqa: PLC0415

            pelican_main(argv[1:])
    except SystemExit:
        pass
    spawned = children() - children_start
    build = time.process_time() - build_start + spawned
    hooks = host_timer._TOTALS  # noqa: SLF001
    ours = import_s + sum(hooks.values()) + spawned
    print(f"build {build:.3f} s CPU (our import excluded); ours {ours * 1e3:.1f} ms: import "
          f"{import_s * 1e3:.1f} ms, hooks {sum(hooks.values()) * 1e3:.1f} ms, processes "
          f"waited for (git) {spawned * 1e3:.1f} ms; {pages:,} pages")
    for name, seconds in sorted(hooks.items(), key=lambda kv: -kv[1]):
        print(f"  hook {name:34} {seconds * 1e3:9.1f} ms {seconds / pages * 1e6:8.1f} µs/page")
    print(f"  {'step (CPU, cumulative: nested steps are inside)':48} {'ms':>9} {'µs/page':>8} "
          f"{'calls':>7}")
    for name, (seconds, calls) in sorted(totals.items(), key=lambda kv: -kv[1][0]):
        print(f"  {name:48} {seconds * 1e3:9.1f} {seconds / pages * 1e6:8.1f} {calls:7}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--imports", choices=sorted(_HOST_IMPORTS),
                        help="report the import time of our module for this host instead")
    parser.add_argument("--runs", type=int, default=15, help="import runs (default 15)")
    parser.add_argument("--pages", type=int, default=1, help="pages written, for µs a page")
    parser.add_argument("--top", type=int, default=25, help="rows per list (default 25)")
    parser.add_argument("--timers", action="store_true",
                        help="CPU timers around our import, hooks and STEPS, no cProfile")
    parser.add_argument("build", nargs=argparse.REMAINDER, help="mkdocs ... or pelican ...")
    args = parser.parse_args()
    if args.imports:
        imports(args.imports, args.runs)
        return 0
    if not args.build or args.build[0] not in _HOST_IMPORTS:
        parser.error("give --imports HOST or a build: mkdocs ... / pelican ...")
    if args.timers:
        timers(args.build, args.pages)
    else:
        profile(args.build, args.pages, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())

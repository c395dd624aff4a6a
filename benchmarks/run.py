"""Benchmark runner: ``sitemap-plugins build`` against the I/O floor, hosts and peers.

One command prints every figure (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/run.py                 # N = 10,000 and 100,000
    .venv/bin/python benchmarks/run.py --million       # ... and 1,000,000
    .venv/bin/python benchmarks/run.py --hosts         # ... and MkDocs / Pelican builds

Every timed command runs in a fresh child process; its wall time is measured here and its
peak memory comes from ``os.wait4`` (the largest single process of its tree, exact) and from
sampling ``/proc`` (the sum over the parent and its worker processes, PSS, sampled every
50 ms). Generated sites are cached in ``--workdir`` and reused.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import make_site  # noqa: E402

BASE_URL = make_site.BASE_URL
SEED = 1
MILLION = 1_000_000
# The sitemap files our build writes into the site root, compared across worker counts.
_OUTPUT_FILE = re.compile(r"sitemap.*\.(xml|txt)(\.gz)?\Z|robots\.txt\Z")


# --------------------------------------------------------------------------- measuring


@dataclass
class Measure:
    """One timed child process."""

    wall: float
    maxrss_mb: float
    """Peak RSS of the largest single process in the child's tree (``wait4``)."""
    tree_pss_mb: float
    """Peak of the summed PSS of the child and its descendants (sampled)."""
    returncode: int
    stdout: str = ""
    stderr: str = ""
    cpu: float = 0.0
    """User + system CPU seconds of the whole process tree."""
    disk_read_mb: float = 0.0
    """Bytes read from the block device (0 when the page cache was warm)."""


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    kids = [int(k) for k in handle.read().split()]
            except OSError:
                continue
            found.extend(kids)
            todo.extend(kids)
    return found


def _memory_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class _TreeSampler(threading.Thread):
    def __init__(self, pid: int, interval: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval, self.peak_kb = pid, interval, 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            pids = [self.pid, *_descendants(self.pid)]
            self.peak_kb = max(self.peak_kb, sum(_memory_kb(p) for p in pids))
            self.stop.wait(self.interval)


_GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_timed(cmd: list[str], *, env: dict[str, str] | None = None,
              cwd: str | Path | None = None, check: bool = True) -> Measure:
    """Run ``cmd`` in a fresh process; wall time, peak memory, output.

    Peak RSS comes from ``/usr/bin/time -f %M`` when it exists: a child forked straight from
    this runner would report the runner's own RSS as its peak when that is larger.
    """
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-{os.getpid()}"
    out_file, err_file, rss_file = (scratch.with_suffix(s) for s in (".out", ".err", ".rss"))
    full = [_GNU_TIME, "-f", "%M", "-o", str(rss_file), *cmd] if _GNU_TIME else cmd
    with out_file.open("w+b") as out, err_file.open("w+b") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(full, stdout=out, stderr=err, env=env, cwd=cwd)
        sampler = _TreeSampler(proc.pid)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        sampler.stop.set()
        sampler.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    maxrss_kb = usage.ru_maxrss
    if _GNU_TIME:
        lines = rss_file.read_text().split() if rss_file.exists() else []
        maxrss_kb = int(lines[-1]) if lines and lines[-1].isdigit() else maxrss_kb
        rss_file.unlink(missing_ok=True)
    out_file.unlink()
    err_file.unlink()
    measure = Measure(wall, maxrss_kb / 1024, sampler.peak_kb / 1024, proc.returncode,
                      stdout, stderr, cpu=usage.ru_utime + usage.ru_stime,
                      disk_read_mb=usage.ru_inblock * 512 / 1e6)
    if check and proc.returncode != 0:
        msg = f"command failed ({proc.returncode}): {' '.join(cmd)}\n{stderr[-2000:]}"
        raise RuntimeError(msg)
    return measure


@dataclass
class Series:
    """Several runs of one command; figures are medians."""

    label: str
    runs: list[Measure] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(m.wall for m in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(m.cpu for m in self.runs)

    @property
    def disk_read_mb(self) -> float:
        return max(m.disk_read_mb for m in self.runs)

    @property
    def maxrss_mb(self) -> float:
        return max(m.maxrss_mb for m in self.runs)

    @property
    def tree_pss_mb(self) -> float:
        return max(m.tree_pss_mb for m in self.runs)

    def summary(self) -> dict[str, object]:
        return {"label": self.label, "median_wall_s": round(self.wall, 4),
                "walls_s": [round(m.wall, 4) for m in self.runs],
                "median_cpu_s": round(self.cpu, 4),
                "max_disk_read_mb": round(self.disk_read_mb, 1),
                "peak_rss_largest_process_mb": round(self.maxrss_mb, 1),
                "peak_pss_all_processes_mb": round(self.tree_pss_mb, 1)}


# --------------------------------------------------------------------------- sites


def ensure_site(workdir: Path, pages: int, body_kb: float) -> Path:
    """The cached site for ``pages`` (generated when missing or made with other settings)."""
    name = f"site-{pages}" + ("" if body_kb == 15.0 else f"-b{body_kb:g}")
    site = workdir / name
    stamp = workdir / f"{name}.json"
    wanted = {"pages": pages, "seed": SEED, "body_kb": body_kb,
              "generator": hashlib.sha256((HERE / "make_site.py").read_bytes()).hexdigest()}
    if site.is_dir() and stamp.is_file() and json.loads(stamp.read_text()) == wanted:
        return site
    stamp.unlink(missing_ok=True)
    print(f"  generating {pages:,} pages (bodies of {body_kb:g} KB) into {site} ...", flush=True)
    started = time.perf_counter()
    size = make_site.make_site(site, pages, seed=SEED, body_kb=body_kb)
    print(f"  generated {size / 1e6:,.0f} MB in {time.perf_counter() - started:.1f} s", flush=True)
    stamp.write_text(json.dumps(wanted))
    return site


def warm_cache(site: Path, size: int = 65_536) -> float:
    """Read the start of every file (all that any timed command reads) into the page cache.

    Called right before every timed command, not once: some machines page out file pages that
    sat idle for a while (this one runs DAMON reclaim: idle for 30 s or more). The disk-read
    column shows whether a run still had to go to the disk.
    """
    started = time.perf_counter()
    for folder, _, files in os.walk(site):
        for name in files:
            with open(os.path.join(folder, name), "rb", buffering=0) as handle:
                handle.read(size)
    return time.perf_counter() - started


def rewrite_in_place(site: Path) -> None:
    """Give every page a new change time, bytes and modification time kept (a rewrite)."""
    for folder, _, names in os.walk(site):
        for name in names:
            if name.endswith((".html", ".htm")):
                path = os.path.join(folder, name)
                status = os.stat(path)
                os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))


def output_digest(site: Path) -> dict[str, str]:
    """SHA-256 of every sitemap file (and robots.txt) in the site root."""
    return {entry.name: hashlib.sha256(entry.read_bytes()).hexdigest()[:16]
            for entry in sorted(site.iterdir()) if _OUTPUT_FILE.match(entry.name)}


# --------------------------------------------------------------------------- core runs


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["SOURCE_DATE_EPOCH"] = "1700000000"
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    return env


def sitemap_command(python: str) -> list[str]:
    """How to run our CLI (``sitemap-plugins`` beside ``python``, else ``-m``)."""
    script = Path(python).parent / "sitemap-plugins"
    return [str(script)] if script.exists() else [python, "-m", "sitemap_plugins"]


@dataclass
class SizeResult:
    pages: int
    site: str
    site_mb: float
    floor: Series
    build2: Series
    build1: Series
    identical: bool
    digests: dict[str, str]
    listed: str
    body_kb: float = 15.0
    plain1: Series | None = None
    first: Series | None = None
    rewritten: Series | None = None

    def per_page_us(self, series: Series) -> float:
        return series.wall / self.pages * 1e6


def bench_size(site: Path, pages: int, runs: int, python: str, *, plain: bool) -> SizeResult:
    env = _env()
    cli = sitemap_command(python)
    floor = Series("I/O floor (1 process, 8 KiB a page)")
    build2 = Series("build --workers 2")
    build1 = Series("build --workers 1")
    plain1 = Series("build --workers 1 --no-fingerprint")
    first = Series("first build --workers 2 (no manifest)")
    rewritten = Series("rebuild, every page rewritten, -w 2")
    # One manifest folder per site: sites of different sizes must not share one.
    cache = ["--cache-dir", str(site.parent / f".cache-{site.name}")]
    warm = warm_cache(site)
    print(f"  page cache warmed in {warm:.1f} s (repeated before every timed run)", flush=True)
    floor_cmd = [python, str(HERE / "floor.py"), str(site)]
    run_timed(floor_cmd, env=env)  # one untimed pass
    # A first build (no lastmod manifest yet) differs from a rebuild: time it once, apart.
    shutil.rmtree(cache[1], ignore_errors=True)
    warm_cache(site)
    first.runs.append(run_timed([*cli, "-q", "build", str(site), "--base-url", BASE_URL,
                                 "--workers", "2", *cache], env=env))
    print(f"  first build (no manifest), --workers 2: {first.runs[-1].wall:.2f} s", flush=True)
    digests: dict[str, dict[str, str]] = {}
    listed = ""
    for round_ in range(runs):
        warm_cache(site)
        floor.runs.append(run_timed(floor_cmd, env=env))
        for workers, series in ((2, build2), (1, build1)):
            warm_cache(site)
            measure = run_timed([*cli, "build", str(site), "--base-url", BASE_URL,
                                 "--workers", str(workers), *cache], env=env)
            series.runs.append(measure)
            digest = output_digest(site)
            digests.setdefault(f"w{workers}", digest)
            if digests[f"w{workers}"] != digest:
                digests[f"w{workers}-run{round_}"] = digest
        if plain:
            warm_cache(site)
            plain1.runs.append(run_timed(
                [*cli, "-q", "build", str(site), "--base-url", BASE_URL, "--workers", "1",
                 "--no-fingerprint"], env=env))
        print(f"  round {round_ + 1}/{runs}: floor {floor.runs[-1].wall:.2f} s, "
              f"w2 {build2.runs[-1].wall:.2f} s, w1 {build1.runs[-1].wall:.2f} s"
              + (f", w1 no fingerprint {plain1.runs[-1].wall:.2f} s" if plain else "") + " "
              f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    # What MkDocs and Pelican do: every page written again with the same bytes. Last, because
    # files changed just before a build are read again by the next one too.
    for _ in range(runs):
        rewrite_in_place(site)
        warm_cache(site)
        rewritten.runs.append(run_timed([*cli, "-q", "build", str(site), "--base-url", BASE_URL,
                                         "--workers", "2", *cache], env=env))
    print(f"  every page rewritten, --workers 2: {rewritten.wall:.2f} s", flush=True)
    # An untouched rebuild leaves the sitemap files as they were: compare the bytes of builds
    # that write them too, with each worker count.
    digests["w2 rewritten"] = output_digest(site)
    rewrite_in_place(site)
    run_timed([*cli, "-q", "build", str(site), "--base-url", BASE_URL, "--workers", "1", *cache],
              env=env)
    digests["w1 rewritten"] = output_digest(site)
    listed = build2.runs[-1].stdout.strip()
    found = int(floor.runs[-1].stdout.split()[0])
    if found != pages + 2:  # the generator adds index.html and 404.html
        print(f"  note: the floor found {found:,} pages", flush=True)
    identical = len({json.dumps(d, sort_keys=True) for d in digests.values()}) == 1
    size_mb = sum(e.stat().st_size for e in site.rglob("*.html")) / 1e6 if pages <= 100_000 else 0
    return SizeResult(pages, str(site), size_mb, floor, build2, build1, identical,
                      digests["w2"], listed, plain1=plain1 if plain else None, first=first,
                      rewritten=rewritten)


def print_size(res: SizeResult) -> None:
    print(f"\n== N = {res.pages:,} pages, bodies of {res.body_kb:g} KB  ({res.site}"
          + (f", {res.site_mb:,.0f} MB of HTML" if res.site_mb else "") + ") ==")
    print(f"  {'':38} {'wall s':>7} {'cpu s':>7} {'pages/s':>8} {'µs/page':>8} "
          f"{'x floor':>7} {'RSS MB':>7} {'PSS MB':>7} {'disk MB':>7}")
    rows = [res.floor, res.build2, res.build1,
            *(s for s in (res.plain1, res.first, res.rewritten) if s)]
    for series in rows:
        print(f"  {series.label:38} {series.wall:7.2f} {series.cpu:7.2f} "
              f"{res.pages / series.wall:8,.0f} {res.per_page_us(series):8.1f} "
              f"{series.wall / res.floor.wall:7.2f} {series.maxrss_mb:7.1f} "
              f"{series.tree_pss_mb:7.1f} {series.disk_read_mb:7.1f}")
    print("  (medians; builds are rebuilds of an untouched tree (a lastmod manifest exists)"
          " except the\n   first-build and rewritten rows;\n   RSS: largest single process; "
          "PSS: parent + workers summed, sampled every 50 ms;\n   disk MB: read from the device by the slowest run, 0 = warm cache)")
    verdict = "yes" if res.identical else "NO"
    print("  sitemap bytes identical for --workers 1 and --workers 2 (every untouched rebuild, "
          f"and a rebuild that writes every page again with each): {verdict}")
    for line in res.listed.splitlines():
        print(f"    | {line[:150]}")


# --------------------------------------------------------------------------- hosts


_MD_PARAGRAPH = textwrap.dedent("""\
    ## Section {n}

    Some *text* about **{topic}** with a [link](../index.md) and `inline code`.
    More words follow here, enough to make the page look like documentation and
    to give the Markdown parser a little work to do on every build.

    - item one about {topic}
    - item two
    - item three

    ```python
    def example_{n}():
        return "{topic}"
    ```

    """)


def _make_mkdocs_project(root: Path, pages: int) -> None:
    docs = root / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n\nWelcome.\n", encoding="utf-8")
    for index in range(pages - 1):
        folder = docs / f"part-{index // 200:02d}" / f"chapter-{index // 20:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(_MD_PARAGRAPH.format(n=n, topic=f"topic {index}") for n in range(6))
        (folder / f"page-{index:04d}.md").write_text(f"# Page {index}\n\n{body}", encoding="utf-8")


def _mkdocs_config(root: Path, ours: bool) -> Path:
    # No search plugin in either build: it would only dilute the share of the sitemap step.
    # A short explicit nav keeps the build linear (a 2,000-entry nav is rendered into every
    # page by the built-in themes, which would dwarf everything else).
    path = root / ("mkdocs-ours.yml" if ours else "mkdocs-builtin.yml")
    path.write_text(textwrap.dedent(f"""\
        site_name: Sitemap benchmark
        site_url: https://example.org/docs/
        docs_dir: docs
        site_dir: site-{"ours" if ours else "builtin"}
        theme: mkdocs
        nav:
          - Home: index.md
          - First: part-00/chapter-000/page-0000.md
        plugins: {"[sitemap]" if ours else "[]"}
        """), encoding="utf-8")
    return path


# Category and tag names must not end in a digit: Pelican names page 2 of "tag-3" "tag-32".
_WORDS = make_site._WORDS  # noqa: SLF001


def _make_pelican_project(root: Path, pages: int) -> None:
    content = root / "content"
    if content.exists():
        shutil.rmtree(content)
    content.mkdir(parents=True)
    for index in range(pages):
        body = "".join(_MD_PARAGRAPH.format(n=n, topic=f"topic {index}") for n in range(4))
        body = body.replace("../index.md", "{filename}/" + f"article-{max(index - 1, 0):04d}.md")
        day = index % 28 + 1
        month = index // 28 % 12 + 1
        (content / f"article-{index:04d}.md").write_text(
            f"Title: Article {index}\nDate: 2023-{month:02d}-{day:02d} 10:{index % 60:02d}\n"
            f"Modified: 2024-{month:02d}-{day:02d}\nCategory: {_WORDS[index % 12]}\n"
            f"Tags: tag-{_WORDS[12 + index % 40]}, kind-{_WORDS[52 + index % 7]}\n"
            f"Slug: article-{index:04d}\n"
            f"Summary: Summary of article {index}.\n\n{body}", encoding="utf-8")


def _pelican_config(root: Path, ours: bool) -> Path:
    path = root / ("pelicanconf-ours.py" if ours else "pelicanconf-builtin.py")
    plugin = ('PLUGINS = ["sitemap_plugins.pelican"]\n' if ours else
              'PLUGINS = ["pelican.plugins.sitemap"]\nSITEMAP = {"format": "xml"}\n')
    path.write_text(textwrap.dedent("""\
        AUTHOR = "Bench"
        SITENAME = "Sitemap benchmark"
        SITEURL = "https://example.org"
        PATH = "content"
        TIMEZONE = "UTC"
        DEFAULT_LANG = "en"
        DEFAULT_PAGINATION = 10
        DELETE_OUTPUT_DIRECTORY = True
        LOAD_CONTENT_CACHE = False
        """) + plugin, encoding="utf-8")
    return path


def _importable(python: str, module: str) -> str | None:
    """None when ``python -c 'import module'`` works, else the last line of the error."""
    proc = subprocess.run([python, "-c", f"import {module}"], capture_output=True, text=True,
                          check=False)
    if proc.returncode == 0:
        return None
    lines = proc.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit {proc.returncode}"


def bench_hosts(workdir: Path, python: str, runs: int, pages: int) -> dict[str, object]:
    env = _env()
    results: dict[str, object] = {}
    bindir = Path(python).parent
    cli = sitemap_command(python)
    hosts = (
        ("mkdocs", "mkdocs", "sitemap_plugins.mkdocs", _make_mkdocs_project, _mkdocs_config,
         lambda cfg: [str(bindir / "mkdocs"), "build", "-q", "-f", str(cfg)]),
        ("pelican", "pelican.plugins.sitemap", "sitemap_plugins.pelican", _make_pelican_project,
         _pelican_config,
         lambda cfg: [str(bindir / "pelican"), "content", "-s", str(cfg), "-o",
                      "output-ours" if "ours" in cfg.name else "output-builtin", "-q"]),
    )
    for name, host_module, our_module, make_project, make_config, command in hosts:
        print(f"\n== host: {name}, {pages:,} pages ==", flush=True)
        missing = _importable(python, host_module)
        if missing:
            print(f"  skipped: host not available ({missing})")
            results[name] = {"skipped": f"host not available: {missing}"}
            continue
        root = workdir / f"host-{name}-{pages}"
        stamp = root / "project.json"
        wanted = {"pages": pages, "project_version": 2}
        if not (stamp.is_file() and json.loads(stamp.read_text()) == wanted):
            root.mkdir(parents=True, exist_ok=True)
            make_project(root, pages)
            stamp.write_text(json.dumps(wanted))
        builtin = Series(f"{name} build, host's own sitemap")
        ours = Series(f"{name} build, sitemap_plugins")
        unavailable = _importable(python, our_module)
        builtin_cmd = command(make_config(root, ours=False))
        ours_cmd = command(make_config(root, ours=True))
        failure = None
        for _ in range(runs):
            builtin.runs.append(run_timed(builtin_cmd, env=env, cwd=root))
            if not unavailable and failure is None:
                measure = run_timed(ours_cmd, env=env, cwd=root, check=False)
                if measure.returncode != 0:
                    failure = (measure.stderr.strip().splitlines() or ["?"])[-1]
                else:
                    ours.runs.append(measure)
        inside: list[dict[str, object]] = []
        host_inside: list[dict[str, object]] = []
        if not unavailable and failure is None:
            # Our own share measured inside the build (import + every hook of the plugin):
            # wall differences between whole builds swing by a few percent on shared machines.
            # The host's own sitemap step, which ours replaces, is timed the same way.
            for _ in range(runs):
                for flags, cmd, found in (([], ours_cmd, inside),
                                          (["--host-sitemap"], builtin_cmd, host_inside)):
                    measure = run_timed([python, str(HERE / "host_timer.py"), *flags,
                                         Path(cmd[0]).name, *cmd[1:]], env=env, cwd=root,
                                        check=False)
                    lines = measure.stdout.strip().splitlines()
                    if measure.returncode == 0 and lines:
                        found.append(json.loads(lines[-1]))
        out_dir = root / ("site-builtin" if name == "mkdocs" else "output-builtin")
        page_count = sum(1 for _ in out_dir.rglob("*.html"))
        direct = Series("sitemap-plugins build on the host's output")
        for _ in range(runs):
            direct.runs.append(run_timed([*cli, "-q", "build", str(out_dir), "--base-url",
                                          "https://example.org/docs/" if name == "mkdocs"
                                          else "https://example.org/"], env=env))
        print(f"  {builtin.label:48} {builtin.wall:7.2f} s  (RSS {builtin.maxrss_mb:.0f} MB)")
        entry: dict[str, object] = {"builtin": builtin.summary(), "html_files": page_count,
                                    "cli_on_output": direct.summary()}
        if unavailable:
            print(f"  {ours.label}: skipped: plugin not available ({unavailable})")
            entry["ours"] = f"skipped: plugin not available ({unavailable})"
        elif failure:
            print(f"  skipped: plugin build failed: {failure}")
            entry["ours"] = f"skipped: plugin build failed: {failure}"
        else:
            diff = ours.wall - builtin.wall
            print(f"  {ours.label:48} {ours.wall:7.2f} s  (RSS {ours.maxrss_mb:.0f} MB)")
            print(f"  difference: {diff:+.2f} s = {diff / builtin.wall:+.1%} of the build time")
            entry["ours"] = ours.summary()
            entry["difference_share"] = round(diff / builtin.wall, 4)
        if inside:
            ours_inside = statistics.median(float(i["total_s"]) for i in inside)  # type: ignore[arg-type]
            build_inside = statistics.median(float(i["build_s"]) for i in inside)  # type: ignore[arg-type]
            print(f"  {'plugin time inside the build (import + hooks)':48} {ours_inside:7.2f} s  "
                  f"= {ours_inside / build_inside:.1%} of that build, "
                  f"{ours_inside / builtin.wall:.1%} of the host's own build")
            entry["inside"] = {"median_total_s": round(ours_inside, 4),
                               "median_build_s": round(build_inside, 4), "runs": inside}
        if inside and host_inside:
            own = statistics.median(float(i["total_s"]) for i in host_inside)  # type: ignore[arg-type]
            added = ours_inside - own
            share = added / build_inside
            print(f"  {'host sitemap step inside its build':48} {own:7.2f} s")
            print(f"  {'added by ours (ours less the host step)':48} {added:7.2f} s  "
                  f"= {share:.1%} of the build: {'PASS' if share <= 0.02 else 'FAIL'} "
                  "(target at most 2 %)")
            entry["host_step"] = {"median_total_s": round(own, 4), "runs": host_inside}
            entry["added_share"] = round(share, 4)
        print(f"  {direct.label:48} {direct.wall:7.2f} s  "
              f"= {direct.wall / builtin.wall:.1%} of the build ({page_count:,} HTML files)")
        results[name] = entry
    return results


# --------------------------------------------------------------------------- peers


def _peer_python(option: str | None) -> str | None:
    if option:
        return option
    found = shutil.which("hugesitemap")
    if found:
        candidate = Path(found).parent / "python"
        if candidate.exists():
            return str(candidate)
    return None


def bench_peers(workdir: Path, site: Path, pages: int, ours: Series, runs: int,
                peer_python: str | None) -> dict[str, object]:
    print(f"\n== directory-scanning tools on PyPI, N = {pages:,} ==")
    print("  (they read no page heads: no canonical, noindex, redirect or hreflang handling, "
          "and they also list folders)")
    results: dict[str, object] = {}
    env = _env()
    out = workdir / "peers"
    out.mkdir(exist_ok=True)
    python = peer_python
    peers: list[tuple[str, str, list[str], dict[str, str]]] = []
    if python and not _importable(python, "localsitemap"):
        peers.append(("localsitemap", "localsitemap", [
            python, "-c", ("import sys\nfrom localsitemap import generate_sitemap\n"
            "generate_sitemap(sys.argv[1], sys.argv[2], sys.argv[3])"),
            str(site), BASE_URL.rstrip("/"), str(out / "localsitemap.xml")], env))
    else:
        print("  localsitemap: not installed")
        results["localsitemap"] = "not installed"
    huge = (str(Path(python).parent / "hugesitemap") if python else None)
    if not (huge and Path(huge).exists()):
        huge = shutil.which("hugesitemap")
    if huge:
        config_home = out / "hugesitemap-config"
        (config_home / "hugesitemap").mkdir(parents=True, exist_ok=True)
        (config_home / "hugesitemap" / "config.toml").write_text(textwrap.dedent(f"""\
            [[site]]
            name = "bench"
            base_url = "{BASE_URL}"
            output_path = "{out / 'hugesitemap' / 'sitemap.xml'}"
            [[site.directory]]
            path = "{site}"
            url = "{BASE_URL}"
            [site.filters]
            ignore = [".*", "*.xml", "*.gz", "*.txt"]
            """), encoding="utf-8")
        (out / "hugesitemap").mkdir(exist_ok=True)
        peers.append(("hugesitemap", "hugesitemap", [huge, "generate"],
                      {**env, "XDG_CONFIG_HOME": str(config_home)}))
    else:
        print("  hugesitemap: not installed")
        results["hugesitemap"] = "not installed"
    for name, _, cmd, peer_env in peers:
        series = Series(name)
        failed = None
        for _ in range(runs):
            warm_cache(site)
            measure = run_timed(cmd, env=peer_env, cwd=out, check=False)
            if measure.returncode != 0:
                failed = (measure.stderr.strip().splitlines() or ["?"])[-1]
                break
            series.runs.append(measure)
        if failed:
            print(f"  {name}: failed: {failed}")
            results[name] = f"failed: {failed}"
            continue
        print(f"  {name:14} {series.wall:7.2f} s  {pages / series.wall:9,.0f} pages/s  "
              f"RSS {series.maxrss_mb:6.1f} MB   {series.wall / ours.wall:5.2f}x our time "
              f"({ours.label}, {ours.wall:.2f} s)")
        results[name] = {**series.summary(), "ratio_to_ours": round(series.wall / ours.wall, 3)}
    return results


# --------------------------------------------------------------------------- main


def _targets(
    results: dict[int, SizeResult], hosts: dict[str, object]
) -> list[tuple[str, bool | None, str]]:
    rows: list[tuple[str, bool | None, str]] = []
    hundred = results.get(100_000)
    if hundred:
        ratio2 = hundred.build2.wall / hundred.floor.wall
        ratio1 = hundred.build1.wall / hundred.floor.wall
        rows.append(("100k: build (2 workers) <= 1.0x the 1-process I/O floor", ratio2 <= 1.0,
                     f"{ratio2:.2f}x"))
        rows.append(("100k: build (--workers 1) <= 1.5x the I/O floor", ratio1 <= 1.5,
                     f"{ratio1:.2f}x"))
        if hundred.rewritten is not None:
            ratio = hundred.rewritten.wall / hundred.floor.wall
            rows.append(("100k, every page rewritten (as hosts do): build (2 workers) <= 1.0x",
                         ratio <= 1.0, f"{ratio:.2f}x"))
    else:
        rows.append(("100k targets", None, "not run (add 100000 to --sizes)"))
    million = results.get(MILLION)
    if million:
        builds = [million.build2, million.build1,
                  *(s for s in (million.first, million.rewritten) if s)]
        peak = max(b.tree_pss_mb for b in builds)
        largest = max(b.maxrss_mb for b in builds)
        rows.append(("1M: peak memory <= 150 MB (every build, first build included)",
                     max(peak, largest) <= 150,
                     (f"all processes (PSS) {peak:.0f} MB, largest single process (RSS) "
                     f"{largest:.0f} MB")))
        if hundred:
            if hundred.body_kb != million.body_kb:
                rows.append(("1M vs 100k", None, (f"bodies differ ({million.body_kb:g} KB vs "
                             f"{hundred.body_kb:g} KB): per-page times are not comparable")))
            for attr, label in (("build2", "2 workers"), ("build1", "1 worker")):
                a = million.per_page_us(getattr(million, attr))
                b = hundred.per_page_us(getattr(hundred, attr))
                rows.append((f"1M: time per page within 10% of 100k ({label})",
                             a <= b * 1.10, f"{a:.1f} vs {b:.1f} µs/page ({a / b - 1:+.1%})"))
    else:
        rows.append(("1M targets", None, "not run (use --million)"))
    same = all(r.identical for r in results.values()) if results else None
    rows.append(("output identical for --workers 1 and 2 at every N", same,
                 ", ".join(f"{n:,}: {'yes' if r.identical else 'NO'}"
                           for n, r in results.items())))
    for name, entry in hosts.items():
        share = entry.get("added_share") if isinstance(entry, dict) else None
        label = f"{name}: ours adds at most 2% to the build, less the host's own sitemap step"
        rows.append((label, None, "not measured") if not isinstance(share, float)
                    else (label, share <= 0.02, f"{share:.1%}"))
    return rows


def _compile_bytecode(python: str) -> None:
    """Write the package's bytecode, as pip does when it installs a wheel.

    An editable install has none, and with ``PYTHONDONTWRITEBYTECODE`` set Python never
    writes it: every process would compile our modules from source, about 30 ms that no
    installed user pays (MkDocs' and Pelican's own modules come compiled from their wheels).
    """
    code = ("import importlib.util, pathlib, compileall; "
            "spec = importlib.util.find_spec('sitemap_plugins'); "
            "compileall.compile_dir(pathlib.Path(spec.origin).parent, quiet=1)")
    subprocess.run([python, "-c", code], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time sitemap-plugins against the I/O floor.")
    parser.add_argument("--sizes", default="10000,100000",
                        help="comma-separated page counts (default: 10000,100000)")
    parser.add_argument("--million", action="store_true", help="also run N = 1,000,000")
    parser.add_argument("--body-kb", type=float, default=15.0,
                        help="approximate body size of every page in KB (default: 15)")
    parser.add_argument("--million-body-kb", type=float,
                        help="body size for the 1M site (default: --body-kb; lower it when "
                        "disk, or RAM for a tmpfs workdir, is short)")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; medians (default 3)")
    parser.add_argument("--hosts", action="store_true",
                        help="also time real MkDocs and Pelican builds with each sitemap")
    parser.add_argument("--host-pages", type=int, default=2000, help="pages per host site")
    parser.add_argument("--no-peers", action="store_true", help="skip the PyPI peer tools")
    parser.add_argument("--no-plain", action="store_true",
                        help="skip the extra --workers 1 --no-fingerprint build")
    parser.add_argument("--peer-python", help="python of a venv with localsitemap/hugesitemap")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/sitemap-bench"))
    parser.add_argument("--python", default=sys.executable,
                        help="python of the venv with sitemap-plugins (default: this one)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args(argv)
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    if args.million:
        sizes.append(MILLION)
    args.workdir.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True, check=False).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "sitemap_plugins"],
                           capture_output=True, text=True, check=False).stdout.strip()
    print(f"sitemap-plugins benchmark: Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, commit {commit or '?'}{' + local changes' if dirty else ''}, "
          f"{args.runs} runs per figure (median), workdir {args.workdir}, "
          f"load average {os.getloadavg()[0]:.1f}")
    free = shutil.disk_usage(args.workdir).free / 1e9
    print(f"free disk in the workdir: {free:,.0f} GB")
    _compile_bytecode(args.python)
    results: dict[int, SizeResult] = {}
    for pages in sizes:
        body_kb = args.body_kb
        if pages == MILLION and args.million_body_kb is not None:
            body_kb = args.million_body_kb
        need = pages * (body_kb + 3) / 1e6
        if not (args.workdir / f"site-{pages}").exists() and need > free * 0.9:
            body_kb = max(1.0, free * 0.9 * 1e6 / pages - 3)
            print(f"note: disk is short for N = {pages:,}; bodies of {body_kb:.1f} KB instead")
        print(f"\n-- N = {pages:,} --", flush=True)
        site = ensure_site(args.workdir, pages, body_kb)
        results[pages] = bench_size(site, pages, args.runs, args.python,
                                    plain=not args.no_plain)
        results[pages].body_kb = body_kb
        print_size(results[pages])
    if len(results) > 1:
        print("\n== linearity (time ratio; ideal = page ratio) ==")
        ordered = sorted(results)
        for small, large in itertools.pairwise(ordered):
            a, b = results[small], results[large]
            print(f"  N {large:,} / {small:,} (ideal {large / small:g}): "
                  f"floor {b.floor.wall / a.floor.wall:.2f}, "
                  f"build w2 {b.build2.wall / a.build2.wall:.2f}, "
                  f"build w1 {b.build1.wall / a.build1.wall:.2f}")
    peers: dict[str, object] = {}
    if not args.no_peers:
        peer_size = max((n for n in results if n <= 100_000), default=None)
        if peer_size is None:
            print("\npeers: skipped (no size up to 100,000 was run)")
        else:
            peers = bench_peers(args.workdir, Path(results[peer_size].site), peer_size,
                                results[peer_size].build2, args.runs,
                                _peer_python(args.peer_python))
    hosts: dict[str, object] = {}
    if args.hosts:
        hosts = bench_hosts(args.workdir, args.python, args.runs, args.host_pages)
    print("\n== targets ==")
    for label, ok, detail in _targets(results, hosts):
        mark = "----" if ok is None else ("PASS" if ok else "FAIL")
        print(f"  [{mark}] {label}: {detail}")
    if args.json:
        payload = {
            "python": platform.python_version(), "cores": os.cpu_count(), "commit": commit,
            "dirty": bool(dirty), "runs": args.runs,
            "sizes": {str(n): {"floor": r.floor.summary(), "build_workers_2": r.build2.summary(),
                               "build_workers_1": r.build1.summary(),
                               "build_workers_1_no_fingerprint":
                                   r.plain1.summary() if r.plain1 else None,
                               "first_build_workers_2": r.first.summary() if r.first else None,
                               "rewritten_workers_2":
                                   r.rewritten.summary() if r.rewritten else None,
                               "identical": r.identical,
                               "digests": r.digests, "site_mb": round(r.site_mb)}
                      for n, r in results.items()},
            "peers": peers, "hosts": hosts,
            "targets": [{"target": t, "ok": ok, "detail": d} for t, ok, d in _targets(results, hosts)],
        }
        args.json.write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
        print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())

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
import resource
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
_PR_SET_CHILD_SUBREAPER = 36


def _become_subreaper() -> bool:
    """Adopt orphaned descendants (Linux), so that their CPU time is ours to count.

    A worker pool started by the forkserver method is the forkserver's children, and the
    forkserver outlives the build by a moment: without this its CPU time would be lost.
    """
    try:
        import ctypes  # noqa: PLC0415

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


_SUBREAPER = _become_subreaper()


def _reap_orphans(deadline: float) -> None:
    """Wait for descendants left behind by the child (they are ours as subreaper)."""
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.01)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(cmd: list[str], *, env: dict[str, str] | None = None,
              cwd: str | Path | None = None, check: bool = True) -> Measure:
    """Run ``cmd`` in a fresh process; wall time, CPU of every process, peak memory, output.

    CPU is user + system time of the child and all its descendants, worker pools included
    (the runner adopts orphans and reaps them). Peak RSS comes from ``/usr/bin/time -f %M``
    when it exists: a child forked straight from this runner would report the runner's own RSS
    as its peak when that is larger.
    """
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-{os.getpid()}"
    out_file, err_file, rss_file = (scratch.with_suffix(s) for s in (".out", ".err", ".rss"))
    full = [_GNU_TIME, "-f", "%M", "-o", str(rss_file), *cmd] if _GNU_TIME else cmd
    cpu_before = _children_cpu()
    with out_file.open("w+b") as out, err_file.open("w+b") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(full, stdout=out, stderr=err, env=env, cwd=cwd)
        sampler = _TreeSampler(proc.pid)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        sampler.stop.set()
        sampler.join()
        if _SUBREAPER:
            _reap_orphans(time.monotonic() + 10)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    cpu = _children_cpu() - cpu_before if _SUBREAPER else usage.ru_utime + usage.ru_stime
    maxrss_kb = usage.ru_maxrss
    if _GNU_TIME:
        lines = rss_file.read_text().split() if rss_file.exists() else []
        maxrss_kb = int(lines[-1]) if lines and lines[-1].isdigit() else maxrss_kb
        rss_file.unlink(missing_ok=True)
    out_file.unlink()
    err_file.unlink()
    measure = Measure(wall, maxrss_kb / 1024, sampler.peak_kb / 1024, proc.returncode,
                      stdout, stderr, cpu=cpu, disk_read_mb=usage.ru_inblock * 512 / 1e6)
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
    parse_floor: Series
    first2: Series
    first1: Series
    rewritten2: Series
    rewritten1: Series
    identical: bool
    digests: dict[str, str]
    listed: str
    body_kb: float = 15.0

    def per_page_us(self, series: Series) -> float:
        return series.wall / self.pages * 1e6

    @property
    def rows(self) -> list[Series]:
        return [self.floor, self.parse_floor, self.first2, self.first1, self.rewritten2,
                self.rewritten1]


def bench_size(site: Path, pages: int, runs: int, python: str) -> SizeResult:
    """The builds users have: first builds without a cache (CI), and rebuilds after the host
    wrote every page again with the same bytes (MkDocs and Pelican do), with the cache kept."""
    env = _env()
    cli = sitemap_command(python)
    floor = Series("I/O floor (1 process, 8 KiB a page)")
    parse_floor = Series("parse floor (1 process, read + Lexbor)")
    first2 = Series("first build, no cache, --workers 2")
    first1 = Series("first build, no cache, --workers 1")
    rewritten2 = Series("rebuild, pages rewritten, cache, -w 2")
    rewritten1 = Series("rebuild, pages rewritten, cache, -w 1")
    # One cache folder per site: sites of different sizes must not share one.
    cache_dir = site.parent / f".cache-{site.name}"
    cache = ["--cache-dir", str(cache_dir)]
    warm = warm_cache(site)
    print(f"  page cache warmed in {warm:.1f} s (repeated before every timed run)", flush=True)
    floor_cmd = [python, str(HERE / "floor.py"), str(site)]
    parse_cmd = [*floor_cmd, "--parse"]
    run_timed(floor_cmd, env=env)  # one untimed pass
    digests: dict[str, str] = {}
    listed = ""

    def build(series: Series, workers: int, label: str) -> None:
        warm_cache(site)
        measure = run_timed([*cli, "build", str(site), "--base-url", BASE_URL,
                             "--workers", str(workers), *cache], env=env)
        series.runs.append(measure)
        digests[label] = json.dumps(output_digest(site), sort_keys=True)

    for round_ in range(runs):
        warm_cache(site)
        floor.runs.append(run_timed(floor_cmd, env=env))
        warm_cache(site)
        parse_floor.runs.append(run_timed(parse_cmd, env=env))
        for workers, series in ((2, first2), (1, first1)):
            shutil.rmtree(cache_dir, ignore_errors=True)
            build(series, workers, f"first w{workers} run {round_}")
        # What MkDocs and Pelican do: every page written again (here: touched, which is the
        # same to a reader that keeps no file times), the cache of the last build kept.
        for workers, series in ((2, rewritten2), (1, rewritten1)):
            rewrite_in_place(site)
            build(series, workers, f"rewritten w{workers} run {round_}")
        print(f"  round {round_ + 1}/{runs}: floor {floor.runs[-1].wall:.2f} s, first w2 "
              f"{first2.runs[-1].wall:.2f} s, w1 {first1.runs[-1].wall:.2f} s; rewritten w2 "
              f"{rewritten2.runs[-1].wall:.2f} s, w1 {rewritten1.runs[-1].wall:.2f} s "
              f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    listed = first2.runs[-1].stdout.strip()
    found = int(floor.runs[-1].stdout.split()[0])
    if found != pages + 2:  # the generator adds index.html and 404.html
        print(f"  note: the floor found {found:,} pages", flush=True)
    identical = len(set(digests.values())) == 1
    size_mb = sum(e.stat().st_size for e in site.rglob("*.html")) / 1e6 if pages <= 100_000 else 0
    return SizeResult(pages, str(site), size_mb, floor, parse_floor, first2, first1, rewritten2,
                      rewritten1, identical, json.loads(next(iter(digests.values()))), listed)


def print_size(res: SizeResult) -> None:
    print(f"\n== N = {res.pages:,} pages, bodies of {res.body_kb:g} KB  ({res.site}"
          + (f", {res.site_mb:,.0f} MB of HTML" if res.site_mb else "") + ") ==")
    print(f"  {'':38} {'wall s':>7} {'cpu s':>7} {'pages/s':>8} {'µs/page':>8} "
          f"{'x floor':>7} {'RSS MB':>7} {'PSS MB':>7} {'disk MB':>7}")
    for series in res.rows:
        print(f"  {series.label:38} {series.wall:7.2f} {series.cpu:7.2f} "
              f"{res.pages / series.wall:8,.0f} {res.per_page_us(series):8.1f} "
              f"{series.wall / res.floor.wall:7.2f} {series.maxrss_mb:7.1f} "
              f"{series.tree_pss_mb:7.1f} {series.disk_read_mb:7.1f}")
    print("  (medians; cpu: user + system of every process, workers included;\n"
          "   RSS: largest single process; PSS: parent + workers summed, sampled every 50 ms;\n"
          "   disk MB: read from the device by the slowest run, 0 = warm cache)")
    verdict = "yes" if res.identical else "NO"
    print("  sitemap bytes identical for every build above (first builds and rebuilds, "
          f"--workers 1 and 2): {verdict}")
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


def _median(runs: list[dict[str, float]], name: str) -> float:
    return statistics.median(float(run[name]) for run in runs)


def bench_hosts(workdir: Path, python: str, runs: int, pages: int) -> dict[str, object]:
    env = _env()
    results: dict[str, object] = {}
    bindir = Path(python).parent
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
        missing = _importable(python, host_module) or _importable(python, our_module)
        if missing:
            print(f"  skipped: not available ({missing})")
            results[name] = {"skipped": f"not available: {missing}"}
            continue
        root = workdir / f"host-{name}-{pages}"
        stamp = root / "project.json"
        wanted = {"pages": pages, "project_version": 2}
        if not (stamp.is_file() and json.loads(stamp.read_text()) == wanted):
            root.mkdir(parents=True, exist_ok=True)
            make_project(root, pages)
            stamp.write_text(json.dumps(wanted))
        cache = root / ".sitemap-cache"
        builtin = Series(f"{name} build, host's own sitemap")
        first = Series(f"{name} build, ours, first (no cache)")
        again = Series(f"{name} build, ours, rebuild (cache kept)")
        builtin_cmd = command(make_config(root, ours=False))
        ours_cmd = command(make_config(root, ours=True))
        # Our share measured inside the build (import + every hook of the plugin, CPU): whole
        # builds swing by a few percent of CPU on shared machines. The host's own sitemap
        # step, which ours replaces, is measured the same way.
        inside: dict[str, list[dict[str, float]]] = {"host": [], "first": [], "again": []}

        def timed_inside(cmd: list[str], flags: list[str], found: list[dict[str, float]],
                         where: Path) -> None:
            measure = run_timed([python, str(HERE / "host_timer.py"), *flags,
                                 Path(cmd[0]).name, *cmd[1:]], env=env, cwd=where, check=False)
            lines = measure.stdout.strip().splitlines()
            if measure.returncode == 0 and lines:
                found.append(json.loads(lines[-1]))

        for _ in range(runs):
            builtin.runs.append(run_timed(builtin_cmd, env=env, cwd=root))
            shutil.rmtree(cache, ignore_errors=True)
            first.runs.append(run_timed(ours_cmd, env=env, cwd=root))
            again.runs.append(run_timed(ours_cmd, env=env, cwd=root))
            timed_inside(builtin_cmd, ["--host-sitemap"], inside["host"], root)
            shutil.rmtree(cache, ignore_errors=True)
            timed_inside(ours_cmd, [], inside["first"], root)
            timed_inside(ours_cmd, [], inside["again"], root)
        out_dir = root / ("site-builtin" if name == "mkdocs" else "output-builtin")
        page_count = sum(1 for _ in out_dir.rglob("*.html"))
        entry: dict[str, object] = {"html_files": page_count, "builtin": builtin.summary(),
                                    "first": first.summary(), "again": again.summary(),
                                    "inside": inside}
        for series in (builtin, first, again):
            extra = ""
            if series is not builtin:
                extra = (f"  {series.cpu - builtin.cpu:+.2f} s cpu "
                         f"({(series.cpu - builtin.cpu) / builtin.cpu:+.1%})")
            print(f"  {series.label:44} {series.wall:6.2f} s wall {series.cpu:6.2f} s cpu"
                  f"{extra}")
        if all(inside.values()):
            host_step = _median(inside["host"], "total_cpu_s")
            for key, label, target_key in (("first", "first build", "first_added"),
                                           ("again", "rebuild", "rebuild_added")):
                ours_cpu = _median(inside[key], "total_cpu_s")
                build_cpu = _median(inside[key], "build_cpu_s")
                share = (ours_cpu - host_step) / build_cpu
                entry[target_key] = round(share, 4)
                print(f"  inside the {label}: ours {ours_cpu:.3f} s cpu (import + hooks), the "
                      f"host's sitemap step {host_step:.3f} s: adds {share:+.1%} of the build's "
                      f"{build_cpu:.2f} s cpu")
        results[name] = entry
    return results


# --------------------------------------------------------------------------- peers


def _peer_python(option: str | None, workdir: Path) -> str | None:
    """A python with localsitemap and hugesitemap: the one given, or a venv made here."""
    if option:
        return option
    venv = workdir / "peer-venv"
    python = venv / "bin" / "python"
    if not python.exists():
        print("  installing localsitemap and hugesitemap into "
              f"{venv} (pip, from the package index) ...", flush=True)
        made = subprocess.run([sys.executable, "-m", "venv", str(venv)], check=False)
        if made.returncode != 0:
            return None
        subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", "localsitemap", "hugesitemap"],
                       check=False)
    return str(python)


def bench_peers(workdir: Path, site: Path, pages: int, ours: Series, runs: int,
                peer_python: str | None) -> dict[str, object]:
    print(f"\n== directory-scanning tools on PyPI, N = {pages:,}, against our first build ==")
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
    results: dict[int, SizeResult], hosts: dict[str, object], peers: dict[str, object]
) -> list[tuple[str, bool | None, str]]:
    """The targets of the reading-path issue, each with its measured figure."""
    rows: list[tuple[str, bool | None, str]] = []
    hundred = results.get(100_000)
    if hundred:
        floor = hundred.floor.wall
        for series, limit in ((hundred.first2, 5.0), (hundred.first1, 10.0),
                              (hundred.rewritten2, 2.0)):
            ratio = series.wall / floor
            rows.append((f"100k: {series.label} <= {limit:g}x the I/O floor", ratio <= limit,
                         f"{ratio:.2f}x ({series.wall:.2f} s wall, {series.cpu:.2f} s cpu)"))
        local = peers.get("localsitemap")
        if isinstance(local, dict):
            ratio = float(local["median_wall_s"]) / hundred.first2.wall  # type: ignore[arg-type]
            rows.append(("100k: first build (2 workers) faster than localsitemap, same run",
                         ratio > 1, f"localsitemap takes {ratio:.2f}x our time"))
        else:
            rows.append(("100k: faster than localsitemap", None, f"not measured ({local})"))
    else:
        rows.append(("100k targets", None, "not run (add 100000 to --sizes)"))
    million = results.get(MILLION)
    if million:
        builds = million.rows[1:]
        peak = max(b.tree_pss_mb for b in builds)
        largest = max(b.maxrss_mb for b in builds)
        rows.append(("1M: peak RSS <= 150 MB (largest process, every build)", largest <= 150,
                     f"largest process {largest:.0f} MB, all processes (PSS) {peak:.0f} MB"))
        if hundred:
            for attr in ("first2", "first1"):
                a = million.per_page_us(getattr(million, attr))
                b = hundred.per_page_us(getattr(hundred, attr))
                label = (f"1M: time per page linear ({getattr(million, attr).label}), "
                         "within 10 % of 100k")
                rows.append((label, a <= b * 1.10,
                             f"{a:.1f} vs {b:.1f} µs/page ({a / b - 1:+.1%})"))
    else:
        rows.append(("1M targets", None, "not run (use --million)"))
    same = all(r.identical for r in results.values()) if results else None
    rows.append(("output identical for every build and worker count", same,
                 ", ".join(f"{n:,}: {'yes' if r.identical else 'NO'}"
                           for n, r in results.items())))
    for name, entry in hosts.items():
        if not isinstance(entry, dict):
            continue
        for key, label, limit in (("first_added", "first build, no cache", 0.03),
                                  ("rebuild_added", "rebuild with the cache", 0.02)):
            share = entry.get(key)
            text = f"{name}: {label}, ours adds <= {limit:.0%} CPU over the host's sitemap"
            rows.append((text, None, "not measured") if not isinstance(share, float)
                        else (text, share <= limit, f"{share:+.1%}"))
    return rows


def _print_parse_share(pages: int, res: SizeResult) -> None:
    """What reading the main content costs before any of our work: the parse floor, in I/O
    floors, and our builds in parse floors (information, not a target)."""
    parse = res.parse_floor
    print(f"  [info] {pages:,}: the parse floor alone is {parse.wall / res.floor.wall:.2f}x the "
          f"I/O floor ({parse.wall:.2f} s wall, {parse.cpu:.2f} s cpu; "
          f"{parse.cpu / pages * 1e6:.0f} µs cpu a page); first build -w 1 "
          f"{res.first1.cpu / parse.cpu:.2f}x its cpu, -w 2 {res.first2.wall / parse.wall:.2f}x "
          f"its wall; rebuild -w 2 {res.rewritten2.wall / parse.wall:.2f}x its wall")


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
        results[pages] = bench_size(site, pages, args.runs, args.python)
        results[pages].body_kb = body_kb
        print_size(results[pages])
    if len(results) > 1:
        print("\n== linearity (time ratio; ideal = page ratio) ==")
        ordered = sorted(results)
        for small, large in itertools.pairwise(ordered):
            a, b = results[small], results[large]
            print(f"  N {large:,} / {small:,} (ideal {large / small:g}): "
                  f"floor {b.floor.wall / a.floor.wall:.2f}, "
                  f"first w2 {b.first2.wall / a.first2.wall:.2f}, "
                  f"first w1 {b.first1.wall / a.first1.wall:.2f}")
    peers: dict[str, object] = {}
    if not args.no_peers:
        peer_size = max((n for n in results if n <= 100_000), default=None)
        if peer_size is None:
            print("\npeers: skipped (no size up to 100,000 was run)")
        else:
            peers = bench_peers(args.workdir, Path(results[peer_size].site), peer_size,
                                results[peer_size].first2, args.runs,
                                _peer_python(args.peer_python, args.workdir))
    hosts: dict[str, object] = {}
    if args.hosts:
        hosts = bench_hosts(args.workdir, args.python, args.runs, args.host_pages)
    print("\n== targets ==")
    for label, ok, detail in _targets(results, hosts, peers):
        mark = "----" if ok is None else ("PASS" if ok else "FAIL")
        print(f"  [{mark}] {label}: {detail}")
    for pages, res in sorted(results.items()):
        _print_parse_share(pages, res)
    if args.json:
        payload = {
            "python": platform.python_version(), "cores": os.cpu_count(), "commit": commit,
            "dirty": bool(dirty), "runs": args.runs,
            "sizes": {str(n): {"floor": r.floor.summary(),
                               "parse_floor": r.parse_floor.summary(),
                               "first_build_workers_2": r.first2.summary(),
                               "first_build_workers_1": r.first1.summary(),
                               "rewritten_workers_2": r.rewritten2.summary(),
                               "rewritten_workers_1": r.rewritten1.summary(),
                               "identical": r.identical,
                               "digests": r.digests, "site_mb": round(r.site_mb)}
                      for n, r in results.items()},
            "peers": peers, "hosts": hosts,
            "targets": [{"target": t, "ok": ok, "detail": d}
                        for t, ok, d in _targets(results, hosts, peers)],
        }
        args.json.write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
        print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())

"""Benchmark runner: ``sitemap-plugins build`` against the I/O floor, hosts and peers.

One command prints every figure (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/run.py                 # N = 10,000 and 100,000
    .venv/bin/python benchmarks/run.py --million       # ... and 1,000,000
    .venv/bin/python benchmarks/run.py --hosts         # ... and MkDocs / Pelican builds
    .venv/bin/python benchmarks/run.py --hosts-only    # only the MkDocs / Pelican builds

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
import tempfile
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
    user: float = 0.0
    """User CPU seconds of the whole process tree (``cpu`` less system time)."""


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


def _children_user() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime


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
    cpu_before, user_before = _children_cpu(), _children_user()
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
    user = _children_user() - user_before if _SUBREAPER else usage.ru_utime
    maxrss_kb = usage.ru_maxrss
    if _GNU_TIME:
        lines = rss_file.read_text().split() if rss_file.exists() else []
        maxrss_kb = int(lines[-1]) if lines and lines[-1].isdigit() else maxrss_kb
        rss_file.unlink(missing_ok=True)
    out_file.unlink()
    err_file.unlink()
    measure = Measure(wall, maxrss_kb / 1024, sampler.peak_kb / 1024, proc.returncode,
                      stdout, stderr, cpu=cpu, disk_read_mb=usage.ru_inblock * 512 / 1e6,
                      user=user)
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
    def user(self) -> float:
        return statistics.median(m.user for m in self.runs)

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


_NO_SITEMAP_HOOK = textwrap.dedent("""\
    # No sitemap at all: MkDocs renders its sitemap.xml template for every theme. Dropped
    # once the files are listed (earlier, MkDocs would copy the raw template as a file).
    def on_env(env, config, files):
        config.theme.static_templates.discard("sitemap.xml")
        return env
    """)


def _mkdocs_config(root: Path, variant: str) -> Path:
    """``mkdocs-<variant>.yml``: ``none`` (no sitemap), ``builtin`` (MkDocs' template) or
    ``ours``. Each writes its own site folder."""
    # No search plugin in any build: it would only dilute the share of the sitemap step.
    # A short explicit nav keeps the build linear (a 2,000-entry nav is rendered into every
    # page by the built-in themes, which would dwarf everything else).
    path = root / f"mkdocs-{variant}.yml"
    hooks = ""
    if variant == "none":
        (root / "no_sitemap_hook.py").write_text(_NO_SITEMAP_HOOK, encoding="utf-8")
        hooks = "hooks: [no_sitemap_hook.py]\n"
    path.write_text(textwrap.dedent(f"""\
        site_name: Sitemap benchmark
        site_url: https://example.org/docs/
        docs_dir: docs
        site_dir: site-{variant}
        theme: mkdocs
        nav:
          - Home: index.md
          - First: part-00/chapter-000/page-0000.md
        plugins: {"[sitemap]" if variant == "ours" else "[]"}
        """) + hooks, encoding="utf-8")
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


def _pelican_config(root: Path, variant: str) -> Path:
    """``pelicanconf-<variant>.py``: ``none`` (no plugin at all), ``builtin``
    (pelican-sitemap) or ``ours``."""
    path = root / f"pelicanconf-{variant}.py"
    # An explicit empty PLUGINS: left unset, Pelican would load every namespace plugin
    # installed, pelican-sitemap included.
    plugin = {"none": "PLUGINS = []\n",
              "builtin": 'PLUGINS = ["pelican.plugins.sitemap"]\nSITEMAP = {"format": "xml"}\n',
              "ours": 'PLUGINS = ["sitemap_plugins.pelican"]\n'}[variant]
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


HOST_SITES = "mkdocs:2000,mkdocs:50,pelican:2000"
_VARIANTS = {
    "none": "(a) no sitemap at all",
    "builtin": "(b) the host's own sitemap",
    "ours": "(c) ours, first build, no cache",
    "rebuild": "(c') ours, rebuild, cache kept",
    "git": "(d) ours, first build, git repo",
}
_GIT_COMMITS = 20
_GIT_ENV = {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
            "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.org",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def host_target(host: str, pages: int) -> float:
    """What ours may add to the whole build's CPU over the host's own sitemap (issue 34)."""
    if host == "pelican":
        return 0.08
    return 0.06 if pages < 500 else 0.05


def _host_env() -> dict[str, str]:
    return {**_env(), "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}


def _host_command(bindir: Path, host: str, root: Path, variant: str) -> tuple[list[str], Path]:
    """The build command of one variant, and the folder it writes."""
    config_variant = "ours" if variant in ("rebuild", "git") else variant
    if host == "mkdocs":
        config = _mkdocs_config(root, config_variant)
        return ([str(bindir / "mkdocs"), "build", "-q", "-f", str(config)],
                root / f"site-{config_variant}")
    config = _pelican_config(root, config_variant)
    out = root / f"output-{config_variant}"
    return [str(bindir / "pelican"), str(root / "content"), "-s", str(config), "-o", str(out),
            "-q"], out


def _in_git_repo(folder: Path) -> bool:
    return subprocess.run(["git", "-C", str(folder), "rev-parse", "--git-dir"],
                          capture_output=True, check=False).returncode == 0


def _git(root: Path, *args: str, date: int = 0) -> None:
    stamp = f"@{1_690_000_000 + date * 86_400} +0000"
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={**os.environ, **_GIT_ENV, "GIT_AUTHOR_DATE": stamp,
                        "GIT_COMMITTER_DATE": stamp})


def _make_git_copy(root: Path, host: str, wanted: dict[str, object]) -> Path:
    """The same project in a small git repository: one commit of everything, then
    ``_GIT_COMMITS`` commits that each append a blank line to a 1/20 of the sources (every
    source has two commits), as a CI checkout with full history has."""
    copy = root.with_name(root.name + "-git")
    source = "docs" if host == "mkdocs" else "content"
    stamp = copy / "project.json"
    if stamp.is_file() and json.loads(stamp.read_text()) == wanted and (copy / ".git").is_dir():
        return copy
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir(parents=True)
    shutil.copytree(root / source, copy / source)
    (copy / ".gitignore").write_text("site-*/\noutput-*/\n.sitemap-cache/\n", encoding="utf-8")
    _git(copy, "init", "-q", "-b", "main")
    _git(copy, "add", "-A")
    _git(copy, "commit", "-q", "-m", "all sources")
    files = sorted(p for p in (copy / source).rglob("*.md"))
    for commit in range(_GIT_COMMITS):
        for path in files[commit::_GIT_COMMITS]:
            with path.open("a", encoding="utf-8") as handle:
                handle.write("\n")
        _git(copy, "commit", "-q", "-a", "-m", f"edit {commit}", date=commit + 1)
    stamp.write_text(json.dumps(wanted))
    return copy


_GIT_COST = """\
import json, resource, statistics, sys, time
from sitemap_plugins.hosts.git_dates import read_git_dates

def children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime

cpu, wall = [], []
for _ in range(int(sys.argv[2])):
    c0, p0, w0 = children(), time.process_time(), time.perf_counter()
    dates, _ = read_git_dates(sys.argv[1])
    wall.append(time.perf_counter() - w0)
    cpu.append(children() - c0 + time.process_time() - p0)
print(json.dumps({"cpu_s": statistics.median(cpu), "wall_s": statistics.median(wall),
                  "files": len(dates)}))
"""


def git_log_cost(python: str, folder: Path, runs: int) -> dict[str, float]:
    """CPU and wall of our ``read_git_dates(folder)``: its ``git rev-parse`` and ``git log``
    processes and the parse of their output (medians)."""
    proc = subprocess.run([python, "-c", _GIT_COST, str(folder), str(runs)], check=True,
                          capture_output=True, text=True, env=_host_env())
    return json.loads(proc.stdout.strip().splitlines()[-1])


def count_instructions(cmd: list[str], cwd: Path, env: dict[str, str]) -> int:
    """Instructions run in user space by ``cmd`` and every process it starts (valgrind's
    cachegrind, no cache simulation): the same count on a busy machine as on a quiet one.

    It leaves out what the kernel does for the build (system time) and what a cache miss
    costs, so it is a check of the CPU figures, not a replacement for them.
    """
    with tempfile.TemporaryDirectory(prefix="bench-cg-") as out:
        subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
                        f"--cachegrind-out-file={out}/cg.%p", *cmd], cwd=cwd,
                       env={**env, "PYTHONHASHSEED": "0"}, check=True, capture_output=True)
        return sum(int(line.split()[1]) for name in os.listdir(out)
                   for line in Path(out, name).read_text().splitlines()
                   if line.startswith("summary:"))


def _host_build(key: str, variant: str, command: tuple[list[str], Path], root: Path,
                env: dict[str, str]) -> Measure:
    """One build of one variant (ours first without a cache), its sitemap checked."""
    cmd, out = command
    if variant in ("ours", "git"):  # a first build: no cache kept
        shutil.rmtree(root / ".sitemap-cache", ignore_errors=True)
    measure = run_timed(cmd, env=env, cwd=root)
    has_sitemap = (out / "sitemap.xml").is_file()
    if has_sitemap != (variant != "none"):
        msg = f"{key} {variant}: sitemap.xml {'written' if has_sitemap else 'missing'}"
        raise RuntimeError(msg)
    return measure


def bench_hosts(workdir: Path, python: str, runs: int, sites: str,
                git: bool = True, instructions: bool = False) -> dict[str, object]:
    """Whole builds of real MkDocs and Pelican projects, as users' CI runs them: CPU (user +
    system of the whole process tree) and wall, medians of ``runs``, the variants alternating
    run by run (the starting variant rotates each round; round 0 is an untimed warm-up)."""
    env = _host_env()
    results: dict[str, object] = {}
    bindir = Path(python).parent
    generators = {"mkdocs": _make_mkdocs_project, "pelican": _make_pelican_project}
    modules = {"mkdocs": ("mkdocs", "sitemap_plugins.mkdocs"),
               "pelican": ("pelican.plugins.sitemap", "sitemap_plugins.pelican")}
    for spec in sites.split(","):
        host, _, count = spec.strip().partition(":")
        pages = int(count)
        key = f"{host}-{pages}"
        what = "articles" if host == "pelican" else "pages"
        print(f"\n== host: {host}, {pages:,} {what}: whole builds, medians of {runs}, "
              "alternating ==", flush=True)
        missing = _importable(python, modules[host][0]) or _importable(python, modules[host][1])
        if missing:
            print(f"  skipped: not available ({missing})")
            results[key] = {"skipped": f"not available: {missing}"}
            continue
        root = workdir / f"host-{host}-{pages}"
        stamp = root / "project.json"
        wanted = {"pages": pages, "project_version": 2}
        if not (stamp.is_file() and json.loads(stamp.read_text()) == wanted):
            root.mkdir(parents=True, exist_ok=True)
            generators[host](root, pages)
            stamp.write_text(json.dumps(wanted))
        if _in_git_repo(root):
            print(f"  note: {root} is inside a git repository: our git log runs in (c) too")
        variants = ["none", "builtin", "ours"]
        roots = {"none": root, "builtin": root, "ours": root, "rebuild": root}
        if git:
            roots["git"] = _make_git_copy(root, host, wanted)
            variants.append("git")
        series = {v: Series(_VARIANTS[v]) for v in roots}
        commands = {v: _host_command(bindir, host, roots[v], v) for v in roots}

        for round_ in range(runs + 1):
            shift = round_ % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                for one in (variant, "rebuild") if variant == "ours" else (variant,):
                    # "rebuild": the same build again, the cache of the last one kept
                    measure = _host_build(key, one, commands[one], roots[one], env)
                    if round_ > 0:
                        series[one].runs.append(measure)
            if round_:
                print(f"  round {round_}/{runs}: cpu " + ", ".join(
                    f"{v} {series[v].runs[-1].cpu:.3f}" for v in series) +
                    f" s (load average {os.getloadavg()[0]:.1f})", flush=True)
        out_dir = commands["builtin"][1]
        html = sum(1 for _ in out_dir.rglob("*.html"))
        base = series["builtin"]
        entry: dict[str, object] = {"host": host, "pages": pages, "html_files": html,
                                    "target": host_target(host, pages)}
        print(f"  {html:,} HTML files written; sources {'in' if _in_git_repo(root) else 'not in'}"
              " a git repository" + (f" ((d): {roots['git']}, {_GIT_COMMITS + 1} commits)"
                                     if git else ""))
        print(f"  {'':34} {'cpu s':>7} {'range':>13} {'user s':>7} {'wall s':>7}  "
              f"{'cpu vs (b)':>10} {'user vs (b)':>11} {'wall vs (b)':>11}  {'cpu vs (a)':>10}")
        for variant, one in series.items():
            cpus = [m.cpu for m in one.runs]
            added = (one.cpu - base.cpu) / base.cpu
            added_wall = (one.wall - base.wall) / base.wall
            over_none = one.cpu - series["none"].cpu
            added_user = (one.user - base.user) / base.user
            print(f"  {one.label:34} {one.cpu:7.3f} {min(cpus):6.3f}-{max(cpus):6.3f} "
                  f"{one.user:7.3f} {one.wall:7.3f}  {added:+10.1%} {added_user:+11.1%} "
                  f"{added_wall:+11.1%}  {over_none * 1e3:+8.0f} ms")
            entry[variant] = {**one.summary(), "cpus_s": [round(c, 4) for c in cpus],
                              "median_user_s": round(one.user, 4),
                              "users_s": [round(m.user, 4) for m in one.runs],
                              "cpu_added_vs_host": round(added, 4),
                              "user_added_vs_host": round(added_user, 4),
                              "wall_added_vs_host": round(added_wall, 4)}
        entry["first_added"] = entry["ours"]["cpu_added_vs_host"]  # type: ignore[index]
        entry["rebuild_added"] = entry["rebuild"]["cpu_added_vs_host"]  # type: ignore[index]
        if instructions:
            counts: dict[str, int] = {}
            for variant in variants:
                if variant in ("ours", "git"):
                    shutil.rmtree(roots[variant] / ".sitemap-cache", ignore_errors=True)
                counts[variant] = count_instructions(commands[variant][0], roots[variant], env)
            entry["instructions"] = counts
            print("  instructions (valgrind, user space, every process, one build each): " +
                  ", ".join(f"{v} {n / 1e9:.3f} G" + ("" if v == "builtin" else
                            f" ({(n - counts['builtin']) / counts['builtin']:+.1%})")
                            for v, n in counts.items()))
        source = "docs" if host == "mkdocs" else "content"
        entry["git_dates_outside_repo"] = git_log_cost(python, root / source, runs)
        line = ("  our read_git_dates alone (medians): outside a repository (rev-parse fails) "
                f"{entry['git_dates_outside_repo']['cpu_s'] * 1e3:.1f} ms cpu")
        if git:
            entry["git_dates_in_repo"] = cost = git_log_cost(python, roots["git"] / source, runs)
            line += (f"; in the {_GIT_COMMITS + 1}-commit repo {cost['cpu_s'] * 1e3:.1f} ms "
                     f"cpu, {cost['wall_s'] * 1e3:.1f} ms wall ({cost['files']:,} files dated)")
        print(line)
        if host == "pelican":
            print("  (Pelican runs git log only for a page with no Date: or Modified:; every "
                  "article here has both, so (d) differs from (c) by nothing of ours)")
        results[key] = entry
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
    if results:  # not with --hosts-only
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
        if not isinstance(entry, dict) or "first_added" not in entry:
            continue
        limit = float(entry["target"])
        first = float(entry["first_added"])
        rebuild = float(entry["rebuild_added"])
        label = (f"{name}: first build without a cache, ours adds <= {limit:.0%} CPU to the "
                 "whole build over the host's own sitemap")
        rows.append((label, first <= limit, f"{first:+.1%}"))
        counts = entry.get("instructions")
        if isinstance(counts, dict) and counts.get("builtin"):
            added = (counts["ours"] - counts["builtin"]) / counts["builtin"]
            label = (f"{name}: first build, instructions ours adds over the host's own "
                     f"sitemap (valgrind; against {limit:.0%})")
            rows.append((label, None, f"{added:+.1%}"))
        rows.append((f"{name}: the rebuild with a kept cache adds no more than the first build",
                     rebuild <= max(first, 0.0) + 0.01,
                     f"{rebuild:+.1%} against {first:+.1%} (1 point of noise allowed)"))
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
    parser.add_argument("--hosts-only", action="store_true",
                        help="only the host builds (no --sizes, no peers)")
    parser.add_argument("--host-sites", default=HOST_SITES,
                        help=f"host sites as host:pages, comma-separated (default {HOST_SITES})")
    parser.add_argument("--host-runs", type=int, default=7,
                        help="alternating rounds of host builds; medians (default 7)")
    parser.add_argument("--host-instructions", action="store_true",
                        help="also count each variant's instructions once under valgrind "
                        "(deterministic: unaffected by other load on the machine)")
    parser.add_argument("--no-host-git", action="store_true",
                        help="skip (d): our build of the same project in a small git repository")
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
    if args.hosts_only:
        args.hosts, args.no_peers, sizes = True, True, []
    args.workdir.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True, check=False).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "sitemap_plugins"],
                           capture_output=True, text=True, check=False).stdout.strip()
    print(f"sitemap-plugins benchmark: Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, commit {commit or '?'}{' + local changes' if dirty else ''}, "
          f"{args.runs} runs per figure (median; hosts {args.host_runs}), workdir {args.workdir}, "
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
        hosts = bench_hosts(args.workdir, args.python, args.host_runs, args.host_sites,
                            git=not args.no_host_git,
                            instructions=args.host_instructions)
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

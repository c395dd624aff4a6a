"""Crashes mid-write lose nothing: every file is the complete old one or the complete new one.

Run A builds version 1 of a site; the site then changes (pages added, removed and re-dated,
robots.txt rewritten by the host) and run B builds version 2. A run killed or failing at any
point between A and B must leave each sitemap file equal to its bytes after A or after B, an
index that names only parts that exist, robots.txt either as it was or as B writes it, and
(in-process) no temporary file; the next run removes what a killed run left and writes B.

* ``test_sigkill_*``: ``sitemap-plugins build`` in a subprocess on 3,000+ pages with
  ``--max-urls 500`` (an index and 6-7 parts), killed with SIGKILL at points spread over its
  run time and packed into its writing phase.
* ``test_failure_at_every_write_point``: in-process, the k-th call of ``os.replace``,
  ``os.fsync``, ``commit``, ``gzip_file``, a file open for writing, a write, flush or close, or
  the removal of a stale part raises (a full disk, or any other exception), for every k.
* ``test_full_disk_message``: the command line says "the disk is full; the previous file was
  kept" and exits 1.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import io
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from lxml import etree

from sitemap_plugins import SitemapConfig, SitemapError, generate
from sitemap_plugins.cli import main
from sitemap_plugins.disk import owned
from sitemap_plugins.vocab.errors import WriteError, explain

BASE = "https://example.org/"
EPOCH = "1718000000"
TEMP_PREFIX = ".sitemap-plugins-tmp-"
OURS = re.compile(r"sitemap(?:-\d+)?\.(?:xml|txt)(?:\.gz)?\Z|sitemap-txt-index\.xml(?:\.gz)?\Z")
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
INDEXES = ("sitemap.xml", "sitemap.xml.gz", "sitemap-txt-index.xml", "sitemap-txt-index.xml.gz")
ROBOTS_V1 = b"User-agent: *\nDisallow: /private/\n"
ROBOTS_V2 = b"# rewritten by the host on every build\r\nUser-agent: *\r\nDisallow: /private/\r\n"


def write_pages(site: Path, count: int, version: int) -> None:
    """``count`` pages in 30 sections; version 2 re-dates every third page."""
    for old in site.glob("sec*/page*.html"):
        old.unlink()
    for i in range(count):
        section = site / f"sec{i % 30:02d}"
        section.mkdir(parents=True, exist_ok=True)
        day = (i % 28) + 1
        month = 2 if version == 2 and i % 3 == 0 else 1
        (section / f"page{i:05d}.html").write_text(
            f'<!DOCTYPE html><html><head><meta name="dcterms.modified" '
            f'content="2024-{month:02d}-{day:02d}"><title>{i}</title></head>'
            f"<body><main>page {i} v{version if i % 3 == 0 else 1}</main></body></html>",
            encoding="utf-8")


@dataclass
class State:
    """The site root's own files and the cache folder, by name."""

    root: dict[str, bytes] = field(default_factory=dict)
    cache: dict[str, bytes] = field(default_factory=dict)


def take(site: Path, cache: Path) -> State:
    state = State()
    for path in site.iterdir():
        if path.is_file() and (OURS.match(path.name) or path.name == "robots.txt"):
            state.root[path.name] = path.read_bytes()
    if cache.is_dir():
        state.cache = {p.name: p.read_bytes() for p in cache.iterdir() if p.is_file()}
    return state


def restore(site: Path, cache: Path, state: State) -> None:
    for path in site.iterdir():
        if path.is_file() and (OURS.match(path.name) or path.name == "robots.txt"
                               or path.name.startswith(TEMP_PREFIX)):
            path.unlink()
    for name, data in state.root.items():
        (site / name).write_bytes(data)
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir()
    for name, data in state.cache.items():
        (cache / name).write_bytes(data)


@dataclass
class Scenario:
    """A site after run A, about to be built as version 2 (``before``), and B's result."""

    site: Path
    cache: Path
    before: State
    after: State

    def leftovers(self, *, cache: bool = True) -> list[str]:
        """Temporary files in the site root (and the cache folder)."""
        folders = (self.site, self.cache) if cache else (self.site,)
        return sorted(p.name for folder in folders if folder.is_dir()
                      for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX))

    def check(self, *, temps_allowed: bool) -> str:
        """Check the invariants; returns "old", "new" or "mixed" for the report."""
        now = take(self.site, self.cache)
        assert "robots.txt" in now.root, "robots.txt is gone"
        assert now.root["robots.txt"] in (self.before.root["robots.txt"],
                                          self.after.root["robots.txt"]), "robots.txt damaged"
        ages = set()
        for name, data in now.root.items():
            if name == "robots.txt":
                continue
            old, new = self.before.root.get(name), self.after.root.get(name)
            assert data in (old, new), f"{name} is neither the old nor the new file"
            ages.add("old" if data == old else "new")
        for name in INDEXES:
            path = self.site / name
            if not path.exists():
                continue
            data = path.read_bytes()
            if name.endswith(".gz"):
                data = gzip.decompress(data)
            root = etree.fromstring(data)
            if root.tag == f"{SM}sitemapindex":
                for loc in root.iter(f"{SM}loc"):
                    part = loc.text.rsplit("/", 1)[1]
                    assert (self.site / part).is_file(), f"{name} names missing {part}"
        if "sitemap.xml" in self.before.root and "sitemap.xml" in self.after.root:
            assert "sitemap.xml" in now.root
        if not temps_allowed:
            assert self.leftovers() == [], "temporary files left behind"
        return "mixed" if len(ages) > 1 else (ages.pop() if ages else "old")


TRANSITIONS = {
    # name: (pages in version 1, pages in version 2, max_urls)
    "grow": (3000, 3300, 500),    # index + 6 parts -> index + 7 parts, a third re-dated
    "shrink": (3000, 400, 500),   # index + parts -> one urlset; the parts go
    "empty": (1200, 0, 500),      # every sitemap file goes
}
SMALL = {"grow": (60, 70, 10), "shrink": (60, 8, 10), "empty": (30, 0, 10)}


def prepare(tmp: Path, counts: tuple[int, int, int], run) -> Scenario:  # type: ignore[no-untyped-def]
    """Build version 1 (A), change the site to version 2, build a copy of it (B)."""
    first, second, _ = counts
    site, cache = tmp / "site", tmp / "cache"
    site.mkdir()
    cache.mkdir()
    write_pages(site, first, 1)
    (site / "robots.txt").write_bytes(ROBOTS_V1)
    run(site, cache)
    write_pages(site, second, 2)
    (site / "robots.txt").write_bytes(ROBOTS_V2)  # the host writes its robots.txt anew
    before = take(site, cache)
    run(site, cache)
    after = take(site, cache)
    assert after.root != before.root
    restore(site, cache, before)
    return Scenario(site, cache, before, after)


# --- SIGKILL from outside --------------------------------------------------------------------

def _cli(site: Path, cache: Path, max_urls: int) -> list[str]:
    return [sys.executable, "-m", "sitemap_plugins", "-q", "build", str(site),
            "--base-url", BASE, "--max-urls", str(max_urls), "--cache-dir", str(cache)]


def _env() -> dict[str, str]:
    return {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}


def _run_cli(site: Path, cache: Path, max_urls: int) -> None:
    subprocess.run(_cli(site, cache, max_urls), env=_env(), check=True, timeout=120,
                   capture_output=True)


def _calibrate(scenario: Scenario, max_urls: int) -> tuple[float, float]:
    """(seconds until the first temporary file appears, seconds until the run ends)."""
    start = time.monotonic()
    proc = subprocess.Popen(_cli(scenario.site, scenario.cache, max_urls), env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first_temp = None
    while proc.poll() is None:
        if first_temp is None and any(n.startswith(TEMP_PREFIX) for n in os.listdir(scenario.site)):
            first_temp = time.monotonic() - start
        time.sleep(0.0005)
    total = time.monotonic() - start
    assert proc.returncode == 0
    restore(scenario.site, scenario.cache, scenario.before)
    return (first_temp if first_temp is not None else total * 0.5), total


def _replaced(site: Path, inodes: dict[str, int]) -> int:
    """How many final files (ours or robots.txt) are new or renamed over since ``inodes``."""
    count = 0
    with contextlib.suppress(FileNotFoundError), os.scandir(site) as listing:
        for entry in listing:
            if (OURS.match(entry.name) or entry.name == "robots.txt") and (
                    inodes.get(entry.name) != entry.inode()):
                count += 1
    return count


def _kill_at(scenario: Scenario, max_urls: int, delay: float, renames: int = 0) -> int | None:
    """Start a build and SIGKILL its process group after ``delay`` s, or as soon as
    ``renames`` final files have been put in place; returns its exit code if it ended."""
    with os.scandir(scenario.site) as listing:  # closed: an open one warns when collected
        inodes = {e.name: e.inode() for e in listing}
    proc = subprocess.Popen(_cli(scenario.site, scenario.cache, max_urls), env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # the pool's workers die with it
    deadline = time.monotonic() + delay
    while proc.poll() is None:
        if renames and _replaced(scenario.site, inodes) >= renames:
            break
        if not renames:
            if time.monotonic() >= deadline:
                break
            time.sleep(0.0005)
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        return None
    return proc.returncode


def sigkill_points(tmp_path: Path, transition: str, spread: int, packed: int,
                   renames: int = 0) -> dict[str, int]:
    """Kill at ``spread`` times over the run, ``packed`` times in its writing phase, and
    right after the n-th final file is renamed into place for ``renames`` values of n."""
    counts = TRANSITIONS[transition]
    max_urls = counts[2]
    scenario = prepare(tmp_path, counts, lambda site, cache: _run_cli(site, cache, max_urls))
    first_temp, total = _calibrate(scenario, max_urls)
    points = [(total * (i + 0.5) / spread, 0) for i in range(spread)]
    # Packed into the writing phase (parts grow while pages are read; renames come last).
    points += [(first_temp + (total - first_temp) * (i + 0.5) / packed, 0)
               for i in range(packed)]
    changed = sum(scenario.after.root.get(n) != d for n, d in scenario.before.root.items())
    changed += len(set(scenario.after.root) - set(scenario.before.root))
    points += [(0.0, 1 + i * max(changed - 1, 1) // max(renames - 1, 1))
               for i in range(renames)]
    outcomes: dict[str, int] = {}
    for delay, after_renames in points:
        restore(scenario.site, scenario.cache, scenario.before)
        code = _kill_at(scenario, max_urls, delay, after_renames)
        kind = scenario.check(temps_allowed=True) if code is None else "finished"
        if code is not None:
            assert code == 0
        if scenario.leftovers():
            kind += "+temp"
        outcomes[kind] = outcomes.get(kind, 0) + 1
        # The next run removes what the killed run left and writes exactly B. (A killed
        # run's manifest temp in the cache folder stays: test_next_run_removes_cache_temp.)
        _run_cli(scenario.site, scenario.cache, max_urls)
        assert scenario.leftovers(cache=False) == []
        assert take(scenario.site, scenario.cache).root == scenario.after.root
    print(f"SIGKILL {transition}: {len(points)} kills over {total:.2f} s "  # noqa: T201  # the figures, with -s
          f"(writing from {first_temp:.2f} s; {renames} after renames): "
          f"{dict(sorted(outcomes.items()))}")
    return outcomes


def test_sigkill_during_build(tmp_path: Path) -> None:
    """SIGKILL at 8 points of a 3,000-page build: old or new files, never broken."""
    outcomes = sigkill_points(tmp_path, "grow", spread=3, packed=2, renames=3)
    assert sum(outcomes.values()) == 8


@pytest.mark.slow
@pytest.mark.parametrize("transition", ["grow", "shrink"])
def test_sigkill_during_build_long(tmp_path: Path, transition: str) -> None:
    """SIGKILL at 20 points spread over the run, 20 packed into its writing phase and 20
    right after the n-th file is renamed into place."""
    outcomes = sigkill_points(tmp_path, transition, spread=20, packed=20, renames=20)
    assert sum(outcomes.values()) == 60


def test_next_run_removes_leftover_temp_files(tmp_path: Path) -> None:
    """Temporary files of a killed run are removed by the next run, and never listed."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><head></head></html>")
    leftovers = [f"{TEMP_PREFIX}0123456789ab-sitemap.xml", f"{TEMP_PREFIX}ba9876543210-robots.txt",
                 f"{TEMP_PREFIX}aaaaaaaaaaaa-sitemap-2.part"]
    for name in leftovers:
        (site / name).write_bytes(b"<?xml half a file")
    config = SitemapConfig.from_mapping({"base_url": BASE, "cache_dir": str(tmp_path / "c")})
    result = generate(site, config)
    assert result.listed == 1
    assert not [p for p in site.iterdir() if p.name.startswith(TEMP_PREFIX)]


def test_next_run_removes_cache_temp(tmp_path: Path) -> None:
    """A manifest temporary file that a killed run left in the cache folder is removed."""
    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    cache.mkdir()
    (site / "index.html").write_text("<html><head></head></html>")
    leftover = cache / f"{TEMP_PREFIX}0123456789ab-lastmod-manifest.sqlite"
    leftover.write_bytes(b"SQLite format 3\x00 half a database")
    generate(site, SitemapConfig.from_mapping({"base_url": BASE, "cache_dir": str(cache)}))
    assert not leftover.exists()


# --- an exception at every write point, in process ---------------------------------------------

class Injected(Exception):  # noqa: N818  # an unexpected failure, not an error we raise
    """Stands in for any unexpected exception (a bug, MemoryError) at a write point."""


class _Points:
    """Counts calls at the write points and makes the k-th one fail."""

    def __init__(self, fail_at: int | None, error: BaseException | None) -> None:
        self.fail_at = fail_at
        self.error = error
        self.calls: list[str] = []

    def hit(self, what: str) -> None:
        self.calls.append(what)
        if self.fail_at is not None and len(self.calls) == self.fail_at:
            assert self.error is not None
            raise self.error


class _Handle:
    """A file opened for writing whose write, flush and close are points."""

    def __init__(self, real: io.BufferedWriter, points: _Points) -> None:
        self._real = real
        self._points = points

    def write(self, data: bytes) -> int:
        self._points.hit("write")
        return self._real.write(data)

    def flush(self) -> None:
        self._points.hit("flush")
        self._real.flush()

    def close(self) -> None:
        if self._real.closed:
            return
        try:
            self._points.hit("close")
        except BaseException:
            self._real.close()  # a failing close still releases the descriptor
            raise
        self._real.close()

    def __enter__(self) -> _Handle:  # noqa: PYI034  # a test double, never subclassed
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)


def _instrument(monkeypatch: pytest.MonkeyPatch, points: _Points) -> None:
    real_open, real_replace, real_fsync = pathlib.Path.open, os.replace, os.fsync
    real_unlink = pathlib.Path.unlink
    real_commit, real_gzip = owned.commit, owned.gzip_stream

    def open_(self: Path, mode: str = "r", *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        if not any(c in mode for c in "wax+"):
            return real_open(self, mode, *args, **kwargs)
        points.hit(f"open {self.name}")
        return _Handle(real_open(self, mode, *args, **kwargs), points)

    def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        points.hit(f"replace {Path(dst).name}")
        return real_replace(src, dst, *args, **kwargs)

    def fsync(fd: int) -> None:
        points.hit("fsync")
        real_fsync(fd)

    def unlink(self: Path, *args: object, **kwargs: object) -> None:
        if not self.name.startswith(TEMP_PREFIX):  # removing a stale part; never the cleanup
            points.hit(f"unlink {self.name}")
        real_unlink(self, *args, **kwargs)

    def commit(temp: Path, target: Path) -> None:
        try:
            points.hit(f"commit {target.name}")
        except OSError as err:  # what commit() itself turns a failed rename into
            raise WriteError(str(target), explain(err)) from err
        real_commit(temp, target)

    def gzip_stream(*args: object, **kwargs: object) -> Iterator[bytes]:
        points.hit("gzip")
        yield from real_gzip(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pathlib.Path, "open", open_)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(pathlib.Path, "unlink", unlink)
    monkeypatch.setattr(owned, "commit", commit)
    monkeypatch.setattr(owned, "gzip_stream", gzip_stream)


def _config(cache: Path, max_urls: int) -> SitemapConfig:
    return SitemapConfig.from_mapping(
        {"base_url": BASE, "max_urls": max_urls, "cache_dir": str(cache)})


def failure_points(tmp_path: Path, transition: str, monkeypatch: pytest.MonkeyPatch,
                   *, every: int) -> dict[str, int]:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    max_urls = SMALL[transition][2]
    scenario = prepare(tmp_path, SMALL[transition],
                       lambda site, cache: generate(site, _config(cache, max_urls)))
    counter = _Points(None, None)
    with monkeypatch.context() as patch:
        _instrument(patch, counter)
        generate(scenario.site, _config(scenario.cache, max_urls))
    assert take(scenario.site, scenario.cache).root == scenario.after.root
    total = len(counter.calls)
    tried: dict[str, int] = {}
    errors = [lambda: OSError(errno.ENOSPC, "No space left on device"),
              lambda: Injected("injected")]
    for k in range(1, total + 1):
        what = counter.calls[k - 1].split()[0]
        if what in ("write", "flush") and k % every:
            continue  # the default run samples the many buffered writes
        for make_error in errors:
            error = make_error()
            restore(scenario.site, scenario.cache, scenario.before)
            points = _Points(k, error)
            with monkeypatch.context() as patch:
                _instrument(patch, points)
                try:
                    generate(scenario.site, _config(scenario.cache, max_urls))
                    outcome = "completed"  # the failing call was one whose error is moot
                except SitemapError as err:
                    message = str(err)
                    outcome = "WriteError"
                    assert isinstance(error, OSError), f"{message} from {error!r}"
                    assert "the disk is full; the previous file was kept" in message
                except Injected:
                    outcome = "raised"
                except BaseException as err:
                    msg = f"call {k} ({counter.calls[k - 1]}) raised {err!r}, not a WriteError"
                    raise AssertionError(msg) from err
            scenario.check(temps_allowed=False)
            key = f"{what}:{outcome}"
            tried[key] = tried.get(key, 0) + 1
    # The next, undisturbed run writes exactly B.
    generate(scenario.site, _config(scenario.cache, max_urls))
    assert take(scenario.site, scenario.cache).root == scenario.after.root
    print(f"{transition}: {total} write points, {sum(tried.values())} failures injected: "  # noqa: T201
          f"{dict(sorted(tried.items()))}")
    return tried


@pytest.mark.parametrize("transition", ["grow", "shrink", "empty"])
def test_failure_at_every_write_point(tmp_path: Path, monkeypatch, transition: str) -> None:
    """A failure at any write point leaves old or new files, a sound index, no temp file."""
    tried = failure_points(tmp_path, transition, monkeypatch, every=25)
    assert sum(tried.values()) > 20


@pytest.mark.slow
@pytest.mark.parametrize("transition", ["grow", "shrink", "empty"])
def test_failure_at_every_write_point_long(tmp_path: Path, monkeypatch, transition: str) -> None:
    """The same, at every single write point (no sampling of buffered writes)."""
    failure_points(tmp_path, transition, monkeypatch, every=1)


# --- an interrupt between any two lines ----------------------------------------------------

class _InterruptAt:
    """A trace function that raises KeyboardInterrupt at the k-th line run in our package, as
    a Ctrl-C or SIGTERM does: Python runs a signal's handler between any two bytecodes."""

    def __init__(self, k: int | None) -> None:
        self.k = k
        self.lines = 0
        self.package = str(Path(owned.__file__).parent)

    def __call__(self, frame, event, arg):  # type: ignore[no-untyped-def]
        del arg
        if event == "call":
            return self if frame.f_code.co_filename.startswith(self.package) else None
        if event == "line":
            self.lines += 1
            if self.lines == self.k:
                raise KeyboardInterrupt
        return self


def interrupt_points(tmp_path: Path, transition: str, monkeypatch: pytest.MonkeyPatch,
                     *, builds: int) -> int:
    """Interrupt the build at ``builds`` lines spread over its run; returns the lines run."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    max_urls = SMALL[transition][2]
    scenario = prepare(tmp_path, SMALL[transition],
                       lambda site, cache: generate(site, _config(cache, max_urls)))
    count = _InterruptAt(None)
    sys.settrace(count)
    try:
        generate(scenario.site, _config(scenario.cache, max_urls))
    finally:
        sys.settrace(None)
    restore(scenario.site, scenario.cache, scenario.before)
    for k in range(1, count.lines + 1, max(1, count.lines // builds)):
        restore(scenario.site, scenario.cache, scenario.before)
        sys.settrace(_InterruptAt(k))
        try:
            generate(scenario.site, _config(scenario.cache, max_urls))
        except KeyboardInterrupt:
            pass
        finally:
            sys.settrace(None)
        scenario.check(temps_allowed=False)
    generate(scenario.site, _config(scenario.cache, max_urls))
    assert take(scenario.site, scenario.cache).root == scenario.after.root
    return count.lines


# A file being opened when the interrupt lands is closed by the garbage collector, not by us.
@pytest.mark.filterwarnings("ignore::ResourceWarning",
                            "ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("transition", ["grow", "shrink"])
def test_an_interrupt_between_any_two_lines_leaves_no_temporary_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, transition: str) -> None:
    """Ctrl-C or SIGTERM can land anywhere, also between a file's creation and the line that
    hands it to its writer: old or new files, a sound index, and no temporary file, ever."""
    assert interrupt_points(tmp_path, transition, monkeypatch, builds=400) > 400


# --- a full disk, through the command line ------------------------------------------------------

FULL_DISK_AT = ["open", "write", "close", "fsync", "gzip", "commit", "replace"]


@pytest.mark.parametrize("what", FULL_DISK_AT)
def test_full_disk_message(tmp_path: Path, monkeypatch, capsys, what: str) -> None:
    """ENOSPC at the first <what> of each kind: one line on stderr, exit 1, old files whole."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    scenario = prepare(tmp_path, SMALL["grow"],
                       lambda site, cache: generate(site, _config(cache, 10)))
    counter = _Points(None, None)
    with monkeypatch.context() as patch:
        _instrument(patch, counter)
        generate(scenario.site, _config(scenario.cache, 10))
    restore(scenario.site, scenario.cache, scenario.before)
    hits = [i for i, call in enumerate(counter.calls, 1) if call.split()[0] == what]
    for k in (hits[0], hits[len(hits) // 2], hits[-1]):
        restore(scenario.site, scenario.cache, scenario.before)
        capsys.readouterr()
        with monkeypatch.context() as patch:
            _instrument(patch, _Points(k, OSError(errno.ENOSPC, "No space left on device")))
            code = main(["build", str(scenario.site), "--base-url", BASE, "--max-urls", "10",
                         "--cache-dir", str(scenario.cache)])
        err = capsys.readouterr().err
        assert code == 1, (counter.calls[k - 1], err)
        assert re.fullmatch(r"error: \S.*: (cannot write the sitemap: )?the disk is full; "
                            r"the previous file was kept\n", err), err
        scenario.check(temps_allowed=False)

"""A large site's pages are read by a pool of worker processes (``workers``).

* The pool writes the same bytes as one process, and says the same.
* A worker that dies (the out-of-memory killer, a ``kill -9``) ends the build at once with
  one line and writes nothing: the old sitemap stays (a ``multiprocessing.Pool`` waited for
  that worker's pages forever).
* A script that calls ``generate()`` without ``if __name__ == "__main__":`` runs again in
  every worker as it starts (Python imports it there): the build stops at once and names the
  guard, where it used to wait two minutes for its own lock.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT, clean_ctrl_c

from sitemap_plugins.products.build.pipeline import PARALLEL_THRESHOLD

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

# Worker pools over a site of thousands of pages, killed workers and signals.
pytestmark = pytest.mark.integration

BASE = "https://example.org/"
PAGES = PARALLEL_THRESHOLD + 3_000  # past the threshold: the pool reads them
FILLER = "<p>" + "Words of a page, long enough to take a worker a while. " * 40 + "</p>"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1718000000"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``PAGES`` pages in folders of 100; some canonical elsewhere, noindex, translated."""
    root = tmp_path_factory.mktemp("pool") / "site"
    for number in range(PAGES):
        folder = root / f"s{number // 100:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        head = f"<title>Page {number}</title>"
        if number % 97 == 0:
            head += '<meta name="robots" content="noindex">'
        if number % 31 == 0:
            head += f'<link rel="canonical" href="{BASE}s000/p00000.html">'
        if number % 13 == 0:
            head += (f'<link rel="alternate" hreflang="en" href="{BASE}s{number // 100:03d}/'
                     f'p{number:05d}.html"><link rel="alternate" hreflang="de" '
                     f'href="https://example.de/p{number:05d}.html">')
        if number % 7 == 0:
            head += f'<meta property="article:modified_time" content="2024-0{number % 9 + 1}-02">'
        (folder / f"p{number:05d}.html").write_text(
            f"<!doctype html><html lang=en><head>{head}</head><body><nav><a href=/>Home</a>"
            f"</nav><main><h1>Page {number}</h1>{FILLER}<img src=i{number}.png></main></body>"
            "</html>", encoding="utf-8")
    return root


def _build(site: Path, workers: int, cache: Path, *,
           new_session: bool = False) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "sitemap_plugins", "build", str(site), "--base-url", BASE,
               "--workers", str(workers), "--cache-dir", str(cache)]
    # The pool's fork server listens on a socket in a temporary folder that a killed build
    # cannot remove: under the test's folder, not the machine's /tmp.
    env = {**_env(), "TMPDIR": str(cache.parent)}
    clean_ctrl_c()  # the build inherits how this thread takes SIGINT
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=new_session)


def _copy(site: Path, to: Path) -> Path:
    subprocess.run(["cp", "-a", str(site), str(to)], check=True)
    return to


def test_a_pool_writes_the_same_bytes_as_one_process(site: Path, tmp_path: Path) -> None:
    outputs = {}
    for workers in (1, 2):
        copy = _copy(site, tmp_path / f"w{workers}")
        run = _build(copy, workers, tmp_path / f"cache{workers}")
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        files = sorted(p.name for p in copy.iterdir() if p.is_file())
        err = err.replace(str(tmp_path / f"cache{workers}"), "CACHE")
        outputs[workers] = (out, err, files, *((copy / name).read_bytes() for name in (
            "sitemap.xml", "sitemap.txt")))
    assert outputs[1] == outputs[2]
    out, _, files, xml, _ = outputs[1]
    assert "sitemap.xml" in files
    assert xml.count(b"<url>") == PAGES - len(range(0, PAGES, 97)) - len(
        [n for n in range(PAGES) if n % 31 == 0 and n % 97 and n]), out


def _built_in_process(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                      refuse: Callable[[], None]) -> tuple[tuple[str, bytes], tuple[str, bytes]]:
    """The site built in this process with one worker, then with two where ``refuse`` is
    what the system does: the summary line and sitemap of each."""
    from sitemap_plugins import SitemapConfig, generate  # noqa: PLC0415

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1718000000")
    built = []
    for workers in (1, 2):
        copy = _copy(site, tmp_path / f"w{workers}")
        if workers == 2:
            refuse()
        config = SitemapConfig.from_mapping({"base_url": BASE, "workers": workers,
                                             "cache_dir": str(tmp_path / f"cache{workers}")})
        result = generate(copy, config)
        built.append((result.summary_line(), (copy / "sitemap.xml").read_bytes()))
    return built[0], built[1]


def test_where_no_process_can_start_the_pages_are_read_in_one_process(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A system that refuses new processes (a limit on processes, no memory to fork): the
    same sitemap, read in the build's own process, and an info line, not a traceback."""
    import multiprocessing.process  # noqa: PLC0415

    def no_fork(process: object) -> None:  # what a refused fork raises
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    def refuse() -> None:  # every way of starting a process goes through Process.start
        monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", no_fork)

    with caplog.at_level(logging.INFO, logger="sitemap_plugins"):
        one, two = _built_in_process(site, tmp_path, monkeypatch, refuse)
    assert one == two
    assert "reading the pages in one process: no worker process can start here" in caplog.text


def test_the_pool_needs_no_semaphores(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Where the system has no working semaphores (AWS Lambda, containers without
    /dev/shm: Python's process pools and queues refuse to start) the workers still read
    the pages: they share no queue and no lock."""
    import multiprocessing.synchronize  # noqa: PLC0415

    def no_sem_open(*args: object, **kwargs: object) -> None:  # what Lambda's Python raises
        raise OSError(errno.ENOSYS, "Function not implemented")

    def refuse() -> None:
        monkeypatch.setattr(multiprocessing.synchronize.SemLock, "__init__", no_sem_open)

    with caplog.at_level(logging.INFO, logger="sitemap_plugins"):
        one, two = _built_in_process(site, tmp_path, monkeypatch, refuse)
    assert one == two
    assert "in one process" not in caplog.text


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (the pool's workers are a fork server's children)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found.append(child)
            todo.append(child)
    return found


def _workers(pid: int) -> list[int]:
    """The build's workers: its descendants that read pages (not the fork server itself,
    not the resource tracker), found by their parent being another descendant."""
    direct = set(map(int, Path(f"/proc/{pid}/task/{pid}/children").read_text().split()))
    return [child for child in _descendants(pid) if child not in direct]


def _built_once(site: Path, folder: Path, cache: Path) -> dict[str, bytes]:
    """A copy of the site built once with one worker: its sitemap files' bytes."""
    copy = _copy(site, folder)
    first = _build(copy, 1, cache)
    first.communicate(timeout=300)
    assert first.returncode == 0
    return {name: (copy / name).read_bytes() for name in ("sitemap.xml", "sitemap.txt")}


def _when_workers_read(run: subprocess.Popen[str], count: int = 1,
                       delay: float = 0.15) -> list[int]:
    """The build's workers, ``delay`` seconds after ``count`` of them have started."""
    deadline = time.monotonic() + 60
    while run.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            workers = _workers(run.pid)
            if len(workers) >= count:
                time.sleep(delay)  # past their start, by default
                return [pid for pid in workers if Path(f"/proc/{pid}").exists()] or workers
        time.sleep(0.001)
    raise AssertionError("the build ended before its workers were seen")


def _left_as_it_was(copy: Path, before: dict[str, bytes], run: subprocess.Popen[str]) -> None:
    assert {name: (copy / name).read_bytes() for name in before} == before
    assert not [p for p in copy.iterdir() if p.name.startswith(".sitemap-plugins-tmp-")]
    assert not [pid for pid in _descendants(run.pid) if Path(f"/proc/{pid}").exists()]


def test_a_killed_worker_ends_the_build_with_one_line(site: Path, tmp_path: Path) -> None:
    copy, cache = tmp_path / "killed", tmp_path / "cache"
    before = _built_once(site, copy, cache)
    page = copy / "s001" / "p00100.html"
    page.write_text(page.read_text().replace("<h1>", "<h1>Edited "))  # a new lastmod
    # Without the cache every page is parsed: seconds of work left when the worker dies,
    # however late this test gets to kill it on a busy machine.
    run = _build(copy, 2, tmp_path / "no-cache")
    try:
        # Frozen the moment they are seen, so that on a loaded machine the one killed has not
        # handed in all its pages by the time it dies (then the build rightly completes).
        workers = _when_workers_read(run, delay=0)
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        os.kill(workers[0], signal.SIGKILL)
        for pid in workers[1:]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        out, err = run.communicate(timeout=120)  # a guard: the build ends, never waits on
    finally:  # whatever failed, nothing of this build outlives the test
        run.kill()
        run.communicate()
    assert run.returncode == 1, (out, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "a worker process reading the pages ended before its pages were done" in lines[0]
    _left_as_it_was(copy, before, run)
    again = _build(copy, 2, cache)  # and the next build writes the change
    again.communicate(timeout=300)
    assert again.returncode == 0
    assert (copy / "sitemap.xml").read_bytes() != before["sitemap.xml"]


def test_ctrl_c_stops_the_build_with_one_line(site: Path, tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal sends it: the workers leave it to the
    build's own process, which says so once; nothing half-written, no process left."""
    copy, cache = tmp_path / "interrupted", tmp_path / "cache"
    before = _built_once(site, copy, cache)
    run = _build(copy, 2, cache, new_session=True)
    _when_workers_read(run, count=2)  # both past their start, where they ignore SIGINT
    how = _sigint_handling(run.pid)
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, (how, out, err)
    assert "Traceback" not in err
    assert err.strip().splitlines() == [
        "interrupted: build stopped; files it had not finished writing were left as they were"]
    _left_as_it_was(copy, before, run)


def _sigint_handling(pid: int) -> str:
    """How a process takes SIGINT: "caught" (Python's KeyboardInterrupt), "ignored", or ""."""
    status = dict(line.split(":\t", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":\t" in line)
    bit = 1 << (signal.SIGINT - 1)
    if int(status["SigIgn"], 16) & bit:
        return "ignored"
    return "caught" if int(status["SigCgt"], 16) & bit else ""


def _when_fork_server_starts(run: subprocess.Popen[str]) -> None:
    """Return once the build's fork server has started Python and takes SIGINT its own way:
    it is then importing the package it preloads (or already ignores SIGINT)."""
    deadline = time.monotonic() + 60
    while run.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError, KeyError):
            for child in Path(f"/proc/{run.pid}/task/{run.pid}/children").read_text().split():
                if (b"forkserver" in Path(f"/proc/{child}/cmdline").read_bytes()
                        and _sigint_handling(int(child))):
                    return
        time.sleep(0.001)
    raise AssertionError("the build ended before its fork server was seen")


def test_ctrl_c_as_the_pool_starts_stops_the_build_with_one_line(
    site: Path, tmp_path: Path,
) -> None:
    """SIGINT to the process group while the fork server is still starting (it ignores
    SIGINT itself only once it has imported the package): one line, exit 130, no traceback
    from the fork server or the resource tracker, nothing half-written."""
    copy, cache = tmp_path / "interrupted-early", tmp_path / "cache"
    before = _built_once(site, copy, cache)
    run = _build(copy, 2, cache, new_session=True)
    try:
        _when_fork_server_starts(run)
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, (out, err)
    assert err.strip().splitlines() == [
        "interrupted: build stopped; files it had not finished writing were left as they were"]
    _left_as_it_was(copy, before, run)


def _gone(pid: int) -> bool:
    """Whether a process has ended (a zombie not yet reaped by init counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


def test_a_build_killed_alone_leaves_no_process_behind(site: Path, tmp_path: Path) -> None:
    """SIGKILL to the build's process only (the out-of-memory killer's choice): its workers
    and fork server end with it, instead of waiting forever to hand in their pages."""
    copy = _copy(site, tmp_path / "build-killed")
    run = _build(copy, 2, tmp_path / "cache", new_session=True)
    try:
        workers = _when_workers_read(run)
        below = _descendants(run.pid)  # the fork server, the workers started so far
        assert set(workers) <= set(below)
        os.kill(run.pid, signal.SIGKILL)
        run.communicate(timeout=60)  # the output pipes close: no worker holds them
        deadline = time.monotonic() + 20
        while not all(map(_gone, below)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in below if not _gone(pid)] == []
    finally:  # whatever failed, nothing of this build outlives the test
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
        run.communicate(timeout=60)


UNGUARDED = """\
from sitemap_plugins import SitemapConfig, generate

print("generate() called", flush=True)
generate({site!r}, SitemapConfig.from_mapping(
    {{"base_url": "https://example.org/", "workers": 2, "cache_dir": {cache!r}}}))
print("done", flush=True)
"""


def test_a_script_without_its_main_guard_stops_at_once(site: Path, tmp_path: Path) -> None:
    copy = _copy(site, tmp_path / "unguarded")
    script = tmp_path / "build_map.py"
    script.write_text(UNGUARDED.format(site=str(copy), cache=str(tmp_path / "cache")))
    # Waiting for the lock (120 s) would pass this guard: subprocess.TimeoutExpired.
    run = subprocess.run([sys.executable, str(script)], env=_env(), capture_output=True,
                         text=True, timeout=100, check=False)
    assert run.returncode == 1
    assert "done" not in run.stdout
    assert 'call it under `if __name__ == "__main__":`' in run.stderr
    # The script's own uncaught error, raised once in the script's process.
    assert run.stderr.count("sitemap_plugins.vocab.errors.SitemapError: a worker process") == 1
    assert not (copy / "sitemap.xml").exists()


@pytest.mark.slow
def test_a_worker_killed_at_any_moment_never_hangs_the_build(site: Path, tmp_path: Path) -> None:
    """Stress: one worker killed at 60 random moments of a first build. Each build ends at
    once: with the one line and exit 1, or, when the worker had handed in all its pages,
    with the whole sitemap. (CPython 3.11's ProcessPoolExecutor hung about 1 time in 60.)"""
    rng = random.Random(11)  # moments, not secrets
    complete = _built_once(site, tmp_path / "reference", tmp_path / "reference-cache")
    copy = _copy(site, tmp_path / "stress")
    for attempt in range(60):
        run = _build(copy, 2, tmp_path / f"cache-{attempt}")
        try:
            os.kill(rng.choice(_when_workers_read(run, delay=rng.uniform(0, 0.4))),
                    signal.SIGKILL)
            out, err = run.communicate(timeout=60)
        finally:
            run.kill()
            run.communicate()
        assert run.returncode in (0, 1), (attempt, out, err)
        if run.returncode == 1:
            assert err.strip().splitlines() == [err.strip()], (attempt, err)
            assert "a worker process reading the pages ended" in err, (attempt, err)
        else:
            assert {name: (copy / name).read_bytes() for name in complete} == complete


def test_a_worker_killed_while_its_chunk_is_on_the_way_leaves_no_thread_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's writer thread may be half-way through a chunk when its worker dies: the
    pool's clean-up must not close the connection under it (a traceback from the thread, or
    the rest of the chunk written into whatever file takes the same descriptor next)."""
    import multiprocessing  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from sitemap_plugins.products.build.pool import Pool, WorkerLost  # noqa: PLC0415

    thread_errors: list[str] = []
    monkeypatch.setattr(threading, "excepthook",
                        lambda args: thread_errors.append(repr(args.exc_value)))
    context = multiprocessing.get_context("forkserver")
    chunk = list(range(400_000))  # megabytes through a pipe that holds 64 KiB

    def chunks_killing_the_worker() -> Iterator[list[int]]:
        yield chunk
        yield chunk
        for child in multiprocessing.active_children():  # the pool's one worker
            if child.name == "sitemap-plugins-worker":
                os.kill(child.pid or 0, signal.SIGKILL)
        yield chunk

    for _ in range(12):
        before = set(threading.enumerate())
        pool: Pool[int, int] = Pool(context, sorted, 1)
        with pytest.raises(WorkerLost):
            list(pool.map(chunks_killing_the_worker()))
        pool.close(finished=False)
        assert set(threading.enumerate()) <= before
    assert thread_errors == []
